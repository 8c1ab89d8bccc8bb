// mlc-gpu-launch-bounds: kernels with a known block size get the blocks per
// SM that fit at max-registers registers per thread (at least 1), or at
// max-registers-mma for kernels with tensor-core tiles; other functions are
// left alone; the options are checked.
// RUN: mlc-opt %s --split-input-file -pass-pipeline='builtin.module(gpu.module(mlc-gpu-launch-bounds))' | FileCheck %s
// RUN: mlc-opt %s --split-input-file -pass-pipeline='builtin.module(gpu.module(mlc-gpu-launch-bounds{max-registers=64}))' | FileCheck %s --check-prefix=R64
// RUN: not mlc-opt %s --split-input-file -pass-pipeline='builtin.module(gpu.module(mlc-gpu-launch-bounds{max-registers=300}))' 2>&1 | FileCheck %s --check-prefix=INVALID

// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @tile256{{.*}} nvvm.minctasm = 2 : i32
// CHECK: gpu.func @wide1024{{.*}} nvvm.minctasm = 1 : i32
// CHECK: gpu.func @small64{{.*}} nvvm.minctasm = 8 : i32
// 65536 / (128 threads x 168 registers): 3 blocks.
// CHECK: gpu.func @mma128{{.*}} nvvm.minctasm = 3 : i32
// CHECK: gpu.func @unknown(
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.func @device_function(
// CHECK-NOT: nvvm.minctasm
// R64: gpu.func @tile256{{.*}} nvvm.minctasm = 4 : i32
// R64: gpu.func @wide1024{{.*}} nvvm.minctasm = 1 : i32
// INVALID: mlc-gpu-launch-bounds: max-registers must be in [32, 255], got 300
// RUN: not mlc-opt %s --split-input-file -pass-pipeline='builtin.module(gpu.module(mlc-gpu-launch-bounds{max-registers-mma=16}))' 2>&1 | FileCheck %s --check-prefix=INVALID-MMA
// INVALID-MMA: mlc-gpu-launch-bounds: max-registers-mma must be in [32, 255], got 16
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile256() kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      gpu.return
    }
    gpu.func @wide1024() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      gpu.return
    }
    gpu.func @small64() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
    gpu.func @mma128(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) kernel attributes {known_block_size = array<i32: 4, 8, 4>} {
      %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.return
    }
    gpu.func @unknown() kernel {
      gpu.return
    }
    gpu.func @device_function() attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}
