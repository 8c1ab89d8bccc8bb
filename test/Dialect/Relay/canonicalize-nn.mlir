// RUN: mlc-opt %s -split-input-file -canonicalize | FileCheck %s

// mlc compiles for inference: dropout's output is its input.

// CHECK-LABEL: func.func @dropout_removed
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
// CHECK-NOT: relay.nn.dropout
// CHECK: %[[R:.*]] = relay.nn.relu %[[X]]
// CHECK: return %[[R]]
func.func @dropout_removed(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0:2 = relay.nn.dropout %x {rate = 0.3 : f64} : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %1 = relay.nn.relu %0#0 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// The mask is still used: the op stays, but its output is forwarded.
// CHECK-LABEL: func.func @dropout_mask_used
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
// CHECK: %[[OUT:.*]], %[[MASK:.*]] = relay.nn.dropout %[[X]]
// CHECK: %[[R:.*]] = relay.nn.relu %[[X]]
// CHECK: return %[[R]], %[[MASK]]
func.func @dropout_mask_used(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0:2 = relay.nn.dropout %x : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %1 = relay.nn.relu %0#0 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1, %0#1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Only the mask is used: nothing to forward, the op stays.
// CHECK-LABEL: func.func @dropout_only_mask_used
// CHECK: %{{.*}}, %[[MASK:.*]] = relay.nn.dropout
// CHECK: return %[[MASK]]
func.func @dropout_only_mask_used(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0:2 = relay.nn.dropout %x : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return %0#1 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @dropout_returned
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @dropout_returned(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0:2 = relay.nn.dropout %x : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return %0#0 : tensor<2x4xf32>
}

// -----

// Padding by zero everywhere is the identity; other padding stays.
// CHECK-LABEL: func.func @pad_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>, %{{.*}}: tensor<f32>)
// CHECK: %[[P:.*]] = relay.nn.pad %[[X]]
// CHECK-SAME: pad_width = array<i64: 0, 0, 1, 1>
// CHECK: return %[[X]], %[[P]]
func.func @pad_zero(%x: tensor<2x4xf32>, %v: tensor<f32>) -> (tensor<2x4xf32>, tensor<2x6xf32>) {
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 0, 0>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %1 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x6xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x6xf32>
}

// -----

// batch_flatten of a 2-D tensor is the identity.
// CHECK-LABEL: func.func @batch_flatten_2d
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>, %[[Y:.*]]: tensor<2x2x2xf32>)
// CHECK: %[[F:.*]] = relay.nn.batch_flatten %[[Y]]
// CHECK: return %[[X]], %[[F]]
func.func @batch_flatten_2d(%x: tensor<2x4xf32>, %y: tensor<2x2x2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = relay.nn.batch_flatten %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = relay.nn.batch_flatten %y : (tensor<2x2x2xf32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}
