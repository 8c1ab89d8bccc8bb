// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | FileCheck %s

// Round-trips every core relay op in its custom and generic forms.

// CHECK-LABEL: func.func @constant
// CHECK: relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: relay.constant dense<7> : tensor<2x2xi64>
// CHECK: relay.constant dense_resource<blob1> : tensor<3xi8>
// CHECK: relay.constant dense<true> : tensor<i1>
func.func @constant() -> (tensor<2xf32>, tensor<2x2xi64>, tensor<3xi8>, tensor<i1>) {
  %0 = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = relay.constant dense<7> : tensor<2x2xi64>
  %2 = relay.constant dense_resource<blob1> : tensor<3xi8>
  %3 = relay.constant dense<true> : tensor<i1>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2x2xi64>, tensor<3xi8>, tensor<i1>
}

// CHECK-LABEL: func.func @tuple
// CHECK: relay.tuple %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xi32>) -> tuple<tensor<2x3xf32>, tensor<3xi32>>
// CHECK: relay.tuple_get_item %{{[^ ,:]+}} {index = 1 : i64} : (tuple<tensor<2x3xf32>, tensor<3xi32>>) -> tensor<3xi32>
// CHECK: relay.tuple : () -> tuple<>
func.func @tuple(%a: tensor<2x3xf32>, %i: tensor<3xi32>, %t: tuple<tensor<2x3xf32>, tensor<3xi32>>) -> (tuple<tensor<2x3xf32>, tensor<3xi32>>, tensor<3xi32>, tuple<>) {
  %0 = relay.tuple %a, %i : (tensor<2x3xf32>, tensor<3xi32>) -> tuple<tensor<2x3xf32>, tensor<3xi32>>
  %1 = relay.tuple_get_item %t {index = 1 : i64} : (tuple<tensor<2x3xf32>, tensor<3xi32>>) -> tensor<3xi32>
  %2 = relay.tuple : () -> tuple<>
  return %0, %1, %2 : tuple<tensor<2x3xf32>, tensor<3xi32>>, tensor<3xi32>, tuple<>
}

// CHECK-LABEL: func.func @binary
// CHECK: relay.add %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relay.subtract %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relay.multiply %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relay.divide %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relay.power %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relay.maximum %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: relay.minimum %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %x: tensor<4xi32>, %y: tensor<4xi32>) {
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = relay.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = relay.multiply %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = relay.divide %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = relay.power %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = relay.maximum %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = relay.minimum %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @compare
// CHECK: relay.less %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK: relay.greater %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK: relay.equal %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: relay.less_equal %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: relay.greater_equal %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: relay.not_equal %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %x: tensor<4xi64>, %y: tensor<4xi64>) {
  %0 = relay.less %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = relay.greater %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = relay.equal %x, %y : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %3 = relay.less_equal %x, %y : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %4 = relay.greater_equal %x, %y : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %5 = relay.not_equal %x, %y : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @unary
