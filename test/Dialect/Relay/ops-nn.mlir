// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | FileCheck %s

// Round trip of every relay.nn.* op. Attributes equal to TVM's defaults are
// elided when printing.

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>,
                  %xh: tensor<1x56x56x64xf32>, %wh: tensor<3x3x64x64xf32>)
    -> (tensor<1x64x112x112xf32>, tensor<1x56x56x64xi32>) {
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {channels = 64 : i64, kernel_size = array<i64: 7, 7>, padding = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>,
                               channels = 64 : i64, kernel_size = array<i64: 7, 7>}
      : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32, padding = array<i64: 1, 1>} : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xi32>
  %1 = relay.nn.conv2d %xh, %wh {padding = array<i64: 1, 1>, data_layout = "NHWC",
                                 kernel_layout = "HWIO", out_dtype = i32}
      : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xi32>
  return %0, %1 : tensor<1x64x112x112xf32>, tensor<1x56x56x64xi32>
}

// CHECK-LABEL: func.func @conv2d_all_defaults_spelled_out
func.func @conv2d_all_defaults_spelled_out(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>)
    -> tensor<1x4x6x6xf32> {
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 0, 0>,
                               dilation = array<i64: 1, 1>, groups = 1 : i64,
                               data_layout = "NCHW", kernel_layout = "OIHW", out_layout = ""}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @dense_batch_matmul_bias_add
func.func @dense_batch_matmul_bias_add(%x: tensor<4x512xf32>, %w: tensor<10x512xf32>,
                                       %a: tensor<8x32x64xf16>, %b: tensor<8x16x64xf16>,
                                       %bias: tensor<10xf32>)
    -> (tensor<4x10xf32>, tensor<4x10xf64>, tensor<8x32x16xf16>, tensor<8x32x16xf32>,
        tensor<4x10xf32>) {
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {units = 10 : i64} : (tensor<4x512xf32>, tensor<10x512xf32>) -> tensor<4x10xf32>
  %0 = relay.nn.dense %x, %w {units = 10 : i64}
      : (tensor<4x512xf32>, tensor<10x512xf32>) -> tensor<4x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {out_dtype = f64} : (tensor<4x512xf32>, tensor<10x512xf32>) -> tensor<4x10xf64>
  %1 = relay.nn.dense %x, %w {out_dtype = f64}
      : (tensor<4x512xf32>, tensor<10x512xf32>) -> tensor<4x10xf64>
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<8x32x64xf16>, tensor<8x16x64xf16>) -> tensor<8x32x16xf16>
  %2 = relay.nn.batch_matmul %a, %b
      : (tensor<8x32x64xf16>, tensor<8x16x64xf16>) -> tensor<8x32x16xf16>
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} {out_dtype = f32} : (tensor<8x32x64xf16>, tensor<8x16x64xf16>) -> tensor<8x32x16xf32>
  %3 = relay.nn.batch_matmul %a, %b {out_dtype = f32, transpose_a = false, transpose_b = true}
      : (tensor<8x32x64xf16>, tensor<8x16x64xf16>) -> tensor<8x32x16xf32>
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<4x10xf32>, tensor<10xf32>) -> tensor<4x10xf32>
  %4 = relay.nn.bias_add %0, %bias {axis = -1 : i64}
      : (tensor<4x10xf32>, tensor<10xf32>) -> tensor<4x10xf32>
  return %0, %1, %2, %3, %4 : tensor<4x10xf32>, tensor<4x10xf64>, tensor<8x32x16xf16>,
                              tensor<8x32x16xf32>, tensor<4x10xf32>
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<2x10xf32>) -> (tensor<2x10xf32>, tensor<2x10xf32>,
                                                 tensor<2x10xf32>, tensor<2x10xf32>) {
  // CHECK: relay.nn.relu %{{.*}} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %0 = relay.nn.relu %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: relay.nn.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %1 = relay.nn.leaky_relu %x {alpha = 0.2 : f64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: relay.nn.softmax %{{.*}} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %2 = relay.nn.softmax %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: relay.nn.log_softmax %{{.*}} {axis = 0 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %3 = relay.nn.log_softmax %x {axis = 0 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %0, %1, %2, %3 : tensor<2x10xf32>, tensor<2x10xf32>, tensor<2x10xf32>, tensor<2x10xf32>
}

// CHECK-LABEL: func.func @pools
func.func @pools(%x: tensor<1x64x112x112xf32>, %y: tensor<1x7x7x512xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x1x1x512xf32>,
        tensor<1x2x3x512xf32>) {
  // CHECK: relay.nn.max_pool2d %{{.*}} {padding = array<i64: 1, 1, 1, 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                               padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: relay.nn.avg_pool2d %{{.*}} {ceil_mode = true, count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                               ceil_mode = true, count_include_pad = true}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} {layout = "NHWC"} : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
  %2 = relay.nn.global_avg_pool2d %y {layout = "NHWC"}
      : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
  // CHECK: relay.nn.adaptive_avg_pool2d %{{.*}} {layout = "NHWC", output_size = array<i64: 2, 3>} : (tensor<1x7x7x512xf32>) -> tensor<1x2x3x512xf32>
  %3 = relay.nn.adaptive_avg_pool2d %y {output_size = array<i64: 2, 3>, layout = "NHWC"}
      : (tensor<1x7x7x512xf32>) -> tensor<1x2x3x512xf32>
  return %0, %1, %2, %3 : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>,
                          tensor<1x1x1x512xf32>, tensor<1x2x3x512xf32>
}

