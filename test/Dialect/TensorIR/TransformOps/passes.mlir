// The scheduling passes: tensorir-tile, tensorir-parallelize and
// tensorir-vectorize on every block (blocks where the primitive does not
// apply are left alone), or on named blocks (where it is an error).
// RUN: mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-tile{sizes=8,16},tensorir-parallelize,tensorir-vectorize))' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-vectorize{blocks=B},tensorir-parallelize{blocks=S}))' | FileCheck %s --check-prefix=NAMED
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-vectorize{blocks=S}))' 2>&1 | FileCheck %s --check-prefix=VEC-ERR
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-tile{sizes=2,2,2 blocks=B}))' 2>&1 | FileCheck %s --check-prefix=TILE-ERR
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-parallelize{blocks=X}))' 2>&1 | FileCheck %s --check-prefix=NAME-ERR
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-tile{sizes=0,4}))' 2>&1 | FileCheck %s --check-prefix=SIZE-ERR

// CHECK-LABEL: tensorir.prim_func @f
// CHECK:         tensorir.for %i_0 = 0 to 3 parallel {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 2 {
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 8 {
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 16 vectorized {
// CHECK:                 tensorir.block "B"({{.*}}) where(
// The reduction's innermost loop is not vectorized.
// CHECK:         tensorir.for %i_0 = 0 to 3 parallel {
// CHECK-NEXT:      tensorir.for %k_0 = 0 to 2 {
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 8 {
// CHECK-NEXT:          tensorir.for %k_1 = 0 to 16 {
// CHECK:                 tensorir.block "S"({{.*}}) where(

// NAMED:         tensorir.for %i = 0 to 20 {
// NAMED-NEXT:      tensorir.for %j = 0 to 32 vectorized {
// NAMED:         tensorir.for %i = 0 to 20 parallel {
// NAMED-NEXT:      tensorir.for %k = 0 to 32 {

// VEC-ERR: error: cannot vectorize loop 'k': it is bound to reduce iteration variable #1 'vk' of block 'S'
// TILE-ERR: error: cannot tile block 'B': it has 2 loops, fewer than the 3 tile sizes
// NAME-ERR: error: no block named 'X' in prim_func @f
// SIZE-ERR: error: tensorir-tile: tile size 0 is not positive
tensorir.prim_func @f(%A: memref<20x32xf32>, %S: memref<20xf32>) {
  tensorir.for %i = 0 to 20 {
    tensorir.for %j = 0 to 32 {
      tensorir.block "B"(%vi = spatial(20, %i), %vj = spatial(32, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<20x32xf32>
      }
    }
  }
  tensorir.for %i = 0 to 20 {
    tensorir.for %k = 0 to 32 {
      tensorir.block "S"(%vi = spatial(20, %i), %vk = reduce(32, %k)) {
        %s = memref.load %S[%vi] : memref<20xf32>
        %a = memref.load %A[%vi, %vk] : memref<20x32xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<20xf32>
      }
    }
  }
}
