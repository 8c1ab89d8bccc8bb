// The tensor-core Matmul rule's kernels in PTX (sm_90): f16 inputs, f32
// accumulators. Per K step of 32, a warp's 32 x 64 tile takes 2 x 2
// ldmatrix.x4 for A, 2 x 8 ldmatrix.x2.trans for B and 32
// mma.sync.m16n8k16 (2 K slices x 2 x 8 tiles); dense and
// batch_matmul(transpose_b) reach the kernel as a matmul with B stored
// K x N, whose columns mlc-gpu-tensorize-mma stores in mma order so that
// ldmatrix.trans reads them (ldmatrix.x2 is for B stored N x K:
// tensorize-mma.mlir). The copies into shared memory are cp.async (A: 16
// bytes, .cg; B: 4-byte pieces of the permuted columns, .ca), 3 stages,
// two steps in flight (mlc-gpu-async-copy-pipeline). bf16 is the same
// kernel with the bf16 form of mma.sync (mlc-gpu-lower-bf16-mma-sync, as
// MLIR 22's nvgpu lowering cannot). ptxas: no spills, no stack.
// REQUIRES: ptxas
// RUN: split-file %s %t
// RUN: mlc-compile --target=cuda:sm_90 %t/dense.mlir -o %t/dense.ptx
// RUN: FileCheck %s --check-prefix=DENSE < %t/dense.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/dense.ptx | FileCheck %s --check-prefix=MMA
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x4.shared.b16" %t/dense.ptx | FileCheck %s --check-prefix=LDMATRIX
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16" %t/dense.ptx | FileCheck %s --check-prefix=TRANS
// RUN: grep -c "cp.async.cg.shared.global" %t/dense.ptx | FileCheck %s --check-prefix=ASYNC16
// RUN: grep -c "cp.async.ca.shared.global" %t/dense.ptx | FileCheck %s --check-prefix=ASYNC4
// RUN: FileCheck %s --check-prefix=STAGES < %t/dense.ptx
// RUN: split-file %t/dense.ptx %t/dense
// RUN: %ptxas -arch=sm_90 -v %t/dense/fused_matmul_add_relu_kernel.ptx -o %t/dense.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/dense-tail.mlir -o %t/dense-tail.ptx
// RUN: FileCheck %s --check-prefix=TAIL < %t/dense-tail.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/dense-tail.ptx | FileCheck %s --check-prefix=MMA
// RUN: grep -c "cp.async.cg.shared.global" %t/dense-tail.ptx | FileCheck %s --check-prefix=ASYNC16
// RUN: grep -c "cp.async.ca.shared.global" %t/dense-tail.ptx | FileCheck %s --check-prefix=ASYNC4
// RUN: split-file %t/dense-tail.ptx %t/dense-tail
// RUN: %ptxas -arch=sm_90 -v %t/dense-tail/fused_matmul_add_relu_kernel.ptx -o %t/dense-tail.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/dense-ktail.mlir -o %t/dense-ktail.ptx
// RUN: FileCheck %s --check-prefix=KTAIL < %t/dense-ktail.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/dense-ktail.ptx | FileCheck %s --check-prefix=MMA
// RUN: grep -c "cp.async.cg.shared.global" %t/dense-ktail.ptx | FileCheck %s --check-prefix=ASYNC16
// RUN: grep -c "cp.async.ca.shared.global" %t/dense-ktail.ptx | FileCheck %s --check-prefix=ASYNC4
// RUN: split-file %t/dense-ktail.ptx %t/dense-ktail
// RUN: %ptxas -arch=sm_90 -v %t/dense-ktail/fused_matmul_add_kernel.ptx -o %t/dense-ktail.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/matmul-odd.mlir -o %t/matmul-odd.ptx
// RUN: FileCheck %s --check-prefix=ODD < %t/matmul-odd.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/matmul-odd.ptx | FileCheck %s --check-prefix=MMA
// RUN: grep -c "cp.async.cg.shared.global" %t/matmul-odd.ptx | FileCheck %s --check-prefix=ASYNC16
// RUN: split-file %t/matmul-odd.ptx %t/matmul-odd
// RUN: %ptxas -arch=sm_90 -v %t/matmul-odd/matmul_kernel.ptx -o %t/matmul-odd.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-ODD
// RUN: mlc-compile --target=cuda:sm_90 %t/matmul.mlir -o %t/matmul.ptx
// RUN: FileCheck %s --check-prefix=MATMUL < %t/matmul.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" %t/matmul.ptx | FileCheck %s --check-prefix=MMA-BF16
// RUN: split-file %t/matmul.ptx %t/matmul
// RUN: %ptxas -arch=sm_90 -v %t/matmul/matmul_kernel.ptx -o %t/matmul.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/batch.mlir -o %t/batch.ptx
// RUN: FileCheck %s --check-prefix=BATCH < %t/batch.ptx
// K = 64 is two steps: two stages, and LLVM unrolls the loop's two
// iterations.
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/batch.ptx | FileCheck %s --check-prefix=MMA2
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x4.shared.b16" %t/batch.ptx | FileCheck %s --check-prefix=LDMATRIX2
// RUN: split-file %t/batch.ptx %t/batch
// RUN: %ptxas -arch=sm_90 -v %t/batch/matmul_kernel.ptx -o %t/batch.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// A float32 model takes the same kernel through mixed-precision=float16
// (relax-to-mixed-precision): f16 operands, f32 accumulator.
// RUN: mlc-compile --target=cuda:sm_90 --pipeline-options=mixed-precision=float16 %t/dense32.mlir -o %t/dense32.ptx
// RUN: FileCheck %s --check-prefix=MIXED < %t/dense32.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/dense32.ptx | FileCheck %s --check-prefix=MMA
// RUN: mlc-compile --target=cuda:sm_90 %t/dense32.mlir -o %t/dense32-f32.ptx
// RUN: FileCheck %s --check-prefix=F32 < %t/dense32-f32.ptx
// RUN: mlc-compile --target=cuda:sm_90 --pipeline-options=allow-tf32=true %t/dense32.mlir -o %t/dense32-tf32.ptx
// RUN: FileCheck %s --check-prefix=TF32 < %t/dense32-tf32.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" %t/dense32-tf32.ptx | FileCheck %s --check-prefix=MMA
// RUN: split-file %t/dense32-tf32.ptx %t/dense32-tf32
// RUN: %ptxas -arch=sm_90 -v %t/dense32-tf32/fused_matmul_add_relu_kernel.ptx -o %t/dense32-tf32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// conv2d (NCHW, 3 x 3, padding 1) + bias + relu as an implicit GEMM: one
// kernel (the padding, the im2col matrix and the epilogue inlined), the same
// 32 mma.sync per K step. In the model's layout (conv-layout=) the im2col
// rows are gathered one f16 at a time, synchronously; in the default NHWC
// (HWIO weights) they run along the channels: 16-byte cp.async (zero-fill
// under the padding's and the row tail's masks), the weight's permuted
// columns 4-byte cp.async, 3 stages.
// RUN: mlc-compile --target=cuda:sm_90 --pipeline-options=conv-layout= %t/conv.mlir -o %t/conv.ptx
// RUN: FileCheck %s --check-prefix=CONV < %t/conv.ptx
// RUN: mlc-compile --target=cuda:sm_90 %t/conv.mlir -o %t/conv-nhwc.ptx
// RUN: FileCheck %s --check-prefix=NHWC < %t/conv-nhwc.ptx
// RUN: split-file %t/conv-nhwc.ptx %t/conv-nhwc
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/conv-nhwc/fused_conv2d_add_relu_kernel.ptx | FileCheck %s --check-prefix=MMA
// RUN: %ptxas -arch=sm_90 -v %t/conv-nhwc/fused_conv2d_add_relu_kernel.ptx -o %t/conv-nhwc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/attention.mlir -o %t/attention.ptx
// RUN: FileCheck %s --check-prefix=ATTN < %t/attention.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/attention.ptx | FileCheck %s --check-prefix=ATTN-MMA
// RUN: grep -c "shfl.sync.bfly" %t/attention.ptx | FileCheck %s --check-prefix=ATTN-SHFL
// RUN: grep -c "ldmatrix" %t/attention.ptx | FileCheck %s --check-prefix=ATTN-LDMATRIX
// RUN: %ptxas -arch=sm_90 -v %t/attention.ptx -o %t/attention.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/attention-causal.mlir -o %t/attention-causal.ptx
// RUN: FileCheck %s --check-prefix=CAUSAL < %t/attention-causal.ptx
// RUN: %ptxas -arch=sm_90 -v %t/attention-causal.ptx -o %t/attention-causal.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90 %t/attention-padded.mlir -o %t/attention-padded.ptx
// RUN: FileCheck %s --check-prefix=PADDED < %t/attention-padded.ptx
// RUN: %ptxas -arch=sm_90 -v %t/attention-padded.ptx -o %t/attention-padded.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t/conv.ptx | FileCheck %s --check-prefix=MMA
// RUN: split-file %t/conv.ptx %t/conv
// RUN: %ptxas -arch=sm_90 -v %t/conv/fused_conv2d_expand_dims_add_relu_kernel.ptx -o %t/conv.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Before sm_80 there is no mma.sync.m16n8k16: the SIMT rule.
// RUN: mlc-compile --target=cuda:sm_75 %t/dense.mlir -o %t/dense75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t/dense75.ptx

