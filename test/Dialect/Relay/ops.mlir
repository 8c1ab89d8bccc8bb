// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | FileCheck %s

// CHECK-LABEL: func.func @constant
func.func @constant() -> (tensor<2xf32>, tensor<2x2xi64>, tensor<3xi8>) {
  // CHECK: relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: relay.constant dense<7> : tensor<2x2xi64>
  %1 = relay.constant dense<7> : tensor<2x2xi64>
  // CHECK: relay.constant dense_resource<blob1> : tensor<3xi8>
  %2 = relay.constant dense_resource<blob1> : tensor<3xi8>
  return %0, %1, %2 : tensor<2xf32>, tensor<2x2xi64>, tensor<3xi8>
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x01000000010203"
    }
  }
#-}