// CHECK-LABEL: func.func @norms
func.func @norms(%x: tensor<1x64x56x56xf32>, %c: tensor<64xf32>,
                 %t: tensor<2x128x768xf32>, %g: tensor<768xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<2x128x768xf32>) {
  // CHECK: = relay.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64, scale = false} : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>)
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-03 : f64, scale = false}
      : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
      -> (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>)
  // CHECK: relay.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {center = false} : (tensor<2x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<2x128x768xf32>
  %1 = relay.nn.layer_norm %t, %g, %g {center = false}
      : (tensor<2x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<2x128x768xf32>
  return %0#0, %0#1, %0#2, %1 : tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>,
                                tensor<2x128x768xf32>
}

// CHECK-LABEL: func.func @pad_dropout_flatten
func.func @pad_dropout_flatten(%x: tensor<1x3x4x4xf32>, %zero: tensor<i32>, %v: tensor<f32>)
    -> (tensor<1x3x6x8xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x48xf32>) {
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 2, 2>} : (tensor<1x3x4x4xf32>, tensor<i32>) -> tensor<1x3x6x8xf32>
  %0 = relay.nn.pad %x, %zero {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 2, 2>}
      : (tensor<1x3x4x4xf32>, tensor<i32>) -> tensor<1x3x6x8xf32>
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_mode = "reflect", pad_width = array<i64: 0, 0, 0, 0, 1, 1, 2, 2>} : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x6x8xf32>
  %1 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 2, 2>, pad_mode = "reflect"}
      : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x6x8xf32>
  // CHECK: relay.nn.dropout %{{.*}} {rate = 1.000000e-01 : f64} : (tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>)
  %2:2 = relay.nn.dropout %x {rate = 0.1 : f64}
      : (tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>)
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<1x3x4x4xf32>) -> tensor<1x48xf32>
  %3 = relay.nn.batch_flatten %x : (tensor<1x3x4x4xf32>) -> tensor<1x48xf32>
  return %1, %2#0, %2#1, %3 : tensor<1x3x6x8xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>,
                              tensor<1x48xf32>
}

// CHECK-LABEL: func.func @matmul_prelu_max_pools
func.func @matmul_prelu_max_pools(%a: tensor<4x512xf32>, %b: tensor<512x10xf32>,
                                  %x: tensor<1x64x7x7xf32>, %alpha: tensor<64xf32>)
    -> (tensor<4x10xf32>, tensor<1x64x7x7xf32>, tensor<1x64x1x1xf32>, tensor<1x64x2x2xf32>) {
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} : (tensor<4x512xf32>, tensor<512x10xf32>) -> tensor<4x10xf32>
  %0 = relay.nn.matmul %a, %b : (tensor<4x512xf32>, tensor<512x10xf32>) -> tensor<4x10xf32>
  // CHECK: relay.nn.prelu %{{.*}}, %{{.*}} : (tensor<1x64x7x7xf32>, tensor<64xf32>) -> tensor<1x64x7x7xf32>
  %1 = relay.nn.prelu %x, %alpha : (tensor<1x64x7x7xf32>, tensor<64xf32>) -> tensor<1x64x7x7xf32>
  // CHECK: relay.nn.global_max_pool2d %{{.*}} : (tensor<1x64x7x7xf32>) -> tensor<1x64x1x1xf32>
  %2 = relay.nn.global_max_pool2d %x : (tensor<1x64x7x7xf32>) -> tensor<1x64x1x1xf32>
  // CHECK: relay.nn.adaptive_max_pool2d %{{.*}} {output_size = array<i64: 2>} : (tensor<1x64x7x7xf32>) -> tensor<1x64x2x2xf32>
  %3 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 2>}
      : (tensor<1x64x7x7xf32>) -> tensor<1x64x2x2xf32>
  return %0, %1, %2, %3 : tensor<4x10xf32>, tensor<1x64x7x7xf32>, tensor<1x64x1x1xf32>,
                          tensor<1x64x2x2xf32>
}

// CHECK-LABEL: func.func @conv2d_transpose
func.func @conv2d_transpose(%x: tensor<1x64x28x28xf32>, %w: tensor<64x32x3x3xf32>)
    -> tensor<1x32x56x56xf32> {
  // CHECK: relay.nn.conv2d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x28x28xf32>, tensor<64x32x3x3xf32>) -> tensor<1x32x56x56xf32>
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>,
                                         output_padding = array<i64: 1, 1>, kernel_layout = "IOHW"}
      : (tensor<1x64x28x28xf32>, tensor<64x32x3x3xf32>) -> tensor<1x32x56x56xf32>
  return %0 : tensor<1x32x56x56xf32>
}

// CHECK-LABEL: func.func @instance_group_norm_upsampling
func.func @instance_group_norm_upsampling(%x: tensor<1x64x16x16xf32>, %g: tensor<64xf32>)
    -> (tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>, tensor<1x64x32x32xf32>) {
  // CHECK: relay.nn.instance_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : (tensor<1x64x16x16xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
  %0 = relay.nn.instance_norm %x, %g, %g {epsilon = 1.0e-03 : f64}
      : (tensor<1x64x16x16xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
  // CHECK: relay.nn.group_norm %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 32 : i64} : (tensor<1x64x16x16xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
  %1 = relay.nn.group_norm %x, %g, %g {num_groups = 32 : i64}
      : (tensor<1x64x16x16xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
  // CHECK: relay.nn.upsampling %{{.*}} {method = "bilinear", scale_h = 2.000000e+00 : f64, scale_w = 2.000000e+00 : f64} : (tensor<1x64x16x16xf32>) -> tensor<1x64x32x32xf32>
  %2 = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64, method = "bilinear"}
      : (tensor<1x64x16x16xf32>) -> tensor<1x64x32x32xf32>
  return %0, %1, %2 : tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>, tensor<1x64x32x32xf32>
}
