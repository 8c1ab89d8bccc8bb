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

// -----

// INT64_MIN is the static lists' "dynamic" marker, so a constant bound of
// that value stays an operand (folding it made the rewrite repeat forever).
// CHECK-LABEL: tensorir.prim_func @int64_min_bound
// CHECK: %[[MIN:.*]] = arith.constant -9223372036854775808 : index
// CHECK: tensorir.for %{{.*}} = %[[MIN]] to 128 {
tensorir.prim_func @int64_min_bound(%A: memref<1xf32>) {
  %c0 = arith.constant -9223372036854775808 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0 : index
  tensorir.for %i = %c0 to %c128 {
    tensorir.block "B"(%v = spatial(1, %zero)) {
      %one = arith.constant 1.0 : f32
      memref.store %one, %A[%v] : memref<1xf32>
    }
  }
}
