// The fallback rule's threads-per-block must be a CUDA block size, 1 to
// 1024: anything else is an error at the function, named with the value.
// RUN: not mlc-opt %s -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=0}))' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not mlc-opt %s -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=-1}))' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not mlc-opt %s -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=1025}))' 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: not mlc-opt %s -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=2000}))' 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: mlc-opt %s -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=2000}))' -verify-diagnostics -o /dev/null
// --mlc-gpu-pipeline checks its option before running anything.
// RUN: not mlc-opt %s --mlc-gpu-pipeline='threads-per-block=2000' 2>&1 | FileCheck %s --check-prefix=PIPELINE

// ZERO:     [[@LINE+6]]:1: error: mlc-gpu-default-schedule: threads-per-block must be in [1, 1024], got 0{{$}}
// NEGATIVE: [[@LINE+5]]:1: error: mlc-gpu-default-schedule: threads-per-block must be in [1, 1024], got -1{{$}}
// OVER:     [[@LINE+4]]:1: error: mlc-gpu-default-schedule: threads-per-block must be in [1, 1024], got 1025{{$}}
// BIG:      [[@LINE+3]]:1: error: mlc-gpu-default-schedule: threads-per-block must be in [1, 1024], got 2000{{$}}
// PIPELINE: error: threads-per-block must be in [1, 1024], got 2000{{$}}
// expected-error @below {{mlc-gpu-default-schedule: threads-per-block must be in [1, 1024], got 2000}}
tensorir.prim_func @fill(%A: memref<2048xf32>) {
  tensorir.for %i = 0 to 2048 {
    tensorir.block "A"(%vi = spatial(2048, %i)) {
      %z = arith.constant 1.0 : f32
      memref.store %z, %A[%vi] : memref<2048xf32>
    }
  }
  tensorir.return
}