// CHECK: relay.negative %{{[^ ,:]+}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.negative %{{[^ ,:]+}} : (tensor<5xi8>) -> tensor<5xi8>
// CHECK: relay.abs %{{[^ ,:]+}} : (tensor<5xi8>) -> tensor<5xi8>
// CHECK: relay.exp %{{[^ ,:]+}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.log %{{[^ ,:]+}} : (tensor<4xf16>) -> tensor<4xf16>
// CHECK: relay.sqrt %{{[^ ,:]+}} : (tensor<?xf64>) -> tensor<?xf64>
// CHECK: relay.rsqrt %{{[^ ,:]+}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.tanh %{{[^ ,:]+}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.sigmoid %{{[^ ,:]+}} : (tensor<4xf16>) -> tensor<4xf16>
// CHECK: relay.erf %{{[^ ,:]+}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.clip %{{[^ ,:]+}} {a_max = 6.000000e+00 : f64, a_min = 0.000000e+00 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.clip %{{[^ ,:]+}} {a_max = 4.000000e+00 : f64, a_min = -4.000000e+00 : f64} : (tensor<5xi8>) -> tensor<5xi8>
// CHECK: relay.cast %{{[^ ,:]+}} {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK: relay.cast %{{[^ ,:]+}} {dtype = ui8} : (tensor<5xi8>) -> tensor<5xui8>
// CHECK: relay.cast %{{[^ ,:]+}} {dtype = i1} : (tensor<?xf64>) -> tensor<?xi1>
func.func @unary(%a: tensor<2x3xf32>, %h: tensor<4xf16>, %d: tensor<?xf64>, %i: tensor<5xi8>) {
  %0 = relay.negative %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = relay.negative %i : (tensor<5xi8>) -> tensor<5xi8>
  %2 = relay.abs %i : (tensor<5xi8>) -> tensor<5xi8>
  %3 = relay.exp %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = relay.log %h : (tensor<4xf16>) -> tensor<4xf16>
  %5 = relay.sqrt %d : (tensor<?xf64>) -> tensor<?xf64>
  %6 = relay.rsqrt %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = relay.tanh %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = relay.sigmoid %h : (tensor<4xf16>) -> tensor<4xf16>
  %9 = relay.erf %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = relay.clip %a {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = relay.clip %i {a_min = -4.0 : f64, a_max = 4.0 : f64} : (tensor<5xi8>) -> tensor<5xi8>
  %12 = relay.cast %a {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %13 = relay.cast %i {dtype = ui8} : (tensor<5xi8>) -> tensor<5xui8>
  %14 = relay.cast %d {dtype = i1} : (tensor<?xf64>) -> tensor<?xi1>
  return
}

// CHECK-LABEL: func.func @where
// CHECK: relay.where %{{[^ ,:]+}}, %{{[^ ,:]+}}, %{{[^ ,:]+}} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
func.func @where(%c: tensor<2x1xi1>, %a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = relay.where %c, %a, %b : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @transform
// CHECK: relay.reshape %{{[^ ,:]+}} {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK: relay.reshape %{{[^ ,:]+}} {allowzero = true, newshape = array<i64: 3, 0>} : (tensor<0x3xf32>) -> tensor<3x0xf32>
// CHECK: relay.transpose %{{[^ ,:]+}} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK: relay.transpose %{{[^ ,:]+}} {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
// CHECK: relay.expand_dims %{{[^ ,:]+}} {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
// CHECK: relay.expand_dims %{{[^ ,:]+}} {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1x1xf32>
// CHECK: relay.squeeze %{{[^ ,:]+}} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.squeeze %{{[^ ,:]+}} {axis = array<i64: 3>} : (tensor<2x3x4x1x1xf32>) -> tensor<2x3x4x1xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
// CHECK: relay.concatenate %{{[^ ,:]+}} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: relay.split %{{[^ ,:]+}} {axis = -1 : i64, indices_or_sections = 2 : i64} : (tensor<2x3x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>)
// CHECK: relay.split %{{[^ ,:]+}} {axis = 2 : i64, indices_or_sections = array<i64: 1, 3>} : (tensor<2x3x4xf32>) -> (tensor<2x3x1xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>)
// CHECK: relay.strided_slice %{{[^ ,:]+}} {begin = array<i64: 0, 1>, end = array<i64: 2, 3>} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {axes = array<i64: 2>, begin = array<i64: 3>, end = array<i64: 0>, strides = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
// CHECK: relay.strided_slice %{{[^ ,:]+}} {axes = array<i64: 1>, begin = array<i64: 1>, end = array<i64: 2>, slice_mode = "size", strides = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
// CHECK: relay.take %{{[^ ,:]+}}, %{{[^ ,:]+}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
// CHECK: relay.take %{{[^ ,:]+}}, %{{[^ ,:]+}} {mode = "wrap"} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<3xf32>
// CHECK: relay.broadcast_to %{{[^ ,:]+}} {shape = array<i64: 2, 3>} : (tensor<3xi64>) -> tensor<2x3xi64>
func.func @transform(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>, %i: tensor<3xi64>, %z: tensor<0x3xf32>) {
  %0 = relay.reshape %a {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = relay.reshape %z {newshape = array<i64: 3, 0>, allowzero = true} : (tensor<0x3xf32>) -> tensor<3x0xf32>
  %2 = relay.transpose %a : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %3 = relay.transpose %a {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %4 = relay.expand_dims %a {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
  %5 = relay.expand_dims %a {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1x1xf32>
  %6 = relay.squeeze %4 : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
  %7 = relay.squeeze %5 {axis = array<i64: 3>} : (tensor<2x3x4x1x1xf32>) -> tensor<2x3x4x1xf32>
  %8 = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %9 = relay.concatenate %a : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %10:2 = relay.split %a {indices_or_sections = 2 : i64, axis = -1 : i64} : (tensor<2x3x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>)
  %11:3 = relay.split %a {indices_or_sections = array<i64: 1, 3>, axis = 2 : i64} : (tensor<2x3x4xf32>) -> (tensor<2x3x1xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>)
  %12 = relay.strided_slice %a {begin = array<i64: 0, 1>, end = array<i64: 2, 3>} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
  %13 = relay.strided_slice %a {begin = array<i64: 3>, end = array<i64: 0>, strides = array<i64: -1>, axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %14 = relay.strided_slice %a {begin = array<i64: 1>, end = array<i64: 2>, axes = array<i64: 1>, strides = array<i64: 1>, slice_mode = "size"} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
  %15 = relay.take %a, %i {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %16 = relay.take %a, %i {mode = "wrap"} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<3xf32>
  %17 = relay.broadcast_to %i {shape = array<i64: 2, 3>} : (tensor<3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @reduce
// CHECK: relay.sum %{{[^ ,:]+}} : (tensor<2x3x4xf32>) -> tensor<f32>
// CHECK: relay.mean %{{[^ ,:]+}} {axis = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK: relay.max %{{[^ ,:]+}} {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
// CHECK: relay.min %{{[^ ,:]+}} {axis = array<i64: -1>} : (tensor<5x6xi32>) -> tensor<5xi32>
// CHECK: relay.prod %{{[^ ,:]+}} {axis = array<i64: 0, 1>} : (tensor<5x6xi32>) -> tensor<i32>
// CHECK: relay.argmax %{{[^ ,:]+}} {axis = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
// CHECK: relay.argmin %{{[^ ,:]+}} {axis = array<i64: 0>, keepdims = true, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<1x3x4xi32>
func.func @reduce(%a: tensor<2x3x4xf32>, %i: tensor<5x6xi32>) {
  %0 = relay.sum %a : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = relay.mean %a {axis = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %2 = relay.max %a {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %3 = relay.min %i {axis = array<i64: -1>} : (tensor<5x6xi32>) -> tensor<5xi32>
  %4 = relay.prod %i {axis = array<i64: 0, 1>} : (tensor<5x6xi32>) -> tensor<i32>
  %5 = relay.argmax %a {axis = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
  %6 = relay.argmin %a {axis = array<i64: 0>, keepdims = true, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<1x3x4xi32>
  return
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x01000000010203"
    }
  }
#-}
