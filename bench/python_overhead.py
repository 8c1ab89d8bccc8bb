"""What Python adds to mlc's own work, in process (libMLC-C.so through
ctypes) and through the tools (MLC_NO_CAPI=1, what the package did before),
measured in one run:

    /usr/bin/python3 bench/python_overhead.py [--calls 200] [--schedules 5]

- `import mlc`: the cumulative import time of the package (python -X
  importtime, mlc's top-level entry);
- a Schedule primitive: the MLC course's mm_relu schedule (get_block x2,
  get_loops, split, reorder, reverse_compute_at, decompose_reduction), the
  mean time per primitive;
- a call of a built function: the README's MLP through
  create_executor(...).evaluate() and mm_relu through mlc.build, the
  median time per call after the first (which compiles), next to the
  kernel's own time (time_evaluator of the same library); the difference is
  the overhead. Before, every call ran mlc-run in a subprocess: that time
  is printed too;
- an entry whose output shapes are symbolic (a relax matmul + relu with a
  batch `n`): in process an mlc::Executable compiled once through the C
  API, through the tools mlc-run per call;
- compiling the MLP to a shared library (mlcCompileToFile in process,
  mlc-compile through the tools) and importing its Relay text
  (mlcImportRelayFromString, mlc-translate).

Each configuration runs in a subprocess of its own, so that the tools path
does not load libMLC-C.so at all.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples"))
import numpy as np
import mlc
from mlc.tir import Schedule
import models

result = {"capi": mlc._capi.available()}
mm_relu = open(os.path.join(ROOT, "examples", "mm_relu.mlir")).read()

def course_schedule():
    sch = Schedule(mm_relu)
    block_Y = sch.get_block("Y", func_name="mm_relu")
    i, j, k = sch.get_loops(block_Y)
    j0, j1 = sch.split(j, factors=[None, 4])
    sch.reorder(j0, k, j1)
    block_C = sch.get_block("C", func_name="mm_relu")
    sch.reverse_compute_at(block_C, j0)
    sch.decompose_reduction(block_Y, k)
    return sch, 7

start = time.perf_counter()
for _ in range(SCHEDULES):
    sch, steps = course_schedule()
result["schedule_step_ms"] = (time.perf_counter() - start) / (SCHEDULES * steps) * 1e3

def per_call(f, args, calls=CALLS):
    f(*args)  # compiles
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - t)
    return float(np.median(times))

make, _, _ = models.MODELS["mlp"]
params, inputs = make(np.random.default_rng(0))
mod = mlc.relay.fromtext(open(os.path.join(ROOT, "examples", "mlp.relay")).read())
ex = mlc.create_executor("graph", mod=mod, params=params)
data = inputs["data"]
result["mlp_call_ms"] = per_call(ex.evaluate(), [data]) * 1e3
result["mlp_kernel_ms"] = ex.time_evaluator(number=CALLS)(data)["median"] * 1e3
# What every call cost before: mlc-run in a subprocess (now only for entries
# whose output shapes are symbolic).
named = dict(params, data=data)
result["mlp_call_mlc_run_ms"] = per_call(lambda: ex._run_tool(named, 0), [], 5) * 1e3

relay_text = open(os.path.join(ROOT, "examples", "mlp.relay")).read()
result["relay_import_ms"] = per_call(mlc.relay.fromtext, [relay_text], 5) * 1e3
result["compile_ms"] = per_call(mlc.executor.compile_module, [mod], 3) * 1e3

DYNAMIC = '''
func.func @main(%x: tensor<?x256xf32, #relax.shape<[n, 256]>> {relax.name = "x"},
                %w: tensor<256x64xf32> {relax.name = "w"})
    -> tensor<?x64xf32, #relax.shape<[n, 64]>> {
  %0 = relax.matmul %x, %w : (tensor<?x256xf32, #relax.shape<[n, 256]>>, tensor<256x64xf32>) -> tensor<?x64xf32, #relax.shape<[n, 64]>>
  %1 = relax.nn.relu %0 : (tensor<?x64xf32, #relax.shape<[n, 64]>>) -> tensor<?x64xf32, #relax.shape<[n, 64]>>
  return %1 : tensor<?x64xf32, #relax.shape<[n, 64]>>
}
'''
dyn = mlc.create_executor(mod=mlc.ir.Module(DYNAMIC),
                          params={"w": np.random.rand(256, 64).astype("float32")})
x = np.random.rand(8, 256).astype("float32")
result["dynamic_call_ms"] = per_call(dyn.evaluate(), [x], CALLS if result["capi"] else 5) * 1e3
result["dynamic_kernel_ms"] = dyn.time_evaluator(number=CALLS)(x)["median"] * 1e3 \
    if result["capi"] else float("nan")

a = np.random.rand(128, 128).astype("float32")
b = np.random.rand(128, 128).astype("float32")
c = np.zeros((128, 128), "float32")
rt = mlc.build(sch.mod)
f = rt["mm_relu"]
result["mm_relu_call_ms"] = per_call(f, [a, b, c]) * 1e3
result["mm_relu_kernel_ms"] = np.median(
    rt.library().time_evaluator("mm_relu", number=1, repeat=CALLS)(a, b, c).results) * 1e3 \
    if hasattr(rt, "library") else float("nan")
print(json.dumps(result))
"""


def child(no_capi, calls, schedules):
    env = dict(os.environ)
    env.pop("MLC_NO_CAPI", None)
    if no_capi:
        env["MLC_NO_CAPI"] = "1"
    code = (CHILD.replace("ROOT", repr(ROOT)).replace("SCHEDULES", str(schedules))
            .replace("CALLS", str(calls)))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True)
    if out.returncode:
        sys.exit("child failed:\n" + out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def import_time():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import mlc"],
                         env=env, capture_output=True, text=True)
    for line in out.stderr.splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) == 3 and fields[2] == "mlc":
            return int(fields[1]) / 1e3
    return float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--schedules", type=int, default=5)
    args = parser.parse_args()
    print("import mlc: %.1f ms (cumulative, python -X importtime)" % import_time())
    rows = [("in process (libMLC-C.so)", child(False, args.calls, args.schedules)),
            ("tools (MLC_NO_CAPI=1)", child(True, args.calls, args.schedules))]
    print("a call through mlc-run (each call before this change): %.1f ms"
          % rows[0][1]["mlp_call_mlc_run_ms"])
    print("%-26s %14s %12s %12s %12s %12s" % (
        "path", "schedule step", "mlp call", "mlp kernel", "mm_relu call",
        "mm_relu kern"))
    for name, r in rows:
        if name.startswith("in process") and not r["capi"]:
            name += " [library not found]"
        print("%-26s %11.2f ms %9.4f ms %9.4f ms %9.4f ms %9.4f ms" % (
            name, r["schedule_step_ms"], r["mlp_call_ms"], r["mlp_kernel_ms"],
            r["mm_relu_call_ms"], r["mm_relu_kernel_ms"]))
    print("%-26s %14s %12s %12s %12s" % ("path", "dynamic call", "dyn kernel",
                                        "compile .so", "relay import"))
    for name, r in rows:
        print("%-26s %11.4f ms %9.4f ms %9.1f ms %9.1f ms" % (
            name, r["dynamic_call_ms"], r["dynamic_kernel_ms"], r["compile_ms"],
            r["relay_import_ms"]))
    print("overhead per call = call - kernel; built functions with static shapes "
          "are compiled once and called in process on both paths")


if __name__ == "__main__":
    main()
