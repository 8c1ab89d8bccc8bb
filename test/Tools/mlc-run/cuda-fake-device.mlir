// mlc-run --target=cuda on the fake CUDA driver of the runtime's test (a
// "device" over host memory that runs the kernel mlc_add_one_memref on the
// CPU, found first through LD_LIBRARY_PATH): the GPU pipeline's host code
// is JIT-compiled against mlc's CUDA runtime, its global constructor loads
// the kernels (PTX: the fake reads no fatbin), the buffers go to device
// memory (the fake checks that the kernel gets its own allocations) and
// come back, and --bench times with CUDA events.
// REQUIRES: mlc-run, cuda-runtime, c-compiler
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -I%cuda_toolkit_dir/include %mlc_src_root/test/ExecutionEngine/Inputs/fake-libcuda.c -o %t/libcuda.so.1
// RUN: %python -c "import numpy as np; np.savez('%t/data.npz', data=np.arange(1000, dtype=np.int32)); np.savez('%t/x.npz', x=np.arange(1000, dtype=np.int32))"
//
// A buffer entry: the buffer is written in place and comes back.
// RUN: env LD_LIBRARY_PATH=%t mlc-run %s --target=cuda --pipeline-options=format=isa --inputs=%t/data.npz --outputs=%t/buffer.npz --bench=3 | FileCheck %s --check-prefix=BUFFER
// RUN: %python -c "import numpy as np; d = np.load('%t/buffer.npz'); assert d.files == ['data'], d.files; assert (d['data'] == np.arange(1000) + 1).all(), d['data']; print('npz ok')" | FileCheck %s --check-prefix=NPZ
//
// A tensor entry: the result is a device buffer passed as an out-parameter.
// RUN: env LD_LIBRARY_PATH=%t mlc-run %s --target=cuda:sm_80 --pipeline-options=format=isa --entry=tensor --inputs=%t/x.npz --outputs=%t/tensor.npz | FileCheck %s --check-prefix=TENSOR
// RUN: %python -c "import numpy as np; d = np.load('%t/tensor.npz'); assert d.files == ['out0'], d.files; assert (d['out0'] == np.arange(1000) + 1).all(), d['out0']; print('npz ok')" | FileCheck %s --check-prefix=NPZ
//
// CUDA errors fail the run, name the error, and no output file is written:
// a launch the driver rejects (2048 threads per block), with and without
// --bench, and a GPU binary it cannot load (a fatbin, for this fake).
// RUN: env LD_LIBRARY_PATH=%t not mlc-run %s --target=cuda --pipeline-options=format=isa --entry=too_many_threads --inputs=%t/data.npz --outputs=%t/launch.npz 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: env LD_LIBRARY_PATH=%t not mlc-run %s --target=cuda --pipeline-options=format=isa --entry=too_many_threads --inputs=%t/data.npz --bench=2 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: not test -e %t/launch.npz
// RUN: %if ptxas %{ env LD_LIBRARY_PATH=%t not mlc-run %s --target=cuda --inputs=%t/data.npz --outputs=%t/load.npz 2>&1 | FileCheck %s --check-prefix=LOAD %}
// RUN: not test -e %t/load.npz

// BUFFER: data: tensor<1000xi32> min 1 max 1000 mean 500.5 [1, 2, 3, 4, 5, 6, ...]
// BUFFER-NEXT: compile time: {{[0-9.]+}} ms (MLIR pipeline {{[0-9.]+}} ms, LLVM {{[0-9.]+}} ms)
// BUFFER-NEXT: latency over 3 runs: min {{[0-9.]+}} ms, median {{[0-9.]+}} ms, max {{[0-9.]+}} ms
// TENSOR: out0: tensor<1000xi32> min 1 max 1000 mean 500.5 [1, 2, 3, 4, 5, 6, ...]
// NPZ: npz ok
// LAUNCH-NOT: data:
// LAUNCH: mlc-run: error: calling 'too_many_threads': CUDA error: cuLaunchKernel (kernel 'mlc_add_one_memref') failed: CUDA_ERROR_INVALID_VALUE
// LAUNCH-NOT: latency
// LOAD: mlc-run: error: loading the GPU kernels: CUDA error: cuModuleLoadData ({{[0-9]+}}-byte GPU binary, device fake CUDA device, sm_90) failed: CUDA_ERROR_INVALID_IMAGE

// data[i] += 1 on 4 x 250 threads.
func.func @main(%data: memref<1000xi32> {tensorir.name = "data"}) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c250 = arith.constant 250 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c250, %sy = %c1, %sz = %c1)
             module(@buffer_kernels) function(@mlc_add_one_memref) {
    %i = affine.apply affine_map<(b, t) -> (b * 250 + t)>(%bx, %tx)
    %v = memref.load %data[%i] : memref<1000xi32>
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    memref.store %w, %data[%i] : memref<1000xi32>
    gpu.terminator
  }
  return
}

// x + 1 into a new tensor: a device-to-device copy, then the same kernel.
func.func @tensor(%x: tensor<1000xi32> {relax.name = "x"}) -> tensor<1000xi32> {
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

// One block of 2048 threads: more than CUDA allows.
func.func @too_many_threads(%data: memref<1000xi32> {tensorir.name = "data"}) {
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2048, %sy = %c1, %sz = %c1)
             module(@big_kernels) function(@mlc_add_one_memref) {
    %v = memref.load %data[%tx] : memref<1000xi32>
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    memref.store %w, %data[%tx] : memref<1000xi32>
    gpu.terminator
  }
  return
}
