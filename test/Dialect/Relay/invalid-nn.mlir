// RUN: mlc-opt %s -split-input-file -verify-diagnostics

// Invalid relay.nn.* ops: each error names the operand or attribute, the
// expected and the actual value.

func.func @conv2d_group_channels(%x: tensor<1x3x32x32xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight has 4 input channels per group but data has 3 channels with groups=1}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_groups_divide_channels(%x: tensor<1x6x8x8xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op data has 6 channels, which is not divisible by groups=4}}
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x6x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_groups_divide_out_channels(%x: tensor<1x6x8x8xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight has 8 output channels, which is not divisible by groups=3}}
  %0 = relay.nn.conv2d %x, %w {groups = 3 : i64} : (tensor<1x6x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_channels(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op channels=16 but the weight has 8 output channels (weight shape [8, 3, 3, 3] in OIHW layout)}}
  %0 = relay.nn.conv2d %x, %w {channels = 16 : i64} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv2d_kernel_size(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size is [5, 5] but the weight has a 3x3 kernel}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = array<i64: 5, 5>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x28x28xf32>
  return
}

// -----

func.func @conv2d_data_layout(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op data_layout "NCHW4c" is not supported: expected a permutation of "NCHW" such as "NCHW" or "NHWC"}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_kernel_layout(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_layout "HWCN" is not supported: expected a permutation of "OIHW" such as "OIHW" or "HWIO"}}
  %0 = relay.nn.conv2d %x, %w {kernel_layout = "HWCN"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_out_layout(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op out_layout "NHW" is not supported}}
  %0 = relay.nn.conv2d %x, %w {out_layout = "NHW"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_padding_count(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op padding must have 1, 2 or 4 values (all sides; top/bottom and left/right; top, left, bottom, right) but has 3 ([1, 1, 1])}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_strides(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op strides must have 2 values but has 1 ([2])}}
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x15x15xf32>
  return
}

// -----

func.func @conv2d_dilation(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op dilation values must be >= 1 but got [0, 1]}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 0, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_rank(%x: tensor<3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op data must be a 4-D tensor (NCHW) but has shape [3, 32, 32]}}
  %0 = relay.nn.conv2d %x, %w : (tensor<3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<8x30x30xf32>
  return
}

// -----

func.func @conv2d_kernel_too_big(%x: tensor<1x3x4x4xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op data height 4 plus padding 0 is smaller than the dilated kernel height 5}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @conv2d_result_type(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op result #0 has type 'tensor<1x8x32x32xf32>', but the operands and attributes give 'tensor<1x8x30x30xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @conv2d_out_dtype(%x: tensor<1x3x32x32xi8>, %w: tensor<8x3x3x3xi8>) {
  // expected-error@+1 {{'relay.nn.conv2d' op result #0 has type 'tensor<1x8x30x30xi8>', but the operands and attributes give 'tensor<1x8x30x30xi32>'}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x32x32xi8>, tensor<8x3x3x3xi8>) -> tensor<1x8x30x30xi8>
  return
}

// -----

func.func @conv2d_out_dtype_kind(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op out_dtype must be a tensor element type but is tensor<f32>}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = tensor<f32>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_attr_kind(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op attribute 'strides' failed to satisfy constraint: i64 dense array attribute}}
  %0 = relay.nn.conv2d %x, %w {strides = [1, 1]} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @dense_reduction(%x: tensor<4x512xf32>, %w: tensor<10x256xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op weight has 256 input features (dimension 1) but data has 512 (last dimension); data shape [4, 512], weight shape [10, 256]}}
  %0 = relay.nn.dense %x, %w : (tensor<4x512xf32>, tensor<10x256xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @dense_units(%x: tensor<4x512xf32>, %w: tensor<10x512xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op units=12 but weight has 10 output units (dimension 0 of [10, 512])}}
  %0 = relay.nn.dense %x, %w {units = 12 : i64} : (tensor<4x512xf32>, tensor<10x512xf32>) -> tensor<4x12xf32>
  return
}

// -----

func.func @dense_weight_rank(%x: tensor<4x512xf32>, %w: tensor<10x512x1xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op weight must be a 2-D tensor [units, K] but has shape [10, 512, 1]}}
  %0 = relay.nn.dense %x, %w : (tensor<4x512xf32>, tensor<10x512x1xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @batch_matmul_batch(%x: tensor<2x3x4xf32>, %y: tensor<3x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op batch dimensions of x (2) and y (3) differ and neither is 1}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<3x5x4xf32>) -> tensor<3x3x5xf32>
  return
}

// -----

