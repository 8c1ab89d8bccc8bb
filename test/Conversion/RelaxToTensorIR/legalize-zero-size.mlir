// TensorIR loops and blocks have positive extents, so kernels never iterate
// over a zero-size dimension: a zero-size result has no block at all, and a
// reduction over an empty axis is a spatial block that writes the initial
// value (sum: 0). A zero-size dimension in a hand-written block stays an
// error of the TensorIR verifier (the last case). Execution: the ONNX
// conformance subset (test/Target/ONNX/conformance-subset.test) runs
// zero-size slices, splits and reshapes against ONNX's reference outputs.
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: tensorir.prim_func private @sum(
// CHECK: tensorir.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: tensorir.block "A_red"(%{{.*}} = spatial(2, %{{.*}})) reads() writes(
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK-NOT: reduce(
// CHECK-LABEL: func.func @sum_over_empty_axis
// CHECK: relax.call_tir @sum
func.func @sum_over_empty_axis(%x: tensor<2x0xf32>) -> tensor<2xf32> {
  %0 = relax.sum %x {axis = array<i64: 1>} : (tensor<2x0xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @strided_slice(
// CHECK-NEXT: tensorir.return
// CHECK-LABEL: func.func @empty_result
// CHECK: relax.call_tir @strided_slice
func.func @empty_result(%x: tensor<4x3xf32>) -> tensor<4x0xf32> {
  %0 = relax.strided_slice %x {axes = array<i64: 1>, begin = array<i64: 1>, end = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @sum(
// CHECK: func.func @sum_over_axis
// CHECK: relax.call_tir @sum
func.func @sum_over_axis(%x: tensor<2x5xf32>) -> tensor<2xf32> {
  %0 = relax.sum %x {axis = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

tensorir.prim_func @zero_extent_block(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @below {{iteration variable #0 'v' has extent 0, expected a positive extent}}
    tensorir.block "b"(%v = spatial(0, %i)) reads() writes(%A[%v] : memref<4xf32>) {
      %c = arith.constant 1.0 : f32
      memref.store %c, %A[%v] : memref<4xf32>
    }
  }
  tensorir.return
}
