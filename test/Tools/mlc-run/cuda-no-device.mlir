// On a machine without a CUDA device, mlc-run --target=cuda fails before it
// compiles or runs anything (a missing --inputs file is not even opened), and
// writes no output file. The driver is the fake one of the CUDA runtime's
// test, built without devices and found first through LD_LIBRARY_PATH, so
// that this holds on machines with a GPU too.
// REQUIRES: mlc-run, cuda-runtime, c-compiler
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -DMLC_FAKE_CUDA_NO_DEVICE -I%cuda_toolkit_dir/include %mlc_src_root/test/ExecutionEngine/Inputs/fake-libcuda.c -o %t/libcuda.so.1
// RUN: %python -c "import numpy as np; np.savez('%t/in.npz', data=np.arange(1000, dtype=np.int32))"
// RUN: env LD_LIBRARY_PATH=%t not mlc-run %s --target=cuda --inputs=%t/in.npz --outputs=%t/out.npz 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%t not mlc-run %s --target=cuda:sm_80 --bench=3 --inputs=%t/missing.npz --outputs=%t/out.npz 2>&1 | FileCheck %s
// RUN: not test -e %t/out.npz

// CHECK-NOT: data:
// CHECK: mlc-run: error: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE
// CHECK-NOT: data:

func.func @main(%data: memref<1000xi32> {tensorir.name = "data"}) {
  return
}
