# Parallel loops on OpenMP threads (mlc-run --threads=N) compute what numpy
# does: a TensorIR prim_func with `parallel` loops (mm_relu with the row loop
# parallel, an odd row count so the threads get unequal shares) and a
# tensor-level linalg model whose parallel dimensions become OpenMP loops.
# Inputs are random; tolerances: f32 vs a float64 reference, rtol 1e-5, atol
# 1e-5 * sqrt(reduction length). Output buffers start as NaN so rows that no
# thread ran show up.
# RUN: %python %s | FileCheck %s
# CHECK: mm_relu 67x128x96 threads=1: ok
# CHECK: mm_relu 67x128x96 threads=2: ok
# CHECK: linalg mlp 33x64x17 threads=1: ok
# CHECK: linalg mlp 33x64x17 threads=2: ok

import os
import tempfile

import numpy as np
from mlc import tools

rng = np.random.default_rng(11)

MM_RELU = """
tensorir.prim_func @mm_relu(%A: memref<67x128xf32>, %B: memref<128x96xf32>, %C: memref<67x96xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 67 parallel {
    tensorir.for %j = 0 to 96 {
      tensorir.block "row"(%vi = spatial(67, %i), %vj = spatial(96, %j)) {
        %Y = tensorir.alloc_buffer : memref<1xf32>
        tensorir.for %k = 0 to 128 {
          tensorir.block "Y"(%vk = reduce(128, %k)) {
            tensorir.init {
              %zero = arith.constant 0.0 : f32
              %c0 = arith.constant 0 : index
              memref.store %zero, %Y[%c0] : memref<1xf32>
            }
            %c0 = arith.constant 0 : index
            %y = memref.load %Y[%c0] : memref<1xf32>
            %a = memref.load %A[%vi, %vk] : memref<67x128xf32>
            %b = memref.load %B[%vk, %vj] : memref<128x96xf32>
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %y, %m : f32
            memref.store %s, %Y[%c0] : memref<1xf32>
          }
        }
        %c0 = arith.constant 0 : index
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%c0] : memref<1xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<67x96xf32>
      }
    }
  }
}
"""

MLP = """
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @main(%x: tensor<33x64xf32> {relay.name = "x"},
                %w: tensor<64x17xf32> {relay.name = "w"},
                %b: tensor<17xf32> {relay.name = "b"}) -> tensor<33x17xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<33x17xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<33x17xf32>) -> tensor<33x17xf32>
  %y = linalg.matmul ins(%x, %w : tensor<33x64xf32>, tensor<64x17xf32>)
                     outs(%fill : tensor<33x17xf32>) -> tensor<33x17xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<33x17xf32>, tensor<17xf32>) outs(%init : tensor<33x17xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<33x17xf32>
  return %r : tensor<33x17xf32>
}
"""


def run(model, entry, inputs, threads):
    """Runs `entry` of `model` with mlc-run on `inputs` (name -> array) and
    returns the written .npz contents."""
    with tempfile.TemporaryDirectory() as tmp:
        model_path = os.path.join(tmp, "model.mlir")
        with open(model_path, "w") as f:
            f.write(model)
        inputs_path = os.path.join(tmp, "in.npz")
        outputs_path = os.path.join(tmp, "out.npz")
        np.savez(inputs_path, **inputs)
        tools.run("mlc-run", [model_path, "--entry=" + entry, "--quiet",
                              "--threads=%d" % threads,
                              "--inputs=" + inputs_path,
                              "--outputs=" + outputs_path])
        with np.load(outputs_path) as data:
            return {name: data[name] for name in data.files}


a = rng.standard_normal((67, 128)).astype(np.float32)
b = rng.standard_normal((128, 96)).astype(np.float32)
expected = np.maximum(a.astype(np.float64) @ b, 0)
for threads in (1, 2):
    out = run(MM_RELU, "mm_relu",
              {"A": a, "B": b, "C": np.full((67, 96), np.nan, np.float32)},
              threads)
    np.testing.assert_allclose(out["C"], expected, rtol=1e-5,
                               atol=1e-5 * np.sqrt(128))
    print("mm_relu 67x128x96 threads=%d: ok" % threads)

x = rng.standard_normal((33, 64)).astype(np.float32)
w = rng.standard_normal((64, 17)).astype(np.float32)
bias = rng.standard_normal(17).astype(np.float32)
expected = np.maximum(x.astype(np.float64) @ w + bias, 0)
for threads in (1, 2):
    out = run(MLP, "main", {"x": x, "w": w, "b": bias}, threads)
    np.testing.assert_allclose(out["out0"], expected, rtol=1e-5,
                               atol=1e-5 * np.sqrt(64))
    print("linalg mlp 33x64x17 threads=%d: ok" % threads)
