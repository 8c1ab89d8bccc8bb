// Reduction ops that relax-legalize-ops cannot write a kernel for report it
// at the op.
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics

func.func @softmax_int(%x: tensor<4x6xi32>) -> tensor<4x6xi32> {
  // expected-error @below {{'relax.nn.softmax' op cannot be legalized: needs a floating-point tensor, got element type 'i32'}}
  %0 = relax.nn.softmax %x : (tensor<4x6xi32>) -> tensor<4x6xi32>
  return %0 : tensor<4x6xi32>
}

// -----

func.func @log_softmax_bool(%x: tensor<4x6xi1>) -> tensor<4x6xi1> {
  // expected-error @below {{'relax.nn.log_softmax' op cannot be legalized: needs a floating-point tensor, got element type 'i1'}}
  %0 = relax.nn.log_softmax %x {axis = 0 : i64} : (tensor<4x6xi1>) -> tensor<4x6xi1>
  return %0 : tensor<4x6xi1>
}
