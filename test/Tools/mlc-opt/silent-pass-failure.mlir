// A pass that fails without an error still gets one, naming it, and no
// output file is left: upstream's canonicalizer with test-convergence fails
// silently when it does not converge within max-iterations (mlir-opt exits 1
// without a message here).
// RUN: rm -f %t.out
// RUN: not mlc-opt %s --canonicalize="test-convergence=true max-iterations=1" -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out
// RUN: mlc-opt %s --canonicalize -o %t.out
// RUN: FileCheck %s --check-prefix=OK < %t.out

// CHECK: error: pass 'canonicalize' failed on 'builtin.module' without saying why (a bug in the pass: please report it with this input)
// OK-LABEL: func.func @f
// OK-NEXT: return %arg0 : i32

func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.addi %0, %c0 : i32
  return %1 : i32
}
