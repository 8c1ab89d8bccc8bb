// RUN: mlc-opt %s -relay-fuse-ops | FileCheck %s --check-prefix=DEFAULT
// RUN: mlc-opt %s -relay-fuse-ops=max-depth=3 | FileCheck %s --check-prefix=DEPTH3
// RUN: mlc-opt %s -relay-fuse-ops=fuse-opt-level=0 | FileCheck %s --check-prefix=OPT0
// RUN: mlc-opt %s -relay-fuse-ops -relay-fuse-ops | FileCheck %s --check-prefix=DEFAULT
// RUN: not mlc-opt %s -relay-fuse-ops=fuse-opt-level=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not mlc-opt %s -relay-fuse-ops=max-depth=many 2>&1 | FileCheck %s --check-prefix=BADOPT

// A chain of seven elementwise ops and a scalar constant.

// DEFAULT: func.func private @fused_add_exp_exp_exp_exp_exp_exp(
// DEFAULT-SAME: relay.Primitive = 1 : i64
// DEFAULT-NEXT: relay.constant
// DEFAULT-COUNT-7: relay.
// DEFAULT-NEXT: return
// DEFAULT: func.func @chain(
// DEFAULT-NEXT: call @fused_add_exp_exp_exp_exp_exp_exp(%arg0)
// DEFAULT-NEXT: return
// DEFAULT-NOT: func.func

// max-depth counts graph nodes (the constant is one): TVM's count refuses
// the merge that would make a group larger, so groups of three nodes follow.
// DEPTH3: func.func private @fused_add_exp(
// DEPTH3-NEXT: relay.constant
// DEPTH3-NEXT: relay.add
// DEPTH3-NEXT: relay.exp
// DEPTH3-NEXT: return
// DEPTH3: func.func private @fused_exp_exp_exp(
// DEPTH3: func.func private @fused_exp_exp(
// DEPTH3: func.func @chain(
// DEPTH3-NEXT: %[[A:.*]] = call @fused_add_exp(%arg0)
// DEPTH3-NEXT: %[[B:.*]] = call @fused_exp_exp_exp(%[[A]])
// DEPTH3-NEXT: %[[C:.*]] = call @fused_exp_exp(%[[B]])
// DEPTH3-NEXT: return %[[C]]

// Level 0 does not fuse, but as in TVM every op still becomes a primitive
// function; the constant stays in @chain and is passed in.
// OPT0: func.func private @fused_add(
// OPT0-SAME: relay.Primitive = 1 : i64
// OPT0-NEXT: relay.add
// OPT0-NEXT: return
// OPT0-COUNT-6: func.func private @fused_exp
// OPT0: func.func @chain(
// OPT0-NEXT: %[[K:.*]] = relay.constant
// OPT0-NEXT: %[[A:.*]] = call @fused_add(%arg0, %[[K]])
// OPT0-COUNT-6: call @fused_exp
// OPT0-NEXT: return

// NEGATIVE: error: relay-fuse-ops: fuse-opt-level must be at least 0, got -1

// BADOPT: for the --max-depth option: 'many' value invalid for uint argument
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = relay.exp %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.exp %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = relay.exp %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = relay.exp %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = relay.exp %4 : (tensor<4xf32>) -> tensor<4xf32>
  %6 = relay.exp %5 : (tensor<4xf32>) -> tensor<4xf32>
  return %6 : tensor<4xf32>
}
