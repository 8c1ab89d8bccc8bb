// mlc-compile lowers a tensor-level module with the CPU pipeline and writes a
// host object in which every public function (or each --entry) has a C
// wrapper; private functions get none.
// RUN: mlc-compile %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=ALL
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=PRIVATE
// RUN: mlc-compile %s --entry=add -O0 -o %t.add.o
// RUN: llvm-nm %t.add.o | FileCheck %s --check-prefix=ADD
// .ll and .s outputs are LLVM IR and host assembly.
// RUN: mlc-compile %s --entry=add,negate -o %t.ll
// RUN: FileCheck %s --check-prefix=LL < %t.ll
// RUN: mlc-compile %s -o %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// The header declares the descriptors and one prototype per entry, with the
// results as out-parameters after the inputs.
// RUN: mlc-compile %s -o %t.h.o --emit-header=%t.h
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// Already-lowered input is compiled as it is; the wrappers it has are kept.
// RUN: mlc-opt %s --mlc-cpu-pipeline -o %t.llvm.mlir
// RUN: mlc-compile %t.llvm.mlir -o %t.lowered.o --entry=add --emit-header=%t.lowered.h
// RUN: llvm-nm %t.lowered.o | FileCheck %s --check-prefix=LOWERED
// RUN: FileCheck %s --check-prefix=LOWERED-HEADER < %t.lowered.h

// ALL-DAG: T _mlir_ciface_add
// ALL-DAG: T _mlir_ciface_negate
// ALL-DAG: T add
// ALL-DAG: T negate
// PRIVATE-NOT: {{[TU]}} helper
// PRIVATE-NOT: _mlir_ciface_helper

// ADD: T _mlir_ciface_add
// ADD-NOT: _mlir_ciface_negate

// LL: target triple =
// LL: define void @_mlir_ciface_add(ptr
// LL: define void @_mlir_ciface_negate(ptr

// ASM: _mlir_ciface_add:

// HEADER: #include <stdint.h>
// HEADER: typedef struct mlc_memref_2d_f32 {
// HEADER-NEXT:   float *allocated;
// HEADER-NEXT:   float *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT:   int64_t sizes[2];
// HEADER-NEXT:   int64_t strides[2];
// HEADER-NEXT: } mlc_memref_2d_f32;
// HEADER: typedef struct mlc_memref_1d_i64 {
// HEADER-NEXT:   int64_t *allocated;
// HEADER: /* add: (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> */
// HEADER-NEXT: void _mlir_ciface_add(mlc_memref_2d_f32 *x, mlc_memref_2d_f32 *y, mlc_memref_2d_f32 *out0);
// HEADER: void _mlir_ciface_negate(mlc_memref_1d_i64 *arg0, mlc_memref_1d_i64 *out0);
// HEADER-NOT: helper

// No wrapper: only the LLVM-level signature is known.
// LOWERED: T add
// LOWERED-NOT: _mlir_ciface
// LOWERED-HEADER: void add(void *arg0, void *arg1, int64_t arg2,

func.func @add(%x: tensor<2x3xf32> {relay.name = "x"}, %y: tensor<2x3xf32> {relay.name = "y"}) -> tensor<2x3xf32> {
  %0 = arith.addf %x, %y : tensor<2x3xf32>
  %1 = func.call @helper(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

func.func @negate(%x: tensor<4xi64>) -> tensor<4xi64> {
  %zero = arith.constant dense<0> : tensor<4xi64>
  %0 = arith.subi %zero, %x : tensor<4xi64>
  return %0 : tensor<4xi64>
}

func.func private @helper(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = arith.mulf %x, %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
