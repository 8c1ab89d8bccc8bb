// RUN: mlc-opt %s -split-input-file -relay-to-relax -verify-diagnostics | FileCheck %s

// Relay ops without a relax op of their own: prelu and upsampling map onto
// relax.nn.prelu / relax.image.resize2d, global and adaptive max pools onto
// max reductions, max_pool2d or per-bin slices; size-mode strided_slice and
// a used dropout mask get relax forms too.

// CHECK-LABEL: func.func @prelu(
// CHECK: relax.nn.prelu %{{.*}}, %{{.*}} {axis = 3 : i64} : (tensor<1x6x5x4xf32>, tensor<4xf32>) -> tensor<1x6x5x4xf32>
func.func @prelu(%x: tensor<1x6x5x4xf32>, %a: tensor<4xf32>) -> tensor<1x6x5x4xf32> {
  %0 = relay.nn.prelu %x, %a {axis = 3 : i64} : (tensor<1x6x5x4xf32>, tensor<4xf32>) -> tensor<1x6x5x4xf32>
  return %0 : tensor<1x6x5x4xf32>
}

// -----

// TOPI's upsampling: the result size, asymmetric coordinates (or
// align_corners), TOPI's default rounding; bilinear is resize2d's linear.
// CHECK-LABEL: func.func @upsampling(
// CHECK: relax.image.resize2d %{{.*}} {coordinate_transformation_mode = "asymmetric", method = "nearest_neighbor", rounding_method = "", size = array<i64: 12, 8>} : (tensor<1x4x6x5xf32>) -> tensor<1x4x12x8xf32>
// CHECK: relax.image.resize2d %{{.*}} {coordinate_transformation_mode = "align_corners", layout = "NHWC", rounding_method = "", size = array<i64: 12, 10>} : (tensor<1x6x5x4xf32>) -> tensor<1x12x10x4xf32>
func.func @upsampling(%x: tensor<1x4x6x5xf32>, %h: tensor<1x6x5x4xf32>) -> (tensor<1x4x12x8xf32>, tensor<1x12x10x4xf32>) {
  %0 = relay.nn.upsampling %x {scale_h = 2.000000e+00 : f64, scale_w = 1.500000e+00 : f64} : (tensor<1x4x6x5xf32>) -> tensor<1x4x12x8xf32>
  %1 = relay.nn.upsampling %h {align_corners = true, layout = "NHWC", method = "bilinear", scale_h = 2.000000e+00 : f64, scale_w = 2.000000e+00 : f64} : (tensor<1x6x5x4xf32>) -> tensor<1x12x10x4xf32>
  return %0, %1 : tensor<1x4x12x8xf32>, tensor<1x12x10x4xf32>
}

// -----

// CHECK-LABEL: func.func @global_max_pool2d(
// CHECK: relax.max %{{.*}} {axis = array<i64: 2, 3>, keepdims = true} : (tensor<1x4x6x5xf32>) -> tensor<1x4x1x1xf32>
// CHECK: relax.max %{{.*}} {axis = array<i64: 1, 2>, keepdims = true} : (tensor<1x6x5x4xf32>) -> tensor<1x1x1x4xf32>
func.func @global_max_pool2d(%x: tensor<1x4x6x5xf32>, %h: tensor<1x6x5x4xf32>) -> (tensor<1x4x1x1xf32>, tensor<1x1x1x4xf32>) {
  %0 = relay.nn.global_max_pool2d %x : (tensor<1x4x6x5xf32>) -> tensor<1x4x1x1xf32>
  %1 = relay.nn.global_max_pool2d %h {layout = "NHWC"} : (tensor<1x6x5x4xf32>) -> tensor<1x1x1x4xf32>
  return %0, %1 : tensor<1x4x1x1xf32>, tensor<1x1x1x4xf32>
}

// -----

