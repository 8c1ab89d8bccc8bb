// A batch-1 3x3 convolution on sm_90a (implicit GEMM on wgmma) keeps its
// batch norm, relu and float16 cast in the write-back: one kernel. The
// epilogue's kernel used to read the convolution's batch index as the
// constant 0 (a size-1 dimension, legalized as a broadcast), which
// reverse_compute_inline does not take for its iteration variable, so the
// epilogue ran as a second kernel over a float32 copy of the result
// (ResNet-50 at batch 1: 19 more launches).
// REQUIRES: ptxas
// RUN: mlc-compile --target=cuda:sm_90a %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK:     .entry fused_conv2d_multiply_add_relu_astype_kernel(
// CHECK:       wgmma.mma_async
// CHECK:       cvt.rn.f16x2.f32
// CHECK:       ret;
// CHECK-NOT: .entry
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @main(%x: tensor<1x14x14x256xf16>, %w: tensor<3x3x256x256xf16>, %s: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<1x14x14x256xf16> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32} : (tensor<1x14x14x256xf16>, tensor<3x3x256x256xf16>) -> tensor<1x14x14x256xf32>
  %1 = relay.multiply %0, %s : (tensor<1x14x14x256xf32>, tensor<256xf32>) -> tensor<1x14x14x256xf32>
  %2 = relay.add %1, %b : (tensor<1x14x14x256xf32>, tensor<256xf32>) -> tensor<1x14x14x256xf32>
  %3 = relay.nn.relu %2 : (tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %4 = relay.cast %3 {dtype = f16} : (tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf16>
  return %4 : tensor<1x14x14x256xf16>
}
