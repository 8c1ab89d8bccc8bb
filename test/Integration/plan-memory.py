# A memref-level host function with five intermediate buffers of three
# element types (f32, i32, f64), chained through linalg ops, run through the
# CPU pipeline (which plans them into one arena) with mlc.build against numpy.
# Inputs are small integers so every intermediate is exact in f32 and the
# comparison is exact (the f32 -> i32 truncation would otherwise depend on
# summation order).
# RUN: %python %s | FileCheck %s
# CHECK: planned: 5 buffers share an arena smaller than their sum
# CHECK: chain 8x16x32x64: ok

import re
import subprocess

import numpy as np
import mlc
from mlc import tools

MODEL = """
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: memref<8x16xf32>, %w1: memref<16x32xf32>,
                 %w2: memref<32x64xf32>, %out: memref<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %seven = arith.constant 7 : i32
  %half = arith.constant 0.5 : f64
  %h1 = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%h1 : memref<8x32xf32>)
  linalg.matmul ins(%x, %w1 : memref<8x16xf32>, memref<16x32xf32>) outs(%h1 : memref<8x32xf32>)
  %q = memref.alloc() : memref<8x32xi32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h1 : memref<8x32xf32>) outs(%q : memref<8x32xi32>) {
  ^bb0(%a: f32, %o: i32):
    %i = arith.fptosi %a : f32 to i32
    %r = arith.remsi %i, %seven : i32
    linalg.yield %r : i32
  }
  %d = memref.alloc() : memref<8x32xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : memref<8x32xi32>) outs(%d : memref<8x32xf64>) {
  ^bb0(%a: i32, %o: f64):
    %f = arith.sitofp %a : i32 to f64
    %m = arith.mulf %f, %half : f64
    linalg.yield %m : f64
  }
  %e = memref.alloc() : memref<8x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : memref<8x32xf64>) outs(%e : memref<8x32xf32>) {
  ^bb0(%a: f64, %o: f32):
    %t = arith.truncf %a : f64 to f32
    linalg.yield %t : f32
  }
  %h2 = memref.alloc() : memref<8x64xf32>
  linalg.fill ins(%zero : f32) outs(%h2 : memref<8x64xf32>)
  linalg.matmul ins(%e, %w2 : memref<8x32xf32>, memref<32x64xf32>) outs(%h2 : memref<8x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h2 : memref<8x64xf32>) outs(%out : memref<8x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}
"""

# The planner runs in the bufferization stage: check that it planned every
# buffer and that the arena is smaller than the buffers were.
planned = subprocess.run(
    [tools.find_tool("mlc-opt"), "--mlc-cpu-bufferize"],
    input=MODEL, capture_output=True, text=True, check=True).stdout
arenas = re.findall(r"memref.alloc\(\) \{alignment = 64 : i64\} : memref<(\d+)xi8>", planned)
views = re.findall(r"memref.view", planned)
assert len(arenas) == 1 and len(views) == 5, planned
total = 8 * 32 * 4 + 8 * 32 * 4 + 8 * 32 * 8 + 8 * 32 * 4 + 8 * 64 * 4
assert int(arenas[0]) < total, (arenas, total)
print("planned: 5 buffers share an arena smaller than their sum")

rng = np.random.default_rng(7)
x = rng.integers(-3, 4, (8, 16)).astype(np.float32)
w1 = rng.integers(-3, 4, (16, 32)).astype(np.float32)
w2 = rng.integers(-3, 4, (32, 64)).astype(np.float32)
out = np.full((8, 64), np.nan, dtype=np.float32)
mlc.build(mlc.Module(MODEL))["chain"](x, w1, w2, out)

h1 = x.astype(np.int64) @ w1.astype(np.int64)
q = np.fmod(h1, 7)  # remsi truncates toward zero like C, as np.fmod does
e = q * 0.5
expected = np.maximum(e @ w2.astype(np.float64), 0)
np.testing.assert_array_equal(out, expected.astype(np.float32))
print("chain 8x16x32x64: ok")