func.func @batch_matmul_reduction(%x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>) {
  // Relay's default transpose_b = true reads y as [B, N, K].
  // expected-error@+1 {{'relay.nn.batch_matmul' op reduction dimensions differ: x has 4 (dim 2 with transpose_a=false) but y has 5 (dim 2 with transpose_b=true)}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @batch_matmul_rank(%x: tensor<3x4xf32>, %y: tensor<2x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op x must be a 3-D tensor but has shape [3, 4]}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @bias_add_size(%x: tensor<1x8x4x4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias must have shape [8] (dimension 1 of data shape [1, 8, 4, 4]) but has shape [4]}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @bias_add_axis(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op axis=4 is out of range for data of rank 4 (expected a value in [-4, 4))}}
  %0 = relay.nn.bias_add %x, %b {axis = 4 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @bias_add_dtype(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf16>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias has element type f16 but data has element type f32}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x8x4x4xf32>, tensor<8xf16>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @bias_add_rank(%x: tensor<1x8x4x4xf32>, %b: tensor<1x8xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias must have shape [8] (dimension 1 of data shape [1, 8, 4, 4]) but has shape [1, 8]}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x8x4x4xf32>, tensor<1x8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @relu_result_type(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.relu' op result #0 has type 'tensor<3x2xf32>', but the operands and attributes give 'tensor<2x3xf32>'}}
  %0 = "relay.nn.relu"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @relu_unranked(%x: tensor<*xf32>) {
  // expected-error@+1 {{'relay.nn.relu' op operand #0 must be ranked tensor of a TVM dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, float64) values, but got 'tensor<*xf32>'}}
  %0 = "relay.nn.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @leaky_relu_alpha_kind(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.leaky_relu' op attribute 'alpha' failed to satisfy constraint: 64-bit float attribute}}
  %0 = relay.nn.leaky_relu %x {alpha = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @leaky_relu_result_type(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.leaky_relu' op result #0 has type 'tensor<2x3xf16>', but the operands and attributes give 'tensor<2x3xf32>'}}
  %0 = "relay.nn.leaky_relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.softmax' op axis=2 is out of range for data of rank 2 (expected a value in [-2, 2))}}
  %0 = relay.nn.softmax %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @log_softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op axis=-3 is out of range for data of rank 2 (expected a value in [-2, 2))}}
  %0 = relay.nn.log_softmax %x {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @max_pool2d_pool_size_required(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op requires attribute 'pool_size'}}
  %0 = relay.nn.max_pool2d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @max_pool2d_pool_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op pool_size must have 2 values but has 3 ([2, 2, 2])}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @max_pool2d_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op layout "NCHW16c" is not supported: expected a permutation of "NCHW" such as "NCHW" or "NHWC"}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, layout = "NCHW16c"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @max_pool2d_out_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op out_layout "NHWC" differs from layout "NCHW"; pooling does not change the layout}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, out_layout = "NHWC"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @max_pool2d_window_too_big(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op data width 8 plus padding 0 is smaller than the dilated pool width 9}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 9>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x1xf32>
  return
}

// -----

func.func @avg_pool2d_negative_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op padding values must be >= 0 but got [1, -1]}}
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, padding = array<i64: 1, -1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x9x5xf32>
  return
}

// -----

