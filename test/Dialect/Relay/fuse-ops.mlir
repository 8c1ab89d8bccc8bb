// RUN: mlc-opt %s -allow-unregistered-dialect -relay-fuse-ops | FileCheck %s

// Constants: a scalar of a simple dtype is elementwise and moves into the
// function; a non-scalar one, or an f16 scalar, is an opaque argument.
func.func @constants(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = relay.constant dense<2.0> : tensor<f32>
  %h = relay.constant dense<2.0> : tensor<f16>
  %0 = relay.add %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = relay.multiply %0, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = relay.cast %h {dtype = f32} : (tensor<f16>) -> tensor<f32>
  %3 = relay.add %1, %2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// Ops of other dialects are opaque: they are neither fused nor outlined, and
// split the relay ops around them into separate groups.
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @foreign(%x: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @external(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tensor.cast %y : tensor<?xf32> to tensor<4xf32>
  %3 = relay.add %1, %2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = relay.sqrt %3 : (tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// So are unregistered ops.
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "test.op"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.exp %1 : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// A value that the function returns is not fused into its consumers; a
// lone relay.tuple stays in the function.
func.func @returned(%x: tensor<4xf32>) -> (tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>) {
  %0 = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.sqrt %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.tuple %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  return %0, %2 : tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>
}

// A group root with several results: split whose fields go to different
// groups returns each used field.
func.func @split_fields(%x: tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = relay.negative %x : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %1:2 = relay.split %0 {indices_or_sections = 2 : i64, axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %2 = relay.sum %1#0 {axis = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %3 = relay.exp %1#1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = relay.subtract %1#0, %2 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %4, %3 : tensor<2x3xf32>, tensor<2x3xf32>
}

// Primitive functions (a previous run's output) are left alone, so the pass
// is idempotent.
func.func private @fused_exp(%a: tensor<4xf32>) -> tensor<4xf32> attributes {relay.Primitive = 1 : i64} {
  %0 = relay.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @done(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @fused_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func private @fused_add_multiply_cast_add(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.constant
// CHECK-NEXT: relay.add
// CHECK-NEXT: relay.multiply
// CHECK-NEXT: relay.cast
// CHECK-NEXT: relay.add
// CHECK-NEXT: return
// CHECK-LABEL: func.func @constants(
// CHECK-NEXT: %[[V1_0:.*]] = relay.constant dense<{{.*}}> : tensor<2x3xf32>
// CHECK-NEXT: %[[V1_1:.*]] = relay.constant dense<2.000000e+00> : tensor<f16>
// CHECK-NEXT: %[[V1_2:.*]] = call @fused_add_multiply_cast_add(%arg0, %[[V1_0]], %[[V1_1]])
// CHECK-NEXT: return %[[V1_2]]
// CHECK-LABEL: func.func private @external(
// CHECK-NOT: relay.Primitive
// CHECK-LABEL: func.func private @fused_exp_0(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_add_sqrt(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.add
// CHECK-NEXT: relay.sqrt
// CHECK-NEXT: return
// CHECK-LABEL: func.func @foreign(
// CHECK-NEXT: %[[V2_0:.*]] = call @fused_exp_0(%arg0)
// CHECK-NEXT: %[[V2_1:.*]] = call @external(%[[V2_0]])
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %arg1
// CHECK-NEXT: %[[V2_2:.*]] = call @fused_add_sqrt(%[[V2_1]], %[[CAST]])
// CHECK-NEXT: return %[[V2_2]]
// CHECK-LABEL: func.func private @fused_exp_1(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_exp_2(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func @unregistered(
// CHECK-NEXT: %[[V3_0:.*]] = call @fused_exp_1(%arg0)
// CHECK-NEXT: %[[V3_1:.*]] = "test.op"(%[[V3_0]])
// CHECK-NEXT: %[[V3_2:.*]] = call @fused_exp_2(%[[V3_1]])
// CHECK-NEXT: return %[[V3_2]]
// CHECK-LABEL: func.func private @fused_exp_3(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_sqrt(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.sqrt
// CHECK-NEXT: return
// CHECK-LABEL: func.func @returned(
// CHECK-NEXT: %[[V4_0:.*]] = call @fused_exp_3(%arg0)
// CHECK-NEXT: %[[V4_1:.*]] = call @fused_sqrt(%[[V4_0]])
// CHECK-NEXT: %[[V4_2:.*]] = relay.tuple %[[V4_0]], %[[V4_1]]
// CHECK-NEXT: return %[[V4_0]], %[[V4_2]]
// CHECK-LABEL: func.func private @fused_negative_split(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.negative
// CHECK-NEXT: relay.split
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_sum(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.sum
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_exp_4(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_subtract(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.subtract
// CHECK-NEXT: return
// CHECK-LABEL: func.func @split_fields(
// CHECK-NEXT: %[[V5_0:.*]]:2 = call @fused_negative_split(%arg0)
// CHECK-NEXT: %[[V5_1:.*]] = call @fused_sum(%[[V5_0]]#0)
// CHECK-NEXT: %[[V5_2:.*]] = call @fused_exp_4(%[[V5_0]]#1)
// CHECK-NEXT: %[[V5_3:.*]] = call @fused_subtract(%[[V5_0]]#0, %[[V5_1]])
// CHECK-NEXT: return %[[V5_3]], %[[V5_2]]
// CHECK-LABEL: func.func private @fused_exp(
// CHECK-SAME: attributes {relay.Primitive = 1 : i64}
// CHECK-NEXT: relay.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func @done(
// CHECK-NEXT: %[[V6_0:.*]] = call @fused_exp(%arg0)
// CHECK-NEXT: return %[[V6_0]]

