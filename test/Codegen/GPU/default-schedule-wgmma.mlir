// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{tensor-cores=true warpgroup-mma=true}))' | FileCheck %s
// Without warpgroup-mma (chips other than sm_90a) the same GEMMs take the
// mma.sync rule.
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{tensor-cores=true}))' | FileCheck %s --check-prefix=MMA

// The Hopper Matmul rule: one warpgroup (128 threads) per 128 x 128 tile of
// C, accumulated in shared memory by the nest annotated wgmma (thread i
// computes row i over all of K: what mlc-gpu-tensorize-wgmma replaces by
// TMA and wgmma), then written back with the fused bias and ReLU by the
// same threads, 4 consecutive columns per thread (16 bytes of the f32
// accumulator: vector accesses), consecutive threads on consecutive groups
// of 4; the results go to registers (local) and are stored after the
// thread's loads. M = 200 is no
// whole number of tiles: the rows past it are masked (TMA fills them with
// zeros); A's batch is blockIdx.z, B (K x N) is shared by the batch.
// 2 x 2 x 33 tiles of 128 x 128 fill the 132 SMs of an H100 or H200 once
// (tiles of 128 x 64 would take two rounds).
// CHECK-LABEL: tensorir.prim_func @dense_bias_relu
// CHECK:         %C_shared = tensorir.alloc_buffer {scope = "shared"}
// CHECK:         tensorir.for %b = 0 to 2 thread_binding("blockIdx.z")
// CHECK-NEXT:      tensorir.for %i_0 = 0 to 2 thread_binding("blockIdx.y")
// CHECK-NEXT:        tensorir.for %j_0 = 0 to 33 thread_binding("blockIdx.x")
// CHECK-NEXT:          tensorir.for %i_1 = 0 to 128 thread_binding("threadIdx.x")
// CHECK-NEXT:            tensorir.for %j_1 = 0 to 128 annotations {wgmma = "m64n128k16"} {
// CHECK-NEXT:              tensorir.for %k = 0 to 256 {
// CHECK:                       tensorir.block "C"
// CHECK-SAME:                    where(
// CHECK:                 tensorir.for %{{.*}} = 0 to 32 {
// CHECK-NEXT:              tensorir.for %{{.*}} = 0 to 128 thread_binding("threadIdx.x")
// CHECK-NEXT:                tensorir.for %{{.*}} = 0 to 4 vectorized
// CHECK:                       tensorir.block "C_shared"
// CHECK:                       arith.addf
// CHECK:                       arith.maximumf
// CHECK:                       memref.store %{{.*}}, %D_local
// CHECK:                   tensorir.for %{{.*}} = 0 to 4 vectorized
// CHECK:                     tensorir.block "D_local"
// CHECK-NOT:   tensorir.block "bias_relu"
// MMA-LABEL: tensorir.prim_func @dense_bias_relu
// MMA-NOT:     wgmma
// MMA:         mma_sync = "m16n8k16"
tensorir.prim_func @dense_bias_relu(%A: memref<2x200x256xf16>, %B: memref<256x4224xf16>, %bias: memref<4224xf32>, %D: memref<2x200x4224xf32>) {
  %C = tensorir.alloc_buffer : memref<2x200x4224xf32>
  tensorir.for %b = 0 to 2 {
    tensorir.for %i = 0 to 200 {
      tensorir.for %j = 0 to 4224 {
        tensorir.for %k = 0 to 256 {
          tensorir.block "C"(%vb = spatial(2, %b), %vi = spatial(200, %i), %vj = spatial(4224, %j), %vk = reduce(256, %k)) {
            tensorir.init {
              %z = arith.constant 0.0 : f32
              memref.store %z, %C[%vb, %vi, %vj] : memref<2x200x4224xf32>
            }
            %a = memref.load %A[%vb, %vi, %vk] : memref<2x200x256xf16>
            %w = memref.load %B[%vk, %vj] : memref<256x4224xf16>
            %af = arith.extf %a : f16 to f32
            %wf = arith.extf %w : f16 to f32
            %p = arith.mulf %af, %wf : f32
            %acc = memref.load %C[%vb, %vi, %vj] : memref<2x200x4224xf32>
            %s = arith.addf %acc, %p : f32
            memref.store %s, %C[%vb, %vi, %vj] : memref<2x200x4224xf32>
          }
        }
      }
    }
  }
  tensorir.for %b = 0 to 2 {
    tensorir.for %i = 0 to 200 {
      tensorir.for %j = 0 to 4224 {
        tensorir.block "bias_relu"(%vb = spatial(2, %b), %vi = spatial(200, %i), %vj = spatial(4224, %j)) {
          %c = memref.load %C[%vb, %vi, %vj] : memref<2x200x4224xf32>
          %x = memref.load %bias[%vj] : memref<4224xf32>
          %y = arith.addf %c, %x : f32
          %z = arith.constant 0.0 : f32
          %r = arith.maximumf %y, %z : f32
          memref.store %r, %D[%vb, %vi, %vj] : memref<2x200x4224xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// bf16 takes the rule too. Its 2 tiles of 128 x 128 would leave all SMs
// but 2 idle: 4 tiles of 128 x 64 halve the columns each computes.
// CHECK-LABEL: tensorir.prim_func @gemm_bf16
// CHECK:         tensorir.for %j_0 = 0 to 4 thread_binding("blockIdx.x")
// CHECK:         annotations {wgmma = "m64n64k16"}
tensorir.prim_func @gemm_bf16(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %C: memref<128x256xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 256 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(256, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x256xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x64xbf16>
          %b = memref.load %B[%vk, %vj] : memref<64x256xbf16>
          %af = arith.extf %a : bf16 to f32
          %bf = arith.extf %b : bf16 to f32
          %p = arith.mulf %af, %bf : f32
          %acc = memref.load %C[%vi, %vj] : memref<128x256xf32>
          %s = arith.addf %acc, %p : f32
          memref.store %s, %C[%vi, %vj] : memref<128x256xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// Not for the rule, which falls through to mma.sync: B stored N x K (TMA
// would need the other wgmma layout), a K of no whole 16-byte rows (TMA
// cannot read them), and M below 64.
// CHECK-LABEL: tensorir.prim_func @gemm_nt
// CHECK-NOT:     wgmma
// CHECK:         mma_sync
// CHECK-LABEL: tensorir.prim_func @gemm_k12
// CHECK-NOT:     wgmma
// CHECK:         mma_sync
// CHECK-LABEL: tensorir.prim_func @gemm_m32
// CHECK-NOT:     wgmma
// CHECK:         mma_sync
tensorir.prim_func @gemm_nt(%A: memref<128x64xf16>, %B: memref<128x64xf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x64xf16>
          %b = memref.load %B[%vj, %vk] : memref<128x64xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %acc = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %s = arith.addf %acc, %p : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}
tensorir.prim_func @gemm_k12(%A: memref<128x12xf16>, %B: memref<12x128xf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 12 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(12, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x12xf16>
          %b = memref.load %B[%vk, %vj] : memref<12x128xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %acc = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %s = arith.addf %acc, %p : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}
tensorir.prim_func @gemm_m32(%A: memref<32x64xf16>, %B: memref<64x128xf16>, %C: memref<32x128xf32>) {
  tensorir.for %i = 0 to 32 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(32, %i), %vj = spatial(128, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<32x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<32x64xf16>
          %b = memref.load %B[%vk, %vj] : memref<64x128xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %acc = memref.load %C[%vi, %vj] : memref<32x128xf32>
          %s = arith.addf %acc, %p : f32
          memref.store %s, %C[%vi, %vj] : memref<32x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// A B that relax binds to a constant (a bound weight) takes the rule too:
// mlc-gpu-tensorize-wgmma has the runtime encode the tensor map of a device
// copy of it.
// CHECK-LABEL: tensorir.prim_func @gemm_constant_b
// CHECK:         annotations {wgmma = "m64n64k16"}
tensorir.prim_func @gemm_constant_b(%A: memref<128x64xf16>, %B: memref<64x256xf16> {tensorir.constant}, %C: memref<128x256xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 256 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(256, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x256xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x64xf16>
          %b = memref.load %B[%vk, %vj] : memref<64x256xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %acc = memref.load %C[%vi, %vj] : memref<128x256xf32>
          %s = arith.addf %acc, %p : f32
          memref.store %s, %C[%vi, %vj] : memref<128x256xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// A 3x3 convolution in NHWC with an HWIO weight (after its padding) on the
// Hopper rule as an implicit GEMM: the padding, the im2col copy and the
// weight's copy are inlined into the GEMM block, which reads A at gathered,
// zero-padded addresses (a run of 8 k from a multiple of 8 is 8 channels
// of one pixel under one predicate: `wgmma_a = "gather"`, which
// mlc-gpu-tensorize-wgmma copies with cp.async) and B as the 72 x 64
// matrix the weight is; 64 output channels take a 128 x 64 tile
// (m64n64k16); the result is copied to the NHWC output by the write-back.
// CHECK-LABEL: tensorir.prim_func @conv3x3_nhwc
// CHECK-NOT:     "pad_temp"
// CHECK:         tensorir.for %{{.*}} = 0 to 1 thread_binding("blockIdx.y")
// CHECK-NEXT:      tensorir.for %{{.*}} = 0 to 1 thread_binding("blockIdx.x")
// CHECK-NEXT:        tensorir.for %{{.*}} = 0 to 128 thread_binding("threadIdx.x")
// CHECK-NEXT:          tensorir.for %{{.*}} = 0 to 64 annotations {wgmma = "m64n64k16", wgmma_a = "gather"}
// CHECK-NEXT:            tensorir.for %{{.*}} = 0 to 72 {
// CHECK:                   tensorir.block "conv2d_nhwc"
// CHECK:                     %[[A:.*]] = memref.load %A[
// CHECK:                     arith.select %{{.*}}, %[[A]], %cst_0 : f16
// CHECK:                     memref.load %B[
// CHECK:                   tensorir.block "T_conv2d_reindex_shared"
// CHECK-SAME:                writes(%T_conv2d_local[%v0 floordiv 100, (%v0 floordiv 10) mod 10, %v0 mod 10, %v1]
// MMA-LABEL: tensorir.prim_func @conv3x3_nhwc
// MMA:         mma_sync = "m16n8k16"
// A convolution of 4 channels has runs of 4 elements only: the mma.sync
// rule, whose padded copies gather single elements.
// CHECK-LABEL: tensorir.prim_func @conv3x3_c4
// CHECK-NOT:     wgmma
// CHECK:         mma_sync = "m16n8k16"
tensorir.prim_func @conv3x3_nhwc(%A: memref<1x10x10x8xf16>, %B: memref<3x3x8x64xf16>, %T_conv2d: memref<1x10x10x64xf32>) attributes {tensorir.noalias, tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f16
  %c9 = arith.constant 9 : index
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c-1 = arith.constant -1 : index
  %pad_temp = tensorir.alloc_buffer : memref<1x12x12x8xf16>
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 12 {
      tensorir.for %i2 = 0 to 12 {
        tensorir.for %i3 = 0 to 8 {
          tensorir.block "pad_temp"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(12, %i1), %v_i2 = spatial(12, %i2), %v_i3 = spatial(8, %i3)) reads(%A[%v_i0, 0:10, 0:10, %v_i3] : memref<1x10x10x8xf16>) writes(%pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x12x12x8xf16>) {
            %0 = arith.addi %v_i1, %c-1 : index
            %1 = arith.cmpi sge, %0, %c0 : index
            %2 = arith.cmpi slt, %0, %c10 : index
            %3 = arith.andi %1, %2 : i1
            %4 = arith.minsi %0, %c9 : index
            %5 = arith.maxsi %4, %c0 : index
            %6 = arith.addi %v_i2, %c-1 : index
            %7 = arith.cmpi sge, %6, %c0 : index
            %8 = arith.andi %3, %7 : i1
            %9 = arith.cmpi slt, %6, %c10 : index
            %10 = arith.andi %8, %9 : i1
            %11 = arith.minsi %6, %c9 : index
            %12 = arith.maxsi %11, %c0 : index
            %13 = memref.load %A[%v_i0, %5, %12, %v_i3] : memref<1x10x10x8xf16>
            %14 = arith.select %10, %13, %cst_0 : f16
            memref.store %14, %pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x12x12x8xf16>
          }
        }
      }
    }
  }
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 10 {
      tensorir.for %i2 = 0 to 10 {
        tensorir.for %i3 = 0 to 64 {
          tensorir.for %k0 = 0 to 8 {
            tensorir.for %k1 = 0 to 3 {
              tensorir.for %k2 = 0 to 3 {
                tensorir.block "conv2d_nhwc"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(10, %i1), %v_i2 = spatial(10, %i2), %v_i3 = spatial(64, %i3), %v_k0 = reduce(8, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2)) reads(%pad_temp[%v_i0, %v_i1 + %v_k1, %v_i2 + %v_k2, %v_k0], %B[%v_k1, %v_k2, %v_k0, %v_i3] : memref<1x12x12x8xf16>, memref<3x3x8x64xf16>) writes(%T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>) {
                  tensorir.init {
                    memref.store %cst, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>
                  }
                  %0 = arith.addi %v_i1, %v_k1 : index
                  %1 = arith.addi %v_i2, %v_k2 : index
                  %2 = memref.load %pad_temp[%v_i0, %0, %1, %v_k0] : memref<1x12x12x8xf16>
                  %3 = memref.load %B[%v_k1, %v_k2, %v_k0, %v_i3] : memref<3x3x8x64xf16>
                  %4 = arith.extf %3 : f16 to f32
                  %5 = arith.extf %2 : f16 to f32
                  %6 = arith.mulf %5, %4 : f32
                  %7 = memref.load %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>
                  %8 = arith.addf %7, %6 : f32
                  memref.store %8, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>
                }
              }
            }
          }
        }
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @conv3x3_c4(%A: memref<1x10x10x4xf16>, %B: memref<3x3x4x64xf16>, %T_conv2d: memref<1x10x10x64xf32>) attributes {tensorir.noalias, tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f16
  %c9 = arith.constant 9 : index
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c-1 = arith.constant -1 : index
  %pad_temp = tensorir.alloc_buffer : memref<1x12x12x4xf16>
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 12 {
      tensorir.for %i2 = 0 to 12 {
        tensorir.for %i3 = 0 to 4 {
          tensorir.block "pad_temp"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(12, %i1), %v_i2 = spatial(12, %i2), %v_i3 = spatial(4, %i3)) reads(%A[%v_i0, 0:10, 0:10, %v_i3] : memref<1x10x10x4xf16>) writes(%pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x12x12x4xf16>) {
            %0 = arith.addi %v_i1, %c-1 : index
            %1 = arith.cmpi sge, %0, %c0 : index
            %2 = arith.cmpi slt, %0, %c10 : index
            %3 = arith.andi %1, %2 : i1
            %4 = arith.minsi %0, %c9 : index
            %5 = arith.maxsi %4, %c0 : index
            %6 = arith.addi %v_i2, %c-1 : index
            %7 = arith.cmpi sge, %6, %c0 : index
            %8 = arith.andi %3, %7 : i1
            %9 = arith.cmpi slt, %6, %c10 : index
            %10 = arith.andi %8, %9 : i1
            %11 = arith.minsi %6, %c9 : index
            %12 = arith.maxsi %11, %c0 : index
            %13 = memref.load %A[%v_i0, %5, %12, %v_i3] : memref<1x10x10x4xf16>
            %14 = arith.select %10, %13, %cst_0 : f16
            memref.store %14, %pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x12x12x4xf16>
          }
        }
      }
    }
  }
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 10 {
      tensorir.for %i2 = 0 to 10 {
        tensorir.for %i3 = 0 to 64 {
          tensorir.for %k0 = 0 to 4 {
            tensorir.for %k1 = 0 to 3 {
              tensorir.for %k2 = 0 to 3 {
                tensorir.block "conv2d_nhwc"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(10, %i1), %v_i2 = spatial(10, %i2), %v_i3 = spatial(64, %i3), %v_k0 = reduce(4, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2)) reads(%pad_temp[%v_i0, %v_i1 + %v_k1, %v_i2 + %v_k2, %v_k0], %B[%v_k1, %v_k2, %v_k0, %v_i3] : memref<1x12x12x4xf16>, memref<3x3x4x64xf16>) writes(%T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>) {
                  tensorir.init {
                    memref.store %cst, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>
                  }
                  %0 = arith.addi %v_i1, %v_k1 : index
                  %1 = arith.addi %v_i2, %v_k2 : index
                  %2 = memref.load %pad_temp[%v_i0, %0, %1, %v_k0] : memref<1x12x12x4xf16>
                  %3 = memref.load %B[%v_k1, %v_k2, %v_k0, %v_i3] : memref<3x3x4x64xf16>
                  %4 = arith.extf %3 : f16 to f32
                  %5 = arith.extf %2 : f16 to f32
                  %6 = arith.mulf %5, %4 : f32
                  %7 = memref.load %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>
                  %8 = arith.addf %7, %6 : f32
                  memref.store %8, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x10x10x64xf32>
                }
              }
            }
          }
        }
      }
    }
  }
  tensorir.return
}
