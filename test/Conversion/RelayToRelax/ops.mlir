// RUN: mlc-opt %s -split-input-file -relay-to-relax | FileCheck %s

// CHECK-LABEL: func.func @elementwise(
// CHECK: relax.subtract %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relax.multiply %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relax.divide %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relax.nn.relu %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relax.nn.softmax %{{.*}} {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relax.nn.log_softmax %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @elementwise(%x: tensor<2x3xf32> {relay.name = "x"}, %b: tensor<3xf32> {relay.name = "b"}) -> tensor<2x3xf32> {
  %0 = relay.subtract %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = relay.multiply %0, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.divide %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = relay.nn.relu %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = relay.nn.softmax %3 {axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = relay.nn.log_softmax %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// -----

// reshape takes the static result shape (Relay's special values resolved);
// transpose becomes permute_dims with the same axes.
// CHECK-LABEL: func.func @shapes(
// CHECK: relax.reshape %{{.*}} {shape = array<i64: 3, 2, 4>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK: relax.permute_dims %{{.*}} {axes = array<i64: 2, 0, 1>} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
// CHECK: relax.permute_dims %{{.*}} : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
func.func @shapes(%x: tensor<2x3x4xf32> {relay.name = "x"}) -> tensor<2x3x4xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 3, -1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = relay.transpose %0 {axes = array<i64: 2, 0, 1>} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  %2 = relay.transpose %1 : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  return %2 : tensor<2x3x4xf32>
}

// -----

