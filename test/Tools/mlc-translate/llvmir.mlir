// Upstream LLVM IR export is available from mlc-translate.
// RUN: mlc-opt %s --convert-to-llvm | mlc-translate --mlir-to-llvmir | FileCheck %s

// CHECK: define i32 @add(i32 %0, i32 %1)
// CHECK:   add i32 %0, %1
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