// DENSE: .entry fused_matmul_add_relu_kernel
// DENSE: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// DENSE: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// DENSE: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA: {{^}}32{{$}}
// LDMATRIX: {{^}}4{{$}}
// TRANS: {{^}}16{{$}}
// MMA2: {{^}}64{{$}}
// LDMATRIX2: {{^}}8{{$}}
// A 64 x 32 and B 32 x 64 f16 tile per step over 64 threads: A 4 x 16
// bytes, B 16 x 4 bytes per thread, in the prologue's two steps and the
// loop's one.
// ASYNC16: {{^}}12{{$}}
// ASYNC4: {{^}}48{{$}}
// Prologue: two groups, wait for all but one, barrier; the loop: the copies
// two steps ahead (src-size 0 past the end), the mmas, wait, barrier; after
// it the rest drained.
// STAGES:      cp.async.commit_group
// STAGES:      cp.async.commit_group
// STAGES-NEXT: cp.async.wait_group 1
// STAGES-NEXT: bar.sync 0
// STAGES:      cp.async.cg.shared.global {{.*}}, 16, %r{{[0-9]+}};
// STAGES:      cp.async.commit_group
// STAGES:      mma.sync
// STAGES:      cp.async.wait_group 1
// STAGES-NEXT: bar.sync 0
// STAGES:      cp.async.wait_group 0

