// Bad input gets a located diagnostic and a non-zero exit, and no output file.
// RUN: rm -f %t.out
// RUN: not mlc-opt %s -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out

// CHECK: invalid-input.mlir:[[@LINE+2]]:{{[0-9]+}}: error: use of undeclared SSA value name
func.func @f() -> f32 {
  return %undefined : f32
}
