// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-device-memory \
// RUN:   | FileCheck %s --implicit-check-not='memref.alloc(' \
// RUN:       --implicit-check-not=memref.copy --implicit-check-not=memref.dealloc
// Its output is a fixed point: running it twice gives the same.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-device-memory \
// RUN:   --mlc-gpu-device-memory \
// RUN:   | FileCheck %s --implicit-check-not='memref.alloc(' \
// RUN:       --implicit-check-not=memref.copy --implicit-check-not=memref.dealloc
// RUN: not mlc-opt %s -split-input-file --mlc-gpu-device-memory=max-kernel-constant-bytes=-1 \
// RUN:   2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: max-kernel-constant-bytes must not be negative, got -1

// The host's buffers become device buffers: memref.alloc/dealloc/copy to
// gpu.alloc/dealloc/memcpy (device to device); the parameters are device
// pointers already. Host work that touches no memory (index arithmetic,
// views, dims, loops, calls, launches) stays as it is.
// CHECK-LABEL: func.func @buffers
// CHECK-SAME:      (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK:         %[[TMP:.*]] = gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK:         %[[STATIC:.*]] = gpu.alloc () : memref<16xf32>
// CHECK:         %[[HEAD:.*]] = memref.subview %[[STATIC]][0] [8] [1]
// CHECK:         scf.for
// CHECK-NEXT:      gpu.launch
// CHECK:             memref.load %[[X]]
// CHECK:             memref.store %{{.*}}, %[[TMP]]
// CHECK:             memref.store %{{.*}}, %[[HEAD]]
// CHECK:             gpu.terminator
// CHECK:         call @helper(%[[TMP]])
// CHECK:         gpu.memcpy %[[OUT]], %[[TMP]] : memref<?xf32>, memref<?xf32>
// CHECK:         gpu.dealloc %[[TMP]] : memref<?xf32>
// CHECK:         gpu.dealloc %[[STATIC]] : memref<16xf32>
// CHECK:         return
func.func private @helper(memref<?xf32>)

func.func @buffers(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tmp = memref.alloc(%n) : memref<?xf32>
  %static = memref.alloc() : memref<16xf32>
  %head = memref.subview %static[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  scf.for %iter = %c0 to %c2 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<?xf32>
      memref.store %v, %tmp[%tx] : memref<?xf32>
      memref.store %v, %head[%c0] : memref<8xf32, strided<[1]>>
      gpu.terminator
    }
  }
  call @helper(%tmp) : (memref<?xf32>) -> ()
  memref.copy %tmp, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %tmp : memref<?xf32>
  memref.dealloc %static : memref<16xf32>
  return
}

// -----

// A small constant (at most max-kernel-constant-bytes, 4096 by default) read
// by a kernel moves into the kernel, with the views of it
// that the kernel reads, so that kernel outlining copies the memref.global
// into the gpu.module; each launch gets its own get_global. A host
// get_global that nothing reads is erased.
// CHECK-LABEL: memref.global "private" constant @weights
// CHECK-LABEL: func.func @constants
// CHECK-NOT:     memref.get_global
// CHECK-NOT:     memref.subview
// CHECK:         gpu.launch
// CHECK-DAG:       %[[W:.*]] = memref.get_global @weights : memref<4x8xf32>
// CHECK-DAG:       %[[ROW:.*]] = memref.subview %[[W]][1, 0] [1, 8] [1, 1]
// CHECK-DAG:       %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           memref.load %[[W]]
// CHECK:           memref.load %[[ROW]]
// CHECK:           arith.addf %{{.*}}, %[[ONE]]
// CHECK:           gpu.terminator
// CHECK:         gpu.launch
// CHECK:           %[[W2:.*]] = memref.get_global @weights : memref<4x8xf32>
// CHECK:           memref.load %[[W2]]
// CHECK:           gpu.terminator
// CHECK-NOT:     memref.get_global
// CHECK:         return
memref.global "private" constant @weights : memref<4x8xf32> = dense<1.0>
memref.global "private" constant @unused : memref<2xf32> = dense<0.0>

func.func @constants(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @weights : memref<4x8xf32>
  %row = memref.subview %w[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  %dead = memref.get_global @unused : memref<2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %a = memref.load %w[%bx, %tx] : memref<4x8xf32>
    %r = memref.load %row[%tx] : memref<8xf32, strided<[1], offset: 8>>
    %s = arith.addf %a, %r : f32
    %t = arith.addf %s, %one : f32
    memref.store %t, %out[%bx, %tx] : memref<4x8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %a = memref.load %w[%bx, %tx] : memref<4x8xf32>
    memref.store %a, %x[%bx, %tx] : memref<4x8xf32>
    gpu.terminator
  }
  return
}

// -----

