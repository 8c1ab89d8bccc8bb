// The Hopper Matmul rule's kernels in PTX (sm_90a): TMA loads of A (one
// 128 x 64 box) and B (two 64 x 64 boxes) per k-tile into 4 stages
// (cp.async.bulk.tensor, completion on mbarriers), m64n128k16 wgmma (two
// along M per 16-wide k slice, four slices per k-tile), the accumulator
// stored to shared memory for the write-back with the fused bias and relu.
// M = 200 and N = 4200 are no whole tiles: TMA fills past the end with
// zeros, the write-back is masked; A is batched (a 3-d tensor map) and B
// shared. Its 2 x 2 x 33 tiles of 128 x 128 fill the 132 SMs of an H100
// or H200 once; GEMMs whose 128 x 128 tiles would leave SMs idle take
// 128 x 64 ones (m64n64k16: the bound, bf16 and convolution cases below).
// ptxas: no spills, and the dynamic shared memory is not in its static
// count.
// REQUIRES: ptxas
// RUN: split-file %s %t
// RUN: mlc-compile --target=cuda:sm_90a %t/dense.mlir -o %t/dense.ptx
// RUN: FileCheck %s --check-prefix=DENSE < %t/dense.ptx
// RUN: split-file %t/dense.ptx %t/dense
// RUN: %ptxas -arch=sm_90a -v %t/dense/fused_matmul_add_relu_kernel.ptx -o %t/dense.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// The write-back moves 16 bytes per access (the accumulator from shared
// memory, the bias, the result), also under the mask of M = 200's last
// tile.
// RUN: mlc-compile --target=cuda:sm_90a %t/tail.mlir -o %t/tail.ptx
// RUN: FileCheck %s --check-prefix=TAIL < %t/tail.ptx
// bf16, and 4096^3: the k-tile loop stays a loop (LLVM unrolls K = 128's
// two k-tiles).
// RUN: mlc-compile --target=cuda:sm_90a %t/bf16.mlir -o %t/bf16.ptx
// RUN: FileCheck %s --check-prefix=BF16 < %t/bf16.ptx
// RUN: split-file %t/bf16.ptx %t/bf16
// RUN: %ptxas -arch=sm_90a -v %t/bf16/matmul_kernel.ptx -o %t/bf16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mlc-compile --target=cuda:sm_90a %t/big.mlir -o %t/big.ptx
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" %t/big.ptx | FileCheck %s --check-prefix=BIG
// RUN: split-file %t/big.ptx %t/big
// RUN: %ptxas -arch=sm_90a -v %t/big/matmul_kernel.ptx -o %t/big.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// A bound weight (a constant of the module) takes wgmma too: the host
// keeps the constant and has the runtime encode the tensor map of a device
// copy of it; the kernel reads it only through TMA, so the GPU binary has
// no copy of its own.
// RUN: mlc-compile --target=cuda:sm_90a %t/bound.mlir -o %t/bound.ptx
// RUN: FileCheck %s --check-prefix=BOUND < %t/bound.ptx
// RUN: mlc-compile --target=cuda:sm_90a %t/bound.mlir -o %t/bound.ll
// RUN: FileCheck %s --check-prefix=BOUND-HOST < %t/bound.ll
// A GEMM of one tile along M (100 rows) and 64 columns: a 128 x 64 tile
// (m64n64k16, one 64 x 64 box of B per stage); the accumulator, shrunk to
// 100 rows, is read in place in the tile, 16 bytes at a time.
// RUN: mlc-compile --target=cuda:sm_90a %t/narrow.mlir -o %t/narrow.ptx
// RUN: FileCheck %s --check-prefix=NARROW < %t/narrow.ptx
// RUN: split-file %t/narrow.ptx %t/narrow
// RUN: %ptxas -arch=sm_90a -v %t/narrow/matmul_kernel.ptx -o %t/narrow.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// A 1x1 convolution (NCHW in the model, NHWC in the pipeline) is a GEMM
// over the image's bytes (relax-convert-1x1-conv2d-to-matmul): wgmma, with
// the bias and relu in its epilogue. The other kernels are the model's
// layout changes (NCHW image and result, OIHW weight), the reshapes fused
// into them.
// RUN: mlc-compile --target=cuda:sm_90a %t/conv1x1.mlir -o %t/conv1x1.ptx
// RUN: FileCheck %s --check-prefix=CONV1X1 < %t/conv1x1.ptx
// RUN: split-file %t/conv1x1.ptx %t/conv1x1
// RUN: %ptxas -arch=sm_90a -v %t/conv1x1/fused_matmul_reshape_3_add_relu_kernel.ptx -o %t/conv1x1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// A 3x3 convolution (NCHW in the model, NHWC with an HWIO weight in the
// pipeline) is an implicit GEMM on wgmma: the threads gather the im2col
// rows of A with zero-filling 16-byte cp.async (8 per thread and k-tile,
// the padding and the row's bounds as the source size), wait for their
// group and fence it for the async proxy before the wgmma; B, the weight
// seen as 576 x 128, comes by TMA; the bias and relu are in the
// write-back. The other kernels are the layout changes.
// RUN: mlc-compile --target=cuda:sm_90a %t/conv3x3.mlir -o %t/conv3x3.ptx
// RUN: FileCheck %s --check-prefix=CONV3X3 < %t/conv3x3.ptx
// RUN: split-file %t/conv3x3.ptx %t/conv3x3
// RUN: %ptxas -arch=sm_90a -v %t/conv3x3/fused_conv2d_add_relu_kernel.ptx -o %t/conv3x3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// A bound 3x3 weight (a deployed model's): the host keeps it and has the
// runtime encode the tensor map of a device copy of its K x N view (rank
// 2: the collapse of HWIO); the kernel holds no copy.
// RUN: mlc-compile --target=cuda:sm_90a %t/conv-bound.mlir -o %t/conv-bound.ptx
// RUN: FileCheck %s --check-prefix=CONV-BOUND < %t/conv-bound.ptx
// RUN: mlc-compile --target=cuda:sm_90a %t/conv-bound.mlir -o %t/conv-bound.ll
// RUN: FileCheck %s --check-prefix=CONV-BOUND-HOST < %t/conv-bound.ll
// sm_90 (no "a") keeps the mma.sync kernel.
// RUN: mlc-compile --target=cuda:sm_90 %t/big.mlir -o %t/big90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t/big90.ptx