// Divisible sizes are a max_pool2d; others take TOPI's bins
// [floor(i * in / out), ceil((i + 1) * in / out)) one axis at a time;
// 1x1 is a max, an unchanged size the identity.
// CHECK-LABEL: func.func @adaptive_max_pool2d(
// CHECK: relax.nn.max_pool2d %{{.*}} {pool_size = array<i64: 2, 1>, strides = array<i64: 2, 1>} : (tensor<1x4x6x5xf32>) -> tensor<1x4x3x5xf32>
// CHECK: %[[S0:.*]] = relax.strided_slice %{{.*}} {axes = array<i64: 2>, begin = array<i64: 0>, end = array<i64: 2>}
// CHECK: %[[M0:.*]] = relax.max %[[S0]] {axis = array<i64: 2>, keepdims = true} : (tensor<1x4x2x5xf32>) -> tensor<1x4x1x5xf32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 2>, begin = array<i64: 1>, end = array<i64: 3>}
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 2>, begin = array<i64: 3>, end = array<i64: 5>}
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 2>, begin = array<i64: 4>, end = array<i64: 6>}
// CHECK: %[[H:.*]] = relax.concat %[[M0]], %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64} : {{.*}} -> tensor<1x4x4x5xf32>
// CHECK: relax.strided_slice %[[H]] {axes = array<i64: 3>, begin = array<i64: 0>, end = array<i64: 3>}
// CHECK: relax.strided_slice %[[H]] {axes = array<i64: 3>, begin = array<i64: 2>, end = array<i64: 5>}
// CHECK: relax.concat %{{.*}}, %{{.*}} {axis = 3 : i64} : {{.*}} -> tensor<1x4x4x2xf32>
// CHECK: relax.max %{{.*}} {axis = array<i64: 2, 3>, keepdims = true} : (tensor<1x4x6x5xf32>) -> tensor<1x4x1x1xf32>
// CHECK: return {{.*}}, {{.*}}, {{.*}}, %arg0 :
func.func @adaptive_max_pool2d(%x: tensor<1x4x6x5xf32>) -> (tensor<1x4x3x5xf32>, tensor<1x4x4x2xf32>, tensor<1x4x1x1xf32>, tensor<1x4x6x5xf32>) {
  %0 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 3, 5>} : (tensor<1x4x6x5xf32>) -> tensor<1x4x3x5xf32>
  %1 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 4, 2>} : (tensor<1x4x6x5xf32>) -> tensor<1x4x4x2xf32>
  %2 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 1>} : (tensor<1x4x6x5xf32>) -> tensor<1x4x1x1xf32>
  %3 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 6, 5>} : (tensor<1x4x6x5xf32>) -> tensor<1x4x6x5xf32>
  return %0, %1, %2, %3 : tensor<1x4x3x5xf32>, tensor<1x4x4x2xf32>, tensor<1x4x1x1xf32>, tensor<1x4x6x5xf32>
}

// -----

// Sizes become ends (begin + size; -1: to the end), strides are 1.
// CHECK-LABEL: func.func @strided_slice_size(
// CHECK: relax.strided_slice %{{.*}} {begin = array<i64: 1, -3>, end = array<i64: 3, 9223372036854775807>} : (tensor<3x4xf32>) -> tensor<2x3xf32>
func.func @strided_slice_size(%m: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %0 = relay.strided_slice %m {begin = array<i64: 1, -3>, end = array<i64: 2, -1>, slice_mode = "size"} : (tensor<3x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// At inference nothing is dropped: the output is the input, the mask ones.
// CHECK-LABEL: func.func @dropout_mask(
// CHECK: %[[ONES:.*]] = relax.constant dense<1.000000e+00> : tensor<3x4xf32>
// CHECK: return %arg0, %[[ONES]]
func.func @dropout_mask(%m: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %output, %mask = relay.nn.dropout %m {rate = 3.000000e-01 : f64} : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return %output, %mask : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

func.func @dropout_dynamic_mask(%m: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  // expected-error @below {{'relay.nn.dropout' is not converted: a dropout mask of dynamic shape has no relax equivalent}}
  %output, %mask = relay.nn.dropout %m : (tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return %output, %mask : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

func.func @take_batch_dims(%x: tensor<3x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  // expected-error @below {{'relay.take' is not converted: take with batch_dims=1 has no relax equivalent (relax.take has no batch dimensions)}}
  %0 = relay.take %x, %i {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @dynamic_reshape(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  // expected-error @below {{'relay.reshape' is not converted: a reshape to a dynamic shape has no relax equivalent yet}}
  %0 = relay.reshape %x {newshape = array<i64: -1, 2>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @tuple_argument(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @below {{'relay.tuple' is not converted: first-class tuples (tuple-typed values passed between functions) have no relax equivalent yet}}
  %t = relay.tuple %x, %x : (tensor<3x4xf32>, tensor<3x4xf32>) -> tuple<tensor<3x4xf32>, tensor<3x4xf32>>
  %0 = call @first(%t) : (tuple<tensor<3x4xf32>, tensor<3x4xf32>>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func private @first(%t: tuple<tensor<3x4xf32>, tensor<3x4xf32>>) -> tensor<3x4xf32> {
  %0 = relay.tuple_get_item %t {index = 0 : i64} : (tuple<tensor<3x4xf32>, tensor<3x4xf32>>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @upsampling_dynamic(%x: tensor<1x4x?x5xf32>) -> tensor<1x4x?x10xf32> {
  // expected-error @below {{'relay.nn.upsampling' is not converted: dynamic spatial sizes or the layout are not supported}}
  %0 = relay.nn.upsampling %x {scale_h = 2.000000e+00 : f64, scale_w = 2.000000e+00 : f64} : (tensor<1x4x?x5xf32>) -> tensor<1x4x?x10xf32>
  return %0 : tensor<1x4x?x10xf32>
}
