// The Attention rule: relax.nn.attention's legalized stages (f16) become one
// flash-attention kernel (FlashAttention-2's layout): a thread block per
// (batch x head, query tile), warps (threadIdx.z) of 8 x 4 lanes, the keys
// in steps of 32 (a serial loop), both products as mma_sync nests. S, P, O
// and the row statistics are local buffers shared by the stages' thread
// nests (registers once compacted); the step's row maximum and the rows'
// total are cross-thread reductions over the row's 4 lanes (threadIdx.x).
// 24 (batch x head) x 128 rows make 96 tiles of 32 rows (1 warp): fewer
// thread blocks than fill a GPU with larger tiles.
// RUN: mlc-opt %s -split-input-file --relax-legalize-ops --tensorir-annotate-op-pattern --relax-fuse-ops --relax-fuse-tir | mlc-opt -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule{tensor-cores=true}))' | FileCheck %s
// Without tensor cores the stages are scheduled one by one.
// RUN: mlc-opt %s -split-input-file --relax-legalize-ops --tensorir-annotate-op-pattern --relax-fuse-ops --relax-fuse-tir | mlc-opt -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(mlc-gpu-default-schedule))' | FileCheck %s --check-prefix=SIMT

// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK-DAG:   tensorir.alloc_buffer {scope = "shared"} : memref<2x12x128x64xf16>
// CHECK-DAG:   tensorir.alloc_buffer {scope = "shared"} : memref<2x12x1x128x64xf16>
// CHECK-DAG:   %S_local = tensorir.alloc_buffer {scope = "local"} : memref<2x12x128x128xf32>
// CHECK-DAG:   %P_local = tensorir.alloc_buffer {scope = "local"} : memref<2x12x128x128xf16>
// CHECK-DAG:   %O_local = tensorir.alloc_buffer {scope = "local"} : memref<2x12x128x1x64xf32>
// CHECK-DAG:   %sum_local = tensorir.alloc_buffer {scope = "local"} : memref<2x12x128x4xf32>
// CHECK:       thread_binding("blockIdx.y")
// CHECK:       tensorir.for %q_tile = 0 to 4 thread_binding("blockIdx.x")
// CHECK:       tensorir.for %init_w = 0 to 1 thread_binding("threadIdx.z")
// CHECK:       tensorir.block "attention_init_max"
// CHECK:       tensorir.block "attention_init_sum"
// CHECK:       tensorir.block "attention_init_o"
// CHECK:       tensorir.block "Q_shared"
// CHECK:       tensorir.for %kv_tile = 0 to 4 {
// CHECK:         tensorir.block "K_shared"
// CHECK:         tensorir.block "V_shared"
// CHECK:         annotations {mma_sync = "m16n8k16"}
// CHECK:         tensorir.block "S_update"
// CHECK:         tensorir.block "T_attention_scores"
// CHECK:         math.rsqrt
// CHECK:         memref.store %{{.*}}, %scores_local
// CHECK:         tensorir.for %max_t = 0 to 4 thread_binding("threadIdx.x")
// CHECK:         tensorir.block "attention_row_max"({{.*}}reduce(32,
// CHECK:         tensorir.block "attention_alpha"
// CHECK:         tensorir.block "attention_update_max"
// CHECK:         tensorir.block "attention_p"
// CHECK:         arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK:         math.exp2
// CHECK:         memref.store %{{.*}}, %P_local
// CHECK:         tensorir.block "attention_row_sum"
// CHECK:         tensorir.block "O_rescale"
// CHECK:         annotations {mma_sync = "m16n8k16"}
// CHECK:         tensorir.block "O_update"
// CHECK:         memref.load %P_local
// CHECK:       tensorir.for %total_t = 0 to 4 thread_binding("threadIdx.x")
// CHECK:       tensorir.block "attention_row_total"({{.*}}reduce(4, %total_t)
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
// cloned into the kernel; H_v = 128 is two 64-column parts of V, whose
// accumulators leave registers for 16 rows per warp (2 warps for 32 rows).
// The causal mask (key j of row i visible iff j <= i + 96 - 64) ends each
// query tile's key loop after the last tile its rows see: min(3, (32 q +
// 63) / 32 + 1) tiles of 32 keys.
// CHECK:       #[[SEEN:.*]] = affine_map<(d0) -> (d0 + 2, 3)>
// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK:       tensorir.for %q_tile = 0 to 2 thread_binding("blockIdx.x")
// CHECK:       tensorir.for %{{.*}} = 0 to 2 thread_binding("threadIdx.z")
// CHECK:       %[[TILES:.*]] = affine.min #[[SEEN]](%q_tile)
// CHECK:       tensorir.for %kv_tile = 0 to %[[TILES]] {
// CHECK:       tensorir.block "T_attention_scores"
// CHECK:       arith.cmpi sle
// CHECK:       arith.select
// CHECK:       tensorir.block "O_update"
func.func @main(%q: tensor<1x64x4x128xbf16>, %k: tensor<1x96x4x128xbf16>, %v: tensor<1x96x4x128xbf16>, %m: tensor<1x1x1x96xbf16>) -> tensor<1x64x4x128xbf16> {
  %0 = relax.nn.attention %q, %k, %v, %m {causal_mask = "BottomRight"} : (tensor<1x64x4x128xbf16>, tensor<1x96x4x128xbf16>, tensor<1x96x4x128xbf16>, tensor<1x1x1x96xbf16>) -> tensor<1x64x4x128xbf16>
  return %0 : tensor<1x64x4x128xbf16>
}

