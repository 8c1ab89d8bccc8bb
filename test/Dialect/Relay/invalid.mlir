// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @constant_bad_type() {
  // expected-error @+2 {{'relay.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'relay.constant' op failed to infer returned types}}
  %0 = "relay.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}
