# mlc-compile's shared libraries, loaded with ctypes and called through their
# _mlir_ciface_ entries with hand-built memref descriptors, against numpy on
# random inputs (f32: rtol 1e-5, atol 1e-6): the TensorIR mm_relu example, and
# linalg/tensor functions with a libm call (atanf: not approximated), a strided copy (MLIR's
# memrefCopy), dynamic shapes with a scalar, and a result the entry allocates.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s %t %mlc_src_root/examples/mm_relu.mlir | FileCheck %s
# CHECK: mm_relu 128x128: ok
# CHECK: dense_atan: ok
# CHECK: strided slice and sum: ok
# CHECK: dynamic scale 5x7: ok
# CHECK: dynamic scale 1x3: ok
# CHECK: returned result: ok

import ctypes
import os
import subprocess
import sys

import numpy as np
from mlc import tools

OUT_DIR, MM_RELU = sys.argv[1], sys.argv[2]
RTOL, ATOL = 1e-5, 1e-6
rng = np.random.default_rng(0)

LINALG = """
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @dense_atan(%x: tensor<4x8xf32> {relay.name = "x"}, %w: tensor<8x3xf32> {relay.name = "w"},
                      %b: tensor<3xf32> {relay.name = "b"}) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x3xf32>, tensor<3xf32>) outs(%empty : tensor<4x3xf32>) {
  ^bb0(%m: f32, %bias: f32, %o: f32):
    %s = arith.addf %m, %bias : f32
    %t = math.atan %s : f32
    linalg.yield %t : f32
  } -> tensor<4x3xf32>
  return %out : tensor<4x3xf32>
}

func.func @slice_and_sum(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<f32>) {
  %s = tensor.extract_slice %x[0, 1] [4, 2] [1, 3] : tensor<4x8xf32> to tensor<4x2xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %total = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%zero : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s, %total : tensor<4x2xf32>, tensor<f32>
}

func.func @scale(%x: tensor<?x?xf32>, %alpha: f32) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%x : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %alpha : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""

RETURNED = """
#id = affine_map<(i, j) -> (i, j)>
func.func @twice(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %empty = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x5xf32>) outs(%empty : tensor<3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
"""

_descriptor_types = {}


def descriptor_type(rank):
    """The C struct of a rank-`rank` strided memref descriptor."""
    if rank not in _descriptor_types:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank > 0:
            fields += [("sizes", ctypes.c_int64 * rank),
                       ("strides", ctypes.c_int64 * rank)]
        _descriptor_types[rank] = type("MemRef%dD" % rank, (ctypes.Structure,),
                                       {"_fields_": fields})
    return _descriptor_types[rank]


def descriptor(array):
    """A descriptor of a C-contiguous numpy array (which must outlive it)."""
    assert array.flags["C_CONTIGUOUS"]
    desc = descriptor_type(array.ndim)()
    desc.allocated = desc.aligned = array.ctypes.data
    desc.offset = 0
    for i in range(array.ndim):
        desc.sizes[i] = array.shape[i]
        desc.strides[i] = array.strides[i] // array.itemsize
    return desc


def compile_library(name, source_path, *extra):
    library = os.path.join(OUT_DIR, name + ".so")
    header = os.path.join(OUT_DIR, name + ".h")
    tools.run("mlc-compile", [source_path, "-o", library, "-O3",
                              "--emit-header=" + header] + list(extra))
    return ctypes.CDLL(library), open(header).read()


def entry(library, name, nargs):
    function = getattr(library, "_mlir_ciface_" + name)
    function.restype = None
    function.argtypes = [ctypes.c_void_p] * nargs
    return function


def check(label, actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=ATOL)
    print(label + ": ok")


def write_source(name, text):
    path = os.path.join(OUT_DIR, name + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


# TensorIR: a destination-passing prim_func; the caller owns every buffer.
lib, header = compile_library("mm_relu", MM_RELU)
assert ("void _mlir_ciface_mm_relu(mlc_memref_2d_f32 *A, mlc_memref_2d_f32 *B,"
        " mlc_memref_2d_f32 *C);") in header, header
a = rng.random((128, 128), dtype=np.float32)
b = rng.random((128, 128), dtype=np.float32)
c = np.zeros((128, 128), np.float32)
da, db, dc = descriptor(a), descriptor(b), descriptor(c)
entry(lib, "mm_relu", 3)(ctypes.byref(da), ctypes.byref(db), ctypes.byref(dc))
check("mm_relu 128x128", c, np.maximum(a.astype(np.float64) @ b, 0))

# Tensor functions: results are out-parameters after the inputs.
lib, header = compile_library("linalg", write_source("linalg", LINALG))
needed = subprocess.run(
    ["llvm-readelf", "-d", os.path.join(OUT_DIR, "linalg.so")],
    capture_output=True, text=True, check=True).stdout
assert "libmlir_c_runner_utils" in needed and "libm.so" in needed, needed

x = rng.standard_normal((4, 8), dtype=np.float32)
w = rng.standard_normal((8, 3), dtype=np.float32)
bias = rng.standard_normal(3, dtype=np.float32)
out = np.empty((4, 3), np.float32)
descs = [descriptor(t) for t in (x, w, bias, out)]
entry(lib, "dense_atan", 4)(*[ctypes.byref(d) for d in descs])
check("dense_atan", out, np.arctan(x.astype(np.float64) @ w + bias))

sliced = np.empty((4, 2), np.float32)
total = np.empty((), np.float32)
descs = [descriptor(t) for t in (x, sliced, total)]
entry(lib, "slice_and_sum", 3)(*[ctypes.byref(d) for d in descs])
np.testing.assert_array_equal(sliced, x[:, 1:7:3])
np.testing.assert_allclose(total, x.astype(np.float64).sum(), rtol=RTOL,
                           atol=1e-5)
print("strided slice and sum: ok")

# Dynamic shapes come from the descriptors; scalars are passed by value.
scale = getattr(lib, "_mlir_ciface_scale")
scale.restype = None
scale.argtypes = [ctypes.c_void_p, ctypes.c_float, ctypes.c_void_p]
for shape in [(5, 7), (1, 3)]:
    x = rng.standard_normal(shape, dtype=np.float32)
    # Computed first: the entry may reuse its input buffer (here it does).
    expected = x.astype(np.float64) * -2.5
    out = np.empty(shape, np.float32)
    dx, dout = descriptor(x), descriptor(out)
    scale(ctypes.byref(dx), ctypes.c_float(-2.5), ctypes.byref(dout))
    check("dynamic scale %dx%d" % shape, out, expected)

# Without hoist-result-allocs the entry allocates its result and returns it
# through the first parameter; the caller frees it.
lib, header = compile_library("returned", write_source("returned", RETURNED),
                              "--pipeline-options=hoist-result-allocs=false")
assert ("void _mlir_ciface_twice(mlc_memref_2d_f32 *result, "
        "mlc_memref_2d_f32 *arg0);") in header, header
x = rng.standard_normal((3, 5), dtype=np.float32)
expected = 2.0 * x.astype(np.float64)
result = descriptor_type(2)()
dx = descriptor(x)
entry(lib, "twice", 2)(ctypes.byref(result), ctypes.byref(dx))
assert list(result.sizes) == [3, 5] and list(result.strides) == [5, 1]
values = np.ctypeslib.as_array(
    ctypes.cast(result.aligned, ctypes.POINTER(ctypes.c_float)),
    shape=(3, 5)).copy()
ctypes.CDLL(None).free(ctypes.c_void_p(result.allocated))
check("returned result", values, expected)
