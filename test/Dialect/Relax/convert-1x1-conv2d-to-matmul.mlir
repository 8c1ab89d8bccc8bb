// RUN: mlc-opt %s -split-input-file -relax-convert-1x1-conv2d-to-matmul | FileCheck %s

// A 1x1 NHWC convolution is the matmul of the image as (N*H*W, C) and the
// filter as (C, O), out_dtype kept; its batch norm (a per-channel scale,
// a shift of shape 1x1x1xO), the residual add (the result's shape,
// reshaped) and the relu are applied to the matrix; one reshape back to
// NHWC follows them.
// CHECK-LABEL: func.func @bottleneck_tail
// CHECK-SAME:      (%[[X:.*]]: tensor<2x7x7x64xf16>, %[[W:.*]]: tensor<1x1x64x256xf16>, %[[S:.*]]: tensor<256xf32>, %[[B:.*]]: tensor<1x1x1x256xf32>, %[[R:.*]]: tensor<2x7x7x256xf32>)
// CHECK-DAG:     %[[A:.*]] = relax.reshape %[[X]] {shape = array<i64: 98, 64>}
// CHECK-DAG:     %[[F:.*]] = relax.reshape %[[W]] {shape = array<i64: 64, 256>}
// CHECK:         %[[M:.*]] = relax.matmul %[[A]], %[[F]] {out_dtype = f32} : (tensor<98x64xf16>, tensor<64x256xf16>) -> tensor<98x256xf32>
// CHECK:         %[[M1:.*]] = relax.multiply %[[M]], %[[S]] : (tensor<98x256xf32>, tensor<256xf32>) -> tensor<98x256xf32>
// CHECK:         %[[B1:.*]] = relax.reshape %[[B]] {shape = array<i64: 256>}
// CHECK:         %[[M2:.*]] = relax.add %[[M1]], %[[B1]] : (tensor<98x256xf32>, tensor<256xf32>) -> tensor<98x256xf32>
// CHECK:         %[[R1:.*]] = relax.reshape %[[R]] {shape = array<i64: 98, 256>}
// CHECK:         %[[M3:.*]] = relax.add %[[R1]], %[[M2]] : (tensor<98x256xf32>, tensor<98x256xf32>) -> tensor<98x256xf32>
// CHECK:         %[[M4:.*]] = relax.nn.relu %[[M3]] : (tensor<98x256xf32>) -> tensor<98x256xf32>
// CHECK:         %[[Y:.*]] = relax.reshape %[[M4]] {shape = array<i64: 2, 7, 7, 256>}
// CHECK-NOT:     relax.nn.conv2d
// CHECK:         return %[[Y]]
func.func @bottleneck_tail(%x: tensor<2x7x7x64xf16>, %w: tensor<1x1x64x256xf16>, %scale: tensor<256xf32>, %shift: tensor<1x1x1x256xf32>, %res: tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32> {
  %0 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32} : (tensor<2x7x7x64xf16>, tensor<1x1x64x256xf16>) -> tensor<2x7x7x256xf32>
  %1 = relax.multiply %0, %scale : (tensor<2x7x7x256xf32>, tensor<256xf32>) -> tensor<2x7x7x256xf32>
  %2 = relax.add %1, %shift : (tensor<2x7x7x256xf32>, tensor<1x1x1x256xf32>) -> tensor<2x7x7x256xf32>
  %3 = relax.add %res, %2 : (tensor<2x7x7x256xf32>, tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  %4 = relax.nn.relu %3 : (tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  return %4 : tensor<2x7x7x256xf32>
}

// -----

// Chained 1x1 convolutions stay matrices: the second reads the first's
// relu directly, and the reshape between them is gone.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[M:.*]] = relax.matmul %{{.*}}, %{{.*}} : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
// CHECK:         %[[R:.*]] = relax.nn.relu %[[M]] : (tensor<32x8xf32>) -> tensor<32x8xf32>
// CHECK:         %[[M2:.*]] = relax.matmul %[[R]], %{{.*}} : (tensor<32x8xf32>, tensor<8x4xf32>) -> tensor<32x4xf32>
// CHECK:         %[[Y:.*]] = relax.reshape %[[M2]] {shape = array<i64: 2, 4, 4, 4>}
// CHECK:         return %[[Y]]
// CHECK-NOT:     relax.reshape
func.func @chain(%x: tensor<2x4x4x16xf32>, %w1: tensor<1x1x16x8xf32>, %w2: tensor<1x1x8x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = relax.nn.conv2d %x, %w1 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<2x4x4x16xf32>, tensor<1x1x16x8xf32>) -> tensor<2x4x4x8xf32>
  %1 = relax.nn.relu %0 : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  %2 = relax.nn.conv2d %1, %w2 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<2x4x4x8xf32>, tensor<1x1x8x4xf32>) -> tensor<2x4x4x4xf32>
  return %2 : tensor<2x4x4x4xf32>
}

// -----