// Code in a gpu.module is device code: left alone.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @kernel
// CHECK:           memref.alloca() : memref<4xf32>
// CHECK:           memref.load
// CHECK:           memref.store
gpu.module @kernels {
  gpu.func @kernel(%x: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %scratch = memref.alloca() : memref<4xf32>
    %v = memref.load %x[%c0] : memref<4xf32>
    memref.store %v, %scratch[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

func.func @host_load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.load' op reads or writes memory on the host in a GPU module; only kernels (gpu.launch) may access device buffers}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

func.func @host_store(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'memref.store' op reads or writes memory on the host in a GPU module; only kernels (gpu.launch) may access device buffers}}
  memref.store %zero, %x[%c0] : memref<4xf32>
  return
}

// -----

// Host memory access inside host control flow is still host code.
func.func @host_fill_in_loop(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @below {{'memref.store' op reads or writes memory on the host in a GPU module; only kernels (gpu.launch) may access device buffers}}
    memref.store %zero, %x[%i] : memref<4xf32>
  }
  return
}

// -----

func.func @host_alloca(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'memref.alloca' op allocates a host stack buffer in a GPU module's host code; kernels cannot read it}}
  %scratch = memref.alloca() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %scratch[%tx] : memref<4xf32>
    memref.store %v, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A constant that the host reads (here copied into a device buffer) stays on
// the host: only kernels may read constants.
memref.global "private" constant @table : memref<4xf32> = dense<2.0>

func.func @host_constant_copy(%out: memref<4xf32>) {
  // expected-error @below {{'memref.get_global' op reads constant @table on the host; in a GPU module only kernels may read constants}}
  %t = memref.get_global @table : memref<4xf32>
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A constant that both a kernel and the host read: the kernel gets its own
// copy, the host's read is still an error.
memref.global "private" constant @table : memref<4xf32> = dense<2.0>

func.func private @consume(memref<4xf32>)

func.func @host_constant_call(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'memref.get_global' op reads constant @table on the host; in a GPU module only kernels may read constants}}
  %t = memref.get_global @table : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%tx] : memref<4xf32>
    memref.store %v, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  call @consume(%t) : (memref<4xf32>) -> ()
  return
}

// -----

// A constant whose TMA tensor map the runtime encodes stays on the host for
// that call (the runtime uploads a device copy of it); the kernel that
// reads it directly gets its own copy. Another call on the same cast is
// still an error.
memref.global "private" constant @weight : memref<32x32xf16> = dense<1.0>

func.func private @mlc_cuda_tensor_map_encode_tiled_constant_f16(memref<*xf16>, i64) -> !llvm.ptr
func.func private @use_pointer(!llvm.ptr)

// CHECK-LABEL: func.func @constant_tensor_map
// CHECK:         %[[W:.*]] = memref.get_global @weight
// CHECK:         %[[U:.*]] = memref.cast %[[W]]
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%[[U]],
// CHECK:         gpu.launch
// CHECK:           memref.get_global @weight
func.func @constant_tensor_map(%out: memref<64xf16>) {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : i64
  %w = memref.get_global @weight : memref<32x32xf16>
  %u = memref.cast %w : memref<32x32xf16> to memref<*xf16>
  %map = call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%u, %c6) : (memref<*xf16>, i64) -> !llvm.ptr
  call @use_pointer(%map) : (!llvm.ptr) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %w[%tx, %tx] : memref<32x32xf16>
    memref.store %v, %out[%tx] : memref<64xf16>
    gpu.terminator
  }
  return
}

// -----

memref.global "private" constant @weight : memref<32x32xf16> = dense<1.0>

func.func private @mlc_cuda_tensor_map_encode_tiled_constant_f16(memref<*xf16>, i64) -> !llvm.ptr
func.func private @consume(memref<*xf16>)

func.func @constant_tensor_map_and_call() {
  %c6 = arith.constant 6 : i64
  // expected-error @below {{'memref.get_global' op reads constant @weight on the host; in a GPU module only kernels may read constants}}
  %w = memref.get_global @weight : memref<32x32xf16>
  %u = memref.cast %w : memref<32x32xf16> to memref<*xf16>
  %map = call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%u, %c6) : (memref<*xf16>, i64) -> !llvm.ptr
  call @consume(%u) : (memref<*xf16>) -> ()
  return
}

// -----

// A constant of more than max-kernel-constant-bytes stays on the host: its
// flat view goes to the runtime, and the kernels (and host views) read the
// device copy it returns, reshaped (views of it move into the kernels, as
// views of any buffer). A get_global inside a kernel moves out of it first.
memref.global "private" constant @large : memref<32x64xf32> = dense<1.0>