// DENSE:     .target sm_90a
// DENSE:     .entry fused_matmul_add_relu_kernel(
// DENSE:     .maxntid 128, 1, 1
// DENSE:     mbarrier.init.shared.b64
// DENSE:     prefetch.tensormap
// DENSE:     cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// DENSE:     cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// DENSE:     cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// DENSE:     mbarrier.try_wait.parity.shared.b64
// DENSE:     wgmma.fence.sync.aligned
// DENSE-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// DENSE:     wgmma.commit_group.sync.aligned
// DENSE:     wgmma.wait_group.sync.aligned 1
// DENSE:     wgmma.wait_group.sync.aligned 0
// DENSE:     max.NaN.f32

// BF16:     .entry matmul_kernel(
// BF16:     cp.async.bulk.tensor.2d
// BF16-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// BF16-NOT: mma.sync

// TAIL:     wgmma.wait_group.sync.aligned 0
// TAIL-DAG: ld.shared.v4.b32
// TAIL-DAG: ld.global.v4.b32
// TAIL-DAG: st.global.v4.b32
// TAIL-NOT: {{ld|st}}.global.b32

// BOUND-NOT: __relax_constant
// BOUND:     cp.async.bulk.tensor.3d
// BOUND:     cp.async.bulk.tensor.2d
// BOUND:     wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// BOUND-NOT: mma.sync.aligned
// BOUND-NOT: __relax_constant

// BOUND-HOST: @__relax_constant = private constant [256 x [128 x half]]
// BOUND-HOST: call ptr @mlc_cuda_tensor_map_encode_tiled_f16(i64 3,
// BOUND-HOST: call ptr @mlc_cuda_tensor_map_encode_tiled_constant_f16(i64 2,

// NARROW:     .entry matmul_kernel(
// NARROW:     cp.async.bulk.tensor.2d
// NARROW-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// NARROW:     wgmma.wait_group.sync.aligned 0
// NARROW-DAG: ld.shared.v4.b32
// NARROW-DAG: st.global.v4.b32
// NARROW-NOT: {{ld.shared|st.global}}.{{b|f}}32

// CONV1X1-NOT: .entry {{.*}}conv2d
// CONV1X1:     .entry fused_permute_dims_reshape_kernel(
// CONV1X1:     .entry fused_permute_dims_0_reshape_1_kernel(
// CONV1X1:     .entry fused_matmul_reshape_3_add_relu_kernel(
// CONV1X1:     cp.async.bulk.tensor.2d
// CONV1X1:     wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CONV1X1:     max.NaN.f32
// CONV1X1:     .entry fused_reshape_4_permute_dims_5_kernel(
// CONV1X1-NOT: .entry

// CONV3X3:     .entry fused_conv2d_add_relu_kernel(
// CONV3X3:     cp.async.bulk.tensor.2d
// CONV3X3-COUNT-8: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CONV3X3:     cp.async.commit_group
// CONV3X3:     cp.async.wait_group 1;
// CONV3X3-NEXT: fence.proxy.async.shared::cta;
// CONV3X3-NEXT: bar.sync 0;
// CONV3X3:     mbarrier.try_wait.parity
// CONV3X3-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CONV3X3:     max.NaN.f32
// CONV3X3:     .entry

