// RUN: mlc-opt %s -split-input-file -verify-diagnostics

// A call of a primitive (fused) function is pure and may stay in a dataflow
// block; any other func.call may have side effects and may not.

func.func private @fused_exp(%a: tensor<4xf32>) -> tensor<4xf32> attributes {relax.primitive} {
  return %a : tensor<4xf32>
}

func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relax.dataflow -> tensor<4xf32> {
    %0 = func.call @fused_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
    relax.output %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func private @not_primitive(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relax.dataflow' op contains 'func.call', which may have side effects}}
  %r = relax.dataflow -> tensor<4xf32> {
    // expected-note @+1 {{side-effecting operation here}}
    %0 = func.call @not_primitive(%x) : (tensor<4xf32>) -> tensor<4xf32>
    relax.output %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
