// Zero-width integers reach no LLVM code generation (its optimizer crashes
// on loads and stores of i0): mlc-compile and mlc-run reject them with an
// error at the op that uses one, and write no output (found by the
// gpu-pipeline fuzzer, seed 47).
// RUN: rm -f %t.o
// RUN: not mlc-compile %s -o %t.o 2>&1 | FileCheck %s
// RUN: not test -e %t.o
// RUN: not mlc-run %s --entry=f 2>&1 | FileCheck %s
// CHECK: :[[@LINE+3]]:8: error: 'memref.load' uses 'memref<4xi0>': zero-width integers cannot be compiled (LLVM cannot load or store them)
func.func @f(%a: memref<4xi0>, %b: memref<4xi0>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xi0>
  memref.store %x, %b[%c0] : memref<4xi0>
  return
}