// M = 200, N = 1000 (no tile divides them): the same kernel on the
// padded domain (pad_einsum), the same mmas and cp.async copies, whose
// source size is 0 (zero-fill) for the rows and column groups past the end.
// TAIL:     .entry fused_matmul_add_relu_kernel
// TAIL:     selp.b32 [[N:%r[0-9]+]], 16, 0, %p{{[0-9]+}};
// TAIL:     cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, [[N]];
// TAIL:     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// K = 1000 (no step of 32 divides it): padded to 1024 with zeros, the same
// kernel again; in the last step the copies of A's columns and B's rows
// past 1000 have a source size of 0.
// KTAIL:     .entry fused_matmul_add_kernel
// KTAIL:     selp.b32 [[N:%r[0-9]+]], 16, 0, %p{{[0-9]+}};
// KTAIL:     cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, {{%r[0-9]+}};
// KTAIL:     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// 1000 x 777 x 1023: rows of 777 and 1023 f16 are no whole 16-byte
// pieces, so A and B are padded (to 800 and 1024 columns) by kernels of
// their own; the GEMM copies the padded rows with 16-byte cp.async in 3
// stages (44,544 bytes of shared memory), as for divisible shapes.
// ODD-DAG: .entry matmul_kernel(
// ODD-DAG: .entry matmul_kernel_0(
// ODD-DAG: .entry matmul_kernel_1(
// PTXAS-ODD: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-ODD: 44544 bytes smem

// bf16, B stored K x N: the same fragments as f16 (ldmatrix moves 16-bit
// elements whatever their type); K = 128 is 4 steps of 32 mmas.
// MATMUL:     .entry matmul_kernel
// MATMUL:     cp.async.cg.shared.global
// MATMUL:     ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MATMUL:     ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// MATMUL:     mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MATMUL-NOT: mma.sync.aligned.m16n8k16.row.col.f32.f16
// MMA-BF16: {{^}}32{{$}}

// BATCH: .entry matmul_kernel
// BATCH: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// BATCH: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// PTXAS-NOT: bytes spill
// PTXAS:     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// MIXED-DAG: .entry astype_kernel
// MIXED-DAG: .entry fused_matmul_add_relu_kernel

// F32-NOT: mma.sync
// F32:     .entry fused_matmul_add_relu_kernel
// F32-NOT: mma.sync

// allow-tf32: f32 on tensor cores, K steps of 16 (2 x 2 x 8 m16n8k8 mmas
// per warp and slice, 32 per step); A through ldmatrix.x4 (4 f32 per
// 16-byte row), B (stored K x N after the weights' transpose) loaded per
// element; 16-byte cp.async copies for both.
// TF32:     .entry fused_matmul_add_relu_kernel
// TF32:     cp.async.cg.shared.global {{.*}}, 16, %r{{[0-9]+}};
// TF32:     ldmatrix.sync.aligned.m8n8.x4.shared.b16
// TF32:     ld.shared.b32
// TF32:     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32-NOT: cp.async.ca

