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

// Several but not all axes: relay's index is the row-major index within
// the reduced axes, so they move last, merge, and relax reduces the merged
// axis; keepdims reshapes back.
// CHECK-LABEL: func.func @two_of_three(
// CHECK: %[[P:.*]] = relax.permute_dims %{{.*}} {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: %[[R:.*]] = relax.reshape %[[P]] {shape = array<i64: 4, 6>} : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
// CHECK: %[[A:.*]] = relax.argmax %[[R]] {axis = 1 : i64} : (tensor<4x6xf32>) -> tensor<4xi64>
// CHECK: %[[K:.*]] = relax.reshape %[[A]] {shape = array<i64: 1, 1, 4>} : (tensor<4xi64>) -> tensor<1x1x4xi64>
// CHECK: relax.astype %[[K]] {dtype = i32} : (tensor<1x1x4xi64>) -> tensor<1x1x4xi32>
func.func @two_of_three(%x: tensor<2x3x4xf32>) -> tensor<1x1x4xi32> {
  %0 = relay.argmax %x {axis = array<i64: -1>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x4xi32>
  return %0 : tensor<1x1x4xi32>
}

// -----

// Trailing reduced axes need no permute.
// CHECK-LABEL: func.func @trailing(
// CHECK-NOT: relax.permute_dims
// CHECK: %[[R:.*]] = relax.reshape %{{.*}} {shape = array<i64: 2, 12>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK: relax.argmin %[[R]] {axis = 1 : i64} : (tensor<2x12xf32>) -> tensor<2xi64>
func.func @trailing(%x: tensor<2x3x4xf32>) -> tensor<2xi32> {
  %0 = relay.argmin %x {axis = array<i64: 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Merging dynamic axes is not supported.
func.func @dynamic(%x: tensor<?x3x4xf32>) -> tensor<?xi32> {
  // expected-error @below {{relay-to-relax: 'relay.argmax' is not converted: a reduction over several axes needs static shapes}}
  %0 = relay.argmax %x {axis = array<i64: 1, 2>} : (tensor<?x3x4xf32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

func.func @select_last(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @below {{relay-to-relax: 'relay.argmax' is not converted: select_last_index=True has no relax equivalent}}
  %0 = relay.argmax %x {axis = array<i64: 1>, select_last_index = true} : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
