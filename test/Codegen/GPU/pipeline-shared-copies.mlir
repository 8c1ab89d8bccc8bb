// RUN: mlc-opt %s -split-input-file --mlc-gpu-pipeline-shared-copies | FileCheck %s
// RUN: mlc-opt %s -split-input-file --mlc-gpu-pipeline-shared-copies=register-budget=2 | FileCheck %s --check-prefix=BUDGET

// A loop that copies a column of A into shared memory and reads it back:
// the first load is the prologue, the loop loads step k + 1 while it stores
// and reads step k (the loaded value carried in a register), and the last
// store and read are the epilogue.
// CHECK-LABEL: func.func @copy_and_compute
// CHECK:         gpu.launch
// CHECK:           %[[FIRST:.*]] = memref.load %arg0[%{{.*}}, %{{.*}}] : memref<64x4xf32>
// CHECK:           %[[LAST:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CUR:.*]] = %[[FIRST]]) -> (f32) {
// CHECK:             %[[NEXTK:.*]] = arith.addi %[[K]],
// CHECK:             %[[NEXT:.*]] = memref.load %arg0[%{{.*}}, %[[NEXTK]]] : memref<64x4xf32>
// CHECK:             memref.store %[[CUR]], %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:             memref.load %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:             scf.yield %[[NEXT]] : f32
// CHECK:           }
// CHECK:           memref.store %[[LAST]], %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.load %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// A kernel whose registers are taken (by its per-thread buffers) is left alone.
// BUDGET-LABEL: func.func @copy_and_compute
// BUDGET:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// BUDGET-NOT:     iter_args
func.func @copy_and_compute(%A: memref<64x4xf32>, %y: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %i = arith.remui %tx, %c4 : index
      %a = memref.load %A[%i, %k] : memref<64x4xf32>
      memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      %r = memref.load %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      %acc = memref.load %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      %sum = arith.addf %acc, %r : f32
      memref.store %sum, %p[%c0] : memref<2xf32, #gpu.address_space<private>>
    }
    %v = memref.load %p[%c0] : memref<2xf32, #gpu.address_space<private>>
    memref.store %v, %y[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Left alone: a loop that writes global memory (its loads could read it), a
// loop of one iteration, a copy whose load is predicated (inside scf.if),
// and a pure copy loop that reads no shared memory.
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT:     iter_args
// CHECK:         return
func.func @not_pipelined(%A: memref<64x4xf32>, %y: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    %i = arith.remui %tx, %c4 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %a = memref.load %A[%i, %k] : memref<64x4xf32>
      memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      %r = memref.load %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %r, %y[%tx] : memref<256xf32>
    }
    scf.for %k = %c0 to %c1 step %c1 {
      %a = memref.load %A[%i, %k] : memref<64x4xf32>
      memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      %r = memref.load %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %r, %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %c4 step %c1 {
      %in = arith.cmpi ult, %tx, %c4 : index
      scf.if %in {
        %a = memref.load %A[%i, %k] : memref<64x4xf32>
        memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      %r = memref.load %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %r, %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %c4 step %c1 {
      %a = memref.load %A[%i, %k] : memref<64x4xf32>
      memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    gpu.terminator
  }
  return
}
