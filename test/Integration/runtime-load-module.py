# mlc.runtime.load_module (TVM's tvm.runtime.load_module) on libraries that
# mlc-compile writes, read through their mlc_module_metadata with numpy and
# ctypes only: the MLC course's MLP (Relay, weights as inputs) and linalg
# functions (../Inputs/linalg-entries.mlir) with dynamic shapes, a scalar
# and several results, a scalar result returned by the C function, called
# on random inputs and compared with numpy
# (float64 reference; rtol 1e-5, atol 1e-6 as examples/models.py), with
# outputs returned or written in place; the errors for a wrong shape, dtype
# or argument count; and time_evaluator's times.
# RUN: rm -rf %t && mkdir -p %t
# RUN: mlc-translate --import-relay %mlc_src_root/examples/mlp.relay -o %t/mlp.mlir
# RUN: mlc-compile %t/mlp.mlir -O3 -o %t/mlp.so
# RUN: mlc-compile %S/../Inputs/linalg-entries.mlir -O3 -o %t/linalg.so
# RUN: mlc-compile %S/Inputs/scalar-result.mlir -o %t/scalar.so
# RUN: mlc-compile %S/../Tools/mlc-compile/Inputs/returned.mlir -o %t/returned.so --pipeline-options=hoist-result-allocs=false
# RUN: %python %s %t %mlc_src_root | FileCheck %s

import os
import sys

import numpy as np
from mlc import runtime
from mlc_test_utils import expect_error

OUT_DIR, SRC_ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRC_ROOT, "examples"))
import models  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6
rng = np.random.default_rng(0)


# The MLP: every Relay parameter is an input of main.
mod = runtime.load_module(os.path.join(OUT_DIR, "mlp.so"))
print(mod.target, mod.entry_names)
# CHECK: cpu ['main']
entry = mod.metadata["entries"][0]
assert entry["symbol"] == "_mlir_ciface_main", entry
print([(a["name"], a["dtype"], a["shape"], a["kind"]) for a in entry["args"][:-1]])
# CHECK-NEXT: [('data', 'float32', [1, 784], 'input'), ('w0', 'float32', [128, 784], 'input'), ('b0', 'float32', [128], 'input'), ('w1', 'float32', [10, 128], 'input'), ('b1', 'float32', [10], 'input')]
last = entry["args"][-1]
print(last["dtype"], last["shape"], last["kind"])
# CHECK-NEXT: float32 [1, 10] output

params, inputs = models.make_mlp(rng)
args = [inputs["data"]] + [params[k] for k in ("w0", "b0", "w1", "b1")]
want = models.reference_mlp({k: v.astype(np.float64) for k, v in params.items()},
                            inputs["data"].astype(np.float64))
main = mod["main"]
np.testing.assert_allclose(main(*args), want, rtol=RTOL, atol=ATOL)
out = np.full((1, 10), np.nan, np.float32)
assert main(*args, out) is None
np.testing.assert_allclose(out, want, rtol=RTOL, atol=ATOL)
# A Fortran-ordered weight is made C-contiguous.
np.testing.assert_allclose(main(args[0], np.asfortranarray(args[1]), *args[2:]), want,
                           rtol=RTOL, atol=ATOL)
print("mlp: ok")
# CHECK-NEXT: mlp: ok

expect_error(ValueError, main, args[0].reshape(1, 1, 784), *args[1:])
# CHECK-NEXT: ValueError: main: input 'data' must have shape [1, 784], got [1, 1, 784]
expect_error(TypeError, main, args[0].astype(np.float64), *args[1:])
# CHECK-NEXT: TypeError: main: input 'data' must be float32, got float64 (convert with .astype)
expect_error(TypeError, main, *args[:4])
# CHECK-NEXT: TypeError: main takes 5 inputs (data, w0, b0, w1, b1) and 1 outputs ({{.*}}): call main(data, w0, b0, w1, b1), or main(data, w0, b0, w1, b1, {{.*}}) to write the outputs in place; got 4 arguments

result = mod.time_evaluator("main", number=5, repeat=3)(*args)
assert len(result.results) == 3 and all(t > 0 for t in result.results), result
assert 0 < result.min <= result.median <= result.max, result
print("time_evaluator: ok")
# CHECK-NEXT: time_evaluator: ok

