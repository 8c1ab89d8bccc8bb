# mlc-compile's shared libraries, called through their _mlir_ciface_ entries
# (with mlc.runtime.load_module, which passes memref descriptors as the
# header declares them) against numpy on random inputs (f32: rtol 1e-5,
# atol 1e-6): the TensorIR mm_relu example, and linalg/tensor functions
# (../../Inputs/linalg-entries.mlir) with a libm call (atanf: not
# approximated), a strided copy (MLIR's memrefCopy), dynamic shapes with a
# scalar; and, by hand, a result the entry allocates.
# RUN: rm -rf %t && mkdir -p %t
# RUN: mlc-compile %mlc_src_root/examples/mm_relu.mlir -O3 -o %t/mm_relu.so --emit-header=%t/mm_relu.h
# RUN: mlc-compile %S/../../Inputs/linalg-entries.mlir -O3 -o %t/linalg.so --emit-header=%t/linalg.h
# RUN: mlc-compile %S/Inputs/returned.mlir -O3 -o %t/returned.so --emit-header=%t/returned.h --pipeline-options=hoist-result-allocs=false
# RUN: llvm-readelf -d %t/linalg.so | FileCheck %s --check-prefix=NEEDED
# RUN: %python %s %t | FileCheck %s
# NEEDED-DAG: (NEEDED){{.*}}libmlir_c_runner_utils
# NEEDED-DAG: (NEEDED){{.*}}libm.so
# CHECK: mm_relu 128x128: ok
# CHECK: dense_atan: ok
# CHECK: strided slice and sum: ok
# CHECK: dynamic scale 5x7: ok
# CHECK: dynamic scale 1x3: ok
# CHECK: returned result: ok

import ctypes
import os
import sys

import numpy as np
from mlc import runtime

OUT_DIR = sys.argv[1]
RTOL, ATOL = 1e-5, 1e-6
rng = np.random.default_rng(0)


def read_header(name):
    with open(os.path.join(OUT_DIR, name + ".h")) as f:
        return f.read()


def load(name):
    """The library `name`.so and its header's text."""
    return runtime.load_module(os.path.join(OUT_DIR, name + ".so")), read_header(name)


def check(label, actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=ATOL)
    print(label + ": ok")


# TensorIR: a destination-passing prim_func; the caller owns every buffer.
lib, header = load("mm_relu")
assert ("void _mlir_ciface_mm_relu(mlc_memref_2d_f32 *A, mlc_memref_2d_f32 *B,"
        " mlc_memref_2d_f32 *C);") in header, header
a = rng.random((128, 128), dtype=np.float32)
b = rng.random((128, 128), dtype=np.float32)
c = np.zeros((128, 128), np.float32)
assert lib["mm_relu"](a, b, c) is None
check("mm_relu 128x128", c, np.maximum(a.astype(np.float64) @ b, 0))

# Tensor functions: results are out-parameters after the inputs.
lib, header = load("linalg")
assert ("void _mlir_ciface_dense_atan(mlc_memref_2d_f32 *x, mlc_memref_2d_f32 *w,"
        " mlc_memref_1d_f32 *b, mlc_memref_2d_f32 *out0);") in header, header
x = rng.standard_normal((4, 8), dtype=np.float32)
w = rng.standard_normal((8, 3), dtype=np.float32)
bias = rng.standard_normal(3, dtype=np.float32)
out = np.empty((4, 3), np.float32)
lib["dense_atan"](x, w, bias, out)
check("dense_atan", out, np.arctan(x.astype(np.float64) @ w + bias))

sliced = np.empty((4, 2), np.float32)
total = np.empty((), np.float32)
lib["slice_and_sum"](x, sliced, total)
np.testing.assert_array_equal(sliced, x[:, 1:7:3])
np.testing.assert_allclose(total, x.astype(np.float64).sum(), rtol=RTOL,
                           atol=1e-5)
print("strided slice and sum: ok")

# Dynamic shapes come from the descriptors; scalars are passed by value.
assert ("void _mlir_ciface_scale_in_place(mlc_memref_2d_f32 *arg0, float arg1,"
        " mlc_memref_2d_f32 *out0);") in header, header
for shape in [(5, 7), (1, 3)]:
    x = rng.standard_normal(shape, dtype=np.float32)
    # Computed first: the entry may reuse its input buffer (here it does).
    expected = x.astype(np.float64) * -2.5
    out = np.empty(shape, np.float32)
    lib["scale_in_place"](x, -2.5, out)
    check("dynamic scale %dx%d" % shape, out, expected)

# Without hoist-result-allocs the entry allocates its result and returns it
# through the first parameter; the caller frees it. mlc.runtime does not call
# such entries: the descriptors are built here (with the runtime's struct).
header = read_header("returned")
assert ("void _mlir_ciface_twice(mlc_memref_2d_f32 *result, "
        "mlc_memref_2d_f32 *arg0);") in header, header
x = rng.standard_normal((3, 5), dtype=np.float32)
expected = 2.0 * x.astype(np.float64)
memref_2d = runtime._descriptor_type(2)
result, arg = memref_2d(), memref_2d()
arg.allocated = arg.aligned = x.ctypes.data
arg.sizes[:] = x.shape
arg.strides[:] = [s // x.itemsize for s in x.strides]
twice = ctypes.CDLL(os.path.join(OUT_DIR, "returned.so"))._mlir_ciface_twice
twice.restype = None
twice.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
twice(ctypes.byref(result), ctypes.byref(arg))
assert list(result.sizes) == [3, 5] and list(result.strides) == [5, 1]
values = np.ctypeslib.as_array(
    ctypes.cast(result.aligned, ctypes.POINTER(ctypes.c_float)),
    shape=(3, 5)).copy()
ctypes.CDLL(None).free(ctypes.c_void_p(result.allocated))
check("returned result", values, expected)
