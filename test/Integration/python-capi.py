# mlc in process through the C API (mlc._capi, libMLC-C.so): a schedule
# replayed in process prints exactly what mlc-opt's replay prints (the
# tools path, MLC_NO_CAPI=1, in a child process), a failing primitive and a
# module that does not parse give mlc-opt's diagnostics, remarks carry
# sampled decisions, and built functions are compiled once and called in
# process with the numpy results of float64 references.
# Not in the sanitizer build: its instrumented libMLC-C.so cannot be loaded
# into an uninstrumented python3 (Python takes the tools path there).
# UNSUPPORTED: sanitizers
# RUN: %python %s | FileCheck %s

import os
import subprocess
import sys

import numpy as np
import mlc
from mlc import _capi
from mlc.tir import Schedule, ScheduleError

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(ROOT, "examples", "mm_relu.mlir")) as f:
    MM_RELU = f.read()

print("in process:", _capi.available())
# CHECK: in process: True

SCHEDULE = """
from mlc.tir import Schedule
sch = Schedule(open(%r).read(), seed=3)
y = sch.get_block("Y", func_name="mm_relu")
i, j, k = sch.get_loops(y)
j0, j1 = sch.split(j, factors=sch.sample_perfect_tile(j, n=2, max_innermost_factor=8))
sch.reorder(j0, k, j1)
sch.reverse_compute_at(sch.get_block("C", func_name="mm_relu"), j0)
sch.decompose_reduction(y, k)
try:
    sch.split(i, factors=[3, 5])
except Exception as e:
    error = str(e)
print(repr((sch.mod.text, sch.trace.decisions, error)))
""" % os.path.join(ROOT, "examples", "mm_relu.mlir")


def run_child(no_capi):
    env = dict(os.environ)
    env.pop("MLC_NO_CAPI", None)
    if no_capi:
        env["MLC_NO_CAPI"] = "1"
    out = subprocess.run([sys.executable, "-c", SCHEDULE], env=env,
                         capture_output=True, text=True, check=True)
    return eval(out.stdout)


in_process, tools = run_child(False), run_child(True)
print("same module:", in_process[0] == tools[0], "same decisions:",
      in_process[1] == tools[1], "same error:", in_process[2] == tools[2])
# CHECK: same module: True same decisions: True same error: True
print("error:", in_process[2].splitlines()[0])
# CHECK: error: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: cannot split loop 'i'

# A module that does not parse: the parser's diagnostic, at <stdin>.
try:
    Schedule("tensorir.prim_func @f(").get_block("B")
except ScheduleError as e:
    print("parse error:", str(e).splitlines()[0])
# CHECK: parse error: <stdin>:1:{{[0-9]+}}: error:

# A built prim_func and an executor: compiled once, then called in process.
a = np.random.default_rng(0).standard_normal((128, 128)).astype(np.float32)
b = np.random.default_rng(1).standard_normal((128, 128)).astype(np.float32)
c = np.zeros((128, 128), np.float32)
built = mlc.build(MM_RELU)
built["mm_relu"](a, b, c)
library = built.library()
built["mm_relu"](a, b, c)
print("one library:", built.library() is library)
# CHECK: one library: True
want = np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0)
np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5 * np.sqrt(128))
# A non-contiguous buffer is written back in place.
c_t = np.zeros((128, 128), np.float32).T
built["mm_relu"](a, b, c_t)
np.testing.assert_allclose(c_t, want, rtol=1e-5, atol=1e-5 * np.sqrt(128))
print("mm_relu: ok")
# CHECK: mm_relu: ok