// The im2col rows of the input are gathered (no 16 consecutive bytes in a
// 3 x 3 window of NCHW), so the copies stay synchronous.
// CONV:     .entry fused_conv2d_expand_dims_add_relu_kernel
// CONV-NOT: .entry
// CONV:     ld.global.b16
// CONV:     ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CONV:     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CONV-NOT: .entry

// In NHWC the image and the weight are permuted by kernels of their own
// (bound weights fold at compile time), then the convolution, then its
// result is permuted back.
// NHWC:     .entry permute_dims_kernel
// NHWC:     .entry fused_conv2d_add_relu_kernel
// NHWC-NOT: ld.global.b16
// NHWC:     cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// NHWC-NOT: ld.global.b16
// NHWC:     cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4
// NHWC-NOT: ld.global.b16
// NHWC:     cp.async.wait_group 1
// NHWC-NOT: ld.global.b16
// NHWC:     ldmatrix.sync.aligned.m8n8.x4.shared.b16
// NHWC-NOT: ld.global.b16
// NHWC:     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// NHWC-NOT: ld.global.b16
// NHWC:     .entry permute_dims_3_kernel

// SM75-NOT: mma.sync
// SM75:     mul.rn.f32
//--- dense.mlir
func.func @main(%x: tensor<512x256xf16>, %w: tensor<1024x256xf16>, %b: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %0 = relay.nn.dense %x, %w {out_dtype = f32} : (tensor<512x256xf16>, tensor<1024x256xf16>) -> tensor<512x1024xf32>
  %1 = relay.add %0, %b : (tensor<512x1024xf32>, tensor<1024xf32>) -> tensor<512x1024xf32>
  %2 = relay.nn.relu %1 : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %2 : tensor<512x1024xf32>
}

//--- dense-tail.mlir
func.func @main(%x: tensor<200x256xf16>, %w: tensor<1000x256xf16>, %b: tensor<1000xf32>) -> tensor<200x1000xf32> {
  %0 = relay.nn.dense %x, %w {out_dtype = f32} : (tensor<200x256xf16>, tensor<1000x256xf16>) -> tensor<200x1000xf32>
  %1 = relay.add %0, %b : (tensor<200x1000xf32>, tensor<1000xf32>) -> tensor<200x1000xf32>
  %2 = relay.nn.relu %1 : (tensor<200x1000xf32>) -> tensor<200x1000xf32>
  return %2 : tensor<200x1000xf32>
}

//--- dense-ktail.mlir
func.func @main(%x: tensor<256x1000xf16>, %w: tensor<512x1000xf16>, %b: tensor<512xf32>) -> tensor<256x512xf32> {
  %0 = relay.nn.dense %x, %w {out_dtype = f32} : (tensor<256x1000xf16>, tensor<512x1000xf16>) -> tensor<256x512xf32>
  %1 = relay.add %0, %b : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
}

//--- matmul-odd.mlir
func.func @main(%x: tensor<1000x777xf16>, %w: tensor<777x1023xf16>) -> tensor<1000x1023xf32> {
  %0 = relay.nn.matmul %x, %w {out_dtype = f32} : (tensor<1000x777xf16>, tensor<777x1023xf16>) -> tensor<1000x1023xf32>
  return %0 : tensor<1000x1023xf32>
}

//--- dense32.mlir
func.func @main(%x: tensor<512x256xf32>, %w: tensor<1024x256xf32>, %b: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<512x256xf32>, tensor<1024x256xf32>) -> tensor<512x1024xf32>
  %1 = relay.add %0, %b : (tensor<512x1024xf32>, tensor<1024xf32>) -> tensor<512x1024xf32>
  %2 = relay.nn.relu %1 : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %2 : tensor<512x1024xf32>
}

//--- matmul.mlir
func.func @main(%a: tensor<256x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<256x256xf32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<256x128xbf16>, tensor<128x256xbf16>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

//--- batch.mlir
func.func @main(%a: tensor<12x128x64xf16>, %b: tensor<12x128x64xf16>) -> tensor<12x128x128xf32> {
  %0 = relay.nn.batch_matmul %a, %b {out_dtype = f32, transpose_b = true} : (tensor<12x128x64xf16>, tensor<12x128x64xf16>) -> tensor<12x128x128xf32>
  return %0 : tensor<12x128x128xf32>
}
//--- conv.mlir
func.func @main(%x: tensor<2x64x14x14xf16>, %w: tensor<128x64x3x3xf16>, %b: tensor<128xf32>) -> tensor<2x128x14x14xf32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = f32, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x64x14x14xf16>, tensor<128x64x3x3xf16>) -> tensor<2x128x14x14xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<2x128x14x14xf32>, tensor<128xf32>) -> tensor<2x128x14x14xf32>
  %2 = relay.nn.relu %1 : (tensor<2x128x14x14xf32>) -> tensor<2x128x14x14xf32>
  return %2 : tensor<2x128x14x14xf32>
}

