// RUN: mlc-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @constant_dedup
// CHECK: %[[C:.*]] = relay.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NOT: relay.constant
// CHECK: return %[[C]], %[[C]]
func.func @constant_dedup() -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = relay.constant dense<1.0> : tensor<2xf32>
  %1 = relay.constant dense<1.0> : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NOT: relay.add
// CHECK: return %[[X]], %[[X]], %[[I]]
func.func @add_zero(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>) {
  %zero = relay.constant dense<0.0> : tensor<3xf32>
  %0 = relay.add %x, %zero : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %negzero = relay.constant dense<-0.0> : tensor<f32>
  %1 = relay.add %negzero, %x : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %izero = relay.constant dense<0> : tensor<4xi32>
  %2 = relay.add %i, %izero : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>
}

// -----

// The zero broadcasts x to a bigger shape: x + 0 is not x.
// CHECK-LABEL: func.func @add_zero_broadcasting
// CHECK: relay.add
func.func @add_zero_broadcasting(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %zero = relay.constant dense<0.0> : tensor<2x3xf32>
  %0 = relay.add %x, %zero : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @add_not_zero
// CHECK-COUNT-2: relay.add
func.func @add_not_zero(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = relay.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = relay.add %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %one = relay.constant dense<1.0> : tensor<2xf32>
  %1 = relay.add %y, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @multiply_one
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf16>, %[[I:.*]]: tensor<4xi8>)
// CHECK-NOT: relay.multiply
// CHECK: return %[[X]], %[[I]]
func.func @multiply_one(%x: tensor<2x3xf16>, %i: tensor<4xi8>) -> (tensor<2x3xf16>, tensor<4xi8>) {
  %one = relay.constant dense<1.0> : tensor<1x1xf16>
  %0 = relay.multiply %one, %x : (tensor<1x1xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %ione = relay.constant dense<1> : tensor<i8>
  %1 = relay.multiply %i, %ione : (tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
  return %0, %1 : tensor<2x3xf16>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @multiply_one_broadcasting
// CHECK: relay.multiply
func.func @multiply_one_broadcasting(%x: tensor<3xf32>) -> tensor<1x3xf32> {
  %one = relay.constant dense<1.0> : tensor<1x1xf32>
  %0 = relay.multiply %x, %one : (tensor<3xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// CHECK-LABEL: func.func @multiply_zero
// CHECK: relay.multiply
func.func @multiply_zero(%x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = relay.constant dense<0.0> : tensor<3xf32>
  %0 = relay.multiply %x, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @subtract_zero
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = relay.subtract %{{.*}}, %[[X]]
// CHECK: return %[[X]], %[[R]]
func.func @subtract_zero(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %zero = relay.constant dense<0.0> : tensor<3xf32>
  %0 = relay.subtract %x, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = relay.subtract %zero, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @divide_one
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = relay.divide %{{.*}}, %[[X]]
// CHECK: return %[[X]], %[[R]]
func.func @divide_one(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %one = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.divide %x, %one : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = relay.divide %one, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: relay.reshape
// CHECK: return %[[X]]
func.func @reshape_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = relay.reshape %[[X]] {newshape = array<i64: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NOT: relay.reshape
// CHECK: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = relay.reshape %x {newshape = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = relay.reshape %0 {newshape = array<i64: 4, -1>} : (tensor<24xf32>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A chain that comes back to the input type disappears entirely.
// CHECK-LABEL: func.func @reshape_reshape_roundtrip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: relay.reshape
// CHECK: return %[[X]]
func.func @reshape_reshape_roundtrip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = relay.reshape %0 {newshape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// With a dynamic result the outer newshape's special values refer to the
// intermediate shape, so the pattern must not fire.
// CHECK-LABEL: func.func @reshape_reshape_dynamic
// CHECK: relay.reshape
// CHECK: relay.reshape
func.func @reshape_reshape_dynamic(%x: tensor<?x3x4xf32>) -> tensor<?x4xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 0, -3>} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %1 = relay.reshape %0 {newshape = array<i64: -1, 4>} : (tensor<?x12xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_constant
// CHECK: %[[C:.*]] = relay.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NOT: relay.reshape
// CHECK: return %[[C]]
func.func @reshape_constant() -> tensor<2x2xi32> {
  %c = relay.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = relay.reshape %c {newshape = array<i64: 2, 2>} : (tensor<4xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[V:.*]]: tensor<5xf32>)
// CHECK-NOT: relay.transpose
// CHECK: return %[[X]], %[[X]], %[[V]]
func.func @transpose_identity(%x: tensor<2x3x4xf32>, %v: tensor<5xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<5xf32>) {
  %0 = relay.transpose %x {axes = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = relay.transpose %x {axes = array<i64: -3, -2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = relay.transpose %v : (tensor<5xf32>) -> tensor<5xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<5xf32>
}

// -----

// A non-identity permutation stays, even when it keeps the type.
// CHECK-LABEL: func.func @transpose_not_identity
// CHECK-COUNT-2: relay.transpose
func.func @transpose_not_identity(%x: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %0 = relay.transpose %x {axes = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = relay.transpose %x : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0, %1 : tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK: %[[H:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NOT: relay.cast
// CHECK: return %[[X]], %[[H]]
func.func @cast_same_type(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf16>) {
  %0 = relay.cast %x {dtype = f32} : (tensor<3xf32>) -> tensor<3xf32>
  %1 = relay.cast %x {dtype = f16} : (tensor<3xf32>) -> tensor<3xf16>
  return %0, %1 : tensor<3xf32>, tensor<3xf16>
}
