// RUN: mlc-translate --import-relay %S/../../../examples/mlp.relay \
// RUN:   | mlc-opt --verify-each -relay-to-relax | FileCheck %s

// The whole MLP of examples/mlp.relay converts: nn.dense becomes matmul with
// the transposed weight (as TVM's Relay->Relax translator emits), bias_add on
// the last axis a plain broadcasting add.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x784xf32> {relax.name = "data"}, %[[W0:[^:]*]]: tensor<128x784xf32> {relax.name = "w0"}, %[[B0:[^:]*]]: tensor<128xf32> {relax.name = "b0"}, %[[W1:[^:]*]]: tensor<10x128xf32> {relax.name = "w1"}, %[[B1:[^:]*]]: tensor<10xf32> {relax.name = "b1"})
// CHECK-NEXT: %[[R:.*]] = relax.dataflow -> tensor<1x10xf32> {
// CHECK-NEXT:   %[[T0:.*]] = relax.permute_dims %[[W0]] : (tensor<128x784xf32>) -> tensor<784x128xf32>
// CHECK-NEXT:   %[[M0:.*]] = relax.matmul %[[X]], %[[T0]] : (tensor<1x784xf32>, tensor<784x128xf32>) -> tensor<1x128xf32>
// CHECK-NEXT:   %[[A0:.*]] = relax.add %[[M0]], %[[B0]] : (tensor<1x128xf32>, tensor<128xf32>) -> tensor<1x128xf32>
// CHECK-NEXT:   %[[R0:.*]] = relax.nn.relu %[[A0]] : (tensor<1x128xf32>) -> tensor<1x128xf32>
// CHECK-NEXT:   %[[T1:.*]] = relax.permute_dims %[[W1]] : (tensor<10x128xf32>) -> tensor<128x10xf32>
// CHECK-NEXT:   %[[M1:.*]] = relax.matmul %[[R0]], %[[T1]] : (tensor<1x128xf32>, tensor<128x10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT:   %[[A1:.*]] = relax.add %[[M1]], %[[B1]] : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT:   %[[S:.*]] = relax.nn.softmax %[[A1]] : (tensor<1x10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT:   relax.output %[[S]] : tensor<1x10xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : tensor<1x10xf32>
// CHECK-NOT: relay.
