// Convolutions on sm_90a keep their batch norm, relu and float16 cast in
// the GEMM's write-back (ptxas: no spills).
// REQUIRES: ptxas
// RUN: split-file %s %t
// RUN: mlc-compile --target=cuda:sm_90a %t/batch1.mlir -o %t/batch1.ptx
// RUN: FileCheck %s --check-prefix=BATCH1 < %t/batch1.ptx
// RUN: %ptxas -arch=sm_90a -v %t/batch1.ptx -o %t/batch1.cubin 2> %t/ptxas.log
// RUN: mlc-compile --target=cuda:sm_90a %t/stem.mlir -o %t/stem.ptx
// RUN: FileCheck %s --check-prefix=STEM < %t/stem.ptx
// RUN: split-file %t/stem.ptx %t/stem
// RUN: for f in %t/stem/*.ptx; do %ptxas -arch=sm_90a -v $f -o %t/k.cubin || exit 1; done 2>> %t/ptxas.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t/ptxas.log
// RUN: not grep -E "[1-9][0-9]* bytes (spill|stack)" %t/ptxas.log

// A batch-1 3x3 convolution (implicit GEMM on wgmma): one kernel. The
// epilogue's kernel used to read the convolution's batch index as the
// constant 0 (a size-1 dimension, legalized as a broadcast), which
// reverse_compute_inline does not take for its iteration variable, so the
// epilogue ran as a second kernel over a float32 copy of the result
// (ResNet-50 at batch 1: 19 more launches).
// BATCH1:     .entry fused_conv2d_multiply_add_relu_astype_kernel(
// BATCH1:       wgmma.mma_async
// BATCH1:       cvt.rn.f16x2.f32
// BATCH1:       ret;
// BATCH1-NOT: .entry

// ResNet's stem (3 channels, K = 147 padded to 160: mma.sync): the
// zero-padded im2col copy that the rule leaves before the GEMM is no
// longer taken for its epilogue, which joins the GEMM's write-back: two
// kernels, not three, and no float32 copy of the result.
// STEM:     .entry fused_conv2d_multiply_add_relu_astype_kernel(
// STEM-NOT:   mma.sync
// STEM:       ret;
// STEM:     .entry fused_conv2d_multiply_add_relu_astype_kernel_0(
// STEM:       mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// STEM:       cvt.rn.f16x2.f32
// STEM:       ret;
// STEM-NOT: .entry

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

//--- batch1.mlir
func.func @main(%x: tensor<1x14x14x256xf16>, %w: tensor<3x3x256x256xf16>, %s: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<1x14x14x256xf16> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32} : (tensor<1x14x14x256xf16>, tensor<3x3x256x256xf16>) -> tensor<1x14x14x256xf32>
  %1 = relay.multiply %0, %s : (tensor<1x14x14x256xf32>, tensor<256xf32>) -> tensor<1x14x14x256xf32>
  %2 = relay.add %1, %b : (tensor<1x14x14x256xf32>, tensor<256xf32>) -> tensor<1x14x14x256xf32>
  %3 = relay.nn.relu %2 : (tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %4 = relay.cast %3 {dtype = f16} : (tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf16>
  return %4 : tensor<1x14x14x256xf16>
}

//--- stem.mlir
func.func @main(%x: tensor<2x32x32x3xf16>, %w: tensor<7x7x3x64xf16>, %s: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<2x16x16x64xf16> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32} : (tensor<2x32x32x3xf16>, tensor<7x7x3x64xf16>) -> tensor<2x16x16x64xf32>
  %1 = relay.multiply %0, %s : (tensor<2x16x16x64xf32>, tensor<64xf32>) -> tensor<2x16x16x64xf32>
  %2 = relay.add %1, %b : (tensor<2x16x16x64xf32>, tensor<64xf32>) -> tensor<2x16x16x64xf32>
  %3 = relay.nn.relu %2 : (tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  %4 = relay.cast %3 {dtype = f16} : (tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf16>
  return %4 : tensor<2x16x16x64xf16>
}
