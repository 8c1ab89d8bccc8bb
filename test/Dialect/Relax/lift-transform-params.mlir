// RUN: mlc-opt %s -split-input-file -verify-diagnostics --relax-lift-transform-params | FileCheck %s
// RUN: mlc-opt %s -split-input-file -verify-diagnostics --relax-lift-transform-params \
// RUN:   --relax-lift-transform-params | FileCheck %s --check-prefix=TWICE
// RUN: not mlc-opt %s -split-input-file --relax-lift-transform-params=num-input=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
// RUN: not mlc-opt %s -split-input-file --relax-lift-transform-params="num-input=1 func-name=absent" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABSENT
// ABSENT: error: relax-lift-transform-params: no function '@absent' in the module (set 'func-name')

// A convolution with a batch norm, NHWC, weights after one input: the
// filter's permutation and the norm's scale and shift (with the epsilon
// constant, cloned) move into @main_transform_params, which returns them;
// @main takes them after its input, and its unused constant goes.
// CHECK-LABEL: func.func @main
// CHECK-SAME:      (%[[X:.*]]: tensor<1x3x8x8xf32> {relax.name = "data"},
// CHECK-SAME:       %[[W:.*]]: tensor<3x3x3x4xf32> {relax.name = "transformed_0"},
// CHECK-SAME:       %[[S:.*]]: tensor<4xf32> {relax.name = "transformed_1"},
// CHECK-SAME:       %[[T:.*]]: tensor<4xf32> {relax.name = "transformed_2"})
// CHECK-SAME:      attributes {relax.num_input = 1 : i64}
// CHECK-NOT:     relax.constant
// CHECK:         relax.dataflow
// CHECK:           %[[XT:.*]] = relax.permute_dims %[[X]]
// CHECK:           %[[C:.*]] = relax.nn.conv2d %[[XT]], %[[W]]
// CHECK:           %[[M:.*]] = relax.multiply %[[C]], %[[S]]
// CHECK:           relax.add %[[M]], %[[T]]
// CHECK-NOT:       relax.rsqrt
// CHECK:       func.func @main_transform_params
// CHECK-SAME:      (%[[FW:.*]]: tensor<4x3x3x3xf32> {relax.name = "w"}, %[[G:.*]]: tensor<4xf32> {relax.name = "g"},
// CHECK-SAME:       %[[B:.*]]: tensor<4xf32> {relax.name = "b"}, %[[MEAN:.*]]: tensor<4xf32> {relax.name = "m"},
// CHECK-SAME:       %[[VAR:.*]]: tensor<4xf32> {relax.name = "v"})
// CHECK-SAME:      -> (tensor<3x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[EPS:.*]] = relax.constant dense<9.99999974E-6>
// CHECK:         relax.dataflow
// CHECK:           %[[P:.*]] = relax.permute_dims %[[FW]] {axes = array<i64: 2, 3, 1, 0>}
// CHECK:           %[[VE:.*]] = relax.add %[[VAR]], %[[EPS]]
// CHECK:           %[[R:.*]] = relax.rsqrt %[[VE]]
// CHECK:           %[[SC:.*]] = relax.multiply %[[G]], %[[R]]
// CHECK:           %[[MS:.*]] = relax.multiply %[[MEAN]], %[[SC]]
// CHECK:           %[[SH:.*]] = relax.subtract %[[B]], %[[MS]]
// CHECK:           relax.output %[[P]], %[[SC]], %[[SH]]
// Lifting again finds nothing that depends on weights alone.
// TWICE-LABEL: func.func @main(
// TWICE-NOT:   func.func @main_transform_params_transform_params
// TWICE:       func.func @main_transform_params(
// ZERO-LABEL:  func.func @main(
// ZERO-SAME:       attributes {relax.num_input = 0 : i64}
// ZERO:        func.func @main_transform_params(
func.func @main(%arg0: tensor<1x3x8x8xf32> {relax.name = "data"}, %arg1: tensor<4x3x3x3xf32> {relax.name = "w"}, %arg2: tensor<4xf32> {relax.name = "g"}, %arg3: tensor<4xf32> {relax.name = "b"}, %arg4: tensor<4xf32> {relax.name = "m"}, %arg5: tensor<4xf32> {relax.name = "v"}) -> tensor<1x4x8x8xf32> attributes {relax.num_input = 1 : i64} {
  %0 = relax.constant dense<9.99999974E-6> : tensor<f32>
  %1 = relax.dataflow -> tensor<1x4x8x8xf32> {
    %2 = relax.permute_dims %arg0 {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
    %3 = relax.permute_dims %arg1 {axes = array<i64: 2, 3, 1, 0>} : (tensor<4x3x3x3xf32>) -> tensor<3x3x3x4xf32>
    %4 = relax.nn.conv2d %2, %3 {data_layout = "NHWC", kernel_layout = "HWIO", out_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
    %5 = relax.add %arg5, %0 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %6 = relax.rsqrt %5 : (tensor<4xf32>) -> tensor<4xf32>
    %7 = relax.multiply %arg2, %6 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %8 = relax.multiply %arg4, %7 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %9 = relax.subtract %arg3, %8 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %10 = relax.multiply %4, %7 : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
    %11 = relax.add %10, %9 : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
    %12 = relax.nn.relu %11 : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %13 = relax.permute_dims %12 {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
    relax.output %13 : tensor<1x4x8x8xf32>
  }
  return %1 : tensor<1x4x8x8xf32>
}

// -----

// A weight read as it is (the bias) comes back from the transform under its
// own name, before the computed ones (named by their result index); a constant that both parts read stays in
// @main too. Ops on the input and a weight (the matmul) stay.
// CHECK-LABEL: func.func @dense
// CHECK-SAME:      (%[[X:.*]]: tensor<2x8xf32> {relax.name = "x"},
// CHECK-SAME:       %[[B:.*]]: tensor<4xf32> {relax.name = "bias"},
// CHECK-SAME:       %[[WT:.*]]: tensor<8x4xf16> {relax.name = "transformed_1"})
// CHECK:         %[[TWO:.*]] = relax.constant dense<2.000000e+00>
// CHECK:         %[[XH:.*]] = relax.astype %[[X]]
// CHECK:         %[[Y:.*]] = relax.matmul %[[XH]], %[[WT]]
// CHECK:         %[[YB:.*]] = relax.add %[[Y]], %[[B]]
// CHECK:         relax.multiply %[[YB]], %[[TWO]]
// CHECK:       func.func @dense_transform_params
// CHECK-SAME:      (%[[W:.*]]: tensor<4x8xf32> {relax.name = "weight"}, %[[BIAS:.*]]: tensor<4xf32> {relax.name = "bias"})
// CHECK-SAME:      -> (tensor<4xf32>, tensor<8x4xf16>)
// CHECK:         %[[TWO2:.*]] = relax.constant dense<2.000000e+00>
// CHECK:         %[[WS:.*]] = relax.multiply %[[W]], %[[TWO2]]
// CHECK:         %[[WP:.*]] = relax.permute_dims %[[WS]]
// CHECK:         %[[WH:.*]] = relax.astype %[[WP]]
// CHECK:         relax.output %[[WH]]
// CHECK:         return %[[BIAS]], %{{.*}} : tensor<4xf32>, tensor<8x4xf16>
func.func @dense(%x: tensor<2x8xf32> {relax.name = "x"}, %w: tensor<4x8xf32> {relax.name = "weight"}, %b: tensor<4xf32> {relax.name = "bias"}) -> tensor<2x4xf32> attributes {relax.num_input = 1 : i64} {
  %two = relax.constant dense<2.0> : tensor<f32>
  %ws = relax.multiply %w, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %wt = relax.permute_dims %ws {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %wh = relax.astype %wt {dtype = f16} : (tensor<8x4xf32>) -> tensor<8x4xf16>
  %xh = relax.astype %x {dtype = f16} : (tensor<2x8xf32>) -> tensor<2x8xf16>
  %y = relax.matmul %xh, %wh {out_dtype = f32} : (tensor<2x8xf16>, tensor<8x4xf16>) -> tensor<2x4xf32>
  %yb = relax.add %y, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %z = relax.multiply %yb, %two : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %z : tensor<2x4xf32>
}

// -----

// Negative: without relax.num_input (and no num-input option) nothing is
// lifted; with every parameter an input there are no weights.
// CHECK-LABEL: func.func @no_attribute
// CHECK:         relax.permute_dims
// CHECK-LABEL: func.func @all_inputs
// CHECK:         relax.permute_dims
// CHECK-NOT:   _transform_params
func.func @no_attribute(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> {
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %y = relax.matmul %x, %wt : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
func.func @all_inputs(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> attributes {relax.num_input = 2 : i64} {
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %y = relax.matmul %x, %wt : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// expected-error @below {{'func.func' op has 'relax.num_input' 3 : i64; expected an integer in [0, 2], the number of its parameters that are inputs}}
func.func @too_many(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {relax.num_input = 3 : i64} {
  return %w : tensor<4x8xf32>
}

// -----

// expected-error @below {{'func.func' op is called in the module; lifting its weights' transforms would change its parameters under its callers}}
func.func @callee(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {relax.num_input = 1 : i64} {
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %wt : tensor<8x4xf32>
}
func.func @caller(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %r = func.call @callee(%x, %w) : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// expected-error @below {{'func.func' op cannot lift its weights' transforms into @taken_transform_params: the module has that symbol already}}
func.func @taken(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {relax.num_input = 1 : i64} {
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %wt : tensor<8x4xf32>
}
func.func private @taken_transform_params()