relay = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 8), float32], %w: Tensor[(4, 8), float32]) {
  nn.relu(nn.dense(%x, %w))
}
"""
ex = mlc.create_executor(mod=mlc.relay.fromtext(relay),
                         params={"w": np.ones((4, 8), np.float32)})
x = np.arange(16, dtype=np.float32).reshape(2, 8) - 8
out = ex.evaluate()(x)
np.testing.assert_allclose(out, np.maximum(x @ np.ones((8, 4)), 0), rtol=1e-6)
print("executor:", out.shape, sorted(ex.time_evaluator(number=3)(x)))
# CHECK: executor: (2, 4) ['max', 'median', 'min']

# The runtime library in process (mlcImportRelayFromString,
# mlcExecutableCreate/Call/Time, mlcCompileToFile): no tool runs.
import tempfile

from mlc import tools

run_tool = tools.run
RELAY_PATH = os.path.join(tempfile.mkdtemp(), "model.relay")
with open(RELAY_PATH, "w") as f:
    f.write(relay)


def no_tools(name, *args, **kwargs):
    raise AssertionError("a tool ran in process mode: " + name)


tools.run = no_tools
in_process = mlc.relay.fromtext(relay).text
tools.run = run_tool
print("relay import same as mlc-translate:",
      in_process == run_tool("mlc-translate", ["--import-relay", RELAY_PATH]))
# CHECK: relay import same as mlc-translate: True
tools.run = no_tools
try:
    mlc.relay.fromtext("def @main(%x: Tensor[(2), float32]) { nn.nope(%x) }")
except tools.ToolError as e:
    print("relay error:", str(e).splitlines()[1])
# CHECK: relay error: model.relay:1:{{[0-9]+}}: error: {{.*}}nn.nope

# An entry with a symbolic batch: outputs sized from the inputs, params
# bound as constants, two batch sizes, and timing.
DYNAMIC = """
func.func @main(%x: tensor<?x64xf32, #relax.shape<[n, 64]>> {relax.name = "x"},
                %w: tensor<64x16xf32> {relax.name = "w"})
    -> tensor<?x16xf32, #relax.shape<[n, 16]>> {
  %0 = relax.matmul %x, %w : (tensor<?x64xf32, #relax.shape<[n, 64]>>, tensor<64x16xf32>) -> tensor<?x16xf32, #relax.shape<[n, 16]>>
  %1 = relax.nn.relu %0 : (tensor<?x16xf32, #relax.shape<[n, 16]>>) -> tensor<?x16xf32, #relax.shape<[n, 16]>>
  return %1 : tensor<?x16xf32, #relax.shape<[n, 16]>>
}
"""
rng = np.random.default_rng(2)
w = rng.standard_normal((64, 16)).astype(np.float32)
dyn = mlc.create_executor(mod=mlc.ir.Module(DYNAMIC), params={"w": w})
for n in (5, 1):
    x = rng.standard_normal((n, 64)).astype(np.float32)
    out = dyn.evaluate()(x)
    np.testing.assert_allclose(out, np.maximum(x.astype(np.float64) @ w, 0),
                               rtol=1e-5, atol=1e-5 * np.sqrt(64))
    print("dynamic n=%d:" % n, out.shape)
# CHECK: dynamic n=5: (5, 16)
# CHECK: dynamic n=1: (1, 16)
print("dynamic timing:", sorted(dyn.time_evaluator(number=3)(x)))
# CHECK: dynamic timing: ['max', 'median', 'min']
print("compiled once:", dyn._executable is dyn._in_process())
# CHECK: compiled once: True
try:
    dyn.evaluate()(np.ones((3, 60), np.float32))
except _capi.CAPIError as e:
    print("bad input:", e)
# CHECK: bad input: error: parameter 'x' expects tensor<?x64xf32, #relax.shape<[n, 64]>> but argument 0 holds tensor<3x60xf32>

# mlcCompileToFile's errors are diagnostics at their place.
try:
    _capi.compile_to_file("func.func private @f(%a: f32) -> f32\n", "/tmp/never.so",
                          entries=["f"])
except _capi.CAPIError as e:
    print("compile error:", str(e).splitlines()[0])
# CHECK: compile error: <stdin>:1:1: error: entry 'f' is a declaration without a body
print("no output:", not os.path.exists("/tmp/never.so"))
# CHECK: no output: True
tools.run = run_tool
