// RUN: mlc-opt %s -split-input-file -relax-fuse-ops=multi-output-casts | FileCheck %s
// RUN: mlc-opt %s -split-input-file -relax-fuse-ops | FileCheck %s --check-prefix=OFF

// relax-fuse-ops' multi-output-casts: a group of injective ops that changes
// the element type of one result of a GEMM (out_ewise_fusable) group, a
// result that another user keeps from fusing, joins that group, which
// returns both. Stand-in prim_funcs carry their kinds.

!f32 = tensor<4x8xf32>
!f16 = tensor<4x8xf16>
tensorir.prim_func @matmul(%a: memref<4x8xf16>, %b: memref<8x8xf16>, %c: memref<4x8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {}
tensorir.prim_func @relu(%a: memref<4x8xf32>, %c: memref<4x8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @astype(%a: memref<4x8xf32>, %c: memref<4x8xf16>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @add(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %c: memref<4x8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}

// The residual pattern: relu's float32 result is read by the next GEMM's
// epilogue (the residual add) and, cast, by that GEMM.
// CHECK-LABEL: func.func private @fused_matmul_relu_astype(
// CHECK-SAME:    -> (tensor<4x8xf32>, tensor<4x8xf16>)
// CHECK-NEXT:    %[[M:.*]] = relax.call_tir @matmul
// CHECK-NEXT:    %[[R:.*]] = relax.call_tir @relu(%[[M]])
// CHECK-NEXT:    %[[C:.*]] = relax.call_tir @astype(%[[R]])
// CHECK-NEXT:    return %[[R]], %[[C]]
// CHECK-LABEL: func.func @residual(
// CHECK:         %[[F:.*]]:2 = func.call @fused_matmul_relu_astype(%arg0, %arg1)
// CHECK-NEXT:    %[[G:.*]] = func.call @fused_matmul_add(%[[F]]#1, %arg1, %[[F]]#0)
// OFF-LABEL: func.func @residual(
// OFF:         %[[F:.*]] = func.call @fused_matmul_relu(%arg0, %arg1)
// OFF-NEXT:    %[[C:.*]] = relax.call_tir @astype(%[[F]])
func.func @residual(%x: !f16, %w: tensor<8x8xf16>) -> !f32 {
  %r = relax.dataflow -> !f32 {
    %0 = relax.call_tir @matmul(%x, %w) : (!f16, tensor<8x8xf16>) -> !f32
    %1 = relax.call_tir @relu(%0) : (!f32) -> !f32
    %2 = relax.call_tir @astype(%1) : (!f32) -> !f16
    %3 = relax.call_tir @matmul(%2, %w) : (!f16, tensor<8x8xf16>) -> !f32
    %4 = relax.call_tir @add(%3, %1) : (!f32, !f32) -> !f32
    relax.output %4 : !f32
  }
  return %r : !f32
}

// -----

!f32 = tensor<4x8xf32>
!f16 = tensor<4x8xf16>
tensorir.prim_func @matmul(%a: memref<4x8xf16>, %b: memref<8x8xf16>, %c: memref<4x8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {}
tensorir.prim_func @exp(%a: memref<4x8xf32>, %c: memref<4x8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @astype(%a: memref<4x8xf32>, %c: memref<4x8xf16>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @reshape(%a: memref<4x8xf32>, %c: memref<32xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<injective>} {}
tensorir.prim_func @sum(%a: memref<4x8xf32>, %c: memref<4xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<comm_reduce>} {}
tensorir.prim_func @astype4(%a: memref<4xf32>, %c: memref<4xf16>) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}

// Not merged: a reshape alone (it becomes a view of its input), a cast of
// a reduction's result (no GEMM group), and a cast whose group would be
// placed after another user of the GEMM's result.
// CHECK-LABEL: func.func @not_merged(
// CHECK:         %[[M:.*]] = relax.call_tir @matmul
// CHECK-NEXT:    %[[R:.*]] = relax.call_tir @reshape(%[[M]])
// CHECK-NEXT:    %[[S:.*]] = relax.call_tir @sum(%[[M]])
// CHECK-NEXT:    %[[E:.*]] = relax.call_tir @exp(%[[M]])
// CHECK-NEXT:    %[[C:.*]] = relax.call_tir @astype4(%[[S]])
func.func @not_merged(%x: !f16, %w: tensor<8x8xf16>) -> (tensor<32xf32>, tensor<4xf16>, !f32) {
  %r:3 = relax.dataflow -> tensor<32xf32>, tensor<4xf16>, !f32 {
    %0 = relax.call_tir @matmul(%x, %w) : (!f16, tensor<8x8xf16>) -> !f32
    %1 = relax.call_tir @reshape(%0) : (!f32) -> tensor<32xf32>
    %2 = relax.call_tir @sum(%0) : (!f32) -> tensor<4xf32>
    %3 = relax.call_tir @exp(%0) : (!f32) -> !f32
    %4 = relax.call_tir @astype4(%2) : (tensor<4xf32>) -> tensor<4xf16>
    relax.output %1, %4, %3 : tensor<32xf32>, tensor<4xf16>, !f32
  }
  return %r#0, %r#1, %r#2 : tensor<32xf32>, tensor<4xf16>, !f32
}

// The cast reads the GEMM's result after the sum reads it: the merged call
// would go where the cast is, after the sum that needs its first result.
// CHECK-LABEL: func.func @user_before(
// CHECK:         relax.call_tir @matmul
// CHECK-NEXT:    relax.call_tir @sum
// CHECK-NEXT:    relax.call_tir @astype(
func.func @user_before(%x: !f16, %w: tensor<8x8xf16>) -> (tensor<4xf32>, !f16) {
  %r:2 = relax.dataflow -> tensor<4xf32>, !f16 {
    %0 = relax.call_tir @matmul(%x, %w) : (!f16, tensor<8x8xf16>) -> !f32
    %1 = relax.call_tir @sum(%0) : (!f32) -> tensor<4xf32>
    %2 = relax.call_tir @astype(%0) : (!f32) -> !f16
    relax.output %1, %2 : tensor<4xf32>, !f16
  }
  return %r#0, %r#1 : tensor<4xf32>, !f16
}
