// RUN: mlc-opt %s -split-input-file --mlc-gpu-thread-sync | FileCheck %s

// Inside the serial loop that both writes and reads shared memory: a barrier
// before the write (the previous iteration read the buffer), hoisted over
// the index computation before it, and one before the read; none after.
// CHECK-LABEL: func.func @staged
// CHECK:         scf.for
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      arith.cmpi
// CHECK-NEXT:      scf.if
// CHECK:             memref.store
// CHECK:           }
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.load
// CHECK-NOT:       gpu.barrier
// CHECK:         gpu.terminator
func.func @staged(%x: memref<8x32xf32>, %y: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %v = memref.load %x[%k, %tx] : memref<8x32xf32>
        memref.store %v, %s[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      %r = memref.load %s[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %r, %y[%tx] : memref<32xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Kernels without shared memory writes (private memory, global memory) get
// no barrier.
// CHECK-LABEL: func.func @no_shared
// CHECK-NOT:     gpu.barrier
func.func @no_shared(%y: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %p = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    %z = arith.constant 0.0 : f32
    memref.store %z, %p[%c0] : memref<1xf32, #gpu.address_space<private>>
    %v = memref.load %p[%c0] : memref<1xf32, #gpu.address_space<private>>
    memref.store %v, %y[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Two copies into shared memory (unrolled: single loads and stores) and the
// compute that reads both, in the K loop: the copies write different
// buffers and read none, so one barrier before the first copy (above its
// global loads) and one before the compute; none between the stores.
// CHECK-LABEL: func.func @two_copies
// CHECK:         scf.for
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.load %{{.*}} : memref<8x64xf32>
// CHECK-NEXT:      memref.load %{{.*}} : memref<8x64xf32>
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      memref.load %{{.*}} : memref<8x64xf32>
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.load %{{.*}} #gpu.address_space<workgroup>>
// CHECK-NEXT:      memref.load %{{.*}} #gpu.address_space<workgroup>>
// CHECK-NOT:       gpu.barrier
// CHECK:         gpu.terminator
func.func @two_copies(%x: memref<8x64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %b = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    %t1 = arith.addi %tx, %c32 : index
    scf.for %k = %c0 to %c8 step %c1 {
      %v0 = memref.load %x[%k, %tx] : memref<8x64xf32>
      %v1 = memref.load %x[%k, %t1] : memref<8x64xf32>
      memref.store %v0, %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v1, %a[%t1] : memref<64xf32, #gpu.address_space<workgroup>>
      %w = memref.load %x[%k, %tx] : memref<8x64xf32>
      memref.store %w, %b[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %r0 = memref.load %a[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      %r1 = memref.load %b[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      %sum = arith.addf %r0, %r1 : f32
      memref.store %sum, %y[%tx] : memref<64xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// At the start of a kernel nothing was read or written yet: the first copy
// needs no barrier; its reader does. A barrier that is already there (from
// the cross-thread reduction lowering) is reused.
// CHECK-LABEL: func.func @kernel_start
// CHECK:         gpu.launch
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.store %{{.*}} #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.load %{{.*}} #gpu.address_space<workgroup>>
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.load %{{.*}} #gpu.address_space<workgroup>>
// CHECK-NOT:       gpu.barrier
// CHECK:         gpu.terminator
func.func @kernel_start(%x: memref<32xf32>, %y: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<32xf32>
    memref.store %v, %a[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    %r = memref.load %a[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %r, %y[%tx] : memref<32xf32>
    gpu.barrier
    %s = memref.load %a[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %s, %y[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Async copies (cp.async) are synchronized by the pass that issues them
// (mlc-gpu-async-copy-pipeline: a wait and a barrier of its own): no
// barrier between the copy and the read of another stage, none before the
// next iteration's copy.
// CHECK-LABEL: func.func @async_copies
// CHECK:         scf.for
// CHECK-NEXT:      nvgpu.device_async_copy
// CHECK-NEXT:      nvgpu.device_async_create_group
// CHECK-NEXT:      memref.load %{{.*}} #gpu.address_space<workgroup>>
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      nvgpu.device_async_wait
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:    }
func.func @async_copies(%x: memref<128xf32>, %y: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<2x32xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      %t = nvgpu.device_async_copy %x[%tx], %a[%c1, %tx], 1 : memref<128xf32> to memref<2x32xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t
      %r = memref.load %a[%c0, %tx] : memref<2x32xf32, #gpu.address_space<workgroup>>
      memref.store %r, %y[%tx] : memref<32xf32>
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
