// Shapes whose element count does not fit int64_t (a type may say so): the
// CPU schedule counts them saturating and still tiles the op (found by the
// mlc-opt fuzzer, seed 43: signed overflows in scheduleElementwise and the
// reductions' tiling).
// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s

// CHECK-LABEL: func.func @huge
// CHECK: scf.parallel
// CHECK: vector.load {{.*}} vector<16xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @huge(%A: memref<4294967296x4294967296xf32>, %B: memref<4294967296x4294967296xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<4294967296x4294967296xf32>) outs(%B : memref<4294967296x4294967296xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A reduction over such a shape (Reduction.cpp's task count overflowed
// likewise).
// CHECK-LABEL: func.func @huge_row_sum
// CHECK: scf.parallel
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @huge_row_sum(%A: memref<9223372036854775807x64xf32>, %B: memref<9223372036854775807xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<9223372036854775807x64xf32>) outs(%B : memref<9223372036854775807xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  return
}
