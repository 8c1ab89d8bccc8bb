// RUN: mlc-opt %s | FileCheck %s

// Result types follow Relay's type relations. Every op below is verified
// against the type its operands and attributes infer, so each line checks
// one inference; the CHECK lines pin the printed result types.

// CHECK-LABEL: func.func @broadcast
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.multiply %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.subtract %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<1xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK: relay.divide %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<f32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK: relay.power %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
func.func @broadcast(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>, %c: tensor<2x1x4xf32>, %d: tensor<3x1xf32>, %s: tensor<f32>, %v: tensor<5xf32>, %o: tensor<1xf32>) {
  %0 = relay.add %a, %b : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %1 = relay.add %b, %a : (tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = relay.multiply %c, %d : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %3 = relay.subtract %o, %v : (tensor<1xf32>, tensor<5xf32>) -> tensor<5xf32>
  %4 = relay.divide %s, %v : (tensor<f32>, tensor<5xf32>) -> tensor<5xf32>
  %5 = relay.power %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @broadcast_dynamic
// CHECK: relay.maximum %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK: relay.maximum %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK: relay.minimum %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<5xf32>, tensor<?xf32>) -> tensor<5xf32>
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<1xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x1xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK: relay.less %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x3xf32>, tensor<1xf32>) -> tensor<?x3xi1>
// CHECK: relay.not_equal %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xi1>
func.func @broadcast_dynamic(%a: tensor<?x3xf32>, %b: tensor<3xf32>, %d: tensor<?xf32>, %v: tensor<5xf32>, %o: tensor<1xf32>, %e: tensor<?x1xf32>, %f: tensor<1x4xf32>) {
  %0 = relay.maximum %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %1 = relay.maximum %d, %v : (tensor<?xf32>, tensor<5xf32>) -> tensor<5xf32>
  %2 = relay.minimum %v, %d : (tensor<5xf32>, tensor<?xf32>) -> tensor<5xf32>
  %3 = relay.add %d, %o : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %4 = relay.add %o, %d : (tensor<1xf32>, tensor<?xf32>) -> tensor<?xf32>
  %5 = relay.add %d, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %6 = relay.add %e, %f : (tensor<?x1xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %7 = relay.less %a, %o : (tensor<?x3xf32>, tensor<1xf32>) -> tensor<?x3xi1>
  %8 = relay.not_equal %e, %d : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xi1>
  return
}

// CHECK-LABEL: func.func @where
// CHECK: relay.where %{{[^ ,:]+}}, %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x1x1xi1>, tensor<3x1xi32>, tensor<4xi32>) -> tensor<?x3x4xi32>
// CHECK: relay.where %{{[^ ,:]+}}, %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<i1>, tensor<3x1xi32>, tensor<4xi32>) -> tensor<3x4xi32>
func.func @where(%c: tensor<?x1x1xi1>, %x: tensor<3x1xi32>, %y: tensor<4xi32>, %s: tensor<i1>) {
  %0 = relay.where %c, %x, %y : (tensor<?x1x1xi1>, tensor<3x1xi32>, tensor<4xi32>) -> tensor<?x3x4xi32>
  %1 = relay.where %s, %x, %y : (tensor<i1>, tensor<3x1xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  return
}

// The examples of TVM's reshape documentation.
// CHECK-LABEL: func.func @reshape
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 4, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 2, 0, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 6, 1, -1>} : (tensor<2x3x4xf32>) -> tensor<6x1x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 3, -1, 8>} : (tensor<2x3x4xf32>) -> tensor<3x1x8xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 2, -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -2, 1, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1x1xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -3, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -3, -3>} : (tensor<2x3x4x5xf32>) -> tensor<6x20xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 0, -3>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -3, -2>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -4, 1, 2, -2>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 2, -4, -1, 3, -2>} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 0, -4, 3, -1, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3x1x4xf32>
func.func @reshape(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4x5xf32>) {
  %0 = relay.reshape %a {newshape = array<i64: 4, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = relay.reshape %a {newshape = array<i64: 2, 0, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = relay.reshape %a {newshape = array<i64: 6, 1, -1>} : (tensor<2x3x4xf32>) -> tensor<6x1x4xf32>
  %3 = relay.reshape %a {newshape = array<i64: 3, -1, 8>} : (tensor<2x3x4xf32>) -> tensor<3x1x8xf32>
  %4 = relay.reshape %a {newshape = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %5 = relay.reshape %a {newshape = array<i64: -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %6 = relay.reshape %a {newshape = array<i64: 2, -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %7 = relay.reshape %a {newshape = array<i64: -2, 1, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1x1xf32>
  %8 = relay.reshape %a {newshape = array<i64: -3, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %9 = relay.reshape %b {newshape = array<i64: -3, -3>} : (tensor<2x3x4x5xf32>) -> tensor<6x20xf32>
  %10 = relay.reshape %a {newshape = array<i64: 0, -3>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %11 = relay.reshape %a {newshape = array<i64: -3, -2>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %12 = relay.reshape %a {newshape = array<i64: -4, 1, 2, -2>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %13 = relay.reshape %a {newshape = array<i64: 2, -4, -1, 3, -2>} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
  %14 = relay.reshape %a {newshape = array<i64: 0, -4, 3, -1, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3x1x4xf32>
  return
}

// CHECK-LABEL: func.func @reshape_dynamic
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 0, -1>} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -1, 4>} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -3, 0>} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -4, 2, -1>} : (tensor<?xf32>) -> tensor<2x?xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -1>} : (tensor<2x?x4xf32>) -> tensor<?xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 8, -1>} : (tensor<2x?x4xf32>) -> tensor<8x?xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: -2>} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
func.func @reshape_dynamic(%a: tensor<?x3x4xf32>, %b: tensor<?xf32>, %c: tensor<2x?x4xf32>) {
  %0 = relay.reshape %a {newshape = array<i64: 0, -1>} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %1 = relay.reshape %a {newshape = array<i64: -1, 4>} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  %2 = relay.reshape %a {newshape = array<i64: -3, 0>} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  %3 = relay.reshape %b {newshape = array<i64: -4, 2, -1>} : (tensor<?xf32>) -> tensor<2x?xf32>
  %4 = relay.reshape %c {newshape = array<i64: -1>} : (tensor<2x?x4xf32>) -> tensor<?xf32>
  %5 = relay.reshape %c {newshape = array<i64: 8, -1>} : (tensor<2x?x4xf32>) -> tensor<8x?xf32>
  %6 = relay.reshape %c {newshape = array<i64: -2>} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  return
}

// CHECK-LABEL: func.func @strided_slice
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: -3>, end = array<i64: -1>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: -100>, end = array<i64: 100>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: -1>, end = array<i64: -5>, strides = array<i64: -1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 3, 4>, end = array<i64: 0, 0>, strides = array<i64: -2, -2>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 0, 0>, end = array<i64: 4, 5>, strides = array<i64: 2>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64>, end = array<i64>, strides = array<i64: -1, -1>} : (tensor<4x5xf32>) -> tensor<3x4xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {axes = array<i64: 1, 0>, begin = array<i64: 1, 2>, end = array<i64: 3, 5>, strides = array<i64: 1, 2>} : (tensor<4x5xf32>) -> tensor<1x2xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 1>, end = array<i64: -1>, slice_mode = "size"} : (tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 1, 2>, end = array<i64: 2, 2>, slice_mode = "size", strides = array<i64: 7>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {axes = array<i64: -1>, begin = array<i64: 1>, end = array<i64: 3>, strides = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4x2xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 1, 1>, end = array<i64: 3, 4>} : (tensor<?x5xf32>) -> tensor<?x3xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 2>, end = array<i64: 2>} : (tensor<4x5xf32>) -> tensor<0x5xf32>
func.func @strided_slice(%a: tensor<4x5xf32>, %d: tensor<?x5xf32>) {
  %0 = relay.strided_slice %a {begin = array<i64: -3>, end = array<i64: -1>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
  %1 = relay.strided_slice %a {begin = array<i64: -100>, end = array<i64: 100>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  // Dimensions without an entry are taken whole with stride 1.
  %2 = relay.strided_slice %a {begin = array<i64: -1>, end = array<i64: -5>, strides = array<i64: -1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %3 = relay.strided_slice %a {begin = array<i64: 3, 4>, end = array<i64: 0, 0>, strides = array<i64: -2, -2>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
  %4 = relay.strided_slice %a {begin = array<i64: 0, 0>, end = array<i64: 4, 5>, strides = array<i64: 2>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
  // As in TVM, a missing end with a negative stride is 0, which is excluded.
  %10 = relay.strided_slice %a {begin = array<i64>, end = array<i64>, strides = array<i64: -1, -1>} : (tensor<4x5xf32>) -> tensor<3x4xf32>
  %11 = relay.strided_slice %a {begin = array<i64: 1, 2>, end = array<i64: 3, 5>, strides = array<i64: 1, 2>, axes = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<1x2xf32>
  %5 = relay.strided_slice %a {begin = array<i64: 1>, end = array<i64: -1>, slice_mode = "size"} : (tensor<4x5xf32>) -> tensor<3x5xf32>
  %6 = relay.strided_slice %a {begin = array<i64: 1, 2>, end = array<i64: 2, 2>, strides = array<i64: 7>, slice_mode = "size"} : (tensor<4x5xf32>) -> tensor<2x2xf32>
  %7 = relay.strided_slice %a {begin = array<i64: 1>, end = array<i64: 3>, strides = array<i64: 1>, axes = array<i64: -1>} : (tensor<4x5xf32>) -> tensor<4x2xf32>
  %8 = relay.strided_slice %d {begin = array<i64: 1, 1>, end = array<i64: 3, 4>} : (tensor<?x5xf32>) -> tensor<?x3xf32>
  %9 = relay.strided_slice %a {begin = array<i64: 2>, end = array<i64: 2>} : (tensor<4x5xf32>) -> tensor<0x5xf32>
  return
}

// CHECK-LABEL: func.func @split
// CHECK: relay.split %{{[^ ,:]+}} {indices_or_sections = 3 : i64} : (tensor<6x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>)
// CHECK: relay.split %{{[^ ,:]+}} {indices_or_sections = array<i64: 1, 4>} : (tensor<6x?xf32>) -> (tensor<1x?xf32>, tensor<3x?xf32>, tensor<2x?xf32>)
// CHECK: relay.split %{{[^ ,:]+}} {axis = -1 : i64, indices_or_sections = 2 : i64} : (tensor<6x?xf32>) -> (tensor<6x?xf32>, tensor<6x?xf32>)
// CHECK: relay.split %{{[^ ,:]+}} {axis = 1 : i64, indices_or_sections = array<i64: 2>} : (tensor<6x?xf32>) -> (tensor<6x2xf32>, tensor<6x?xf32>)
// CHECK: relay.split %{{[^ ,:]+}} {indices_or_sections = 1 : i64} : (tensor<6x?xf32>) -> tensor<6x?xf32>
func.func @split(%a: tensor<6x?xf32>) {
  %0:3 = relay.split %a {indices_or_sections = 3 : i64} : (tensor<6x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>)
  %1:3 = relay.split %a {indices_or_sections = array<i64: 1, 4>} : (tensor<6x?xf32>) -> (tensor<1x?xf32>, tensor<3x?xf32>, tensor<2x?xf32>)
  %2:2 = relay.split %a {indices_or_sections = 2 : i64, axis = -1 : i64} : (tensor<6x?xf32>) -> (tensor<6x?xf32>, tensor<6x?xf32>)
  %3:2 = relay.split %a {indices_or_sections = array<i64: 2>, axis = 1 : i64} : (tensor<6x?xf32>) -> (tensor<6x2xf32>, tensor<6x?xf32>)
  %4 = relay.split %a {indices_or_sections = 1 : i64} : (tensor<6x?xf32>) -> tensor<6x?xf32>
  return
}

// CHECK-LABEL: func.func @reduce
// CHECK: relay.sum %{{[^ ,:]+}} {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
// CHECK: relay.sum %{{[^ ,:]+}} {axis = array<i64: 1>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK: relay.mean %{{[^ ,:]+}} {axis = array<i64: -1, 0>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK: relay.max %{{[^ ,:]+}} {axis = array<i64>} : (tensor<2x3x4xf32>) -> tensor<f32>
// CHECK: relay.min %{{[^ ,:]+}} {keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// CHECK: relay.prod %{{[^ ,:]+}} {axis = array<i64: 1>} : (tensor<?x3xi64>) -> tensor<?xi64>
// CHECK: relay.prod %{{[^ ,:]+}} {axis = array<i64: 0>, keepdims = true} : (tensor<?x3xi64>) -> tensor<1x3xi64>
// CHECK: relay.argmax %{{[^ ,:]+}} {axis = array<i64: 0, 2>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
// CHECK: relay.argmin %{{[^ ,:]+}} : (tensor<?x3xi64>) -> tensor<i32>
// CHECK: relay.argmin %{{[^ ,:]+}} {axis = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi32>
func.func @reduce(%a: tensor<2x3x4xf32>, %d: tensor<?x3xi64>) {
  %0 = relay.sum %a {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = relay.sum %a {axis = array<i64: 1>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %2 = relay.mean %a {axis = array<i64: -1, 0>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %3 = relay.max %a {axis = array<i64>} : (tensor<2x3x4xf32>) -> tensor<f32>
  %4 = relay.min %a {keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  %5 = relay.prod %d {axis = array<i64: 1>} : (tensor<?x3xi64>) -> tensor<?xi64>
  %6 = relay.prod %d {axis = array<i64: 0>, keepdims = true} : (tensor<?x3xi64>) -> tensor<1x3xi64>
  %7 = relay.argmax %a {axis = array<i64: 0, 2>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  %8 = relay.argmin %d : (tensor<?x3xi64>) -> tensor<i32>
  %9 = relay.argmin %a {axis = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi32>
  return
}

// TVM's ConcatenateRel: off the concatenated axis a known size is kept only
// if every input knows it or the concatenated axis is unknown.
// CHECK-LABEL: func.func @concatenate_dynamic
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<1x3xf32>, tensor<1x?xf32>) -> tensor<2x?xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = 1 : i64} : (tensor<?x?xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
func.func @concatenate_dynamic(%a: tensor<?x3xf32>, %b: tensor<?x?xf32>, %c: tensor<1x3xf32>, %d: tensor<1x?xf32>) {
  %0 = relay.concatenate %a, %b : (tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
  %1 = relay.concatenate %c, %d : (tensor<1x3xf32>, tensor<1x?xf32>) -> tensor<2x?xf32>
  %2 = relay.concatenate %c, %c, %c : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %3 = relay.concatenate %b, %d {axis = 1 : i64} : (tensor<?x?xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
  return
}

// CHECK-LABEL: func.func @shapes
// CHECK: relay.squeeze %{{[^ ,:]+}} {axis = array<i64: 1>} : (tensor<2x1x?xf32>) -> tensor<2x?xf32>
// CHECK: relay.squeeze %{{[^ ,:]+}} {axis = array<i64: -1, 1>} : (tensor<2x1x?xf32>) -> tensor<2xf32>
// CHECK: relay.expand_dims %{{[^ ,:]+}} {axis = -4 : i64} : (tensor<2x1x?xf32>) -> tensor<1x2x1x?xf32>
// CHECK: relay.expand_dims %{{[^ ,:]+}} {axis = 3 : i64, num_newaxis = 0 : i64} : (tensor<2x1x?xf32>) -> tensor<2x1x?xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = 1 : i64} : (tensor<2x1x?xf32>, tensor<2x5x?xf32>, tensor<2x1x?xf32>) -> tensor<2x7x?xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = -1 : i64} : (tensor<2x5x?xf32>, tensor<?x5x3xf32>) -> tensor<2x5x?xf32>
// CHECK: relay.transpose %{{[^ ,:]+}} {axes = array<i64: -1, 0, 1>} : (tensor<?x4x3xf32>) -> tensor<3x?x4xf32>
// CHECK: relay.take %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = -1 : i64} : (tensor<?x4x3xf32>, tensor<2x7xi32>) -> tensor<?x4x2x7xf32>
// CHECK: relay.take %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<?x4x3xf32>, tensor<2x7xi32>) -> tensor<2x7xf32>
// CHECK: relay.take %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5x?xf32>, tensor<2x7xi32>) -> tensor<2x7x?xf32>
// CHECK: relay.broadcast_to %{{[^ ,:]+}} {shape = array<i64: 2, 4, 3>} : (tensor<1x3xf32>) -> tensor<2x4x3xf32>
// CHECK: relay.cast %{{[^ ,:]+}} {dtype = i64} : (tensor<2x1x?xf32>) -> tensor<2x1x?xi64>
func.func @shapes(%a: tensor<2x1x?xf32>, %b: tensor<2x5x?xf32>, %c: tensor<?x4x3xf32>, %i: tensor<2x7xi32>, %v: tensor<1x3xf32>, %e: tensor<?x5x3xf32>) {
  %0 = relay.squeeze %a {axis = array<i64: 1>} : (tensor<2x1x?xf32>) -> tensor<2x?xf32>
  %1 = relay.squeeze %a {axis = array<i64: -1, 1>} : (tensor<2x1x?xf32>) -> tensor<2xf32>
  %2 = relay.expand_dims %a {axis = -4 : i64} : (tensor<2x1x?xf32>) -> tensor<1x2x1x?xf32>
  %3 = relay.expand_dims %a {axis = 3 : i64, num_newaxis = 0 : i64} : (tensor<2x1x?xf32>) -> tensor<2x1x?xf32>
  %4 = relay.concatenate %a, %b, %a {axis = 1 : i64} : (tensor<2x1x?xf32>, tensor<2x5x?xf32>, tensor<2x1x?xf32>) -> tensor<2x7x?xf32>
  %5 = relay.concatenate %b, %e {axis = -1 : i64} : (tensor<2x5x?xf32>, tensor<?x5x3xf32>) -> tensor<2x5x?xf32>
  %6 = relay.transpose %c {axes = array<i64: -1, 0, 1>} : (tensor<?x4x3xf32>) -> tensor<3x?x4xf32>
  %7 = relay.take %c, %i {axis = -1 : i64} : (tensor<?x4x3xf32>, tensor<2x7xi32>) -> tensor<?x4x2x7xf32>
  %8 = relay.take %c, %i : (tensor<?x4x3xf32>, tensor<2x7xi32>) -> tensor<2x7xf32>
  %9 = relay.take %b, %i {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5x?xf32>, tensor<2x7xi32>) -> tensor<2x7x?xf32>
  %10 = relay.broadcast_to %v {shape = array<i64: 2, 4, 3>} : (tensor<1x3xf32>) -> tensor<2x4x3xf32>
  %11 = relay.cast %a {dtype = i64} : (tensor<2x1x?xf32>) -> tensor<2x1x?xi64>
  return
}
