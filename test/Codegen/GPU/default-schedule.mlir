// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir-default-schedule{target=cuda})' | FileCheck %s
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=64}))' | FileCheck %s --check-prefix=T64
// The largest CUDA block is allowed (default-schedule-invalid.mlir: the errors).
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{threads-per-block=1024}))' | FileCheck %s --check-prefix=T1024

// Matmul: 16 x 16 threads, each with an 8 x 8 tile of C in registers
// (local), A and B staged through shared memory per 16-wide step of K and
// loaded by all threads, 4 consecutive elements of a row each (vectorized);
// the threads-per-block option does not change it. (1024 x 1024 outputs:
// 64 thread blocks of 128 x 128; below 32 the tiles are 64 x 64, see
// @matmul_small_grid.)
// CHECK-LABEL: tensorir.prim_func @matmul
// CHECK-DAG:     %C_local = tensorir.alloc_buffer {scope = "local"}
// CHECK-DAG:     %A_shared = tensorir.alloc_buffer {scope = "shared"}
// CHECK-DAG:     %B_shared = tensorir.alloc_buffer {scope = "shared"}
// CHECK:         tensorir.for %i_0 = 0 to 8 thread_binding("blockIdx.y")
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 8 thread_binding("blockIdx.x")
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 16 thread_binding("threadIdx.y")
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 16 thread_binding("threadIdx.x")
// CHECK:                 tensorir.block "C_init"
// CHECK:               tensorir.for %k_0 = 0 to 2 {
// CHECK:                 thread_binding("threadIdx.y")
// CHECK-NEXT:              thread_binding("threadIdx.x")
// CHECK-NEXT:                tensorir.for %ax1_1 = 0 to 4 vectorized {
// CHECK:                       tensorir.block "B_shared"
// CHECK:                 thread_binding("threadIdx.y")
// CHECK-NEXT:              thread_binding("threadIdx.x")
// CHECK-NEXT:                tensorir.for %ax1_1 = 0 to 4 vectorized {
// CHECK:                       tensorir.block "A_shared"
// CHECK:                 tensorir.for %k_1 = 0 to 16 unrolled {
// CHECK-NEXT:              tensorir.for %i_2 = 0 to 8 unrolled {
// CHECK-NEXT:                tensorir.for %j_2 = 0 to 8 unrolled {
// CHECK:                       tensorir.block "C_update"
// CHECK:               tensorir.block "C_local"
// T64-LABEL:   tensorir.prim_func @matmul
// T64:           tensorir.for %i_1 = 0 to 16 thread_binding("threadIdx.y")
// T1024-LABEL: tensorir.prim_func @matmul
// T1024:         tensorir.for %i_1 = 0 to 16 thread_binding("threadIdx.y")
tensorir.prim_func @matmul(%A: memref<1024x32xf32>, %B: memref<32x1024xf32>, %C: memref<1024x1024xf32>) {
  tensorir.for %i = 0 to 1024 {
    tensorir.for %j = 0 to 1024 {
      tensorir.for %k = 0 to 32 {
        tensorir.block "C"(%vi = spatial(1024, %i), %vj = spatial(1024, %j), %vk = reduce(32, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<1024x1024xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<1024x32xf32>
          %b = memref.load %B[%vk, %vj] : memref<32x1024xf32>
          %c = memref.load %C[%vi, %vj] : memref<1024x1024xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<1024x1024xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// The same GEMM with 128 x 128 outputs, one 128 x 128 tile: 64 x 64 tiles
// (4 x 4 per thread, K in steps of 8) give four thread blocks instead.
// CHECK-LABEL: tensorir.prim_func @matmul_small_grid
// CHECK:         tensorir.for %i_0 = 0 to 2 thread_binding("blockIdx.y")
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 2 thread_binding("blockIdx.x")
// CHECK:               tensorir.for %k_0 = 0 to 4 {
// CHECK:                 tensorir.for %k_1 = 0 to 8 unrolled {
// CHECK-NEXT:              tensorir.for %i_2 = 0 to 4 unrolled {
// CHECK-NEXT:                tensorir.for %j_2 = 0 to 4 unrolled {
tensorir.prim_func @matmul_small_grid(%A: memref<128x32xf32>, %B: memref<32x128xf32>, %C: memref<128x128xf32>) {
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

// -----

// One thread-bound loop anywhere (here under a serial loop) makes the whole
// function hand-scheduled: its other nests stay serial too, whatever
// threads-per-block is.
// CHECK-LABEL: tensorir.prim_func @partly_scheduled
// CHECK-NEXT:    tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %tx = 0 to 8 thread_binding("threadIdx.x") {
// CHECK:         tensorir.for %j = 0 to 1000 {
// CHECK-NEXT:      tensorir.block "B"
// CHECK-NOT:     thread_binding
// CHECK:         tensorir.return
// T64-LABEL:   tensorir.prim_func @partly_scheduled
// T64-NOT:       blockIdx
// T64:           tensorir.for %j = 0 to 1000 {
// T64-NOT:       thread_binding
// T64:           tensorir.return
// T1024-LABEL: tensorir.prim_func @partly_scheduled
// T1024-NOT:     blockIdx
// T1024:         tensorir.for %j = 0 to 1000 {
// T1024-NOT:     thread_binding
// T1024:         tensorir.return
tensorir.prim_func @partly_scheduled(%A: memref<4x8xf32>, %B: memref<1000xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %tx = 0 to 8 thread_binding("threadIdx.x") {
      tensorir.block "A"(%vi = spatial(4, %i), %vj = spatial(8, %tx)) {
        %z = arith.constant 1.0 : f32
        memref.store %z, %A[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tensorir.for %j = 0 to 1000 {
    tensorir.block "B"(%vj = spatial(1000, %j)) {
      %z = arith.constant 2.0 : f32
      memref.store %z, %B[%vj] : memref<1000xf32>
    }
  }
  tensorir.return
}

// -----

// Reduction (and GEMV): one thread block per output, the reduce loop split
// over 256 threads (a multiple of 32 up to threads-per-block) and bound to
// threadIdx.x, the threads' loop outside the serial one.
// CHECK-LABEL: tensorir.prim_func @rowsum
// CHECK:         tensorir.for %i = 0 to 100 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %k_1 = 0 to 256 thread_binding("threadIdx.x")
// CHECK-NEXT:        tensorir.for %k_0 = 0 to 4 {
// CHECK:               tensorir.block "sum"{{.*}} where(
// T64-LABEL:   tensorir.prim_func @rowsum
// T64:           tensorir.for %k_1 = 0 to 64 thread_binding("threadIdx.x")
// T1024-LABEL: tensorir.prim_func @rowsum
// T1024:         tensorir.for %k_1 = 0 to 1024 thread_binding("threadIdx.x")
tensorir.prim_func @rowsum(%A: memref<100x1000xf32>, %S: memref<100xf32>) {
  tensorir.for %i = 0 to 100 {
    tensorir.for %k = 0 to 1000 {
      tensorir.block "sum"(%vi = spatial(100, %i), %vk = reduce(1000, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<100xf32>
        }
        %s = memref.load %S[%vi] : memref<100xf32>
        %a = memref.load %A[%vi, %vk] : memref<100x1000xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<100xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A matmul whose consumer (bias + relu) is inlined into the write-back of
// the register tile: one kernel. An f64 reduction is not combined across
// threads (shuffles move 32 bits): Fallback.
// CHECK-LABEL: tensorir.prim_func @matmul_relu
// CHECK-NOT:     %Y = tensorir.alloc_buffer
// CHECK:         tensorir.block "Y_local"{{.*}} writes(%C
// CHECK:           arith.maximumf
// CHECK-NOT:     tensorir.block "R"
// CHECK-LABEL: tensorir.prim_func @sum_f64
// CHECK:         tensorir.for %{{.*}} = 0 to 64 thread_binding("threadIdx.x")
// CHECK-NEXT:      tensorir.for %k = 0 to 1000 {
tensorir.prim_func @matmul_relu(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  %Y = tensorir.alloc_buffer : memref<64x64xf32>
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 64 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "Y"(%vi = spatial(64, %i), %vj = spatial(64, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %Y[%vi, %vj] : memref<64x64xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<64x64xf32>
          %b = memref.load %B[%vk, %vj] : memref<64x64xf32>
          %c = memref.load %Y[%vi, %vj] : memref<64x64xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<64x64xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 64 {
      tensorir.block "R"(%vi = spatial(64, %i), %vj = spatial(64, %j)) {
        %y = memref.load %Y[%vi, %vj] : memref<64x64xf32>
        %z = arith.constant 0.0 : f32
        %r = arith.maximumf %y, %z : f32
        memref.store %r, %C[%vi, %vj] : memref<64x64xf32>
      }
    }
  }
  tensorir.return
}
tensorir.prim_func @sum_f64(%A: memref<64x1000xf64>, %S: memref<64xf64>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %k = 0 to 1000 {
      tensorir.block "sum"(%vi = spatial(64, %i), %vk = reduce(1000, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f64
          memref.store %zero, %S[%vi] : memref<64xf64>
        }
        %s = memref.load %S[%vi] : memref<64xf64>
        %a = memref.load %A[%vi, %vk] : memref<64x1000xf64>
        %r = arith.addf %s, %a : f64
        memref.store %r, %S[%vi] : memref<64xf64>
      }
    }
  }
  tensorir.return
}

// -----

// GeneralReduction (softmax): one kernel, a thread block per row. The
// exp stage is inlined into its two consumers; the max and sum stages write
// shared buffers, are computed at the row loop and split over the same 128
// threads as the normalization (cross-thread reductions): 8 of the 1024
// elements of a row per thread.
// CHECK-LABEL: tensorir.prim_func @softmax
// CHECK-DAG:     %M = tensorir.alloc_buffer {scope = "shared"} : memref<16xf32>
// CHECK-DAG:     %S = tensorir.alloc_buffer {scope = "shared"} : memref<16xf32>
// CHECK-NOT:     %E = tensorir.alloc_buffer
// CHECK:         tensorir.for %i = 0 to 16 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %{{.*}} = 0 to 128 thread_binding("threadIdx.x")
// CHECK-NEXT:        tensorir.for %{{.*}} = 0 to 8 {
// CHECK:               tensorir.block "max"
// CHECK:             tensorir.for %{{.*}} = 0 to 128 thread_binding("threadIdx.x")
// CHECK-NEXT:          tensorir.for %{{.*}} = 0 to 8 {
// CHECK:                 tensorir.block "sum"
// CHECK:                   math.exp
// CHECK:             tensorir.for %{{.*}} = 0 to 128 thread_binding("threadIdx.x")
// CHECK-NEXT:          tensorir.for %{{.*}} = 0 to 8 {
// CHECK:                 tensorir.block "norm"
// CHECK:                   math.exp
// CHECK-NOT:     thread_binding("blockIdx.x")
// T64-LABEL:   tensorir.prim_func @softmax
// T64:           tensorir.for %{{.*}} = 0 to 64 thread_binding("threadIdx.x")
// T64-NEXT:        tensorir.for %{{.*}} = 0 to 16 {
tensorir.prim_func @softmax(%A: memref<16x1024xf32>, %Y: memref<16x1024xf32>) {
  %M = tensorir.alloc_buffer : memref<16xf32>
  tensorir.for %i = 0 to 16 {
    tensorir.for %k = 0 to 1024 {
      tensorir.block "max"(%vi = spatial(16, %i), %vk = reduce(1024, %k)) {
        tensorir.init {
          %ninf = arith.constant 0xFF800000 : f32
          memref.store %ninf, %M[%vi] : memref<16xf32>
        }
        %m = memref.load %M[%vi] : memref<16xf32>
        %a = memref.load %A[%vi, %vk] : memref<16x1024xf32>
        %r = arith.maximumf %m, %a : f32
        memref.store %r, %M[%vi] : memref<16xf32>
      }
    }
  }
  %E = tensorir.alloc_buffer : memref<16x1024xf32>
  tensorir.for %i = 0 to 16 {
    tensorir.for %j = 0 to 1024 {
      tensorir.block "exp"(%vi = spatial(16, %i), %vj = spatial(1024, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<16x1024xf32>
        %m = memref.load %M[%vi] : memref<16xf32>
        %d = arith.subf %a, %m : f32
        %e = math.exp %d : f32
        memref.store %e, %E[%vi, %vj] : memref<16x1024xf32>
      }
    }
  }
  %S = tensorir.alloc_buffer : memref<16xf32>
  tensorir.for %i = 0 to 16 {
    tensorir.for %k = 0 to 1024 {
      tensorir.block "sum"(%vi = spatial(16, %i), %vk = reduce(1024, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<16xf32>
        }
        %s = memref.load %S[%vi] : memref<16xf32>
        %e = memref.load %E[%vi, %vk] : memref<16x1024xf32>
        %r = arith.addf %s, %e : f32
        memref.store %r, %S[%vi] : memref<16xf32>
      }
    }
  }
  tensorir.for %i = 0 to 16 {
    tensorir.for %j = 0 to 1024 {
      tensorir.block "norm"(%vi = spatial(16, %i), %vj = spatial(1024, %j)) {
        %e = memref.load %E[%vi, %vj] : memref<16x1024xf32>
        %s = memref.load %S[%vi] : memref<16xf32>
        %y = arith.divf %e, %s : f32
        memref.store %y, %Y[%vi, %vj] : memref<16x1024xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Not GeneralReduction: the stage after the row sums has no loop besides
// the rows (nothing to split over the threads). The Reduction rule takes it
// along as an epilogue (as dlight's GEMV rule does): the sums become a
// shared buffer and the scale runs at the block loop in one thread.
// CHECK-LABEL: tensorir.prim_func @rows_then_columns
// CHECK:         %S = tensorir.alloc_buffer {scope = "shared"}
// CHECK:         tensorir.for %i = 0 to 64 thread_binding("blockIdx.x")
// CHECK:           tensorir.block "rowsum"
// CHECK:           tensorir.for %unit = 0 to 1 thread_binding("threadIdx.x")
// CHECK-NEXT:        tensorir.block "scale"
// CHECK-NOT:     thread_binding("blockIdx.x")
tensorir.prim_func @rows_then_columns(%A: memref<64x128xf32>, %Y: memref<64xf32>) {
  %S = tensorir.alloc_buffer : memref<64xf32>
  tensorir.for %i = 0 to 64 {
    tensorir.for %k = 0 to 128 {
      tensorir.block "rowsum"(%vi = spatial(64, %i), %vk = reduce(128, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<64xf32>
        }
        %s = memref.load %S[%vi] : memref<64xf32>
        %a = memref.load %A[%vi, %vk] : memref<64x128xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<64xf32>
      }
    }
  }
  tensorir.for %j = 0 to 64 {
    tensorir.block "scale"(%vj = spatial(64, %j)) {
      %s = memref.load %S[%vj] : memref<64xf32>
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %s, %two : f32
      memref.store %y, %Y[%vj] : memref<64xf32>
    }
  }
  tensorir.return
}

// -----

// An output over 4 KiB stays in global memory: no epilogue, two kernels.
// CHECK-LABEL: tensorir.prim_func @big_rows_then_scale
// CHECK-NOT:     scope = "shared"
// CHECK:         tensorir.for %i = 0 to 2048 thread_binding("blockIdx.x")
// CHECK:           tensorir.block "rowsum"
// CHECK:         tensorir.for %{{.*}} thread_binding("blockIdx.x")
// CHECK:           tensorir.block "scale"
tensorir.prim_func @big_rows_then_scale(%A: memref<2048x64xf32>, %Y: memref<2048xf32>) {
  %S = tensorir.alloc_buffer : memref<2048xf32>
  tensorir.for %i = 0 to 2048 {
    tensorir.for %k = 0 to 64 {
      tensorir.block "rowsum"(%vi = spatial(2048, %i), %vk = reduce(64, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<2048xf32>
        }
        %s = memref.load %S[%vi] : memref<2048xf32>
        %a = memref.load %A[%vi, %vk] : memref<2048x64xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<2048xf32>
      }
    }
  }
  tensorir.for %j = 0 to 2048 {
    tensorir.block "scale"(%vj = spatial(2048, %j)) {
      %s = memref.load %S[%vj] : memref<2048xf32>
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %s, %two : f32
      memref.store %y, %Y[%vj] : memref<2048xf32>
    }
  }
  tensorir.return
}

// -----

// Fallback with vector lanes: 4 consecutive f32 per thread (16 bytes), the
// threads and lanes split off the row, the rows fused into the grid; the
// results go to registers (local) and are stored after the thread's loads.
// CHECK-LABEL: tensorir.prim_func @relu_lanes
// CHECK:         %Y_local = tensorir.alloc_buffer {scope = "local"}
// CHECK:         tensorir.for %{{.*}} = 0 to 16384 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %j_1 = 0 to 256 thread_binding("threadIdx.x")
// CHECK-NEXT:        tensorir.for %j_2 = 0 to 4 vectorized
// CHECK:               tensorir.block "Y"
// CHECK:             tensorir.for %{{.*}} = 0 to 4 unrolled
// CHECK:               tensorir.block "Y_local"
// T64-LABEL:   tensorir.prim_func @relu_lanes
// T64:           tensorir.for %j_1 = 0 to 64 thread_binding("threadIdx.x")
tensorir.prim_func @relu_lanes(%X: memref<4096x4096xf32>, %Y: memref<4096x4096xf32>) {
  tensorir.for %i = 0 to 4096 {
    tensorir.for %j = 0 to 4096 {
      tensorir.block "Y"(%vi = spatial(4096, %i), %vj = spatial(4096, %j)) {
        %x = memref.load %X[%vi, %vj] : memref<4096x4096xf32>
        %z = arith.constant 0.0 : f32
        %y = arith.maximumf %x, %z : f32
        memref.store %y, %Y[%vi, %vj] : memref<4096x4096xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Rows shorter than a warp's vectors (the head dimension, 64 f16: 8 vectors
// of 16 bytes, a head split's copy): 8 threads per row along threadIdx.x,
// 32 rows of the loop above along threadIdx.y (64 threads: 8), the rest
// fused into the grid (with the leading dimension of extent 1, whose
// write-back binding is the constant 0); each thread's 8 lanes vectorized
// and written back from registers.
// CHECK-LABEL: tensorir.prim_func @head_split_lanes
// CHECK:         %Y_local = tensorir.alloc_buffer {scope = "local"}
// CHECK:         tensorir.for %{{.*}} = 0 to 96 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %s_1 = 0 to 32 thread_binding("threadIdx.y")
// CHECK-NEXT:        tensorir.for %d_0 = 0 to 8 thread_binding("threadIdx.x")
// CHECK-NEXT:          tensorir.for %d_1 = 0 to 8 vectorized
// CHECK:                 tensorir.block "Y"
// CHECK:               tensorir.for %{{.*}} = 0 to 8 unrolled
// CHECK:                 tensorir.block "Y_local"
// T64-LABEL:   tensorir.prim_func @head_split_lanes
// T64:           tensorir.for %s_1 = 0 to 8 thread_binding("threadIdx.y")
// T64-NEXT:        tensorir.for %d_0 = 0 to 8 thread_binding("threadIdx.x")
tensorir.prim_func @head_split_lanes(%X: memref<128x2x12x64xf16>, %Y: memref<1x2x12x128x64xf16>) {
  tensorir.for %a = 0 to 1 {
    tensorir.for %b = 0 to 2 {
      tensorir.for %h = 0 to 12 {
        tensorir.for %s = 0 to 128 {
          tensorir.for %d = 0 to 64 {
            tensorir.block "Y"(%va = spatial(1, %a), %vb = spatial(2, %b), %vh = spatial(12, %h), %vs = spatial(128, %s), %vd = spatial(64, %d)) {
              %x = memref.load %X[%vs, %vb, %vh, %vd] : memref<128x2x12x64xf16>
              memref.store %x, %Y[%va, %vb, %vh, %vs, %vd] : memref<1x2x12x128x64xf16>
            }
          }
        }
      }
    }
  }
  tensorir.return
}

// -----

// Rows of 1000 f32 are 250 groups of 4, which no multiple of 32 threads
// divides: the plain Fallback, one element per thread.
// CHECK-LABEL: tensorir.prim_func @relu_no_lanes
// CHECK-NOT:     vectorized
// CHECK:         tensorir.for %{{.*}} = 0 to 188 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %{{.*}} = 0 to 256 thread_binding("threadIdx.x")
// CHECK-NOT:     vectorized
tensorir.prim_func @relu_no_lanes(%X: memref<48x1000xf32>, %Y: memref<48x1000xf32>) {
  tensorir.for %i = 0 to 48 {
    tensorir.for %j = 0 to 1000 {
      tensorir.block "Y"(%vi = spatial(48, %i), %vj = spatial(1000, %j)) {
        %x = memref.load %X[%vi, %vj] : memref<48x1000xf32>
        %z = arith.constant 0.0 : f32
        %y = arith.maximumf %x, %z : f32
        memref.store %y, %Y[%vi, %vj] : memref<48x1000xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Transpose: a thread's 8 x 8 f16 elements go through registers, 8 vector
// loads along A's rows and 8 vector stores along B's; 8 threads along A's
// rows (threadIdx.x) times 16 along B's (threadIdx.y); batch dimensions
// fused into the grid with the tiles.
// CHECK-LABEL: tensorir.prim_func @transpose_f16
// CHECK:         %B_local = tensorir.alloc_buffer {scope = "local"}
// CHECK:         tensorir.for %{{.*}} = 0 to 1152 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %j_1 = 0 to 16 thread_binding("threadIdx.y")
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 8 thread_binding("threadIdx.x")
// CHECK-NEXT:          tensorir.for %j_2 = 0 to 8 unrolled
// CHECK-NEXT:            tensorir.for %i_2 = 0 to 8 vectorized
// CHECK:                   memref.load %A[%vb, %vj, %vi]
// CHECK:                   memref.store %{{.*}}, %B_local[%vb, %vi, %vj]
// CHECK:                 tensorir.for %ax0 = 0 to 8 unrolled
// CHECK-NEXT:              tensorir.for %ax1 = 0 to 8 vectorized
// CHECK:                     tensorir.block "B_local"
// T64-LABEL:   tensorir.prim_func @transpose_f16
// T64:           tensorir.for %j_1 = 0 to 8 thread_binding("threadIdx.y")
tensorir.prim_func @transpose_f16(%A: memref<4x3072x768xf16>, %B: memref<4x768x3072xf16>) {
  tensorir.for %b = 0 to 4 {
    tensorir.for %i = 0 to 768 {
      tensorir.for %j = 0 to 3072 {
        tensorir.block "B"(%vb = spatial(4, %b), %vi = spatial(768, %i), %vj = spatial(3072, %j)) {
          %a = memref.load %A[%vb, %vj, %vi] : memref<4x3072x768xf16>
          memref.store %a, %B[%vb, %vi, %vj] : memref<4x768x3072xf16>
        }
      }
    }
  }
  tensorir.return
}

// -----

// A transpose whose rows (100 f32) are no whole number of 8 threads x 4
// lanes: the Fallback rules take it.
// CHECK-LABEL: tensorir.prim_func @transpose_no_tiles
// CHECK-NOT:     threadIdx.y
// CHECK:         thread_binding("threadIdx.x")
// CHECK-NOT:     threadIdx.y
tensorir.prim_func @transpose_no_tiles(%A: memref<256x100xf32>, %B: memref<100x256xf32>) {
  tensorir.for %i = 0 to 100 {
    tensorir.for %j = 0 to 256 {
      tensorir.block "B"(%vi = spatial(100, %i), %vj = spatial(256, %j)) {
        %a = memref.load %A[%vj, %vi] : memref<256x100xf32>
        memref.store %a, %B[%vi, %vj] : memref<100x256xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A GEMM of 21 M multiply-adds that no tile divides (260 x 300 x 270):
// A and B are zero-padded to whole 64 x 64 tiles and steps of 8 by
// kernels of their own, the tile loops run unmasked, and only the
// write-back of C is predicated. Smaller GEMMs keep masked tiles.
// CHECK-LABEL: tensorir.prim_func @matmul_padded
// CHECK:         %A_pad = tensorir.alloc_buffer : memref<320x304xf32>
// CHECK:           tensorir.block "A_pad"
// CHECK:         %B_pad = tensorir.alloc_buffer : memref<304x320xf32>
// CHECK:           tensorir.block "B_pad"
// CHECK:         tensorir.for %i_0 = 0 to 5 thread_binding("blockIdx.y")
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 5 thread_binding("blockIdx.x")
// CHECK:             tensorir.block "C_update"(%vi = spatial(320, %{{.*}}), %vj = spatial(320, %{{.*}}), %vk = reduce(304, %{{.*}})) {
// CHECK:             tensorir.block "C_pad_local"(%v0 = spatial(260, %{{.*}}), %v1 = spatial(270, %{{.*}})) where(
tensorir.prim_func @matmul_padded(%A: memref<260x300xf32>, %B: memref<300x270xf32>, %C: memref<260x270xf32>) {
  tensorir.for %i = 0 to 260 {
    tensorir.for %j = 0 to 270 {
      tensorir.for %k = 0 to 300 {
        tensorir.block "C"(%vi = spatial(260, %i), %vj = spatial(270, %j), %vk = reduce(300, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<260x270xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<260x300xf32>
          %b = memref.load %B[%vk, %vj] : memref<300x270xf32>
          %c = memref.load %C[%vi, %vj] : memref<260x270xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<260x270xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// Extents whose product int64_t cannot hold (found by the GPU pipeline
// fuzzer under UBSan: a signed overflow in the vector Fallback): no rule
// fuses them, and the statement runs in one thread.
// CHECK-LABEL: tensorir.prim_func @relu_huge
// CHECK:         tensorir.for %unit = 0 to 1 thread_binding("threadIdx.x")
// CHECK-NEXT:      tensorir.for %i = 0 to 4294967296 {
tensorir.prim_func @relu_huge(%X: memref<4294967296x4294967296xf16>, %Y: memref<4294967296x4294967296xf16>) {
  tensorir.for %i = 0 to 4294967296 {
    tensorir.for %j = 0 to 4294967296 {
      tensorir.block "Y"(%vi = spatial(4294967296, %i), %vj = spatial(4294967296, %j)) {
        %x = memref.load %X[%vi, %vj] : memref<4294967296x4294967296xf16>
        %z = arith.constant 0.0 : f16
        %y = arith.maximumf %x, %z : f16
        memref.store %y, %Y[%vi, %vj] : memref<4294967296x4294967296xf16>
      }
    }
  }
  tensorir.return
}

// -----

// A buffer of 2^63 - 1 elements (found by the GPU pipeline fuzzer under
// UBSan: its byte size overflowed the Reduction rule's epilogue check):
// the epilogue stays a kernel of its own.
// CHECK-LABEL: tensorir.prim_func @huge_rowsum_then_scale
// CHECK:         tensorir.for %i = 0 to 2048 thread_binding("blockIdx.x")
// CHECK:         tensorir.for %j_0 = 0 to 8 thread_binding("blockIdx.x")
tensorir.prim_func @huge_rowsum_then_scale(%A: memref<9223372036854775807x64xf32>, %Y: memref<9223372036854775807xf32>) {
  %S = tensorir.alloc_buffer : memref<9223372036854775807xf32>
  tensorir.for %i = 0 to 2048 {
    tensorir.for %k = 0 to 64 {
      tensorir.block "rowsum"(%vi = spatial(2048, %i), %vk = reduce(64, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<9223372036854775807xf32>
        }
        %s = memref.load %S[%vi] : memref<9223372036854775807xf32>
        %a = memref.load %A[%vi, %vk] : memref<9223372036854775807x64xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<9223372036854775807xf32>
      }
    }
  }
  tensorir.for %j = 0 to 2048 {
    tensorir.block "scale"(%vj = spatial(2048, %j)) {
      %s = memref.load %S[%vj] : memref<9223372036854775807xf32>
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %s, %two : f32
      memref.store %y, %Y[%vj] : memref<9223372036854775807xf32>
    }
  }
  tensorir.return
}