// The reshape back comes before an op whose other operand broadcasts along
// more than the channels, and before a second use.
// CHECK-LABEL: func.func @stops
// CHECK:         %[[M:.*]] = relax.matmul
// CHECK:         %[[Y:.*]] = relax.reshape %[[M]] {shape = array<i64: 1, 4, 4, 8>}
// CHECK:         relax.add %[[Y]], %{{.*}} : (tensor<1x4x4x8xf32>, tensor<1x4x1x8xf32>)
// CHECK:         %[[M2:.*]] = relax.matmul
// CHECK:         %[[Y2:.*]] = relax.reshape %[[M2]] {shape = array<i64: 1, 4, 4, 8>}
// CHECK:         relax.nn.relu %[[Y2]]
// CHECK:         relax.negative %[[Y2]]
func.func @stops(%x: tensor<1x4x4x16xf32>, %w: tensor<1x1x16x8xf32>, %b: tensor<1x4x1x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %0 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x16xf32>, tensor<1x1x16x8xf32>) -> tensor<1x4x4x8xf32>
  %1 = relax.add %0, %b : (tensor<1x4x4x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x4x8xf32>
  %2 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x16xf32>, tensor<1x1x16x8xf32>) -> tensor<1x4x4x8xf32>
  %3 = relax.nn.relu %2 : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %4 = relax.negative %2 : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %1, %3, %4 : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}

// -----

// Not GEMMs over the same bytes: a 3x3 filter, stride 2, padding, NCHW,
// groups.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     relax.matmul
// CHECK-COUNT-5: relax.nn.conv2d
// CHECK-NOT:     relax.matmul
func.func @kept(%x: tensor<1x4x4x8xf32>, %w3: tensor<3x3x8x8xf32>, %w1: tensor<1x1x8x8xf32>, %xc: tensor<1x8x4x4xf32>, %wc: tensor<8x8x1x1xf32>, %wg: tensor<1x1x4x8xf32>) -> (tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>, tensor<1x6x6x8xf32>, tensor<1x8x4x4xf32>, tensor<1x4x4x8xf32>) {
  %0 = relax.nn.conv2d %x, %w3 {data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x2x2x8xf32>
  %1 = relax.nn.conv2d %x, %w1 {data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: 2, 2>} : (tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x2x2x8xf32>
  %2 = relax.nn.conv2d %x, %w1 {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x6x6x8xf32>
  %3 = relax.nn.conv2d %xc, %wc : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %4 = relax.nn.conv2d %x, %wg {data_layout = "NHWC", kernel_layout = "HWIO", groups = 2} : (tensor<1x4x4x8xf32>, tensor<1x1x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %0, %1, %2, %3, %4 : tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>, tensor<1x6x6x8xf32>, tensor<1x8x4x4xf32>, tensor<1x4x4x8xf32>
}

// -----

// A relu with a second use (the residual path) keeps its reshape back to
// NHWC; its cast to float16 for the next 1x1 convolution (mixed
// precision's) is applied to the matrix instead, so that no reshape pair
// surrounds the cast and the cast can join the GEMM's kernel.
// CHECK-LABEL: func.func @cast_between
// CHECK:         %[[M:.*]] = relax.matmul %{{.*}}, %{{.*}} {out_dtype = f32} : (tensor<32x16xf16>, tensor<16x8xf16>) -> tensor<32x8xf32>
// CHECK:         %[[R:.*]] = relax.nn.relu %[[M]] : (tensor<32x8xf32>) -> tensor<32x8xf32>
// CHECK:         %[[Y:.*]] = relax.reshape %[[R]] {shape = array<i64: 2, 4, 4, 8>}
// CHECK:         %[[H:.*]] = relax.astype %[[R]] {dtype = f16} : (tensor<32x8xf32>) -> tensor<32x8xf16>
// CHECK:         %[[M2:.*]] = relax.matmul %[[H]], %{{.*}} {out_dtype = f32} : (tensor<32x8xf16>, tensor<8x4xf16>) -> tensor<32x4xf32>
// CHECK:         %[[Y2:.*]] = relax.reshape %[[M2]] {shape = array<i64: 2, 4, 4, 4>}
// CHECK:         return %[[Y]], %[[Y2]]
func.func @cast_between(%x: tensor<2x4x4x16xf16>, %w1: tensor<1x1x16x8xf16>, %w2: tensor<1x1x8x4xf16>) -> (tensor<2x4x4x8xf32>, tensor<2x4x4x4xf32>) {
  %0 = relax.nn.conv2d %x, %w1 {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32} : (tensor<2x4x4x16xf16>, tensor<1x1x16x8xf16>) -> tensor<2x4x4x8xf32>
  %1 = relax.nn.relu %0 : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  %2 = relax.astype %1 {dtype = f16} : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf16>
  %3 = relax.nn.conv2d %2, %w2 {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f32} : (tensor<2x4x4x8xf16>, tensor<1x1x8x4xf16>) -> tensor<2x4x4x4xf32>
  return %1, %3 : tensor<2x4x4x8xf32>, tensor<2x4x4x4xf32>
}