# TVM's f_preproc="cache_flush_cpu_non_first_arg": the calls rotate among
# copies of every argument but the first, which together span at least four
# times L2; the arguments' own copy still gets the result.
copies = runtime._cold_copies(args + [out])
assert copies and all(c[0] is args[0] for c in copies), len(copies)
assert all(c[1] is not args[1] and np.array_equal(c[1], args[1]) for c in copies)
span = (len(copies) + 1) * sum(a.nbytes for a in args[1:] + [out])
assert len(copies) == 63 or span >= 4 * runtime._l2_cache_bytes(), (len(copies), span)
out[:] = np.nan
cold = mod.time_evaluator("main", number=5, repeat=2,
                          f_preproc="cache_flush_cpu_non_first_arg")(*args, out)
assert len(cold.results) == 2 and all(t > 0 for t in cold.results), cold
np.testing.assert_allclose(out, want, rtol=RTOL, atol=ATOL)
print("cold arguments: ok")
# CHECK-NEXT: cold arguments: ok
expect_error(ValueError, mod.time_evaluator, "main", 10, 1, 0, "flush")
# CHECK-NEXT: ValueError: unknown f_preproc 'flush' (expected '' or 'cache_flush_cpu_non_first_arg')

# Dynamic shapes (the output is passed), a scalar, two results.
mod = runtime.load_module(os.path.join(OUT_DIR, "linalg.so"))
print(mod.entry_names)
# CHECK-NEXT: ['dense_atan', 'slice_and_sum', 'scale', 'scale_in_place']
for shape in [(5, 7), (1, 3)]:
    x = rng.standard_normal(shape).astype(np.float32)
    before = x.copy()
    out = np.empty(shape, np.float32)
    mod["scale"](x, -2.5, out)
    np.testing.assert_allclose(out, x.astype(np.float64) * -2.5, rtol=RTOL, atol=ATOL)
    np.testing.assert_array_equal(x, before)
expect_error(ValueError, mod["scale"], x, -2.5)
# CHECK-NEXT: ValueError: scale: output '{{.*}}' has a dynamic shape [?, ?]: pass the outputs, scale(x, alpha, {{.*}})
x = rng.standard_normal((4, 8)).astype(np.float32)
sliced, total = mod["slice_and_sum"](x)
np.testing.assert_array_equal(sliced, x[:, 1:7:3])
assert total.shape == (), total.shape
np.testing.assert_allclose(total, x.astype(np.float64).sum(), rtol=RTOL, atol=1e-5)
print("linalg: ok")
# CHECK-NEXT: linalg: ok

# A scalar result is the C function's value; the metadata says so.
mod = runtime.load_module(os.path.join(OUT_DIR, "scalar.so"))
print(mod.metadata["entries"][0]["returns"])
# CHECK-NEXT: [{'dtype': 'float32', 'index': 1, 'kind': 'scalar', 'name': 'out1', 'shape': None}]
x = rng.standard_normal(8).astype(np.float32)
y = rng.standard_normal(8).astype(np.float32)
product, total = mod["total"](x, y)
np.testing.assert_allclose(product, x.astype(np.float64) * y, rtol=RTOL, atol=ATOL)
assert isinstance(total, np.float32), type(total)
np.testing.assert_allclose(total, x.astype(np.float64).sum(), rtol=RTOL, atol=1e-5)
out = np.empty(8, np.float32)
alone = mod["total"](x, y, out)
np.testing.assert_allclose(out, product, rtol=0, atol=0)
np.testing.assert_allclose(alone, total, rtol=0, atol=0)
print("scalar result: ok")
# CHECK-NEXT: scalar result: ok

# A result that the entry allocates (hoist-result-allocs=false) is described
# as returned through the first parameter, which this runtime does not call.
mod = runtime.load_module(os.path.join(OUT_DIR, "returned.so"))
print(mod.metadata["entries"][0]["returns"][0]["kind"], mod.metadata["entries"][0]["args"])
# CHECK-NEXT: result [{'dtype': 'float32', 'kind': 'input', 'name': {{.*}}, 'shape': [3, 5]}]
expect_error(ValueError, lambda: mod["twice"])
# CHECK-NEXT: ValueError: twice: returns 'out0' through a buffer that it allocates (built with hoist-result-allocs=false); mlc.runtime calls entries whose tensor results are out-parameters (the default)