// CHECK-LABEL: func.func @large_constant
// CHECK:         %[[W:.*]] = memref.get_global @large : memref<32x64xf32>
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[W]] {{\[}}[0, 1]] : memref<32x64xf32> into memref<2048xf32>
// CHECK:         %[[DYN:.*]] = memref.cast %[[FLAT]] : memref<2048xf32> to memref<?xf32>
// CHECK:         %[[COPY:.*]] = call @mlc_cuda_constant_on_device_f32(%[[DYN]]) : (memref<?xf32>) -> memref<?xf32>
// CHECK:         %[[STATIC:.*]] = memref.cast %[[COPY]] : memref<?xf32> to memref<2048xf32>
// CHECK:         %[[DEVICE:.*]] = memref.expand_shape %[[STATIC]] {{\[}}[0, 1]] output_shape [32, 64]
// CHECK:         gpu.launch
// CHECK-NOT:       memref.get_global
// CHECK:           %[[ROW:.*]] = memref.subview %[[DEVICE]][1, 0] [1, 64] [1, 1]
// CHECK:           memref.load %[[DEVICE]]
// CHECK:           memref.load %[[ROW]]
// CHECK:         %[[W2:.*]] = memref.get_global @large : memref<32x64xf32>
// CHECK:         memref.collapse_shape %[[W2]]
// CHECK:         %[[COPY2:.*]] = call @mlc_cuda_constant_on_device_f32(
// CHECK:         %[[STATIC2:.*]] = memref.cast %[[COPY2]]
// CHECK:         %[[DEVICE2:.*]] = memref.expand_shape %[[STATIC2]]
// CHECK:         gpu.launch
// CHECK-NOT:       memref.get_global
// CHECK:           memref.load %[[DEVICE2]]
// CHECK:         return
// CHECK:       func.func private @mlc_cuda_constant_on_device_f32(memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface}
func.func @large_constant(%out: memref<32x64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %w = memref.get_global @large : memref<32x64xf32>
  %row = memref.subview %w[1, 0] [1, 64] [1, 1] : memref<32x64xf32> to memref<64xf32, strided<[1], offset: 64>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %a = memref.load %w[%bx, %tx] : memref<32x64xf32>
    %r = memref.load %row[%tx] : memref<64xf32, strided<[1], offset: 64>>
    %s = arith.addf %a, %r : f32
    memref.store %s, %out[%bx, %tx] : memref<32x64xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %w2 = memref.get_global @large : memref<32x64xf32>
    %a = memref.load %w2[%bx, %tx] : memref<32x64xf32>
    memref.store %a, %out[%bx, %tx] : memref<32x64xf32>
    gpu.terminator
  }
  return
}

// -----

// Element types the runtime has no device-copy function for (i1) stay in
// the kernels at any size, as do 1-d constants at most the limit.
memref.global "private" constant @mask : memref<65536xi1> = dense<true>
memref.global "private" constant @bias : memref<1024xf32> = dense<0.5>

// CHECK-LABEL: func.func @kept_in_kernel
// CHECK-NOT:     call
// CHECK:         gpu.launch
// CHECK-DAG:       memref.get_global @mask
// CHECK-DAG:       memref.get_global @bias
// CHECK:           gpu.terminator
func.func @kept_in_kernel(%out: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.get_global @mask : memref<65536xi1>
  %b = memref.get_global @bias : memref<1024xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1024, %sy = %c1, %sz = %c1) {
    %keep = memref.load %m[%tx] : memref<65536xi1>
    %v = memref.load %b[%tx] : memref<1024xf32>
    %r = arith.select %keep, %v, %zero : f32
    memref.store %r, %out[%tx] : memref<1024xf32>
    gpu.terminator
  }
  return
}

// -----

// A large 1-d weight whose tensor map the runtime encodes: the encoder
// still reads the host constant (it describes the same device copy), the
// kernel reads the device copy, with no reshape.
memref.global "private" constant @weight1d : memref<4096xf16> = dense<1.0>

func.func private @mlc_cuda_tensor_map_encode_tiled_constant_f16(memref<*xf16>, i64) -> !llvm.ptr
func.func private @use_pointer(!llvm.ptr)

// CHECK-LABEL: func.func @large_constant_tensor_map
// CHECK:         %[[W:.*]] = memref.get_global @weight1d
// CHECK:         %[[DYN:.*]] = memref.cast %[[W]] : memref<4096xf16> to memref<?xf16>
// CHECK:         %[[COPY:.*]] = call @mlc_cuda_constant_on_device_f16(%[[DYN]])
// CHECK:         %[[DEVICE:.*]] = memref.cast %[[COPY]] : memref<?xf16> to memref<4096xf16>
// CHECK:         %[[U:.*]] = memref.cast %[[W]] : memref<4096xf16> to memref<*xf16>
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%[[U]],
// CHECK:         gpu.launch
// CHECK-NOT:       memref.get_global
// CHECK:           memref.load %[[DEVICE]]
func.func @large_constant_tensor_map(%out: memref<64xf16>) {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : i64
  %w = memref.get_global @weight1d : memref<4096xf16>
  %u = memref.cast %w : memref<4096xf16> to memref<*xf16>
  %map = call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%u, %c6) : (memref<*xf16>, i64) -> !llvm.ptr
  call @use_pointer(%map) : (!llvm.ptr) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %w[%tx] : memref<4096xf16>
    memref.store %v, %out[%tx] : memref<64xf16>
    gpu.terminator
  }
  return
}
