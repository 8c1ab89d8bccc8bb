// RUN: mlc-opt %s -relax-fuse-ops | FileCheck %s
// RUN: mlc-opt %s -relax-fuse-ops | mlc-opt -verify-diagnostics > /dev/null

// TVM's classic fusion cases (tests/python/relay/test_pass_fuse_ops.py,
// tests/python/relax/test_transform_fuse_ops.py). The prim_funcs are
// stand-ins with their kind pre-set (tensorir-annotate-op-pattern keeps it);
// only the kinds matter to relax-fuse-ops.

!t = tensor<4x4xf32>
!m = memref<4x4xf32>

tensorir.prim_func @conv2d(%x: !m, %w: !m, %y: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {}
tensorir.prim_func @add(%a: !m, %b: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @bias_add(%a: !m, %b: memref<4xf32>, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<broadcast>} {}
tensorir.prim_func @relu(%a: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @exp(%a: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @transpose(%a: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<injective>} {}
tensorir.prim_func @reshape(%a: !m, %c: memref<16xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<injective>} {}
tensorir.prim_func @exp16(%a: memref<16xf32>, %c: memref<16xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @concat(%a: !m, %b: !m, %c: !m, %d: memref<12x4xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<injective>} {}
tensorir.prim_func @max(%a: !m, %c: memref<4xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<comm_reduce>} {}
tensorir.prim_func @sum(%a: !m, %c: memref<4xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<comm_reduce>} {}
tensorir.prim_func @subtract(%a: !m, %b: memref<4xf32>, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<broadcast>} {}
tensorir.prim_func @divide(%a: !m, %b: memref<4xf32>, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<broadcast>} {}
tensorir.prim_func @opaque(%a: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<opaque>} {}
tensorir.prim_func @unannotated(%a: !m, %c: !m) {}

// conv2d + bias + relu: the out_ewise_fusable op absorbs its elementwise and
// broadcast consumers.
// CHECK-LABEL: func.func private @fused_conv2d_bias_add_relu(
// CHECK-SAME:    %[[X:.*]]: tensor<4x4xf32>, %[[W:.*]]: tensor<4x4xf32>, %[[B:.*]]: tensor<4xf32>) -> tensor<4x4xf32>
// CHECK-SAME:    attributes {relax.primitive}
// CHECK-NEXT:    %[[C:.*]] = relax.call_tir @conv2d(%[[X]], %[[W]])
// CHECK-NEXT:    %[[A:.*]] = relax.call_tir @bias_add(%[[C]], %[[B]])
// CHECK-NEXT:    %[[R:.*]] = relax.call_tir @relu(%[[A]])
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func @conv_bias_relu(
// CHECK:         relax.dataflow
// CHECK-NEXT:      %[[F:.*]] = func.call @fused_conv2d_bias_add_relu(%arg0, %arg1, %arg2)
// CHECK-NEXT:      relax.output %[[F]]
func.func @conv_bias_relu(%x: !t, %w: !t, %b: tensor<4xf32>) -> !t {
  %r = relax.dataflow -> !t {
    %0 = relax.call_tir @conv2d(%x, %w) : (!t, !t) -> !t
    %1 = relax.call_tir @bias_add(%0, %b) : (!t, tensor<4xf32>) -> !t
    %2 = relax.call_tir @relu(%1) : (!t) -> !t
    relax.output %2 : !t
  }
  return %r : !t
}

// conv -> add -> relu -> conv: the second conv2d starts a new group (a
// group has one out_ewise_fusable op) and stays a plain call_tir.
// CHECK-LABEL: func.func private @fused_conv2d_add_relu(
// CHECK-NEXT:    relax.call_tir @conv2d
// CHECK-NEXT:    relax.call_tir @add
// CHECK-NEXT:    relax.call_tir @relu
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @conv_add_relu_conv(
// CHECK:         %[[F:.*]] = func.call @fused_conv2d_add_relu(%arg0, %arg1, %arg2)
// CHECK-NEXT:    %[[C:.*]] = relax.call_tir @conv2d(%[[F]], %arg1)
// CHECK-NEXT:    relax.output %[[C]]
func.func @conv_add_relu_conv(%x: !t, %w: !t, %y: !t) -> !t {
  %r = relax.dataflow -> !t {
    %0 = relax.call_tir @conv2d(%x, %w) : (!t, !t) -> !t
    %1 = relax.call_tir @add(%0, %y) : (!t, !t) -> !t
    %2 = relax.call_tir @relu(%1) : (!t) -> !t
    %3 = relax.call_tir @conv2d(%2, %w) : (!t, !t) -> !t
    relax.output %3 : !t
  }
  return %r : !t
}

// Relay's test_conv2d_fuse: add; conv2d with a diamond of adds; two convs
// joined by an add, of which the first in order takes the add.
//   x1 = add(x, y); c = conv2d(x1, w); y1 = add(y, c); y2 = add(c, y1)
//   z2 = conv2d(y2, w); z3 = conv2d(y2, w); z = add(z2, z3)
// CHECK-LABEL: func.func private @fused_conv2d_add_add(
// CHECK-NEXT:    relax.call_tir @conv2d
// CHECK-NEXT:    relax.call_tir @add
// CHECK-NEXT:    relax.call_tir @add
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @fused_conv2d_add(
// CHECK-NEXT:    relax.call_tir @conv2d
// CHECK-NEXT:    relax.call_tir @add
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @conv2d_fuse(
// CHECK:         %[[X1:.*]] = relax.call_tir @add(%arg0, %arg1)
// CHECK-NEXT:    %[[Y2:.*]] = func.call @fused_conv2d_add_add(%[[X1]], %arg2, %arg1)
// CHECK-NEXT:    %[[Z3:.*]] = relax.call_tir @conv2d(%[[Y2]], %arg2)
// CHECK-NEXT:    %[[Z:.*]] = func.call @fused_conv2d_add(%[[Y2]], %arg2, %[[Z3]])
// CHECK-NEXT:    relax.output %[[Z]]
func.func @conv2d_fuse(%x: !t, %y: !t, %w: !t) -> !t {
  %r = relax.dataflow -> !t {
    %x1 = relax.call_tir @add(%x, %y) : (!t, !t) -> !t
    %c = relax.call_tir @conv2d(%x1, %w) : (!t, !t) -> !t
    %y1 = relax.call_tir @add(%y, %c) : (!t, !t) -> !t
    %y2 = relax.call_tir @add(%c, %y1) : (!t, !t) -> !t
    %z2 = relax.call_tir @conv2d(%y2, %w) : (!t, !t) -> !t
    %z3 = relax.call_tir @conv2d(%y2, %w) : (!t, !t) -> !t
    %z = relax.call_tir @add(%z2, %z3) : (!t, !t) -> !t
    relax.output %z : !t
  }
  return %r : !t
}

// Diamond with a shared producer: everything is elementwise and post-
// dominated by the last add.
// CHECK-LABEL: func.func private @fused_exp_relu_exp_add(
// CHECK-SAME:    %{{.*}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-LABEL: func.func @diamond(
// CHECK:         %[[F:.*]] = func.call @fused_exp_relu_exp_add(%arg0)
// CHECK-NEXT:    relax.output %[[F]]
func.func @diamond(%x: !t) -> !t {
  %r = relax.dataflow -> !t {
    %e = relax.call_tir @exp(%x) : (!t) -> !t
    %a = relax.call_tir @relu(%e) : (!t) -> !t
    %b = relax.call_tir @exp(%e) : (!t) -> !t
    %c = relax.call_tir @add(%a, %b) : (!t, !t) -> !t
    relax.output %c : !t
  }
  return %r : !t
}

// Concatenate as the group root: elementwise inputs fuse in phase 0, the
// injective transpose in phase 1.
// CHECK-LABEL: func.func private @fused_relu_exp_transpose_concat(
// CHECK-SAME:    %{{.*}}: tensor<4x4xf32>) -> tensor<12x4xf32>
// CHECK-LABEL: func.func @concat_root(
// CHECK:         %[[F:.*]] = func.call @fused_relu_exp_transpose_concat(%arg0)
// CHECK-NEXT:    relax.output %[[F]]
func.func @concat_root(%x: !t) -> tensor<12x4xf32> {
  %r = relax.dataflow -> tensor<12x4xf32> {
    %a = relax.call_tir @relu(%x) : (!t) -> !t
    %b = relax.call_tir @exp(%x) : (!t) -> !t
    %c = relax.call_tir @transpose(%x) : (!t) -> !t
    %d = relax.call_tir @concat(%a, %b, %c) : (!t, !t, !t) -> tensor<12x4xf32>
    relax.output %d : tensor<12x4xf32>
  }
  return %r : tensor<12x4xf32>
}

// Softmax decomposed (max, subtract, exp, sum, divide): a reduction never
// fuses into its consumers, and exp does not fuse into divide because the
// path through sum is not injective; subtract fuses into exp.
// CHECK-LABEL: func.func private @fused_subtract_exp(
// CHECK-LABEL: func.func @softmax(
// CHECK:         %[[M:.*]] = relax.call_tir @max(%arg0)
// CHECK-NEXT:    %[[E:.*]] = func.call @fused_subtract_exp(%arg0, %[[M]])
// CHECK-NEXT:    %[[S:.*]] = relax.call_tir @sum(%[[E]])
// CHECK-NEXT:    %[[D:.*]] = relax.call_tir @divide(%[[E]], %[[S]])
// CHECK-NEXT:    relax.output %[[D]]
func.func @softmax(%x: !t) -> !t {
  %r = relax.dataflow -> !t {
    %m = relax.call_tir @max(%x) : (!t) -> tensor<4xf32>
    %s = relax.call_tir @subtract(%x, %m) : (!t, tensor<4xf32>) -> !t
    %e = relax.call_tir @exp(%s) : (!t) -> !t
    %sum = relax.call_tir @sum(%e) : (!t) -> tensor<4xf32>
    %d = relax.call_tir @divide(%e, %sum) : (!t, tensor<4xf32>) -> !t
    relax.output %d : !t
  }
  return %r : !t
}

// Elementwise ops fuse into a reduction that post-dominates them.
// CHECK-LABEL: func.func private @fused_relu_exp_sum(
// CHECK-LABEL: func.func @ewise_reduce(
// CHECK:         func.call @fused_relu_exp_sum(%arg0)
func.func @ewise_reduce(%x: !t) -> tensor<4xf32> {
  %r = relax.dataflow -> tensor<4xf32> {
    %a = relax.call_tir @relu(%x) : (!t) -> !t
    %e = relax.call_tir @exp(%a) : (!t) -> !t
    %s = relax.call_tir @sum(%e) : (!t) -> tensor<4xf32>
    relax.output %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Reshape is injective: it does not join the conv2d group (only elementwise
// relations do), but fuses with its elementwise consumer in phase 1.
// The name is taken: the symbol table makes it unique.
// CHECK-LABEL: func.func private @fused_conv2d_add_0(
// CHECK-LABEL: func.func private @fused_reshape_exp16(
// CHECK-LABEL: func.func @conv_reshape(
// CHECK:         %[[C:.*]] = func.call @fused_conv2d_add_0(%arg0, %arg1)
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_reshape_exp16(%[[C]])
// CHECK-NEXT:    relax.output %[[R]]
func.func @conv_reshape(%x: !t, %w: !t) -> tensor<16xf32> {
  %r = relax.dataflow -> tensor<16xf32> {
    %c = relax.call_tir @conv2d(%x, %w) : (!t, !t) -> !t
    %a = relax.call_tir @add(%c, %x) : (!t, !t) -> !t
    %s = relax.call_tir @reshape(%a) : (!t) -> tensor<16xf32>
    %e = relax.call_tir @exp16(%s) : (tensor<16xf32>) -> tensor<16xf32>
    relax.output %e : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// Elementwise into reshape in phase 0, then the reshape group into its
// consumer in phase 1.
// CHECK-LABEL: func.func private @fused_add_reshape_exp16(
// CHECK-LABEL: func.func @reshape_chain(
// CHECK:         func.call @fused_add_reshape_exp16(%arg0)
func.func @reshape_chain(%x: !t) -> tensor<16xf32> {
  %r = relax.dataflow -> tensor<16xf32> {
    %a = relax.call_tir @add(%x, %x) : (!t, !t) -> !t
    %s = relax.call_tir @reshape(%a) : (!t) -> tensor<16xf32>
    %e = relax.call_tir @exp16(%s) : (tensor<16xf32>) -> tensor<16xf32>
    relax.output %e : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// Negative cases. Opaque ops (pre-set, or a callee without a kind, or a
// non-call_tir op) never fuse, and neither do ops on either side of them.
// CHECK-LABEL: func.func @no_fusion(
// CHECK-NOT:     func.call
// CHECK:         relax.call_tir @relu
// CHECK-NEXT:    relax.call_tir @opaque
// CHECK-NEXT:    relax.call_tir @unannotated
// CHECK-NEXT:    relax.add
// CHECK-NEXT:    relax.call_tir @exp
// CHECK-NEXT:    relax.output
func.func @no_fusion(%x: !t) -> !t {
  %r = relax.dataflow -> !t {
    %a = relax.call_tir @relu(%x) : (!t) -> !t
    %b = relax.call_tir @opaque(%a) : (!t) -> !t
    %c = relax.call_tir @unannotated(%b) : (!t) -> !t
    %d = relax.add %c, %c : (!t, !t) -> !t
    %e = relax.call_tir @exp(%d) : (!t) -> !t
    relax.output %e : !t
  }
  return %r : !t
}

// A value that leaves the block is not fused into its consumers (TVM: a
// non-dataflow var), but its producers fuse into it.
// CHECK-LABEL: func.func private @fused_exp_relu(
// CHECK-LABEL: func.func @block_output(
// CHECK:         %[[A:.*]] = func.call @fused_exp_relu(%arg0)
// CHECK-NEXT:    %[[B:.*]] = relax.call_tir @exp(%[[A]])
// CHECK-NEXT:    relax.output %[[A]], %[[B]]
func.func @block_output(%x: !t) -> (!t, !t) {
  %r:2 = relax.dataflow -> !t, !t {
    %e = relax.call_tir @exp(%x) : (!t) -> !t
    %a = relax.call_tir @relu(%e) : (!t) -> !t
    %b = relax.call_tir @exp(%a) : (!t) -> !t
    relax.output %a, %b : !t, !t
  }
  return %r#0, %r#1 : !t, !t
}