// nn.dense: matmul with the transposed weight.
// CHECK-LABEL: func.func @dense(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32> {relax.name = "x"}, %[[W:[^:]*]]: tensor<2x8xf32> {relax.name = "w"})
// CHECK: %[[T:.*]] = relax.permute_dims %[[W]] : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK: relax.matmul %[[X]], %[[T]] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
func.func @dense(%x: tensor<4x8xf32> {relay.name = "x"}, %w: tensor<2x8xf32> {relay.name = "w"}) -> tensor<4x2xf32> {
  %0 = relay.nn.dense %x, %w {units = 2 : i64} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// nn.bias_add on a non-last axis: the bias gets trailing unit dimensions.
// CHECK-LABEL: func.func @bias_add(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x4x5x5xf32> {relax.name = "x"}, %[[B:[^:]*]]: tensor<4xf32> {relax.name = "b"},
// CHECK: %[[E:.*]] = relax.expand_dims %[[B]] {axis = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: relax.add %[[X]], %[[E]] : (tensor<1x4x5x5xf32>, tensor<4x1x1xf32>) -> tensor<1x4x5x5xf32>
// CHECK: %[[E2:.*]] = relax.expand_dims %[[B]] {axis = array<i64: 1, 2>}
// CHECK: relax.add %{{.*}}, %[[E2]]
// CHECK-NOT: relax.expand_dims
// CHECK: relax.add %{{.*}}, %{{.*}} : (tensor<1x4x5x5xf32>, tensor<5xf32>) -> tensor<1x4x5x5xf32>
func.func @bias_add(%x: tensor<1x4x5x5xf32> {relay.name = "x"}, %b: tensor<4xf32> {relay.name = "b"}, %c: tensor<5xf32> {relay.name = "c"}) -> tensor<1x4x5x5xf32> {
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x5x5xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  %1 = relay.nn.bias_add %0, %b {axis = -3 : i64} : (tensor<1x4x5x5xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  %2 = relay.nn.bias_add %1, %c {axis = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<5xf32>) -> tensor<1x4x5x5xf32>
  return %2 : tensor<1x4x5x5xf32>
}

// -----

// nn.matmul / nn.batch_matmul: transposed operands get permute_dims of their
// last two dimensions.
// CHECK-LABEL: func.func @matmuls(
// CHECK-SAME: %[[A:[^:]*]]: tensor<8x4xf32> {{.*}}, %[[B:[^:]*]]: tensor<2x8xf32> {{.*}}, %[[X:[^:]*]]: tensor<3x4x8xf32> {{.*}}, %[[Y:[^:]*]]: tensor<3x2x8xf32>
// CHECK: %[[TA:.*]] = relax.permute_dims %[[A]] : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK: %[[TB:.*]] = relax.permute_dims %[[B]] : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK: relax.matmul %[[TA]], %[[TB]] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK: %[[TY:.*]] = relax.permute_dims %[[Y]] {axes = array<i64: 0, 2, 1>} : (tensor<3x2x8xf32>) -> tensor<3x8x2xf32>
// CHECK: relax.matmul %[[X]], %[[TY]] : (tensor<3x4x8xf32>, tensor<3x8x2xf32>) -> tensor<3x4x2xf32>
func.func @matmuls(%a: tensor<8x4xf32> {relay.name = "a"}, %b: tensor<2x8xf32> {relay.name = "b"}, %x: tensor<3x4x8xf32> {relay.name = "x"}, %y: tensor<3x2x8xf32> {relay.name = "y"}) -> (tensor<4x2xf32>, tensor<3x4x2xf32>) {
  %0 = relay.nn.matmul %a, %b {transpose_a = true, transpose_b = true} : (tensor<8x4xf32>, tensor<2x8xf32>) -> tensor<4x2xf32>
  %1 = relay.nn.batch_matmul %x, %y : (tensor<3x4x8xf32>, tensor<3x2x8xf32>) -> tensor<3x4x2xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<3x4x2xf32>
}

// -----

// Elementwise math, comparisons (i1 results) and power/maximum/minimum.
// CHECK-LABEL: func.func @math(
// CHECK: relax.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relax.log
// CHECK: relax.sqrt
// CHECK: relax.rsqrt
// CHECK: relax.tanh
// CHECK: relax.sigmoid
// CHECK: relax.erf
// CHECK: relax.abs
// CHECK: relax.negative
// CHECK: relax.power %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relax.maximum
// CHECK: relax.minimum
// CHECK: relax.less %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK: relax.greater
// CHECK: relax.less_equal
// CHECK: relax.greater_equal
// CHECK: relax.equal
// CHECK: relax.not_equal
func.func @math(%x: tensor<2x3xf32> {relay.name = "x"}, %b: tensor<3xf32> {relay.name = "b"}) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = relay.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = relay.log %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.sqrt %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = relay.rsqrt %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = relay.tanh %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = relay.sigmoid %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = relay.erf %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = relay.abs %6 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = relay.negative %7 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = relay.power %8, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %10 = relay.maximum %9, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %11 = relay.minimum %10, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %12 = relay.less %11, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %13 = relay.greater %11, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %14 = relay.less_equal %11, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %15 = relay.greater_equal %11, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %16 = relay.equal %11, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %17 = relay.not_equal %11, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %11, %12, %13, %14, %15, %16, %17 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>
}

// -----

// cast is relax.astype; clip's a_min/a_max become min/max.
// CHECK-LABEL: func.func @cast_clip_where(
// CHECK: relax.astype %{{.*}} {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK: relax.clip %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relax.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
func.func @cast_clip_where(%x: tensor<2x3xf32> {relay.name = "x"}, %c: tensor<2x1xi1> {relay.name = "c"}, %y: tensor<f32> {relay.name = "y"}) -> (tensor<2x3xf16>, tensor<2x3xf32>) {
  %0 = relay.cast %x {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %1 = relay.clip %x {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.where %c, %1, %y : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %2 : tensor<2x3xf16>, tensor<2x3xf32>
}

// -----

// Tensor ops keep their relay attributes (strided_slice without slice_mode,
// take without batch_dims).
// CHECK-LABEL: func.func @tensor_ops(
// CHECK: relax.squeeze %{{.*}} {axis = array<i64: 1>} : (tensor<4x1x6xf32>) -> tensor<4x6xf32>
// CHECK: relax.split %{{.*}} {axis = 1 : i64, indices_or_sections = 2 : i64} : (tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK: relax.strided_slice %{{.*}} {begin = array<i64: 1>, end = array<i64: 3>} : (tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK: relax.take %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
// CHECK: relax.broadcast_to %{{.*}} {shape = array<i64: 2, 2, 3>} : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
func.func @tensor_ops(%x: tensor<4x1x6xf32> {relay.name = "x"}, %i: tensor<2xi32> {relay.name = "i"}) -> (tensor<2x3xf32>, tensor<2x2x3xf32>) {
  %0 = relay.squeeze %x {axis = array<i64: 1>} : (tensor<4x1x6xf32>) -> tensor<4x6xf32>
  %1:2 = relay.split %0 {indices_or_sections = 2 : i64, axis = 1 : i64} : (tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  %2 = relay.strided_slice %1#0 {begin = array<i64: 1>, end = array<i64: 3>} : (tensor<4x3xf32>) -> tensor<2x3xf32>
  %3 = relay.take %1#1, %i {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %4 = relay.broadcast_to %3 {shape = array<i64: 2, 2, 3>} : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
  return %2, %4 : tensor<2x3xf32>, tensor<2x2x3xf32>
}

// -----

// max/min/prod keep their attributes; argmax/argmin compute i64 indices
// (TVM Relax) and cast back to relay's i32.
// CHECK-LABEL: func.func @reductions(
// CHECK: relax.max %{{.*}} {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
// CHECK: relax.min %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK: relax.prod %{{.*}} : (tensor<2x3xf32>) -> tensor<f32>
// CHECK: %[[A:.*]] = relax.argmax %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK: relax.astype %[[A]] {dtype = i32} : (tensor<2xi64>) -> tensor<2xi32>
// CHECK: %[[B:.*]] = relax.argmin %{{.*}} : (tensor<2x3xf32>) -> tensor<i64>
// CHECK: relax.astype %[[B]] {dtype = i32} : (tensor<i64>) -> tensor<i32>
func.func @reductions(%x: tensor<2x3xf32> {relay.name = "x"}) -> (tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2xi32>, tensor<i32>) {
  %0 = relay.max %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %1 = relay.min %x {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %2 = relay.prod %x : (tensor<2x3xf32>) -> tensor<f32>
  %3 = relay.argmax %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xi32>
  %4 = relay.argmin %x : (tensor<2x3xf32>) -> tensor<i32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2xi32>, tensor<i32>
}

// -----

// dropout forwards its input (inference); batch_flatten is a reshape;
// leaky_relu and pad keep their attributes.
// CHECK-LABEL: func.func @nn_more(
// CHECK-NOT: dropout
// CHECK: relax.nn.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
// CHECK: relax.nn.pad %{{.*}}, %{{.*}} {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
// CHECK: relax.reshape %{{.*}} {shape = array<i64: 1, 64>} : (tensor<1x4x4x4xf32>) -> tensor<1x64xf32>
func.func @nn_more(%x: tensor<1x4x2x2xf32> {relay.name = "x"}, %z: tensor<f32> {relay.name = "z"}) -> tensor<1x64xf32> {
  %0:2 = relay.nn.dropout %x {rate = 2.000000e-01 : f64} : (tensor<1x4x2x2xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>)
  %1 = relay.nn.leaky_relu %0#0 {alpha = 2.000000e-01 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = relay.nn.pad %1, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  %3 = relay.nn.batch_flatten %2 : (tensor<1x4x4x4xf32>) -> tensor<1x64xf32>
  return %3 : tensor<1x64xf32>
}

// -----

// conv2d_transpose drops relay's channels/kernel_size hints.
// CHECK-LABEL: func.func @conv2d_transpose(
// CHECK: relax.nn.conv2d_transpose %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
func.func @conv2d_transpose(%x: tensor<1x16x8x8xf32> {relay.name = "x"}, %w: tensor<16x8x2x2xf32> {relay.name = "w"}) -> tensor<1x8x16x16xf32> {
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, channels = 8 : i64, kernel_size = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
  return %0 : tensor<1x8x16x16xf32>
}

// -----

// instance_norm / group_norm: relay's axis becomes channel_axis.
// CHECK-LABEL: func.func @channel_norms(
// CHECK: relax.nn.instance_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// CHECK: relax.nn.group_norm %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
func.func @channel_norms(%x: tensor<1x4x8x8xf32> {relay.name = "x"}, %g: tensor<4xf32> {relay.name = "g"}) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.instance_norm %x, %g, %g : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.group_norm %0, %g, %g {num_groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %1 : tensor<1x4x8x8xf32>
}

// -----

// expand_dims lists the new result positions; adaptive_avg_pool2d keeps its
// attributes.
// CHECK-LABEL: func.func @expand_pool(
// CHECK: relax.expand_dims %{{.*}} {axis = array<i64: 2, 3>} : (tensor<1x4xf32>) -> tensor<1x4x1x1xf32>
// CHECK: relax.nn.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 1, 1>} : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
func.func @expand_pool(%x: tensor<1x4xf32> {relay.name = "x"}) -> tensor<1x4x1x1xf32> {
  %0 = relay.expand_dims %x {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<1x4xf32>) -> tensor<1x4x1x1xf32>
  %1 = relay.nn.adaptive_avg_pool2d %0 {output_size = array<i64: 1, 1>} : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  return %1 : tensor<1x4x1x1xf32>
}
