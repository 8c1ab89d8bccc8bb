// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @prelu_alpha_size(%x: tensor<1x4x8x8xf32>, %a: tensor<3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+2 {{alpha must have shape [4] (dimension 1 of data shape [1, 4, 8, 8]) but has shape [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.prelu %x, %a : (tensor<1x4x8x8xf32>, tensor<3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @prelu_axis(%x: tensor<2x4xf32>, %a: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{axis=2 is out of range for data of rank 2 (expected a value in [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.prelu %x, %a {axis = 2 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @prelu_dtype(%x: tensor<2x4xf32>, %a: tensor<4xf16>) -> tensor<2x4xf32> {
  // expected-error @+2 {{element types differ: data 'f32' vs alpha 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.prelu %x, %a {axis = 1 : i64} : (tensor<2x4xf32>, tensor<4xf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @resize_rank(%x: tensor<3x8x8xf32>) -> tensor<3x4x4xf32> {
  // expected-error @+2 {{data must be a 4-D tensor (NCHW) but has rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 4>} : (tensor<3x8x8xf32>) -> tensor<3x4x4xf32>
  return %0 : tensor<3x4x4xf32>
}

// -----

func.func @resize_size(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{size must have 1 or 2 values >= 1 but is [4, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @resize_layout(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{layout "NCHW4c" is not supported: expected a permutation of "NCHW"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 4>, layout = "NCHW4c"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @resize_method(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{method must be nearest_neighbor, linear or cubic, not 'bilinear'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 4>, method = "bilinear"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @resize_mode(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{coordinate_transformation_mode must be half_pixel, align_corners, asymmetric, pytorch_half_pixel, tf_half_pixel_for_nn or tf_crop_and_resize, not 'corners'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 4>, coordinate_transformation_mode = "corners"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @resize_rounding(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{rounding_method must be round, round_prefer_floor, round_prefer_ceil, floor, ceil or empty, not 'trunc'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 4>, rounding_method = "trunc"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @resize_roi(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{roi must have 4 values (start_h, start_w, end_h, end_w) but has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4, 4>, roi = array<f64: 0.0, 1.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @resize_result(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x5xf32> {
  // expected-error @+2 {{'relax.image.resize2d' op inferred type(s) 'tensor<1x3x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x3x4x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.image.resize2d %x {size = array<i64: 4>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x5xf32>
  return %0 : tensor<1x3x4x5xf32>
}
