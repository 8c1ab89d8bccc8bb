// RUN: mlc-opt %s -mlc-gpu-erase-host-constants | FileCheck %s

// After kernel outlining: @w is read only by the kernel, from the GPU
// module's own copy, so the host's goes; @b is still read on the host,
// @pub is public and @var is mutable, so they stay, as does everything in
// the GPU module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT:     memref.global "private" constant @w :
// CHECK:         memref.global "private" constant @b :
// CHECK:         memref.global constant @pub :
// CHECK:         memref.global "private" @var :
// CHECK:         gpu.module @kernels
// CHECK:           memref.global "private" constant @w :
// CHECK:           memref.global "private" constant @b :
module attributes {gpu.container_module} {
  memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global "private" constant @b : memref<4xf32> = dense<[1.0, 2.0, 3.0, 5.0]>
  memref.global constant @pub : memref<4xf32> = dense<[1.0, 2.0, 3.0, 6.0]>
  memref.global "private" @var : memref<4xf32> = dense<0.0>
  gpu.module @kernels {
    memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    memref.global "private" constant @b : memref<4xf32> = dense<[1.0, 2.0, 3.0, 5.0]>
    gpu.func @k(%out: memref<4xf32>) kernel {
      %w = memref.get_global @w : memref<4xf32>
      %b = memref.get_global @b : memref<4xf32>
      memref.copy %w, %out : memref<4xf32> to memref<4xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<4xf32>) -> memref<4xf32> {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4xf32>)
    %b = memref.get_global @b : memref<4xf32>
    return %b : memref<4xf32>
  }
}
