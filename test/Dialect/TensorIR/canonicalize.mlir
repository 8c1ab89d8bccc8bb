// RUN: mlc-opt %s --canonicalize --split-input-file | FileCheck %s

// Constant loop bounds and block extents become static; a constant-true
// predicate is dropped and a block that never runs is erased.

// CHECK-LABEL: tensorir.prim_func @constants(%A: memref<128xf32>, %n: index)
// CHECK:         tensorir.for %i = 0 to 128 step 2 {
// CHECK-NEXT:      tensorir.block "B"(%vi = spatial(128, %i)) {
// CHECK:         tensorir.for %j = 0 to %n {
// CHECK-NEXT:      tensorir.block "C"(%vj = spatial(%n, %j)) {
// CHECK-NOT:     "never"
// CHECK:         tensorir.return
tensorir.prim_func @constants(%A: memref<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %true = arith.constant true
  %false = arith.constant false
  tensorir.for %i = %c0 to %c128 step %c2 {
    tensorir.block "B"(%vi = spatial(%c128, %i)) where(%true) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vi] : memref<128xf32>
    }
  }
  tensorir.for %j = %c0 to %n {
    tensorir.block "C"(%vj = spatial(%n, %j)) {
      %one = arith.constant 1.0 : f32
      memref.store %one, %A[%c0] : memref<128xf32>
    }
    tensorir.block "never"(%vj = spatial(%n, %j)) where(%false) {
      %one = arith.constant 1.0 : f32
      memref.store %one, %A[%c0] : memref<128xf32>
    }
  }
  tensorir.return
}
