// RUN: mlc-opt %s --relax-convert-layout --split-input-file | FileCheck %s
// RUN: mlc-opt %s --split-input-file \
// RUN:   --relax-convert-layout="data-layout=NCHW kernel-layout=OIHW" \
// RUN:   | FileCheck %s --check-prefix=NCHW
// RUN: not mlc-opt %s --relax-convert-layout="data-layout=NCHX" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-DATA
// RUN: not mlc-opt %s --relax-convert-layout="kernel-layout=HWI" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-KERNEL

// BAD-DATA: error: relax-convert-layout: data-layout
// BAD-DATA-SAME: NCHX
// BAD-KERNEL: error: relax-convert-layout: kernel-layout
// BAD-KERNEL-SAME: HWI

// A CNN stage: the input is permuted once, the weights and the [C, 1, 1]
// bias are permuted (folded later for constants), everything up to the
// global mean runs NHWC, and the mean's [N, C] result needs no permutation.
// CHECK-LABEL: func.func @stage
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x16x16xf32>, %[[W1:.*]]: tensor<8x3x3x3xf32>, %[[W2:.*]]: tensor<8x8x1x1xf32>)
// CHECK: %[[B:.*]] = relax.constant dense<5.000000e-01> : tensor<8x1x1xf32>
// CHECK: %[[XT:.*]] = relax.permute_dims %[[X]] {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x3x16x16xf32>) -> tensor<1x16x16x3xf32>
// CHECK: %[[W1T:.*]] = relax.permute_dims %[[W1]] {axes = array<i64: 2, 3, 1, 0>} : (tensor<8x3x3x3xf32>) -> tensor<3x3x3x8xf32>
// CHECK: %[[C1:.*]] = relax.nn.conv2d %[[XT]], %[[W1T]] {data_layout = "NHWC", kernel_layout = "HWIO", out_layout = "NHWC", padding = array<i64: 1, 1>} : (tensor<1x16x16x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x16x16x8xf32>
// CHECK: %[[BE:.*]] = relax.expand_dims %[[B]] {axis = array<i64: 0>} : (tensor<8x1x1xf32>) -> tensor<1x8x1x1xf32>
// CHECK: %[[BT:.*]] = relax.permute_dims %[[BE]] {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x8x1x1xf32>) -> tensor<1x1x1x8xf32>
// CHECK: %[[A:.*]] = relax.add %[[C1]], %[[BT]] : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
// CHECK: %[[R:.*]] = relax.nn.relu %[[A]] : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
// CHECK: %[[P:.*]] = relax.nn.max_pool2d %[[R]] {layout = "NHWC", out_layout = "NHWC", pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x16x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %[[W2T:.*]] = relax.permute_dims %[[W2]] {axes = array<i64: 2, 3, 1, 0>} : (tensor<8x8x1x1xf32>) -> tensor<1x1x8x8xf32>
// CHECK: %[[C2:.*]] = relax.nn.conv2d %[[P]], %[[W2T]] {{.*}} : (tensor<1x8x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %[[S:.*]] = relax.add %[[C2]], %[[P]] : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %[[M:.*]] = relax.mean %[[S]] {axis = array<i64: 1, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x8xf32>
// CHECK-NOT: relax.permute_dims
// CHECK: return %[[M]] : tensor<1x8xf32>
// The options' layouts are those of these convolutions: nothing changes.
// NCHW-LABEL: func.func @stage
// NCHW-NOT: relax.permute_dims
// NCHW: return
func.func @stage(%x: tensor<1x3x16x16xf32>, %w1: tensor<8x3x3x3xf32>,
                 %w2: tensor<8x8x1x1xf32>) -> tensor<1x8xf32> {
  %b = relax.constant dense<0.5> : tensor<8x1x1xf32>
  %0 = relax.nn.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32>
  %1 = relax.add %0, %b : (tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<1x8x16x16xf32>
  %2 = relax.nn.relu %1 : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %3 = relax.nn.max_pool2d %2 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
  %4 = relax.nn.conv2d %3, %w2 : (tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x8x8xf32>
  %5 = relax.add %4, %3 : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %6 = relax.mean %5 {axis = array<i64: 2, 3>} : (tensor<1x8x8x8xf32>) -> tensor<1x8xf32>
  return %6 : tensor<1x8xf32>
}

// -----

// Inside a dataflow block: batch_norm's axis and concat's axis follow, a
// grouped (depthwise) convolution converts like any other; the reshape and
// the block's output each get the value permuted back, one permutation
// shared by both, right after the concat.
// CHECK-LABEL: func.func @block
// CHECK: relax.dataflow
// CHECK: %[[C:.*]] = relax.nn.conv2d %{{.*}}, %{{.*}} {data_layout = "NHWC", groups = 4 : i64, kernel_layout = "HWIO", out_layout = "NHWC", padding = array<i64: 1, 1>} : (tensor<2x6x6x4xf32>, tensor<3x3x1x4xf32>) -> tensor<2x6x6x4xf32>
// CHECK: %[[N:.*]], %{{.*}}, %{{.*}} = relax.nn.batch_norm %[[C]], {{.*}} {axis = 3 : i64} : (tensor<2x6x6x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x6x6x4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[K:.*]] = relax.concat %[[N]], %[[C]] {axis = 3 : i64} : (tensor<2x6x6x4xf32>, tensor<2x6x6x4xf32>) -> tensor<2x6x6x8xf32>
// CHECK-NEXT: %[[BACK:.*]] = relax.permute_dims %[[K]] {axes = array<i64: 0, 3, 1, 2>} : (tensor<2x6x6x8xf32>) -> tensor<2x8x6x6xf32>
// CHECK-NEXT: %[[F:.*]] = relax.reshape %[[BACK]]
// CHECK-NEXT: relax.output %[[BACK]], %[[F]]
// CHECK-NOT: relax.permute_dims
func.func @block(%x: tensor<2x4x6x6xf32>, %w: tensor<4x1x3x3xf32>,
                 %g: tensor<4xf32>) -> (tensor<2x8x6x6xf32>, tensor<2x288xf32>) {
  %r:2 = relax.dataflow -> tensor<2x8x6x6xf32>, tensor<2x288xf32> {
    %0 = relax.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>} : (tensor<2x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x6x6xf32>
    %1:3 = relax.nn.batch_norm %0, %g, %g, %g, %g {axis = 1 : i64} : (tensor<2x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>)
    %2 = relax.concat %1#0, %0 {axis = 1 : i64} : (tensor<2x4x6x6xf32>, tensor<2x4x6x6xf32>) -> tensor<2x8x6x6xf32>
    %3 = relax.reshape %2 {shape = array<i64: 2, 288>} : (tensor<2x8x6x6xf32>) -> tensor<2x288xf32>
    relax.output %2, %3 : tensor<2x8x6x6xf32>, tensor<2x288xf32>
  }
  return %r#0, %r#1 : tensor<2x8x6x6xf32>, tensor<2x288xf32>
}

// -----

// Negative cases: a convolution already in the desired layouts is left as
// it is, and so is one whose output layout differs from its data layout; a
// reduction whose remaining dimensions would change order, and any op the
// pass does not know (softmax over the channels), take the value back.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT: relax.nn.conv2d %{{.*}}, %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NEXT: relax.nn.conv2d %{{.*}}, %{{.*}} {out_layout = "NHWC"}
// CHECK-NEXT: return
func.func @unchanged(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x4xf32>,
                     %y: tensor<1x4x8x8xf32>, %v: tensor<4x4x3x3xf32>)
    -> (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>) {
  %0 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relax.nn.conv2d %y, %v {out_layout = "NHWC"} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0, %1 : tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>
}

// CHECK-LABEL: func.func @fallback
// CHECK: %[[C:.*]] = relax.nn.conv2d {{.*}} -> tensor<1x6x6x4xf32>
// CHECK-NEXT: %[[BACK:.*]] = relax.permute_dims %[[C]] {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: relax.sum %[[BACK]] {axis = array<i64: 0>} : (tensor<1x4x6x6xf32>) -> tensor<4x6x6xf32>
// CHECK-NEXT: relax.nn.softmax %[[BACK]] {axis = 1 : i64}
func.func @fallback(%y: tensor<1x4x8x8xf32>, %v: tensor<4x4x3x3xf32>)
    -> (tensor<4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %0 = relax.nn.conv2d %y, %v : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = relax.sum %0 {axis = array<i64: 0>} : (tensor<1x4x6x6xf32>) -> tensor<4x6x6xf32>
  %2 = relax.nn.softmax %0 {axis = 1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %1, %2 : tensor<4x6x6xf32>, tensor<1x4x6x6xf32>
}