func.func @avg_pool2d_result_type(%x: tensor<1x3x7x7xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op result #0 has type 'tensor<1x3x3x3xf32>', but the operands and attributes give 'tensor<1x3x4x4xf32>'}}
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @global_avg_pool2d_rank(%x: tensor<3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.global_avg_pool2d' op data must be a 4-D tensor (NCHW) but has shape [3, 8, 8]}}
  %0 = relay.nn.global_avg_pool2d %x : (tensor<3x8x8xf32>) -> tensor<3x1x1xf32>
  return
}

// -----

func.func @global_avg_pool2d_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.global_avg_pool2d' op layout "NCWW" is not supported}}
  %0 = relay.nn.global_avg_pool2d %x {layout = "NCWW"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @adaptive_avg_pool2d_output_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_avg_pool2d' op output_size must have 0, 1 or 2 values but has 3 ([1, 1, 1])}}
  %0 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @adaptive_avg_pool2d_result(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_avg_pool2d' op result #0 has type 'tensor<1x3x1x1xf32>', but the operands and attributes give 'tensor<1x3x2x2xf32>'}}
  %0 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @batch_norm_gamma(%x: tensor<1x8x4x4xf32>, %c: tensor<8xf32>, %g: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op gamma must have shape [8] (dimension 1 of data shape [1, 8, 4, 4]) but has shape [4]}}
  %0:3 = relay.nn.batch_norm %x, %g, %c, %c, %c
      : (tensor<1x8x4x4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      -> (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @batch_norm_moving_var_dtype(%x: tensor<1x8x4x4xf32>, %c: tensor<8xf32>, %v: tensor<8xf64>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op moving_var has element type f64 but data has element type f32}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %v
      : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf64>)
      -> (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @batch_norm_axis(%x: tensor<1x8x4x4xf32>, %c: tensor<8xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op axis=5 is out of range for data of rank 4 (expected a value in [-4, 4))}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c {axis = 5 : i64}
      : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      -> (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @batch_norm_results(%x: tensor<1x8x4x4xf32>, %c: tensor<8xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op result #2 has type 'tensor<4xf32>', but the operands and attributes give 'tensor<8xf32>'}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c
      : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      -> (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_beta(%x: tensor<2x5x6xf32>, %g: tensor<6xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{'relay.nn.layer_norm' op beta must have shape [6] (dimension 2 of data shape [2, 5, 6]) but has shape [5]}}
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x5x6xf32>, tensor<6xf32>, tensor<5xf32>) -> tensor<2x5x6xf32>
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x5x6xf32>, %g: tensor<6xf32>) {
  // expected-error@+1 {{'relay.nn.layer_norm' op epsilon must be >= 0}}
  %0 = relay.nn.layer_norm %x, %g, %g {epsilon = -1.0 : f64} : (tensor<2x5x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
  return
}

// -----

func.func @pad_width_count(%x: tensor<1x3x4x4xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_width must hold a (before, after) pair per dimension of data, i.e. 8 values for data shape [1, 3, 4, 4], but has 4}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1, 1, 1>} : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_mode must be "constant", "edge" or "reflect" but is "symmetric"}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1>, pad_mode = "symmetric"} : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
  return
}

// -----

func.func @pad_negative_result(%x: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_width [-3, -2] makes dimension 0 of size 4 negative (-1)}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: -3, -2>} : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  return
}

// -----

func.func @pad_value_rank(%x: tensor<4xf32>, %v: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op operand #1 must be 0D tensor of a TVM dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, float64) values, but got 'tensor<1xf32>'}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1>} : (tensor<4xf32>, tensor<1xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @pad_width_required(%x: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.pad' op requires attribute 'pad_width'}}
  %0 = relay.nn.pad %x, %v : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @dropout_rate(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.dropout' op rate must be in [0, 1] but is 1.5}}
  %0:2 = relay.nn.dropout %x {rate = 1.5 : f64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @dropout_mask_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.dropout' op result #1 has type 'tensor<4xi1>', but the operands and attributes give 'tensor<4xf32>'}}
  %0:2 = relay.nn.dropout %x : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>)
  return
}

// -----

func.func @batch_flatten_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op data must have rank >= 1 but is 0-D}}
  %0 = relay.nn.batch_flatten %x : (tensor<f32>) -> tensor<1xf32>
  return
}

// -----

func.func @batch_flatten_result(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op result #0 has type 'tensor<6x4xf32>', but the operands and attributes give 'tensor<2x12xf32>'}}
  %0 = relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @batch_flatten_overflow(%x: tensor<2x4294967296x4294967296xf32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op the flattened size of data shape [2, 4294967296, 4294967296] overflows int64}}
  %0 = relay.nn.batch_flatten %x : (tensor<2x4294967296x4294967296xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @conv2d_empty_kernel(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x0x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op the weight has an empty 0x3 kernel (weight shape [8, 3, 0, 3] in OIHW layout)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<8x3x0x3xf32>) -> tensor<1x8x9x6xf32>
  return
}

// -----

func.func @matmul_reduction(%a: tensor<4x512xf32>, %b: tensor<256x10xf32>) {
  // expected-error@+1 {{'relay.nn.matmul' op reduction dimensions differ: tensor_a has 512 (dim 1 with transpose_a=false) but tensor_b has 256 (dim 0 with transpose_b=false)}}
  %0 = relay.nn.matmul %a, %b : (tensor<4x512xf32>, tensor<256x10xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<4xf32>, %b: tensor<4x10xf32>) {
  // expected-error@+1 {{'relay.nn.matmul' op tensor_a must have rank >= 2 but has shape [4]}}
  %0 = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<4xf32>, tensor<4x10xf32>) -> tensor<10xf32>
  return
}

// -----

