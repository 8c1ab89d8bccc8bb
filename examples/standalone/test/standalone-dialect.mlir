// RUN: standalone-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// The consumer's dialect, whose ODS uses mlc's installed DTypes.td: a
// roundtrip next to relax ops, and the message of mlc's dtype constraint.

// CHECK-LABEL: func.func @scale
// CHECK: standalone.scale %{{.*}} by 2.000000e+00 : tensor<4xbf16>
func.func @scale(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = relax.add %x, %x : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %1 = standalone.scale %0 by 2.0 : tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// -----

func.func @not_a_float(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values}}
  %0 = standalone.scale %x by 2.0 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
