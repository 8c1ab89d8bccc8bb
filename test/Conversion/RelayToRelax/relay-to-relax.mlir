// RUN: mlc-opt %s -relay-to-relax | FileCheck %s
// RUN: mlc-opt %s -relay-to-relax="allow-relay-ops" | FileCheck %s

// Names move to relax.name, ops become relax ops, the body becomes one
// dataflow block with the returned values as outputs, constants stay out.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3xf32> {relax.name = "x"}, %[[B:[^:]*]]: tensor<3xf32> {relax.name = "b"})
// CHECK-NEXT: %[[C:.*]] = relax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[R:.*]]:2 = relax.dataflow -> tensor<2x3xf32>, tensor<3xf32> {
// CHECK-NEXT:   %[[A0:.*]] = relax.add %[[X]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[A1:.*]] = relax.add %[[A0]], %[[C]]
// CHECK-NEXT:   %[[A2:.*]] = relax.add %[[B]], %[[C]]
// CHECK-NEXT:   relax.output %[[A1]], %[[A2]] : tensor<2x3xf32>, tensor<3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}, %b: tensor<3xf32> {relay.name = "b"}) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %c = relay.constant dense<1.0> : tensor<3xf32>
  %0 = relay.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = relay.add %0, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = relay.add %b, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1, %2 : tensor<2x3xf32>, tensor<3xf32>
}

// Functions without relay content are left alone.
// CHECK-LABEL: func.func @other
// CHECK-NEXT: return
func.func @other(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