func.func @prelu_alpha(%x: tensor<1x8x4x4xf32>, %alpha: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.prelu' op alpha must have shape [8] (dimension 1 of data shape [1, 8, 4, 4]) but has shape [4]}}
  %0 = relay.nn.prelu %x, %alpha : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @global_max_pool2d_out_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.global_max_pool2d' op out_layout "NHWC" differs from layout "NCHW"; pooling does not change the layout}}
  %0 = relay.nn.global_max_pool2d %x {out_layout = "NHWC"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @adaptive_max_pool2d_output_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_max_pool2d' op output_size values must be >= 1 but got [0, 2]}}
  %0 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x0x2xf32>
  return
}

// -----

func.func @max_pool2d_overflow(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op the output height of data height 8 overflows int64}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, padding = array<i64: 9223372036854775807, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @conv2d_transpose_in_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<3x8x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op weight has 3 input channels but data has 4 (weight shape [3, 8, 3, 3] in IOHW layout)}}
  %0 = relay.nn.conv2d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<3x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  return
}

// -----

func.func @conv2d_transpose_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op channels=10 with groups=1 needs 10 output channels per group in the weight (weight shape [4, 8, 3, 3] in IOHW layout)}}
  %0 = relay.nn.conv2d_transpose %x, %w {channels = 10 : i64} : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x10x7x7xf32>
  return
}

// -----

func.func @conv2d_transpose_output_padding(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op output_padding values must be >= 0 but got [0, -1]}}
  %0 = relay.nn.conv2d_transpose %x, %w {output_padding = array<i64: 0, -1>} : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x6xf32>
  return
}

// -----

func.func @conv2d_transpose_kernel_layout(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op kernel_layout "NCHW" is not supported: expected a permutation of "IOHW" such as "IOHW" or "HWOI"}}
  %0 = relay.nn.conv2d_transpose %x, %w {kernel_layout = "NCHW"} : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  return
}

// -----

func.func @conv2d_transpose_padding_too_big(%x: tensor<1x4x1x1xf32>, %w: tensor<4x8x1x1xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op padding 2 leaves no output height (the unpadded transposed height is 1)}}
  %0 = relay.nn.conv2d_transpose %x, %w {padding = array<i64: 1, 0>} : (tensor<1x4x1x1xf32>, tensor<4x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @instance_norm_gamma(%x: tensor<1x8x4x4xf32>, %g: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'relay.nn.instance_norm' op gamma must have shape [8] (dimension 1 of data shape [1, 8, 4, 4]) but has shape [4]}}
  %0 = relay.nn.instance_norm %x, %g, %b : (tensor<1x8x4x4xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @group_norm_groups(%x: tensor<1x8x4x4xf32>, %g: tensor<8xf32>) {
  // expected-error@+1 {{'relay.nn.group_norm' op data has 8 channels (dimension 1), which is not divisible by num_groups=3}}
  %0 = relay.nn.group_norm %x, %g, %g {num_groups = 3 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @group_norm_num_groups_required(%x: tensor<1x8x4x4xf32>, %g: tensor<8xf32>) {
  // expected-error@+1 {{'relay.nn.group_norm' op requires attribute 'num_groups'}}
  %0 = relay.nn.group_norm %x, %g, %g : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @upsampling_method(%x: tensor<1x3x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op method must be "nearest_neighbor", "bilinear" or "bicubic" but is "area"}}
  %0 = relay.nn.upsampling %x {method = "area"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @upsampling_scale(%x: tensor<1x3x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op scale_w must be a positive number but is 0.000000}}
  %0 = relay.nn.upsampling %x {scale_w = 0.0 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x0xf32>
  return
}

// -----

func.func @conv2d_depthwise_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op depthwise weight (weight shape [3, 3, 4, 2] in HWOI layout) has 2 channels per input channel but channels=12 needs 3}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWOI", groups = 4 : i64, channels = 12 : i64}
      : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x12xf32>
  return
}

// -----

func.func @conv2d_depthwise_multiplier_needs_channels(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>) {
  // Like Relay, a depthwise multiplier above 1 in an HWOI weight needs `channels`.
  // expected-error@+1 {{'relay.nn.conv2d' op weight has 2 input channels per group but data has 4 channels with groups=4}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWOI", groups = 4 : i64}
      : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

func.func @pad_reflect_too_wide(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_mode "reflect" needs pad_width [3, 0] of dimension 1 to be smaller than its size 3}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1, 3, 0>, pad_mode = "reflect"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @pad_edge_crop(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_mode "edge" cannot crop: pad_width [0, -1] of dimension 1 is negative}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 0, -1>, pad_mode = "edge"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x2xf32>
  return
}
