// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir-default-schedule{target=cuda})' | FileCheck %s
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=64}))' | FileCheck %s --check-prefix=T64

// Fallback: the spatial loops are fused and split into blocks x threads;
// the reduction stays serial in each thread.
// CHECK-LABEL: tensorir.prim_func @matmul
// CHECK:         tensorir.for %{{.*}} = 0 to 64 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %{{.*}} = 0 to 256 thread_binding("threadIdx.x")
// CHECK:             tensorir.for %k = 0 to 32 {
// CHECK:               tensorir.block "C"
// T64-LABEL:   tensorir.prim_func @matmul
// T64:           tensorir.for %{{.*}} = 0 to 256 thread_binding("blockIdx.x")
// T64-NEXT:        tensorir.for %{{.*}} = 0 to 64 thread_binding("threadIdx.x")
tensorir.prim_func @matmul(%A: memref<128x32xf32>, %B: memref<32x128xf32>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 32 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(32, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x32xf32>
          %b = memref.load %B[%vk, %vj] : memref<32x128xf32>
          %c = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// A nest smaller than a block: threads only. A reduction to a scalar: one
// thread. A hand-scheduled function is left alone.
// CHECK-LABEL: tensorir.prim_func @small_and_scalar
// CHECK:         tensorir.for %i = 0 to 10 thread_binding("threadIdx.x")
// CHECK:         tensorir.for %unit = 0 to 1 thread_binding("threadIdx.x")
// CHECK-NEXT:      tensorir.for %k = 0 to 10 {
tensorir.prim_func @small_and_scalar(%A: memref<10xf32>, %S: memref<f32>) {
  tensorir.for %i = 0 to 10 {
    tensorir.block "A"(%vi = spatial(10, %i)) {
      %z = arith.constant 1.0 : f32
      memref.store %z, %A[%vi] : memref<10xf32>
    }
  }
  tensorir.for %k = 0 to 10 {
    tensorir.block "S"(%vk = reduce(10, %k)) {
      tensorir.init {
        %z = arith.constant 0.0 : f32
        memref.store %z, %S[] : memref<f32>
      }
      %a = memref.load %A[%vk] : memref<10xf32>
      %s = memref.load %S[] : memref<f32>
      %r = arith.addf %s, %a : f32
      memref.store %r, %S[] : memref<f32>
    }
  }
  tensorir.return
}

// CHECK-LABEL: tensorir.prim_func @scheduled
// CHECK:         tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x")
// CHECK-NEXT:      tensorir.for %j = 0 to 8 {
tensorir.prim_func @scheduled(%A: memref<4x8xf32>) {
  tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
    tensorir.for %j = 0 to 8 {
      tensorir.block "A"(%vi = spatial(4, %tx), %vj = spatial(8, %j)) {
        %z = arith.constant 1.0 : f32
        memref.store %z, %A[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A dynamic extent: the grid is ceil(n / 256).
// CHECK-LABEL: tensorir.prim_func @dynamic
// CHECK:         thread_binding("blockIdx.x")
// CHECK:         tensorir.for %{{.*}} = 0 to 256 thread_binding("threadIdx.x")
tensorir.prim_func @dynamic(%n: index, %A: memref<?xf32>) {
  tensorir.for %i = 0 to %n {
    tensorir.block "A"(%vi = spatial(%n, %i)) {
      %z = arith.constant 1.0 : f32
      memref.store %z, %A[%vi] : memref<?xf32>
    }
  }
  tensorir.return
}
