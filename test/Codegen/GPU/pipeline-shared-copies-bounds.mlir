// A loop from INT64_MIN: its trip count is computed without overflow (in 128
// bits) and the loop stays as it is (found by the mlc-opt fuzzer, seed 43).
// RUN: mlc-opt %s --mlc-gpu-pipeline-shared-copies | FileCheck %s

// CHECK-LABEL: func.func @from_int64_min
// CHECK: %[[LB:.*]] = arith.constant -9223372036854775808 : index
// CHECK: scf.for %{{.*}} = %[[LB]] to
// CHECK-NOT: scf.for
func.func @from_int64_min(%A: memref<64x4xf32>, %y: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant -9223372036854775808 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      %i = arith.remui %tx, %c4 : index
      %a = memref.load %A[%i, %c4] : memref<64x4xf32>
      memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    gpu.terminator
  }
  return
}

// A private buffer of INT64_MAX elements: the register count is saturating,
// over the budget, and the loop is not pipelined (which would carry the
// prefetched load in iter_args; mlc-opt fuzzer, seed 71).
// CHECK-LABEL: func.func @huge_private_buffer
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK-NOT: iter_args
func.func @huge_private_buffer(%A: memref<64x4xf32>, %y: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<9223372036854775807xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %i = arith.remui %tx, %c4 : index
      %a = memref.load %A[%i, %k] : memref<64x4xf32>
      memref.store %a, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      %r = memref.load %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      %acc = memref.load %p[%c0] : memref<9223372036854775807xf32, #gpu.address_space<private>>
      %sum = arith.addf %acc, %r : f32
      memref.store %sum, %p[%c0] : memref<9223372036854775807xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}