// -----

// Lengths and head dimensions that are no multiples of the tiles: the
// tiles are padded. S = 50 takes two query tiles of 32 (64 rows), S_kv = 40
// two key tiles (64 keys), H = 40 three mma K steps (48 columns) and
// H_v = 24 one 64-column part. The copies clamp their indices into Q, K and
// V and select zero past the ends (cp.async zero-fills), the scores of keys
// past S_kv are -inf, and the output's store is predicated on the real S
// and H_v, its column clamped into the output.
// CHECK-LABEL: tensorir.prim_func private @attention
// CHECK-DAG:   %Q_shared = tensorir.alloc_buffer {scope = "shared"} : memref<1x2x64x48xf16>
// CHECK-DAG:   %K_shared = tensorir.alloc_buffer {scope = "shared"} : memref<1x2x64x48xf16>
// CHECK-DAG:   %V_shared = tensorir.alloc_buffer {scope = "shared"} : memref<1x2x1x64x64xf16>
// CHECK-DAG:   %O_local = tensorir.alloc_buffer {scope = "local"} : memref<1x2x64x1x64xf32>
// CHECK:       tensorir.for %q_tile = 0 to 2 thread_binding("blockIdx.x")
// CHECK:       tensorir.block "Q_shared"
// CHECK-DAG:     %[[QROW:.*]] = arith.minui %arg2, %c49
// CHECK-DAG:     %[[QROWIN:.*]] = arith.cmpi ult, %arg2, %c50
// CHECK-DAG:     %[[QCOL:.*]] = arith.minui %arg3, %c39
// CHECK-DAG:     %[[QCOLIN:.*]] = arith.cmpi ult, %arg3, %c40
// CHECK:         %[[Q:.*]] = memref.load %{{.*}}[%arg0, %[[QROW]], %arg1, %[[QCOL]]]
// CHECK:         %[[QC:.*]] = arith.select %[[QCOLIN]], %[[Q]], %cst
// CHECK:         arith.select %[[QROWIN]], %[[QC]], %cst
// CHECK:       tensorir.for %kv_tile = 0 to 2 {
// CHECK:         tensorir.block "K_shared"
// CHECK:         tensorir.block "V_shared"
// CHECK:         arith.cmpi ult, %{{.*}}, %c24
// CHECK:         tensorir.block "T_attention_scores"
// CHECK:         %[[KEYIN:.*]] = arith.cmpi ult, %arg3, %c40
// CHECK:         arith.select %[[KEYIN]], %{{.*}}, %cst{{.*}} : f32
// CHECK:       %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %c50
// CHECK:       %[[COLIN:.*]] = arith.cmpi ult, %{{.*}}, %c24
// CHECK:       %[[IN:.*]] = arith.andi %[[ROWIN]], %[[COLIN]]
// CHECK:       tensorir.block "T_attention"({{.*}}) where(%[[IN]]) {{.*}} writes(%{{.*}}[%arg0, %arg1, %arg2, 0:24] : memref<1x50x2x24xf16>)
// CHECK:         arith.minui %{{.*}}, %c23
func.func @main(%q: tensor<1x50x2x40xf16>, %k: tensor<1x40x2x40xf16>, %v: tensor<1x40x2x24xf16>) -> tensor<1x50x2x24xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<1x50x2x40xf16>, tensor<1x40x2x40xf16>, tensor<1x40x2x24xf16>) -> tensor<1x50x2x24xf16>
  return %0 : tensor<1x50x2x24xf16>
}

// -----

// Negative cases: f32 inputs, and rows of Q and K that are no whole
// 16-byte pieces (H = 12, which cp.async cannot copy), keep the
// stage-by-stage schedule (the tensor-core Matmul rule takes the products).
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
func.func @main(%q: tensor<1x64x2x12xf16>, %k: tensor<1x64x2x12xf16>, %v: tensor<1x64x2x64xf16>) -> tensor<1x64x2x64xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<1x64x2x12xf16>, tensor<1x64x2x12xf16>, tensor<1x64x2x64xf16>) -> tensor<1x64x2x64xf16>
  return %0 : tensor<1x64x2x64xf16>
}
