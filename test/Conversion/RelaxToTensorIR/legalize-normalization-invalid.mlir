// Normalizations that relax-legalize-ops cannot write a kernel for report
// it at the op (integer tensors: the statistics need floats).
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics

func.func @layer_norm_int(%x: tensor<4x6xi32>, %g: tensor<6xi32>) -> tensor<4x6xi32> {
  // expected-error @below {{'relax.nn.layer_norm' op cannot be legalized: needs a floating-point tensor, got element type 'i32'}}
  %0 = relax.nn.layer_norm %x, %g, %g {axes = array<i64: 1>} : (tensor<4x6xi32>, tensor<6xi32>, tensor<6xi32>) -> tensor<4x6xi32>
  return %0 : tensor<4x6xi32>
}

// -----

func.func @batch_norm_int(%x: tensor<2x4xi8>, %v: tensor<4xi8>) -> tensor<2x4xi8> {
  // expected-error @below {{'relax.nn.batch_norm' op cannot be legalized: needs a floating-point tensor, got element type 'i8'}}
  %0, %1, %2 = relax.nn.batch_norm %x, %v, %v, %v, %v : (tensor<2x4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) -> (tensor<2x4xi8>, tensor<4xi8>, tensor<4xi8>)
  return %0 : tensor<2x4xi8>
}

// -----

func.func @instance_norm_int(%x: tensor<2x4x3xi32>, %v: tensor<4xi32>) -> tensor<2x4x3xi32> {
  // expected-error @below {{'relax.nn.instance_norm' op cannot be legalized: needs a floating-point tensor, got element type 'i32'}}
  %0 = relax.nn.instance_norm %x, %v, %v : (tensor<2x4x3xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x4x3xi32>
  return %0 : tensor<2x4x3xi32>
}

// -----

func.func @group_norm_int(%x: tensor<2x4x3xi64>, %v: tensor<4xi64>) -> tensor<2x4x3xi64> {
  // expected-error @below {{'relax.nn.group_norm' op cannot be legalized: needs a floating-point tensor, got element type 'i64'}}
  %0 = relax.nn.group_norm %x, %v, %v {num_groups = 2 : i64} : (tensor<2x4x3xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<2x4x3xi64>
  return %0 : tensor<2x4x3xi64>
}
