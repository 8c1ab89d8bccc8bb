// Constants larger than max-kernel-constant-bytes (bound weights) stay out
// of the kernels' binaries: the host passes the kernels the device copy
// that mlc's CUDA runtime uploads at the first call and keeps. On the fake
// CUDA driver of the runtime's test (a "device" over host memory whose
// kernel mlc_add_constant_memref checks that the constant is memory it
// allocated), a --target=cuda library adds a 4 x 5 constant to its input,
// twice (the second call reads the kept copy), compared with numpy; so
// does mlc-run.
// REQUIRES: mlc-run, cuda-runtime, c-compiler
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -I%cuda_toolkit_dir/include %mlc_src_root/test/ExecutionEngine/Inputs/fake-libcuda.c -o %t/libcuda.so.1
// RUN: mlc-compile %s --target=cuda --pipeline-options='format=isa max-kernel-constant-bytes=64' -o %t/add.so
// The JIT (mlc-run) resolves the runtime's entry point too: x = 0..19.
// RUN: %python -c "import numpy as np; np.savez('%t/x.npz', x=np.arange(20, dtype=np.int32))"
// RUN: env LD_LIBRARY_PATH=%t mlc-run %s --target=cuda --pipeline-options='format=isa max-kernel-constant-bytes=64' --inputs=%t/x.npz | FileCheck %s --check-prefix=JIT
// JIT: out0: tensor<20xi32> min -1 max 23 mean 10.95 [3, 0, 6, 4, -1, 14, ...]
// RUN: env LD_LIBRARY_PATH=%t PYTHONPATH=%mlc_src_root/python %python -c "import numpy as np; from mlc import runtime; c = np.array([[3, -1, 4, 1, -5], [9, 2, -6, 5, 3], [-5, 8, 9, 7, -9], [3, 2, 3, -8, 4]], np.int32).ravel(); main = runtime.load_module('%t/add.so')['main']; xs = [np.random.default_rng(s).integers(-1000, 1000, 20, dtype=np.int32) for s in (0, 1)]; outs = [main(x) for x in xs]; assert all((o == x + c).all() for o, x in zip(outs, xs)), outs; print('constants ok')" | FileCheck %s --check-prefix=RUN-OK
//
// The host's calls and the kernel's arguments: no copy of the constant in
// the GPU module, whose kernel takes it as a 2-d memref argument. At the
// default limit (4096 bytes) the 80-byte constant is the kernel's own.
// RUN: mlc-opt %s '--mlc-gpu-pipeline=format=isa max-kernel-constant-bytes=64' | FileCheck %s --check-prefix=COPY
// RUN: mlc-opt %s '--mlc-gpu-pipeline=format=isa' | FileCheck %s --check-prefix=KERNEL
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=max-kernel-constant-bytes=-1' 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// RUN-OK: constants ok

// COPY:     llvm.mlir.global private constant @c(dense<
// COPY:     llvm.func @main(
// COPY:       llvm.call @mlc_cuda_constant_on_device_i32(
// COPY:       gpu.launch_func {{.*}}@constant_kernels::@mlc_add_constant_memref
// COPY:     gpu.binary @constant_kernels
// COPY-NOT: .global
// COPY-SAME:  .entry mlc_add_constant_memref
// COPY:     llvm.func private @mlc_cuda_constant_on_device_i32(
// COPY:       llvm.call @_mlir_ciface_mlc_cuda_constant_on_device_i32(
// COPY:     llvm.func @_mlir_ciface_mlc_cuda_constant_on_device_i32(!llvm.ptr, !llvm.ptr)

// KERNEL-NOT: mlc_cuda_constant_on_device
// KERNEL:     gpu.binary @constant_kernels
// KERNEL-SAME:  .global .align {{[0-9]+}} .b8 c[80]

// NEGATIVE: max-kernel-constant-bytes must not be negative, got -1

memref.global "private" constant @c : memref<4x5xi32> = dense<[[3, -1, 4, 1, -5], [9, 2, -6, 5, 3], [-5, 8, 9, 7, -9], [3, 2, 3, -8, 4]]>

// x + c (flattened) into a new tensor, on 4 x 5 threads.
func.func @main(%x: tensor<20xi32> {relax.name = "x"}) -> tensor<20xi32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %in = bufferization.to_buffer %x read_only : tensor<20xi32> to memref<20xi32>
  %out = memref.alloc() : memref<20xi32>
  memref.copy %in, %out : memref<20xi32> to memref<20xi32>
  %c = memref.get_global @c : memref<4x5xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1)
             module(@constant_kernels) function(@mlc_add_constant_memref) {
    %i = affine.apply affine_map<(b, t) -> (b * 5 + t)>(%bx, %tx)
    %v = memref.load %out[%i] : memref<20xi32>
    %k = memref.load %c[%bx, %tx] : memref<4x5xi32>
    %s = arith.addi %v, %k : i32
    memref.store %s, %out[%i] : memref<20xi32>
    gpu.terminator
  }
  %result = bufferization.to_tensor %out restrict : memref<20xi32> to tensor<20xi32>
  return %result : tensor<20xi32>
}
