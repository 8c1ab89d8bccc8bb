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
