// RUN: mlc-opt %s -split-input-file -relay-to-relax -verify-diagnostics | FileCheck %s

// nn.global_max_pool2d is relax.max over H and W with keepdims, for any
// layout; so is nn.adaptive_max_pool2d to 1x1.
// CHECK-LABEL: func.func @global_max(
// CHECK: relax.max %{{.*}} {axis = array<i64: 2, 3>, keepdims = true} : (tensor<1x4x5x7xf32>) -> tensor<1x4x1x1xf32>
// CHECK: relax.max %{{.*}} {axis = array<i64: 1, 2>, keepdims = true} : (tensor<2x5x7x4xf32>) -> tensor<2x1x1x4xf32>
// CHECK: relax.max %{{.*}} {axis = array<i64: 2, 3>, keepdims = true} : (tensor<1x4x5x7xf32>) -> tensor<1x4x1x1xf32>
func.func @global_max(%x: tensor<1x4x5x7xf32> {relay.name = "x"}, %y: tensor<2x5x7x4xf32> {relay.name = "y"}) -> (tensor<1x4x1x1xf32>, tensor<2x1x1x4xf32>, tensor<1x4x1x1xf32>) {
  %0 = relay.nn.global_max_pool2d %x : (tensor<1x4x5x7xf32>) -> tensor<1x4x1x1xf32>
  %1 = relay.nn.global_max_pool2d %y {layout = "NHWC"} : (tensor<2x5x7x4xf32>) -> tensor<2x1x1x4xf32>
  %2 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 1>} : (tensor<1x4x5x7xf32>) -> tensor<1x4x1x1xf32>
  return %0, %1, %2 : tensor<1x4x1x1xf32>, tensor<2x1x1x4xf32>, tensor<1x4x1x1xf32>
}

// -----

// Other adaptive max pools take TOPI's bins one axis at a time (see
// missing-ops.mlir).
// CHECK-LABEL: func.func @adaptive_max(
// CHECK-COUNT-2: relax.concat
func.func @adaptive_max(%x: tensor<1x4x5x7xf32> {relay.name = "x"}) -> tensor<1x4x2x3xf32> {
  %0 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 2, 3>} : (tensor<1x4x5x7xf32>) -> tensor<1x4x2x3xf32>
  return %0 : tensor<1x4x2x3xf32>
}
