// RUN: mlc-opt %s -split-input-file | FileCheck %s

// Result types of relay.nn.* ops follow Relay's type relations. Every op
// implements InferTypeOpInterface and the verifier rejects a result type that
// differs from the inferred one, so each op below only parses if its written
// result type is the one Relay infers.

// CHECK-LABEL: func.func @conv2d_nchw_padding
func.func @conv2d_nchw_padding(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // One value pads all four sides.
  // CHECK: -> tensor<1x16x32x32xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  // Two values are (top/bottom, left/right).
  // CHECK: -> tensor<1x16x32x34xf32>
  %1 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 2>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x34xf32>
  // Four values are (top, left, bottom, right): H pads 1 + 0, W pads 2 + 3.
  // CHECK: -> tensor<1x16x31x35xf32>
  %2 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 2, 0, 3>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x31x35xf32>
  // No padding (default [0, 0]).
  // CHECK: -> tensor<1x16x30x30xf32>
  %3 = relay.nn.conv2d %x, %w
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// CHECK-LABEL: func.func @conv2d_strides_dilation
func.func @conv2d_strides_dilation(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // (32 + 2 - 3) / 2 + 1 = 16
  // CHECK: -> tensor<1x16x16x16xf32>
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x16x16xf32>
  // H: (32 - 3) / 2 + 1 = 15, W: (32 - 3) / 3 + 1 = 10
  // CHECK: -> tensor<1x16x15x10xf32>
  %1 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 3>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x15x10xf32>
  // Dilated kernel height (3 - 1) * 2 + 1 = 5: 32 - 5 + 1 = 28.
  // CHECK: -> tensor<1x16x28x30xf32>
  %2 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 1>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x28x30xf32>
  // Strides, dilation and padding together: (32 + 4 - 5) / 2 + 1 = 16.
  // CHECK: -> tensor<1x16x16x16xf32>
  %3 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>,
                               padding = array<i64: 2, 2, 2, 2>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x16x16xf32>
  return
}

// CHECK-LABEL: func.func @conv2d_groups
func.func @conv2d_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>,
                         %xd: tensor<1x8x8x8xf32>, %wd: tensor<8x1x3x3xf32>,
                         %wm: tensor<16x1x3x3xf32>) {
  // Grouped: 4 input channels in 2 groups of 2.
  // CHECK: -> tensor<1x6x6x6xf32>
  %0 = relay.nn.conv2d %x, %w {groups = 2 : i64}
      : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  // Depthwise: groups = channels.
  // CHECK: -> tensor<1x8x8x8xf32>
  %1 = relay.nn.conv2d %xd, %wd {groups = 8 : i64, channels = 8 : i64,
                                 kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  // Depthwise with channel multiplier 2.
  // CHECK: -> tensor<1x16x6x6xf32>
  %2 = relay.nn.conv2d %xd, %wm {groups = 8 : i64}
      : (tensor<1x8x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// CHECK-LABEL: func.func @conv2d_nhwc
func.func @conv2d_nhwc(%x: tensor<1x32x30x3xf32>, %w: tensor<3x5x3x16xf32>,
                       %xd: tensor<1x16x16x32xf32>, %wd: tensor<3x3x32x1xf32>,
                       %wm: tensor<3x3x32x2xf32>) {
  // HWIO weight with a 3x5 kernel.
  // CHECK: -> tensor<1x30x26x16xf32>
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
      : (tensor<1x32x30x3xf32>, tensor<3x5x3x16xf32>) -> tensor<1x30x26x16xf32>
  // CHECK: -> tensor<1x16x15x16xf32>
  %1 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO",
                               strides = array<i64: 2, 2>, padding = array<i64: 1, 2>}
      : (tensor<1x32x30x3xf32>, tensor<3x5x3x16xf32>) -> tensor<1x16x15x16xf32>
  // Depthwise NHWC with TVM's HWOI kernel layout [KH, KW, C, multiplier]:
  // with channels given, a multiplier of 2 gives 2 * C output channels.
  // CHECK: -> tensor<1x14x14x64xf32>
  %m = relay.nn.conv2d %xd, %wm {data_layout = "NHWC", kernel_layout = "HWOI", groups = 32 : i64,
                                 channels = 64 : i64, kernel_size = array<i64: 3, 3>}
      : (tensor<1x16x16x32xf32>, tensor<3x3x32x2xf32>) -> tensor<1x14x14x64xf32>
  // Depthwise NHWC with TVM's HWOI kernel layout.
  // CHECK: -> tensor<1x16x16x32xf32>
  %2 = relay.nn.conv2d %xd, %wd {data_layout = "NHWC", kernel_layout = "HWOI", groups = 32 : i64,
                                 padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x32xf32>, tensor<3x3x32x1xf32>) -> tensor<1x16x16x32xf32>
  return
}

// CHECK-LABEL: func.func @conv2d_out_layout_dtype_dynamic
func.func @conv2d_out_layout_dtype_dynamic(%x: tensor<1x3x32x32xi8>, %w: tensor<16x3x3x3xi8>,
                                           %xq: tensor<?x3x?x32xf32>, %wf: tensor<16x3x3x3xf32>,
                                           %wq: tensor<?x3x?x?xf32>) {
  // out_layout differs from data_layout.
  // CHECK: -> tensor<1x30x30x16xi8>
  %0 = relay.nn.conv2d %x, %w {out_layout = "NHWC"}
      : (tensor<1x3x32x32xi8>, tensor<16x3x3x3xi8>) -> tensor<1x30x30x16xi8>
  // out_dtype sets the result element type.
  // CHECK: -> tensor<1x16x30x30xi32>
  %1 = relay.nn.conv2d %x, %w {out_dtype = i32}
      : (tensor<1x3x32x32xi8>, tensor<16x3x3x3xi8>) -> tensor<1x16x30x30xi32>
  // Unknown batch and height stay unknown.
  // CHECK: -> tensor<?x16x?x30xf32>
  %2 = relay.nn.conv2d %xq, %wf
      : (tensor<?x3x?x32xf32>, tensor<16x3x3x3xf32>) -> tensor<?x16x?x30xf32>
  // channels and kernel_size fill in unknown weight dimensions.
  // CHECK: -> tensor<?x16x?x30xf32>
  %3 = relay.nn.conv2d %xq, %wq {channels = 16 : i64, kernel_size = array<i64: 3, 3>}
      : (tensor<?x3x?x32xf32>, tensor<?x3x?x?xf32>) -> tensor<?x16x?x30xf32>
  // Without them the output channels are unknown.
  // CHECK: -> tensor<?x?x?x?xf32>
  %4 = relay.nn.conv2d %xq, %wq
      : (tensor<?x3x?x32xf32>, tensor<?x3x?x?xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @max_pool2d
func.func @max_pool2d(%x: tensor<1x64x112x112xf32>, %y: tensor<1x3x7x7xf32>) {
  // (112 + 2 - 3) / 2 + 1 = 56
  // CHECK: -> tensor<1x64x56x56xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                               padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // floor((7 - 2) / 2) + 1 = 3
  // CHECK: -> tensor<1x3x3x3xf32>
  %1 = relay.nn.max_pool2d %y {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  // ceil((7 - 2) / 2) + 1 = 4
  // CHECK: -> tensor<1x3x4x4xf32>
  %2 = relay.nn.max_pool2d %y {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                               ceil_mode = true}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  // Dilated window (3 - 1) * 2 + 1 = 5: 7 - 5 + 1 = 3.
  // CHECK: -> tensor<1x3x3x7xf32>
  %3 = relay.nn.max_pool2d %y {pool_size = array<i64: 3, 1>, dilation = array<i64: 2, 2>}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x7xf32>
  // The default pool stride is 1.
  // CHECK: -> tensor<1x3x5x5xf32>
  %4 = relay.nn.max_pool2d %y {pool_size = array<i64: 3, 3>}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x5x5xf32>
  return
}

// CHECK-LABEL: func.func @avg_pool2d_padding
func.func @avg_pool2d_padding(%y: tensor<1x3x7x7xf32>) {
  // One value: all sides.
  // CHECK: -> tensor<1x3x7x7xf32>
  %0 = relay.nn.avg_pool2d %y {pool_size = array<i64: 3, 3>, padding = array<i64: 1>}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  // Two values: (top/bottom, left/right).
  // CHECK: -> tensor<1x3x7x5xf32>
  %1 = relay.nn.avg_pool2d %y {pool_size = array<i64: 3, 3>, padding = array<i64: 1, 0>}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x7x5xf32>
  // Four values: (top, left, bottom, right).
  // CHECK: -> tensor<1x3x7x6xf32>
  %2 = relay.nn.avg_pool2d %y {pool_size = array<i64: 3, 3>, padding = array<i64: 0, 1, 2, 0>,
                               count_include_pad = true}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x7x6xf32>
  // ceil_mode with padding: (7 + 2 - 3 + 1) / 2 + 1 = 4.
  // CHECK: -> tensor<1x3x4x4xf32>
  %3 = relay.nn.avg_pool2d %y {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                               padding = array<i64: 1, 1>, ceil_mode = true}
      : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  return
}

// CHECK-LABEL: func.func @pool2d_nhwc_dynamic
func.func @pool2d_nhwc_dynamic(%x: tensor<1x9x7x3xf32>, %d: tensor<?x3x?x8xf32>) {
  // CHECK: -> tensor<1x4x3x3xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                               layout = "NHWC"}
      : (tensor<1x9x7x3xf32>) -> tensor<1x4x3x3xf32>
  // CHECK: -> tensor<1x5x4x3xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                               layout = "NHWC", out_layout = "NHWC", ceil_mode = true}
      : (tensor<1x9x7x3xf32>) -> tensor<1x5x4x3xf32>
  // An unknown height stays unknown.
  // CHECK: -> tensor<?x3x?x4xf32>
  %2 = relay.nn.max_pool2d %d {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
  return
}

// CHECK-LABEL: func.func @global_and_adaptive_pool2d
func.func @global_and_adaptive_pool2d(%x: tensor<2x512x7x9xf32>, %y: tensor<2x7x9x512xf16>) {
  // CHECK: -> tensor<2x512x1x1xf32>
  %0 = relay.nn.global_avg_pool2d %x : (tensor<2x512x7x9xf32>) -> tensor<2x512x1x1xf32>
  // CHECK: -> tensor<2x1x1x512xf16>
  %1 = relay.nn.global_avg_pool2d %y {layout = "NHWC"}
      : (tensor<2x7x9x512xf16>) -> tensor<2x1x1x512xf16>
  // One output size value sets both H and W.
  // CHECK: -> tensor<2x512x1x1xf32>
  %2 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 1>}
      : (tensor<2x512x7x9xf32>) -> tensor<2x512x1x1xf32>
  // CHECK: -> tensor<2x512x2x3xf32>
  %3 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 2, 3>}
      : (tensor<2x512x7x9xf32>) -> tensor<2x512x2x3xf32>
  // Without output_size the spatial size is kept.
  // CHECK: -> tensor<2x512x7x9xf32>
  %4 = relay.nn.adaptive_avg_pool2d %x : (tensor<2x512x7x9xf32>) -> tensor<2x512x7x9xf32>
  // CHECK: -> tensor<2x4x5x512xf16>
  %5 = relay.nn.adaptive_avg_pool2d %y {output_size = array<i64: 4, 5>, layout = "NHWC"}
      : (tensor<2x7x9x512xf16>) -> tensor<2x4x5x512xf16>
  return
}

// -----

// CHECK-LABEL: func.func @batch_matmul_transposes
func.func @batch_matmul_transposes(%a: tensor<2x3x4xf32>, %at: tensor<2x4x3xf32>,
                                   %b: tensor<2x5x4xf32>, %bt: tensor<2x4x5xf32>) {
  // Relay's default: y is [B, N, K] (transpose_b = true).
  // CHECK: -> tensor<2x3x5xf32>
  %0 = relay.nn.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x5xf32>
  %1 = relay.nn.batch_matmul %a, %bt {transpose_b = false}
      : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x5xf32>
  %2 = relay.nn.batch_matmul %at, %b {transpose_a = true}
      : (tensor<2x4x3xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x5xf32>
  %3 = relay.nn.batch_matmul %at, %bt {transpose_a = true, transpose_b = false}
      : (tensor<2x4x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x5xf64>
  %4 = relay.nn.batch_matmul %a, %b {out_dtype = f64}
      : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf64>
  return
}

// CHECK-LABEL: func.func @batch_matmul_broadcast
func.func @batch_matmul_broadcast(%a1: tensor<1x3x4xf32>, %a7: tensor<7x3x4xf32>,
                                  %b1: tensor<1x5x4xf32>, %b7: tensor<7x5x4xf32>,
                                  %ad: tensor<?x3x4xf32>, %bd: tensor<?x?x4xf32>) {
  // A batch of 1 broadcasts on either side.
  // CHECK: -> tensor<7x3x5xf32>
  %0 = relay.nn.batch_matmul %a1, %b7 : (tensor<1x3x4xf32>, tensor<7x5x4xf32>) -> tensor<7x3x5xf32>
  // CHECK: -> tensor<7x3x5xf32>
  %1 = relay.nn.batch_matmul %a7, %b1 : (tensor<7x3x4xf32>, tensor<1x5x4xf32>) -> tensor<7x3x5xf32>
  // CHECK: -> tensor<1x3x5xf32>
  %2 = relay.nn.batch_matmul %a1, %b1 : (tensor<1x3x4xf32>, tensor<1x5x4xf32>) -> tensor<1x3x5xf32>
  // An unknown batch on either side makes the result batch unknown.
  // CHECK: -> tensor<?x3x5xf32>
  %3 = relay.nn.batch_matmul %ad, %b1 : (tensor<?x3x4xf32>, tensor<1x5x4xf32>) -> tensor<?x3x5xf32>
  // CHECK: -> tensor<?x3x?xf32>
  %4 = relay.nn.batch_matmul %a7, %bd : (tensor<7x3x4xf32>, tensor<?x?x4xf32>) -> tensor<?x3x?xf32>
  return
}

// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>, %xd: tensor<?x4xi8>,
                 %wd: tensor<?x4xi8>) {
  // Leading dimensions of data are kept.
  // CHECK: -> tensor<2x3x5xf32>
  %0 = relay.nn.dense %x, %w : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<?x?xi32>
  %1 = relay.nn.dense %xd, %wd {out_dtype = i32} : (tensor<?x4xi8>, tensor<?x4xi8>) -> tensor<?x?xi32>
  // units fills in an unknown weight dimension.
  // CHECK: -> tensor<?x7xi8>
  %2 = relay.nn.dense %xd, %wd {units = 7 : i64} : (tensor<?x4xi8>, tensor<?x4xi8>) -> tensor<?x7xi8>
  return
}

// -----

// CHECK-LABEL: func.func @norms_and_bias
func.func @norms_and_bias(%x: tensor<2x5x6x8xf32>, %c8: tensor<8xf32>, %c5: tensor<5xf32>,
                          %xd: tensor<2x?xf32>, %cd: tensor<7xf32>) {
  // CHECK: -> (tensor<2x5x6x8xf32>, tensor<8xf32>, tensor<8xf32>)
  %0:3 = relay.nn.batch_norm %x, %c8, %c8, %c8, %c8 {axis = -1 : i64}
      : (tensor<2x5x6x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      -> (tensor<2x5x6x8xf32>, tensor<8xf32>, tensor<8xf32>)
  // CHECK: -> (tensor<2x5x6x8xf32>, tensor<5xf32>, tensor<5xf32>)
  %1:3 = relay.nn.batch_norm %x, %c5, %c5, %c5, %c5
      : (tensor<2x5x6x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
      -> (tensor<2x5x6x8xf32>, tensor<5xf32>, tensor<5xf32>)
  // An unknown channel count is taken from the statistics.
  // CHECK: -> (tensor<2x?xf32>, tensor<7xf32>, tensor<7xf32>)
  %2:3 = relay.nn.batch_norm %xd, %cd, %cd, %cd, %cd
      : (tensor<2x?xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>)
      -> (tensor<2x?xf32>, tensor<7xf32>, tensor<7xf32>)
  // CHECK: -> tensor<2x5x6x8xf32>
  %3 = relay.nn.layer_norm %x, %c5, %c5 {axis = 1 : i64}
      : (tensor<2x5x6x8xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x6x8xf32>
  // CHECK: -> tensor<2x5x6x8xf32>
  %4 = relay.nn.bias_add %x, %c8 {axis = 3 : i64}
      : (tensor<2x5x6x8xf32>, tensor<8xf32>) -> tensor<2x5x6x8xf32>
  return
}

// CHECK-LABEL: func.func @pad_flatten_dropout
func.func @pad_flatten_dropout(%x: tensor<1x3x4x4xf32>, %d: tensor<?x3x4xf32>,
                               %d2: tensor<2x?x4xf32>, %v: tensor<1xf32>, %z: tensor<f32>) {
  // Negative widths crop.
  // CHECK: -> tensor<1x3x2x7xf32>
  %0 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, -1, -1, 1, 2>}
      : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x2x7xf32>
  // Unknown dimensions stay unknown.
  // CHECK: -> tensor<?x5x6xf32>
  %1 = relay.nn.pad %d, %z {pad_width = array<i64: 1, 1, 1, 1, 1, 1>, pad_mode = "edge"}
      : (tensor<?x3x4xf32>, tensor<f32>) -> tensor<?x5x6xf32>
  // CHECK: -> tensor<1x48xf32>
  %2 = relay.nn.batch_flatten %x : (tensor<1x3x4x4xf32>) -> tensor<1x48xf32>
  // CHECK: -> tensor<?x12xf32>
  %3 = relay.nn.batch_flatten %d : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // CHECK: -> tensor<2x?xf32>
  %4 = relay.nn.batch_flatten %d2 : (tensor<2x?x4xf32>) -> tensor<2x?xf32>
  // CHECK: -> tensor<1x1xf32>
  %5 = relay.nn.batch_flatten %v : (tensor<1xf32>) -> tensor<1x1xf32>
  // CHECK: -> (tensor<?x3x4xf32>, tensor<?x3x4xf32>)
  %6:2 = relay.nn.dropout %d : (tensor<?x3x4xf32>) -> (tensor<?x3x4xf32>, tensor<?x3x4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<2x3x4xf32>, %at: tensor<2x4x3xf32>, %b: tensor<4x5xf32>,
                  %bt: tensor<5x4xf32>, %bd: tensor<4x?xf32>) {
  // Relay's nn.matmul defaults to no transposes.
  // CHECK: -> tensor<2x3x5xf32>
  %0 = relay.nn.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x5xf32>
  %1 = relay.nn.matmul %a, %bt {transpose_b = true} : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x5xf32>
  %2 = relay.nn.matmul %at, %b {transpose_a = true} : (tensor<2x4x3xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: -> tensor<2x3x?xf16>
  %3 = relay.nn.matmul %a, %bd {out_dtype = f16} : (tensor<2x3x4xf32>, tensor<4x?xf32>) -> tensor<2x3x?xf16>
  // CHECK: -> tensor<2x3x6xf32>
  %4 = relay.nn.matmul %a, %bd {units = 6 : i64} : (tensor<2x3x4xf32>, tensor<4x?xf32>) -> tensor<2x3x6xf32>
  return
}

// CHECK-LABEL: func.func @prelu_max_pools
func.func @prelu_max_pools(%x: tensor<2x7x9x16xf32>, %alpha: tensor<16xf32>) {
  // CHECK: -> tensor<2x7x9x16xf32>
  %0 = relay.nn.prelu %x, %alpha {axis = -1 : i64} : (tensor<2x7x9x16xf32>, tensor<16xf32>) -> tensor<2x7x9x16xf32>
  // CHECK: -> tensor<2x1x1x16xf32>
  %1 = relay.nn.global_max_pool2d %x {layout = "NHWC"} : (tensor<2x7x9x16xf32>) -> tensor<2x1x1x16xf32>
  // CHECK: -> tensor<2x3x4x16xf32>
  %2 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 3, 4>, layout = "NHWC"}
      : (tensor<2x7x9x16xf32>) -> tensor<2x3x4x16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @conv2d_transpose
func.func @conv2d_transpose(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>,
                            %wg: tensor<4x3x3x3xf32>, %xh: tensor<1x5x5x4xf32>,
                            %wh: tensor<3x3x8x4xf32>, %xd: tensor<?x4x?x5xf32>) {
  // 1 * (5 - 1) + 3 = 7
  // CHECK: -> tensor<1x8x7x7xf32>
  %0 = relay.nn.conv2d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  // 2 * (5 - 1) + 3 - 2 + 1 = 10
  // CHECK: -> tensor<1x8x10x10xf32>
  %1 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1>,
                                         output_padding = array<i64: 1, 1>}
      : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x10x10xf32>
  // Dilated kernel (3 - 1) * 2 + 1 = 5: 4 + 5 = 9; padding (top, left, bottom, right).
  // CHECK: -> tensor<1x8x9x6xf32>
  %2 = relay.nn.conv2d_transpose %x, %w {dilation = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 2>}
      : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x9x6xf32>
  // Groups multiply the weight's output channels.
  // CHECK: -> tensor<1x6x7x7xf32>
  %3 = relay.nn.conv2d_transpose %x, %wg {groups = 2 : i64}
      : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x7x7xf32>
  // CHECK: -> tensor<1x6x7x7xf32>
  %4 = relay.nn.conv2d_transpose %x, %wg {groups = 2 : i64, channels = 6 : i64, kernel_size = array<i64: 3, 3>}
      : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x7x7xf32>
  // CHECK: -> tensor<1x7x7x8xf32>
  %5 = relay.nn.conv2d_transpose %xh, %wh {data_layout = "NHWC", kernel_layout = "HWOI"}
      : (tensor<1x5x5x4xf32>, tensor<3x3x8x4xf32>) -> tensor<1x7x7x8xf32>
  // CHECK: -> tensor<?x8x?x7xf16>
  %6 = relay.nn.conv2d_transpose %xd, %w {out_dtype = f16}
      : (tensor<?x4x?x5xf32>, tensor<4x8x3x3xf32>) -> tensor<?x8x?x7xf16>
  return
}

// -----

// CHECK-LABEL: func.func @upsampling
func.func @upsampling(%x: tensor<1x3x5x7xf32>, %y: tensor<1x5x7x3xf32>, %d: tensor<1x3x?x7xf32>) {
  // round(5 * 2.5) = 13 (12.5 rounds away from zero), round(7 * 0.5) = 4.
  // CHECK: -> tensor<1x3x13x4xf32>
  %0 = relay.nn.upsampling %x {scale_h = 2.5 : f64, scale_w = 0.5 : f64}
      : (tensor<1x3x5x7xf32>) -> tensor<1x3x13x4xf32>
  // CHECK: -> tensor<1x10x21x3xf32>
  %1 = relay.nn.upsampling %y {scale_h = 2.0 : f64, scale_w = 3.0 : f64, layout = "NHWC"}
      : (tensor<1x5x7x3xf32>) -> tensor<1x10x21x3xf32>
  // CHECK: -> tensor<1x3x?x14xf32>
  %2 = relay.nn.upsampling %d {scale_h = 2.0 : f64, scale_w = 2.0 : f64}
      : (tensor<1x3x?x7xf32>) -> tensor<1x3x?x14xf32>
  return
}

// CHECK-LABEL: func.func @instance_group_norm
func.func @instance_group_norm(%x: tensor<2x5x6x8xf32>, %c8: tensor<8xf32>, %c5: tensor<5xf32>) {
  // CHECK: -> tensor<2x5x6x8xf32>
  %0 = relay.nn.instance_norm %x, %c5, %c5 : (tensor<2x5x6x8xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x6x8xf32>
  // CHECK: -> tensor<2x5x6x8xf32>
  %1 = relay.nn.group_norm %x, %c8, %c8 {num_groups = 4 : i64, axis = -1 : i64}
      : (tensor<2x5x6x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x6x8xf32>
  return
}
