// --emit-header spells element and scalar types in C, names parameters after
// relay.name / relax.name / tensorir.name (made valid, distinct C
// identifiers), and with hoist-result-allocs=false returns a result through a
// leading `result` pointer.
// RUN: mlc-compile %s -o %t.o --emit-header=%t.h
// RUN: FileCheck %s < %t.h
// RUN: mlc-compile %S/Inputs/fresh.mlir -o %t.ret.o --emit-header=%t.ret.h --pipeline-options=hoist-result-allocs=false
// RUN: FileCheck %s --check-prefix=RETURNED < %t.ret.h

// CHECK: #ifndef MLC_GENERATED_HEADER_MLIR_TMP_H
// CHECK: /* Ownership: every buffer belongs to the caller.
// CHECK-DAG: typedef struct mlc_memref_1d_f32 {
// CHECK-DAG: typedef struct mlc_memref_2d_i32 {
// CHECK-DAG: typedef struct mlc_memref_3d_i8 {
// CHECK-DAG: typedef struct mlc_memref_1d_index {
// CHECK-DAG: typedef struct mlc_memref_0d_f64 {
// CHECK: void _mlir_ciface_names(mlc_memref_1d_f32 *in_x, mlc_memref_1d_f32 *in_x_1, mlc_memref_1d_f32 *float_2, mlc_memref_1d_f32 *out0, bool arg4, int64_t _0n, mlc_memref_1d_f32 *out0_6);
// CHECK: void _mlir_ciface_types(mlc_memref_2d_i32 *arg0, mlc_memref_3d_i8 *arg1, mlc_memref_1d_index *arg2, double arg3, int32_t arg4, mlc_memref_0d_f64 *out0);
// CHECK: float _mlir_ciface_scalar(float arg0);
// CHECK: #endif /* MLC_GENERATED_HEADER_MLIR_TMP_H */

// RETURNED: void _mlir_ciface_fresh(mlc_memref_1d_f32 *result, mlc_memref_1d_f32 *arg0);

func.func @names(%a: tensor<2xf32> {relay.name = "in.x"}, %b: tensor<2xf32> {relay.name = "in_x"},
                 %c: tensor<2xf32> {relay.name = "float"}, %d: tensor<2xf32> {relax.name = "out0"},
                 %e: i1, %f: index {relax.name = "0n"}) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

func.func @types(%a: tensor<2x3xi32>, %b: memref<1x2x3xi8>, %c: memref<4xindex>, %d: f64, %e: i32) -> tensor<f64> {
  %0 = tensor.from_elements %d : tensor<f64>
  return %0 : tensor<f64>
}

func.func @scalar(%x: f32) -> f32 {
  %0 = arith.mulf %x, %x : f32
  return %0 : f32
}
