// RUN: mlc-opt %s -split-input-file -relay-to-relax | FileCheck %s

// conv2d drops channels/kernel_size and keeps the rest; pools keep their
// attributes; global_avg_pool2d is adaptive_avg_pool2d to 1x1.
// CHECK-LABEL: func.func @cnn(
// CHECK: relax.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
// CHECK: relax.nn.max_pool2d %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
// CHECK: relax.nn.avg_pool2d %{{.*}} {count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x8x8xf32>
// CHECK: relax.nn.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>) -> tensor<1x16x1x1xf32>
// CHECK-NOT: relay.
func.func @cnn(%x: tensor<1x3x32x32xf32> {relay.name = "x"}, %w: tensor<16x3x3x3xf32> {relay.name = "w"}) -> tensor<1x16x1x1xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, channels = 16 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
  %2 = relay.nn.avg_pool2d %1 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = true} : (tensor<1x16x16x16xf32>) -> tensor<1x16x8x8xf32>
  %3 = relay.nn.global_avg_pool2d %2 : (tensor<1x16x8x8xf32>) -> tensor<1x16x1x1xf32>
  return %3 : tensor<1x16x1x1xf32>
}

// -----

// sum/mean keep axis and keepdims; exclude becomes the list of reduced axes.
// concatenate becomes concat.
// CHECK-LABEL: func.func @reduce(
// CHECK: relax.sum %{{.*}} {axis = array<i64: 2, 3>, keepdims = true} : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
// CHECK: relax.mean %{{.*}} {axis = array<i64: 0, 2, 3>} : (tensor<2x3x4x5xf32>) -> tensor<3xf32>
// CHECK: relax.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>) -> tensor<2x6x1x1xf32>
func.func @reduce(%x: tensor<2x3x4x5xf32> {relay.name = "x"}) -> (tensor<2x6x1x1xf32>, tensor<3xf32>) {
  %0 = relay.sum %x {axis = array<i64: 2, 3>, keepdims = true} : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  %1 = relay.mean %x {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4x5xf32>) -> tensor<3xf32>
  %2 = relay.concatenate %0, %0 {axis = 1 : i64} : (tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>) -> tensor<2x6x1x1xf32>
  return %2, %1 : tensor<2x6x1x1xf32>, tensor<3xf32>
}

// -----

// batch_norm's three results map 1:1; layer_norm's axis becomes axes.
// CHECK-LABEL: func.func @norm(
// CHECK: %[[Y:[^,]*]], %{{[^,]*}}, %[[V:[^ ]*]] = relax.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: relax.nn.layer_norm %[[Y]], %{{.*}}, %{{.*}} {axes = array<i64: 1>, center = false} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
// CHECK: relax.output %[[V]], %{{.*}}
func.func @norm(%x: tensor<1x4x2x2xf32> {relay.name = "x"}, %c: tensor<4xf32> {relay.name = "c"}) -> (tensor<1x4x2x2xf32>, tensor<4xf32>) {
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-3 : f64} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>)
  %1 = relay.nn.layer_norm %0#0, %c, %c {axis = 1 : i64, center = false} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %1, %0#2 : tensor<1x4x2x2xf32>, tensor<4xf32>
}