// CONV-BOUND-NOT: __relax_constant
// CONV-BOUND:     cp.async.cg.shared.global
// CONV-BOUND:     wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CONV-BOUND-NOT: __relax_constant

// CONV-BOUND-HOST: call ptr @mlc_cuda_tensor_map_encode_tiled_constant_f16(i64 2,

// BIG: {{^}}8{{$}}

// SM90-NOT: wgmma
// SM90:     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// PTXAS-NOT: bytes spill
// PTXAS:     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

//--- dense.mlir
func.func @main(%a: tensor<2x200x256xf16>, %b: tensor<256x4200xf16>, %bias: tensor<4200xf32>) -> tensor<2x200x4200xf32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<2x200x256xf16>, tensor<256x4200xf16>) -> tensor<2x200x4200xf32>
  %1 = relay.add %0, %bias : (tensor<2x200x4200xf32>, tensor<4200xf32>) -> tensor<2x200x4200xf32>
  %2 = relay.nn.relu %1 : (tensor<2x200x4200xf32>) -> tensor<2x200x4200xf32>
  return %2 : tensor<2x200x4200xf32>
}

//--- tail.mlir
func.func @main(%a: tensor<2x200x256xf16>, %b: tensor<256x1024xf16>, %bias: tensor<1024xf32>) -> tensor<2x200x1024xf32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<2x200x256xf16>, tensor<256x1024xf16>) -> tensor<2x200x1024xf32>
  %1 = relay.add %0, %bias : (tensor<2x200x1024xf32>, tensor<1024xf32>) -> tensor<2x200x1024xf32>
  %2 = relay.nn.relu %1 : (tensor<2x200x1024xf32>) -> tensor<2x200x1024xf32>
  return %2 : tensor<2x200x1024xf32>
}

//--- bf16.mlir
func.func @main(%a: tensor<512x128xbf16>, %b: tensor<128x4224xbf16>) -> tensor<512x4224xf32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<512x128xbf16>, tensor<128x4224xbf16>) -> tensor<512x4224xf32>
  return %0 : tensor<512x4224xf32>
}

//--- big.mlir
func.func @main(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<4096x4096xf32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

//--- bound.mlir
func.func @main(%a: tensor<2x200x256xf16>) -> tensor<2x200x128xf32> {
  %b = relay.constant dense<0.5> : tensor<256x128xf16>
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<2x200x256xf16>, tensor<256x128xf16>) -> tensor<2x200x128xf32>
  return %0 : tensor<2x200x128xf32>
}

//--- narrow.mlir
func.func @main(%a: tensor<100x256xf16>, %b: tensor<256x64xf16>) -> tensor<100x64xf32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = f32} : (tensor<100x256xf16>, tensor<256x64xf16>) -> tensor<100x64xf32>
  return %0 : tensor<100x64xf32>
}

//--- conv1x1.mlir
func.func @main(%x: tensor<2x64x28x28xf16>, %w: tensor<256x64x1x1xf16>, %bias: tensor<256x1x1xf32>) -> tensor<2x256x28x28xf32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = f32} : (tensor<2x64x28x28xf16>, tensor<256x64x1x1xf16>) -> tensor<2x256x28x28xf32>
  %1 = relay.add %0, %bias : (tensor<2x256x28x28xf32>, tensor<256x1x1xf32>) -> tensor<2x256x28x28xf32>
  %2 = relay.nn.relu %1 : (tensor<2x256x28x28xf32>) -> tensor<2x256x28x28xf32>
  return %2 : tensor<2x256x28x28xf32>
}

//--- conv3x3.mlir
func.func @main(%x: tensor<2x64x28x28xf16>, %w: tensor<128x64x3x3xf16>, %bias: tensor<128x1x1xf32>) -> tensor<2x128x28x28xf32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = f32, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x64x28x28xf16>, tensor<128x64x3x3xf16>) -> tensor<2x128x28x28xf32>
  %1 = relay.add %0, %bias : (tensor<2x128x28x28xf32>, tensor<128x1x1xf32>) -> tensor<2x128x28x28xf32>
  %2 = relay.nn.relu %1 : (tensor<2x128x28x28xf32>) -> tensor<2x128x28x28xf32>
  return %2 : tensor<2x128x28x28xf32>
}

//--- conv-bound.mlir
func.func @main(%x: tensor<2x14x14x64xf16>) -> tensor<2x14x14x64xf32> {
  %w = relay.constant dense<0.5> : tensor<3x3x64x64xf16>
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x14x14x64xf16>, tensor<3x3x64x64xf16>) -> tensor<2x14x14x64xf32>
  return %0 : tensor<2x14x14x64xf32>
}
