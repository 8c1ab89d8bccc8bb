// The Attention rule: relax.nn.attention's legalized stages (f16) become one
// flash-attention kernel: a thread block per (batch x head, 64 query rows),
// 2 warps (threadIdx.z) of 8 x 4 lanes, the keys in steps of 32 (an
// scf-level serial loop), both products as mma_sync nests.
// RUN: mlc-opt %s -split-input-file --relax-legalize-ops --tensorir-annotate-op-pattern --relax-fuse-ops --relax-fuse-tir | mlc-opt -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{tensor-cores=true}))' | FileCheck %s
// Without tensor cores the stages are scheduled one by one.
// RUN: mlc-opt %s -split-input-file --relax-legalize-ops --tensorir-annotate-op-pattern --relax-fuse-ops --relax-fuse-tir | mlc-opt -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule))' | FileCheck %s --check-prefix=SIMT

// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK-DAG:   tensorir.alloc_buffer {scope = "shared"} : memref<2x12x128x64xf16>
// CHECK-DAG:   tensorir.alloc_buffer {scope = "shared"} : memref<2x12x1x128x64xf16>
// CHECK-DAG:   tensorir.alloc_buffer {scope = "local"} : memref<2x12x128x128xf32>
// CHECK:       thread_binding("blockIdx.y")
// CHECK:       thread_binding("blockIdx.x")
// CHECK:       tensorir.block "attention_init_statistics"
// CHECK:       tensorir.block "Q_shared"
// CHECK:       tensorir.for %kv_tile = 0 to 4 {
// CHECK:         tensorir.block "K_shared"
// CHECK:         tensorir.block "V_shared"
// CHECK:         annotations {mma_sync = "m16n8k16"}
// CHECK:         tensorir.block "S_update"
// CHECK:         tensorir.block "T_attention_scores"
// CHECK:         math.rsqrt
// CHECK:         tensorir.block "attention_row_max"
// CHECK:         tensorir.block "attention_p"
// CHECK:         tensorir.block "attention_statistics"
// CHECK:         annotations {mma_sync = "m16n8k16"}
// CHECK:         tensorir.block "O_update"
// CHECK:       tensorir.block "T_attention"
// CHECK-NOT:   tensorir.block "T_attention_pv
// SIMT-LABEL:  tensorir.prim_func private @attention
// SIMT-NOT:    mma_sync
// SIMT:        tensorir.block "T_attention_qk
// SIMT-NOT:    mma_sync
func.func @main(%q: tensor<2x128x12x64xf16>, %k: tensor<2x128x12x64xf16>, %v: tensor<2x128x12x64xf16>) -> tensor<2x128x12x64xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<2x128x12x64xf16>, tensor<2x128x12x64xf16>, tensor<2x128x12x64xf16>) -> tensor<2x128x12x64xf16>
  return %0 : tensor<2x128x12x64xf16>
}

// -----

// A padding mask (bias) and a causal mask are the legalized scores body,
// cloned into the kernel; H_v = 128 is two 64-column parts of V, and the
// query tile shrinks to 32 rows (1 warp) to fit 48 KiB of shared memory.
// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK:       thread_binding("blockIdx.x")
// CHECK:       tensorir.for %{{.*}} = 0 to 1 thread_binding("threadIdx.z")
// CHECK:       tensorir.block "T_attention_scores"
// CHECK:       arith.cmpi sle
// CHECK:       arith.select
// CHECK:       tensorir.block "O_update"
func.func @main(%q: tensor<1x64x4x128xbf16>, %k: tensor<1x96x4x128xbf16>, %v: tensor<1x96x4x128xbf16>, %m: tensor<1x1x1x96xbf16>) -> tensor<1x64x4x128xbf16> {
  %0 = relax.nn.attention %q, %k, %v, %m {causal_mask = "BottomRight"} : (tensor<1x64x4x128xbf16>, tensor<1x96x4x128xbf16>, tensor<1x96x4x128xbf16>, tensor<1x1x1x96xbf16>) -> tensor<1x64x4x128xbf16>
  return %0 : tensor<1x64x4x128xbf16>
}

// -----

// Negative cases: f32 inputs, a key length that is no multiple of 32 and a
// value dimension that is no multiple of 64 keep the stage-by-stage
// schedule (the tensor-core Matmul rule takes the products).
// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK-NOT:   tensorir.block "O_update"
// CHECK:       tensorir.block "T_attention_qk
// CHECK-NOT:   tensorir.block "O_update"
func.func @main(%q: tensor<1x64x2x64xf32>, %k: tensor<1x64x2x64xf32>, %v: tensor<1x64x2x64xf32>) -> tensor<1x64x2x64xf32> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<1x64x2x64xf32>, tensor<1x64x2x64xf32>, tensor<1x64x2x64xf32>) -> tensor<1x64x2x64xf32>
  return %0 : tensor<1x64x2x64xf32>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK-NOT:   tensorir.block "O_update"
// CHECK:       tensorir.block "T_attention_qk
// CHECK-NOT:   tensorir.block "O_update"
func.func @main(%q: tensor<1x64x2x64xf16>, %k: tensor<1x40x2x64xf16>, %v: tensor<1x40x2x64xf16>) -> tensor<1x64x2x64xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<1x64x2x64xf16>, tensor<1x40x2x64xf16>, tensor<1x40x2x64xf16>) -> tensor<1x64x2x64xf16>
  return %0 : tensor<1x64x2x64xf16>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK-NOT:   tensorir.block "O_update"
// CHECK:       tensorir.block "T_attention_qk
// CHECK-NOT:   tensorir.block "O_update"
func.func @main(%q: tensor<1x64x2x64xf16>, %k: tensor<1x64x2x64xf16>, %v: tensor<1x64x2x32xf16>) -> tensor<1x64x2x32xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<1x64x2x64xf16>, tensor<1x64x2x64xf16>, tensor<1x64x2x32xf16>) -> tensor<1x64x2x32xf16>
  return %0 : tensor<1x64x2x32xf16>
}
