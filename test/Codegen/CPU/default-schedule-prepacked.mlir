// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s

// A constant rhs (mlc.constant: every caller passes a constant global) that
// only the contraction reads: its panel is not packed at every call; the
// argument is read in place as two slivers of 256 x 64 (reinterpreted), each
// register column reading its sliver, and marked mlc.packed_slivers = 64 for
// mlc-cpu-prepack-constants to store the constant so.
// CHECK-LABEL: func.func private @prepacked_rhs
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<256x128xf32> {mlc.constant, mlc.packed_slivers = 64 : i64}
// CHECK: %[[SLIVERS:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [2, 256, 64], strides: [16384, 64, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<2x256x64xf32>
// CHECK: memref.subview %[[SLIVERS]][{{.*}}, 0, 0] [1, 256, 64] [1, 1, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<2x256x64xf32>
// CHECK: vector.fma {{.*}} : vector<64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @prepacked_rhs(%A: memref<192x256xf32>, %B: memref<256x128xf32> {mlc.constant}, %C: memref<192x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x256xf32>, memref<256x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// K split into cache tiles (512 = 2 x 256): each k tile's panel is the
// slivers' rows of that tile, at a row offset of the k loop.
// CHECK-LABEL: func.func private @prepacked_k_tiles
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 64 : i64}
// CHECK: %[[SLIVERS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 512, 64], strides: [32768, 64, 1]
// CHECK: scf.for %[[K:.*]] = %c0 to %c512 step %c256
// CHECK: memref.subview %[[SLIVERS]][0, %[[K]], 0] [2, 256, 64] [1, 1, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<2x256x64xf32>
// CHECK: vector.fma {{.*}} : vector<64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @prepacked_k_tiles(%A: memref<192x512xf32>, %B: memref<512x128xf32> {mlc.constant}, %C: memref<192x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x512xf32>, memref<512x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Negative: the constant is also read by another op (a copy to the
// output), so it keeps its layout and its panel is packed at every call.
// CHECK-LABEL: func.func private @constant_read_elsewhere
// CHECK-NOT: mlc.packed_slivers
// CHECK-NOT: memref.reinterpret_cast
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x256x64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @constant_read_elsewhere(%A: memref<192x256xf32>, %B: memref<256x128xf32> {mlc.constant}, %C: memref<192x128xf32>, %D: memref<256x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x256xf32>, memref<256x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.copy ins(%B : memref<256x128xf32>) outs(%D : memref<256x128xf32>)
  return
}

// -----

// Negative: without mlc.constant the panel is packed at every call.
// CHECK-LABEL: func.func private @not_constant
// CHECK-NOT: mlc.packed_slivers
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x256x64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @not_constant(%A: memref<192x256xf32>, %B: memref<256x128xf32>, %C: memref<192x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x256xf32>, memref<256x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
