// relay.argmax/argmin become relax's single-axis (or flattened, without
// axis) arg-reductions plus an astype to relay's i32, also with `exclude`.
// RUN: mlc-opt %s -split-input-file -relay-to-relax -verify-diagnostics | FileCheck %s

// exclude of axes [0, 2] reduces axis 1 only.
// CHECK-LABEL: func.func @exclude(
// CHECK: %[[I:.*]] = relax.argmax %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
// CHECK: relax.astype %[[I]] {dtype = i32} : (tensor<2x4xi64>) -> tensor<2x4xi32>
func.func @exclude(%x: tensor<2x3x4xf32>) -> tensor<2x4xi32> {
  %0 = relay.argmax %x {axis = array<i64: 0, 2>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// Listing every axis is relay's index into the flattened tensor, relax's
// argmin without axis.
// CHECK-LABEL: func.func @all_axes(
// CHECK: relax.argmin %{{.*}} {keepdims = true} : (tensor<2x3xf32>) -> tensor<1x1xi64>
func.func @all_axes(%x: tensor<2x3xf32>) -> tensor<1x1xi32> {
  %0 = relay.argmin %x {axis = array<i64: 1, 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// -----

// Several but not all axes has no relax arg-reduction.
func.func @two_of_three(%x: tensor<2x3x4xf32>) -> tensor<1x1x4xi32> {
  // expected-error @below {{relay-to-relax: 'relay.argmax' has no relax equivalent yet}}
  %0 = relay.argmax %x {axis = array<i64: -1>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x4xi32>
  return %0 : tensor<1x1x4xi32>
}
