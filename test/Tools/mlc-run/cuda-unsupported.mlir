// Built without the CUDA toolkit, mlc-run has no CUDA runtime to run on.
// REQUIRES: mlc-run
// UNSUPPORTED: cuda-runtime
// RUN: not mlc-run %s --target=cuda --outputs=%t.out.npz 2>&1 | FileCheck %s
// RUN: not test -e %t.out.npz

// CHECK: mlc-run: error: mlc was built without CUDA support

func.func @main(%data: memref<4xi32> {tensorir.name = "data"}) {
  return
}
