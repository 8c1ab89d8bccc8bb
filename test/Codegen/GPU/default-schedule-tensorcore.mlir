// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{tensor-cores=true}))' | FileCheck %s
// Without the option (chips before sm_80) the same GEMM takes the SIMT rule.
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule))' | FileCheck %s --check-prefix=SIMT
// With allow-tf32, float32 GEMMs take the rule too, in tf32 (m16n8k8).
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{tensor-cores=true allow-tf32=true}))' | FileCheck %s --check-prefix=TF32

// Tensor-core Matmul: f16 A and B, f32 C. 128 x 128 is 4 blocks of 64 x 64
// (2 warps along threadIdx.z, lanes as threadIdx.y (g, 8) x threadIdx.x
// (t, 4)); K in steps of 32 (two 16-wide slices) through shared memory,
// copied by all 64 threads, 8 f16 (16 bytes) each; thread (g, t) keeps a
// 4 x 16 box of C in registers, and the 2 x 2 x 16 loop nest of each
// mma tile carries the mma_sync annotation.
// CHECK-LABEL: tensorir.prim_func @gemm_f16
// CHECK-DAG:     %C_local = tensorir.alloc_buffer {scope = "local"}
// CHECK-DAG:     %A_shared = tensorir.alloc_buffer {scope = "shared"}
// CHECK-DAG:     %B_shared = tensorir.alloc_buffer {scope = "shared"}
// CHECK:         tensorir.for %i_0 = 0 to 2 thread_binding("blockIdx.y")
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 2 thread_binding("blockIdx.x")
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 2 thread_binding("threadIdx.z")
// CHECK-NEXT:          tensorir.for %i_2 = 0 to 8 thread_binding("threadIdx.y")
// CHECK-NEXT:            tensorir.for %j_1 = 0 to 4 thread_binding("threadIdx.x")
// CHECK:                   tensorir.block "C_init"
// CHECK:                 tensorir.for %k_0 = 0 to 4 {
// CHECK:                     thread_binding("threadIdx.z")
// CHECK-NEXT:                  thread_binding("threadIdx.y")
// CHECK-NEXT:                    thread_binding("threadIdx.x")
// CHECK-NEXT:                      tensorir.for %ax1_1 = 0 to 8 vectorized {
// CHECK:                   tensorir.for %k_1 = 0 to 2 unrolled {
// CHECK-NEXT:                tensorir.for %i_3 = 0 to 2 unrolled {
// CHECK-NEXT:                  tensorir.for %j_2 = 0 to 8 unrolled {
// CHECK-NEXT:                    tensorir.for %i_4 = 0 to 2 annotations {mma_sync = "m16n8k16"} {
// CHECK-NEXT:                      tensorir.for %j_3 = 0 to 2 {
// CHECK-NEXT:                        tensorir.for %k_2 = 0 to 16 {
// CHECK:                                 tensorir.block "C_update"
// CHECK:                 tensorir.block "C_local"
// SIMT-LABEL: tensorir.prim_func @gemm_f16
// SIMT-NOT:     mma_sync
// SIMT:         tensorir.for %i_1 = 0 to 16 thread_binding("threadIdx.y")
tensorir.prim_func @gemm_f16(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x128xf16>
          %b = memref.load %B[%vk, %vj] : memref<128x128xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// f32 inputs: the SIMT Matmul rule (tf32 is not used).
// CHECK-LABEL: tensorir.prim_func @gemm_f32
// CHECK-NOT:     mma_sync
// CHECK:         tensorir.for %i_1 = 0 to 16 thread_binding("threadIdx.y")
// With allow-tf32: K in steps of 16 (two 8-wide slices), copied 4 f32
// (16 bytes) per thread, and m16n8k8 tiles.
// TF32-LABEL: tensorir.prim_func @gemm_f32
// TF32:         tensorir.for %i_1 = 0 to 2 thread_binding("threadIdx.z")
// TF32:         tensorir.for %k_0 = 0 to 8 {
// TF32:           tensorir.for %ax1_1 = 0 to 4 vectorized {
// TF32:         tensorir.for %k_1 = 0 to 2 unrolled {
// TF32:           tensorir.for %i_4 = 0 to 2 annotations {mma_sync = "m16n8k8"} {
// TF32-NEXT:        tensorir.for %j_3 = 0 to 2 {
// TF32-NEXT:          tensorir.for %k_2 = 0 to 8 {
tensorir.prim_func @gemm_f32(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x128xf32>
          %b = memref.load %B[%vk, %vj] : memref<128x128xf32>
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

// bf16 A and B: the same rule (mma.sync.m16n8k16 has a bf16 form).
// TF32-LABEL: tensorir.prim_func @gemm_bf16
// TF32:         annotations {mma_sync = "m16n8k16"}
// CHECK-LABEL: tensorir.prim_func @gemm_bf16
// CHECK:         thread_binding("threadIdx.z")
// CHECK:         annotations {mma_sync = "m16n8k16"}
tensorir.prim_func @gemm_bf16(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x128xbf16>
          %b = memref.load %B[%vk, %vj] : memref<128x128xbf16>
          %af = arith.extf %a : bf16 to f32
          %bf = arith.extf %b : bf16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// f16 A times bf16 B: no mma.sync form multiplies the two, so the SIMT rule.
// CHECK-LABEL: tensorir.prim_func @gemm_f16_bf16
// CHECK-NOT:     mma_sync
// CHECK:         thread_binding("threadIdx.y")
tensorir.prim_func @gemm_f16_bf16(%A: memref<128x128xf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x128xf16>
          %b = memref.load %B[%vk, %vj] : memref<128x128xbf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : bf16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// M = 100 and N = 72 (no tile divides them): the domain padded to 128 x 128
// (pad_einsum), two 64 x 64 block tiles each way. The shared copies load A
// and B clamped into the buffers and select zero beyond them; the mma nest
// runs on whole tiles; the write-back (the copy back inlined) stores only
// rows < 100 and columns < 72.
// CHECK-LABEL: tensorir.prim_func @gemm_tail
// CHECK-NOT:     tensorir.block "A_pad"
// CHECK:         tensorir.for %i_0 = 0 to 2 thread_binding("blockIdx.y")
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 2 thread_binding("blockIdx.x")
// CHECK:                 tensorir.block "B_pad_shared"
// CHECK:                   %[[IN:.*]] = arith.cmpi ult, %v1, %c72 : index
// CHECK-NEXT:              %[[COL:.*]] = arith.minui %v1, %c71 : index
// CHECK-NEXT:              %[[B:.*]] = memref.load %B[%v0, %[[COL]]]
// CHECK:                   arith.select %[[IN]], %[[B]], %{{.*}} : f16
// CHECK:                 tensorir.block "A_pad_shared"
// CHECK:                   arith.cmpi ult, %v0, %c100 : index
// CHECK:           tensorir.for %i_4 = 0 to 2 annotations {mma_sync = "m16n8k16"} {
// CHECK:             tensorir.block "C_update"(%vi = spatial(128, %{{.*}}), %vj = spatial(128, %{{.*}}), %vk = reduce(64, %{{.*}})) {
// CHECK:         tensorir.block "C_pad_local"(%v0 = spatial(100, %{{.*}}), %v1 = spatial(72, %{{[0-9]+}})) where(%{{[0-9]+}})
// CHECK-SAME:      writes(%C[%v0, %v1] : memref<100x72xf32>)
// CHECK-NOT:     tensorir.block "C_pad"
// Without tensor cores the SIMT rule.
// SIMT-LABEL: tensorir.prim_func @gemm_tail
// SIMT-NOT:     mma_sync
tensorir.prim_func @gemm_tail(%A: memref<100x64xf16>, %B: memref<64x72xf16>, %C: memref<100x72xf32>) {
  tensorir.for %i = 0 to 100 {
    tensorir.for %j = 0 to 72 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(100, %i), %vj = spatial(72, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<100x72xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<100x64xf16>
          %b = memref.load %B[%vk, %vj] : memref<64x72xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<100x72xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<100x72xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// K = 72: padded to whole 16-wide mma slices (80; to a step of 32, 96,
// would add a third), one slice per step of 16. The shared copies of A and
// B (N x K here) load columns clamped into the buffers and select zero at
// k >= 72; C needs no padding (no copy back).
// CHECK-LABEL: tensorir.prim_func @gemm_k_tail
// CHECK-DAG:     tensorir.alloc_buffer {scope = "shared"} : memref<128x80xf16>
// CHECK-DAG:     tensorir.alloc_buffer {scope = "local"} : memref<128x128xf32>
// CHECK:                 tensorir.for %k_0 = 0 to 5 {
// CHECK:                   tensorir.block "B_pad_shared"
// CHECK:                     %[[IN:.*]] = arith.cmpi ult, %v1, %c72 : index
// CHECK-NEXT:                %[[COL:.*]] = arith.minui %v1, %c71 : index
// CHECK-NEXT:                %[[B:.*]] = memref.load %B[%v0, %[[COL]]]
// CHECK:                     arith.select %[[IN]], %[[B]], %{{.*}} : f16
// CHECK:                   tensorir.block "A_pad_shared"
// CHECK:                     arith.cmpi ult, %v1, %c72 : index
// CHECK:                   tensorir.for %k_1 = 0 to 1 unrolled {
// CHECK:                     tensorir.for %i_4 = 0 to 2 annotations {mma_sync = "m16n8k16"} {
// CHECK:                       tensorir.block "C_update"(%vi = spatial(128, %{{.*}}), %vj = spatial(128, %{{.*}}), %vk = reduce(80, %{{.*}}))
// CHECK:         tensorir.block "C_local"
// CHECK-SAME:      writes(%C[%v0, %v1] : memref<128x128xf32>)
// CHECK-NOT:     _pad
tensorir.prim_func @gemm_k_tail(%A: memref<128x72xf16>, %B: memref<128x72xf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 72 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(72, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x72xf16>
          %b = memref.load %B[%vj, %vk] : memref<128x72xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// K = 100: rows of A are 200 bytes, no whole number of 16-byte pieces, so
// no cp.async could copy them; the padded copy of A (rows of 112, 224
// bytes) is made by a kernel of its own before the GEMM, whose shared copy
// reads it. B's rows (128 f16) are aligned: its padding (rows k >= 100) is
// inlined into its shared copy.
// CHECK-LABEL: tensorir.prim_func @gemm_unaligned_rows
// CHECK:         %A_pad = tensorir.alloc_buffer : memref<128x112xf16>
// CHECK:         thread_binding("blockIdx.x")
// CHECK:           tensorir.block "A_pad"
// CHECK-SAME:        reads(%A[%v0, 0:100] : memref<128x100xf16>) writes(%A_pad[%v0, %v1] : memref<128x112xf16>)
// CHECK:         tensorir.for %i_0 = 0 to 2 thread_binding("blockIdx.y")
// CHECK:                 tensorir.for %k_0 = 0 to 7 {
// CHECK:                   tensorir.block "B_pad_shared"
// CHECK-SAME:                reads(%B[0:100, %v1] : memref<100x128xf16>)
// CHECK:                   tensorir.block "A_pad_shared"
// CHECK-SAME:                reads(%A_pad[%v0, %v1] : memref<128x112xf16>)
// CHECK:                     tensorir.block "C_update"(%vi = spatial(128, %{{.*}}), %vj = spatial(128, %{{.*}}), %vk = reduce(112, %{{.*}}))
tensorir.prim_func @gemm_unaligned_rows(%A: memref<128x100xf16>, %B: memref<100x128xf16>, %C: memref<128x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 100 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(100, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x100xf16>
          %b = memref.load %B[%vk, %vj] : memref<100x128xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x128xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// 16 rows: padding them to a 64-row tile would compute 4x the work; the
// SIMT rules take it.
// CHECK-LABEL: tensorir.prim_func @gemm_few_rows
// CHECK-NOT:     mma_sync
// CHECK-NOT:     _pad
tensorir.prim_func @gemm_few_rows(%A: memref<16x64xf16>, %B: memref<64x128xf16>, %C: memref<16x128xf32>) {
  tensorir.for %i = 0 to 16 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(16, %i), %vj = spatial(128, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<16x128xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<16x64xf16>
          %b = memref.load %B[%vk, %vj] : memref<64x128xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<16x128xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<16x128xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// Split-K: 128 x 768 outputs make 24 thread blocks of 64 x 64, a fifth of
// an H100's SMs, and K = 3072 is long: K splits into 4 parts of 768
// (rfactor), the parts a batch of the tensor-core rule (blockIdx.z: 96
// thread blocks) into an f32 buffer; a second kernel sums them, a thread
// per output, with the bias (the epilogue) after the sum in the same
// thread, the sum in a register.
// CHECK-LABEL: tensorir.prim_func @gemm_split_k
// CHECK-DAG:     %[[SUM:.*]] = tensorir.alloc_buffer {scope = "local"} : memref<128x768xf32>
// CHECK-DAG:     %[[RF:.*]] = tensorir.alloc_buffer : memref<4x128x768xf32>
// CHECK:         tensorir.for %{{.*}} = 0 to 4 thread_binding("blockIdx.z")
// CHECK:           mma_sync = "m16n8k16"
// CHECK:           tensorir.block "C_rf_update"
// CHECK-SAME:        reduce(768,
// CHECK:         tensorir.for %{{.*}} = 0 to 384 thread_binding("blockIdx.x")
// CHECK-NEXT:      tensorir.for %{{.*}} = 0 to 256 thread_binding("threadIdx.x")
// CHECK-NEXT:        tensorir.for %{{.*}} = 0 to 4 {
// CHECK:               tensorir.block "C"({{.*}}reduce(4,
// CHECK:             tensorir.block "bias"
// CHECK-NOT:   thread_binding("blockIdx
// SIMT-LABEL:  tensorir.prim_func @gemm_split_k
// SIMT-NOT:      _rf
tensorir.prim_func @gemm_split_k(%A: memref<128x3072xf16>, %B: memref<3072x768xf16>, %bias: memref<768xf32>, %D: memref<128x768xf32>) {
  %C = tensorir.alloc_buffer : memref<128x768xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 768 {
      tensorir.for %k = 0 to 3072 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(768, %j), %vk = reduce(3072, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x768xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x3072xf16>
          %b = memref.load %B[%vk, %vj] : memref<3072x768xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x768xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x768xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 768 {
      tensorir.block "bias"(%vi = spatial(128, %i), %vj = spatial(768, %j)) {
        %c = memref.load %C[%vi, %vj] : memref<128x768xf32>
        %b = memref.load %bias[%vj] : memref<768xf32>
        %y = arith.addf %c, %b : f32
        memref.store %y, %D[%vi, %vj] : memref<128x768xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Not split: K = 768 gives parts of 256 at most twice (2 parts), but 128 x
// 2304 outputs already make 72 thread blocks, more than half of the SMs.
// CHECK-LABEL: tensorir.prim_func @gemm_no_split_k
// CHECK-NOT:     _rf
// CHECK:         mma_sync
// CHECK-NOT:     _rf
tensorir.prim_func @gemm_no_split_k(%A: memref<128x768xf16>, %B: memref<768x2304xf16>, %C: memref<128x2304xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 2304 {
      tensorir.for %k = 0 to 768 {
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(2304, %j), %vk = reduce(768, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<128x2304xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<128x768xf16>
          %b = memref.load %B[%vk, %vj] : memref<768x2304xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<128x2304xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<128x2304xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// An implicit GEMM: conv2d NCHW 3 x 3 (f16, f32 accumulator) as the GEMM
// (n y x) x (o) x (c ry rx) = 64 x 64 x 144 (K padded to 160), its padding
// and im2col copy inlined into the shared-memory copy of A (no pad_temp
// kernel left), the copy back from the GEMM's rows into T_conv2d in the
// write-back of the register tile.
// CHECK-LABEL: tensorir.prim_func @conv2d_nchw
// CHECK-NOT:     tensorir.block "pad_temp"
// CHECK:         tensorir.for %{{.*}} = 0 to 1 thread_binding("blockIdx.y")
// CHECK:         tensorir.block "B_reindex_pad_shared"(%v0 = spatial(64, %{{.*}}), %v1 = spatial(160, %{{.*}}))
// CHECK:         tensorir.block "pad_temp_reindex_pad_shared"(%v0 = spatial(64, %{{.*}}), %v1 = spatial(160, %{{.*}})) reads(%A[0, 0:16, 0:8, 0:8] : memref<1x16x8x8xf16>)
// CHECK:           arith.select
// CHECK:         annotations {mma_sync = "m16n8k16"}
// CHECK:         tensorir.block "conv2d_nchw_update"(%v_i0_v_i2_v_i3 = spatial(64, %{{.*}}), %v_i1 = spatial(64, %{{.*}}), %v_k0_v_k1_v_k2 = reduce(160, %{{.*}}))
// CHECK:         tensorir.block "T_conv2d_reindex_local"(%v0 = spatial(64, %{{.*}}), %v1 = spatial(64, %{{.*}})) reads(%T_conv2d_reindex_local[%v0, %v1] : memref<64x64xf32>) writes(%T_conv2d[%v0 floordiv 64, %v1, (%v0 floordiv 8) mod 8, %v0 mod 8] : memref<1x64x8x8xf32>)
// CHECK-NOT:     tensorir.block
// CHECK:         tensorir.return
tensorir.prim_func @conv2d_nchw(%A: memref<1x16x8x8xf16>, %B: memref<64x16x3x3xf16>, %T_conv2d: memref<1x64x8x8xf32>) attributes {tensorir.noalias, tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {
  %pad_temp = tensorir.alloc_buffer : memref<1x16x10x10xf16>
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 16 {
      tensorir.for %i2 = 0 to 10 {
        tensorir.for %i3 = 0 to 10 {
          tensorir.block "pad_temp"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(16, %i1), %v_i2 = spatial(10, %i2), %v_i3 = spatial(10, %i3)) reads(%A[%v_i0, %v_i1, 0:8, 0:8] : memref<1x16x8x8xf16>) writes(%pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x16x10x10xf16>) {
            %c-1 = arith.constant -1 : index
            %0 = arith.addi %v_i2, %c-1 : index
            %c8 = arith.constant 8 : index
            %c0 = arith.constant 0 : index
            %1 = arith.cmpi sge, %0, %c0 : index
            %2 = arith.cmpi slt, %0, %c8 : index
            %3 = arith.andi %1, %2 : i1
            %c7 = arith.constant 7 : index
            %4 = arith.minsi %0, %c7 : index
            %5 = arith.maxsi %4, %c0 : index
            %6 = arith.addi %v_i3, %c-1 : index
            %7 = arith.cmpi sge, %6, %c0 : index
            %8 = arith.andi %3, %7 : i1
            %9 = arith.cmpi slt, %6, %c8 : index
            %10 = arith.andi %8, %9 : i1
            %11 = arith.minsi %6, %c7 : index
            %12 = arith.maxsi %11, %c0 : index
            %13 = memref.load %A[%v_i0, %v_i1, %5, %12] : memref<1x16x8x8xf16>
            %cst = arith.constant 0.000000e+00 : f16
            %14 = arith.select %10, %13, %cst : f16
            memref.store %14, %pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x16x10x10xf16>
          }
        }
      }
    }
  }
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 64 {
      tensorir.for %i2 = 0 to 8 {
        tensorir.for %i3 = 0 to 8 {
          tensorir.for %k0 = 0 to 16 {
            tensorir.for %k1 = 0 to 3 {
              tensorir.for %k2 = 0 to 3 {
                tensorir.block "conv2d_nchw"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(64, %i1), %v_i2 = spatial(8, %i2), %v_i3 = spatial(8, %i3), %v_k0 = reduce(16, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2)) reads(%pad_temp[%v_i0, %v_k0, %v_i2 + %v_k1, %v_i3 + %v_k2], %B[%v_i1, %v_k0, %v_k1, %v_k2] : memref<1x16x10x10xf16>, memref<64x16x3x3xf16>) writes(%T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>) {
                  tensorir.init {
                    %cst = arith.constant 0.000000e+00 : f32
                    memref.store %cst, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>
                  }
                  %0 = arith.addi %v_i2, %v_k1 : index
                  %1 = arith.addi %v_i3, %v_k2 : index
                  %2 = memref.load %pad_temp[%v_i0, %v_k0, %0, %1] : memref<1x16x10x10xf16>
                  %3 = memref.load %B[%v_i1, %v_k0, %v_k1, %v_k2] : memref<64x16x3x3xf16>
                  %4 = arith.extf %3 : f16 to f32
                  %5 = arith.extf %2 : f16 to f32
                  %6 = arith.mulf %5, %4 : f32
                  %7 = memref.load %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>
                  %8 = arith.addf %7, %6 : f32
                  memref.store %8, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>
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

// A depthwise convolution is no GEMM (no variable indexes the weights and
// the output but not the input): not on tensor cores.
// CHECK-LABEL: tensorir.prim_func @conv2d_depthwise
// CHECK-NOT:     mma_sync
// CHECK:         tensorir.return
tensorir.prim_func @conv2d_depthwise(%A: memref<1x64x8x8xf16>, %B: memref<64x1x3x3xf16>, %T_conv2d: memref<1x64x8x8xf32>) attributes {tensorir.noalias, tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>} {
  %pad_temp = tensorir.alloc_buffer : memref<1x64x10x10xf16>
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 64 {
      tensorir.for %i2 = 0 to 10 {
        tensorir.for %i3 = 0 to 10 {
          tensorir.block "pad_temp"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(64, %i1), %v_i2 = spatial(10, %i2), %v_i3 = spatial(10, %i3)) reads(%A[%v_i0, %v_i1, 0:8, 0:8] : memref<1x64x8x8xf16>) writes(%pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x10x10xf16>) {
            %c-1 = arith.constant -1 : index
            %0 = arith.addi %v_i2, %c-1 : index
            %c8 = arith.constant 8 : index
            %c0 = arith.constant 0 : index
            %1 = arith.cmpi sge, %0, %c0 : index
            %2 = arith.cmpi slt, %0, %c8 : index
            %3 = arith.andi %1, %2 : i1
            %c7 = arith.constant 7 : index
            %4 = arith.minsi %0, %c7 : index
            %5 = arith.maxsi %4, %c0 : index
            %6 = arith.addi %v_i3, %c-1 : index
            %7 = arith.cmpi sge, %6, %c0 : index
            %8 = arith.andi %3, %7 : i1
            %9 = arith.cmpi slt, %6, %c8 : index
            %10 = arith.andi %8, %9 : i1
            %11 = arith.minsi %6, %c7 : index
            %12 = arith.maxsi %11, %c0 : index
            %13 = memref.load %A[%v_i0, %v_i1, %5, %12] : memref<1x64x8x8xf16>
            %cst = arith.constant 0.000000e+00 : f16
            %14 = arith.select %10, %13, %cst : f16
            memref.store %14, %pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x10x10xf16>
          }
        }
      }
    }
  }
  tensorir.for %i0 = 0 to 1 {
    tensorir.for %i1 = 0 to 64 {
      tensorir.for %i2 = 0 to 8 {
        tensorir.for %i3 = 0 to 8 {
          tensorir.for %k0 = 0 to 1 {
            tensorir.for %k1 = 0 to 3 {
              tensorir.for %k2 = 0 to 3 {
                tensorir.block "depthwise_conv2d_nchw"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(64, %i1), %v_i2 = spatial(8, %i2), %v_i3 = spatial(8, %i3), %v_k0 = reduce(1, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2)) reads(%pad_temp[%v_i0, %v_i1 + %v_k0, %v_i2 + %v_k1, %v_i3 + %v_k2], %B[%v_i1, %v_k0, %v_k1, %v_k2] : memref<1x64x10x10xf16>, memref<64x1x3x3xf16>) writes(%T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>) {
                  tensorir.init {
                    %cst = arith.constant 0.000000e+00 : f32
                    memref.store %cst, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>
                  }
                  %c1 = arith.constant 1 : index
                  %0 = arith.addi %v_i1, %v_k0 : index
                  %1 = arith.addi %v_i2, %v_k1 : index
                  %2 = arith.addi %v_i3, %v_k2 : index
                  %3 = memref.load %pad_temp[%v_i0, %0, %1, %2] : memref<1x64x10x10xf16>
                  %4 = memref.load %B[%v_i1, %v_k0, %v_k1, %v_k2] : memref<64x1x3x3xf16>
                  %5 = arith.extf %4 : f16 to f32
                  %6 = arith.extf %3 : f16 to f32
                  %7 = arith.mulf %6, %5 : f32
                  %8 = memref.load %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>
                  %9 = arith.addf %8, %7 : f32
                  memref.store %9, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x64x8x8xf32>
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
