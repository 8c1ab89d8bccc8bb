// A known block size of no threads (the attribute is not verified) gets no
// launch bounds and a warning instead of a division by zero (found by the
// mlc-opt fuzzer, seed 43).
// RUN: mlc-opt %s -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(mlc-gpu-launch-bounds))' | FileCheck %s

// CHECK-LABEL: gpu.func @empty
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: gpu.func @small64
// CHECK-SAME: nvvm.minctasm = 8 : i32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-warning @below {{mlc-gpu-launch-bounds: the known block size has 0 threads; no launch bounds}}
    gpu.func @empty() kernel attributes {known_block_size = array<i32: 246, 1, 0>} {
      gpu.return
    }
    gpu.func @small64() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}
