// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-device-memory \
// RUN:   | FileCheck %s --implicit-check-not='memref.alloc(' \
// RUN:       --implicit-check-not=memref.copy --implicit-check-not=memref.dealloc
// Its output is a fixed point: running it twice gives the same.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-device-memory \
// RUN:   --mlc-gpu-device-memory \
// RUN:   | FileCheck %s --implicit-check-not='memref.alloc(' \
// RUN:       --implicit-check-not=memref.copy --implicit-check-not=memref.dealloc

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

// A constant read by a kernel moves into the kernel, with the views of it
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
memref.global "private" constant @weight : memref<64x64xf16> = dense<1.0>

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
  %w = memref.get_global @weight : memref<64x64xf16>
  %u = memref.cast %w : memref<64x64xf16> to memref<*xf16>
  %map = call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%u, %c6) : (memref<*xf16>, i64) -> !llvm.ptr
  call @use_pointer(%map) : (!llvm.ptr) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %w[%tx, %tx] : memref<64x64xf16>
    memref.store %v, %out[%tx] : memref<64xf16>
    gpu.terminator
  }
  return
}

// -----

memref.global "private" constant @weight : memref<64x64xf16> = dense<1.0>

func.func private @mlc_cuda_tensor_map_encode_tiled_constant_f16(memref<*xf16>, i64) -> !llvm.ptr
func.func private @consume(memref<*xf16>)

func.func @constant_tensor_map_and_call() {
  %c6 = arith.constant 6 : i64
  // expected-error @below {{'memref.get_global' op reads constant @weight on the host; in a GPU module only kernels may read constants}}
  %w = memref.get_global @weight : memref<64x64xf16>
  %u = memref.cast %w : memref<64x64xf16> to memref<*xf16>
  %map = call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%u, %c6) : (memref<*xf16>, i64) -> !llvm.ptr
  call @consume(%u) : (memref<*xf16>) -> ()
  return
}