// relax.nn.attention (f16, BERT-base's 12 heads of 64, 128 tokens): one
// fused flash-attention kernel in FlashAttention-2's layout; per 32-key
// step 32 mma.sync for S = Q Kᵀ (4 K slices x 2 x 4 tiles) and 32 for
// P V (2 x 2 x 8), the loop not unrolled. S, P and O stay in registers
// (no local memory), P V takes P as its A operand without ldmatrix, the
// rows' maximum and sum combine their 4 lanes with 2 shuffles each (4 rows
// per thread: 16), exp is exp2 of an fma (no range reduction: no fma.rm),
// and K and V arrive by cp.async.
// ATTN:          .entry
// ATTN-NOT:      .entry
// ATTN-NOT:      .local
// ATTN-DAG:      ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ATTN-DAG:      ldmatrix.sync.aligned.m8n8.x2.shared.b16
// ATTN-DAG:      ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// ATTN-DAG:      ex2.approx
// ATTN-DAG:      cp.async.cg.shared.global
// ATTN-DAG:      shfl.sync.bfly.b32
// ATTN-NOT:      ld.local
// ATTN-NOT:      fma.rm
// ATTN-NOT:      .entry
// ATTN-MMA:      64
// ATTN-SHFL:     16
// ATTN-LDMATRIX: 40

// GPT-2's causal attention (12 heads of 64, 1024 tokens): each query tile's
// key loop ends at the diagonal (4 q + 4 tiles of 32 keys for query tile q
// of 128 rows; default-schedule-attention.mlir checks the bound), and the
// loop keeps its cp.async pipeline, 0 spills.
// CAUSAL:        .entry
// CAUSAL:        cp.async.cg.shared.global
// CAUSAL:        mma.sync.aligned.m16n8k16
// CAUSAL-NOT:    ld.local

// Stable Diffusion's cross-attention (heads of 40, 77 keys, 4096 latent
// pixels): the fused kernel with padded tiles (H to 48, H_v to 64, the keys
// to 96), K and V by zero-filling cp.async (a source size operand), still
// no local memory and 0 spills.
// PADDED:        .entry
// PADDED:        cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r
// PADDED:        mma.sync.aligned.m16n8k16
// PADDED-NOT:    .local
// PADDED-NOT:    .entry

//--- attention-padded.mlir
func.func @main(%q: tensor<2x4096x8x40xf16> {relax.name = "q"}, %k: tensor<2x77x8x40xf16> {relax.name = "k"}, %v: tensor<2x77x8x40xf16> {relax.name = "v"}) -> tensor<2x4096x8x40xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<2x4096x8x40xf16>, tensor<2x77x8x40xf16>, tensor<2x77x8x40xf16>) -> tensor<2x4096x8x40xf16>
  return %0 : tensor<2x4096x8x40xf16>
}

//--- attention-causal.mlir
func.func @main(%q: tensor<2x1024x12x64xf16> {relax.name = "q"}, %k: tensor<2x1024x12x64xf16> {relax.name = "k"}, %v: tensor<2x1024x12x64xf16> {relax.name = "v"}) -> tensor<2x1024x12x64xf16> {
  %0 = relax.nn.attention %q, %k, %v {causal_mask = "TopLeft"} : (tensor<2x1024x12x64xf16>, tensor<2x1024x12x64xf16>, tensor<2x1024x12x64xf16>) -> tensor<2x1024x12x64xf16>
  return %0 : tensor<2x1024x12x64xf16>
}

//--- attention.mlir
func.func @main(%q: tensor<2x128x12x64xf16> {relax.name = "q"}, %k: tensor<2x128x12x64xf16> {relax.name = "k"}, %v: tensor<2x128x12x64xf16> {relax.name = "v"}) -> tensor<2x128x12x64xf16> {
  %0 = relax.nn.attention %q, %k, %v : (tensor<2x128x12x64xf16>, tensor<2x128x12x64xf16>, tensor<2x128x12x64xf16>) -> tensor<2x128x12x64xf16>
  return %0 : tensor<2x128x12x64xf16>
}
