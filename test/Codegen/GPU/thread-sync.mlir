// RUN: mlc-opt %s -split-input-file --mlc-gpu-thread-sync | FileCheck %s

// Barriers around each statement that writes shared memory, inside the
// serial loop that both writes and reads it; none around the reader.
// CHECK-LABEL: func.func @staged
// CHECK:         scf.for
// CHECK:           gpu.barrier
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
