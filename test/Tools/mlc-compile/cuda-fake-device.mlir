// A --target=cuda shared library on the fake CUDA driver of the runtime's
// test (a "device" over host memory that runs mlc_add_one_memref on the
// CPU, found through LD_LIBRARY_PATH), loaded by mlc.runtime as on a GPU
// machine: the library's global constructor must load its GPU binary when
// the library is opened. It sits in .init_array; a legacy .ctors section
// is run by neither lld nor the dynamic loader, and every kernel then
// failed with "its GPU module was not loaded" (seen on an H200).
// REQUIRES: cuda-runtime, c-compiler
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -I%cuda_toolkit_dir/include %mlc_src_root/test/ExecutionEngine/Inputs/fake-libcuda.c -o %t/libcuda.so.1
// RUN: mlc-compile %s --target=cuda --pipeline-options=format=isa -o %t/add.so
// RUN: llvm-readelf --section-headers %t/add.so | FileCheck %s --check-prefix=SECTIONS
// RUN: env LD_LIBRARY_PATH=%t PYTHONPATH=%mlc_src_root/python %python -c "import numpy as np; from mlc import runtime; x = np.arange(1000, dtype=np.int32); out = runtime.load_module('%t/add.so')['main'](x); assert (out == x + 1).all(), out; print('add ok')" | FileCheck %s --check-prefix=RUN-OK

// SECTIONS: .init_array
// SECTIONS-NOT: .ctors
// RUN-OK: add ok

// x + 1 into a new tensor on 4 x 250 threads.
func.func @main(%x: tensor<1000xi32> {relax.name = "x"}) -> tensor<1000xi32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c250 = arith.constant 250 : index
  %in = bufferization.to_buffer %x read_only : tensor<1000xi32> to memref<1000xi32>
  %out = memref.alloc() : memref<1000xi32>
  memref.copy %in, %out : memref<1000xi32> to memref<1000xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c250, %sy = %c1, %sz = %c1)
             module(@tensor_kernels) function(@mlc_add_one_memref) {
    %i = affine.apply affine_map<(b, t) -> (b * 250 + t)>(%bx, %tx)
    %v = memref.load %out[%i] : memref<1000xi32>
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    memref.store %w, %out[%i] : memref<1000xi32>
    gpu.terminator
  }
  %result = bufferization.to_tensor %out restrict : memref<1000xi32> to tensor<1000xi32>
  return %result : tensor<1000xi32>
}
