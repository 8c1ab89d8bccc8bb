// Shapes whose element count does not fit int64_t (a type may say so): the
// CPU schedule counts them saturating and still tiles the op (found by the
// mlc-opt fuzzer, seed 43: a signed overflow in scheduleElementwise).
// RUN: mlc-opt %s --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s

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
