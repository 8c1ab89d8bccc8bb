// `-o` onto the input file: the input is read before the output truncates
// it (a file this large would be mapped and cut from under the parser:
// SIGBUS), and the result replaces it.
// RUN: %python -c "import sys; t = open(sys.argv[1]).read(); print(''.join(t.replace('@fold', '@fold%%d' %% i) for i in range(400)))" %s > %t.mlir
// RUN: mlc-opt %t.mlir --canonicalize -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir

// CHECK: func.func @fold0() -> i32
// CHECK-NEXT: %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT: return %[[C]]
// CHECK: func.func @fold399() -> i32
func.func @fold() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
