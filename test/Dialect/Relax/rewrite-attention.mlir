// RUN: mlc-opt %s --relax-rewrite-attention --split-input-file | FileCheck %s
// RUN: mlc-opt %s --relax-rewrite-attention=element-types=f16,bf16 --split-input-file | FileCheck %s --check-prefix=HALF
// RUN: not mlc-opt %s --relax-rewrite-attention=element-types=f64 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: unknown element type 'f64' in element-types (expected f16, bf16 or f32)

// With element-types=f16,bf16 (the GPU pipeline without mixed precision)
// only the float16 chain is rewritten.
// HALF-LABEL: func.func @bert
// HALF-NOT: relax.nn.attention
// HALF-LABEL: func.func @gpt2_causal
// HALF: relax.nn.attention
// HALF-LABEL: func.func @relay_batch_matmul
// HALF-NOT: relax.nn.attention

// BERT from torch: heads split by reshape + permute_dims, scores divided by
// sqrt(H), an additive padding mask. The heads' transposes cancel with the
// ones to attention's (B, S, N, H) layout, and the output's with its
// inverse: nothing is transposed any more.
// CHECK-LABEL: func.func @bert
// CHECK-SAME: (%[[Q:.*]]: tensor<2x32x64xf32>, %[[K:.*]]: tensor<2x32x64xf32>, %[[V:.*]]: tensor<2x32x64xf32>, %[[M:.*]]: tensor<2x1x1x32xf32>)
// CHECK-DAG: %[[QH:.*]] = relax.reshape %[[Q]] {shape = array<i64: 2, 32, 4, 16>}
// CHECK-DAG: %[[KH:.*]] = relax.reshape %[[K]] {shape = array<i64: 2, 32, 4, 16>}
// CHECK-DAG: %[[VH:.*]] = relax.reshape %[[V]] {shape = array<i64: 2, 32, 4, 16>}
// CHECK-NOT: relax.permute_dims
// CHECK: %[[A:.*]] = relax.nn.attention %[[QH]], %[[KH]], %[[VH]], %[[M]] {scale = 2.500000e-01 : f64} : (tensor<2x32x4x16xf32>, tensor<2x32x4x16xf32>, tensor<2x32x4x16xf32>, tensor<2x1x1x32xf32>) -> tensor<2x32x4x16xf32>
// CHECK-NEXT: %[[R:.*]] = relax.reshape %[[A]] {shape = array<i64: 2, 32, 64>}
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: relax.matmul
// CHECK-NOT: relax.nn.softmax
func.func @bert(%q: tensor<2x32x64xf32>, %k: tensor<2x32x64xf32>, %v: tensor<2x32x64xf32>, %mask: tensor<2x1x1x32xf32>) -> tensor<2x32x64xf32> {
  %c = relax.constant dense<4.0> : tensor<f32>
  %0 = relax.reshape %q {shape = array<i64: 2, 32, 4, 16>} : (tensor<2x32x64xf32>) -> tensor<2x32x4x16xf32>
  %1 = relax.permute_dims %0 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
  %2 = relax.reshape %k {shape = array<i64: 2, 32, 4, 16>} : (tensor<2x32x64xf32>) -> tensor<2x32x4x16xf32>
  %3 = relax.permute_dims %2 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
  %4 = relax.reshape %v {shape = array<i64: 2, 32, 4, 16>} : (tensor<2x32x64xf32>) -> tensor<2x32x4x16xf32>
  %5 = relax.permute_dims %4 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
  %6 = relax.permute_dims %3 {axes = array<i64: 0, 1, 3, 2>} : (tensor<2x4x32x16xf32>) -> tensor<2x4x16x32xf32>
  %7 = relax.matmul %1, %6 : (tensor<2x4x32x16xf32>, tensor<2x4x16x32xf32>) -> tensor<2x4x32x32xf32>
  %8 = relax.divide %7, %c : (tensor<2x4x32x32xf32>, tensor<f32>) -> tensor<2x4x32x32xf32>
  %9 = relax.add %8, %mask : (tensor<2x4x32x32xf32>, tensor<2x1x1x32xf32>) -> tensor<2x4x32x32xf32>
  %10 = relax.nn.softmax %9 : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
  %11 = relax.matmul %10, %5 : (tensor<2x4x32x32xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x16xf32>
  %12 = relax.permute_dims %11 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
  %13 = relax.reshape %12 {shape = array<i64: 2, 32, 64>} : (tensor<2x32x4x16xf32>) -> tensor<2x32x64xf32>
  return %13 : tensor<2x32x64xf32>
}

// -----

// GPT-2: masked_fill(tril == 0, -inf) as a where on a constant condition
// that is exactly the causal pattern: a causal mask, no bias. Operands that
// arrive in (B, N, S, H) without a transpose to cancel get one.
// CHECK-LABEL: func.func @gpt2_causal
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x4x8xf16>, %[[K:.*]]: tensor<1x2x4x8xf16>, %[[V:.*]]: tensor<1x2x4x8xf16>)
// CHECK-DAG: %[[QT:.*]] = relax.permute_dims %[[Q]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK-DAG: %[[KT:.*]] = relax.permute_dims %[[K]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK-DAG: %[[VT:.*]] = relax.permute_dims %[[V]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK: %[[A:.*]] = relax.nn.attention %[[QT]], %[[KT]], %[[VT]] {causal_mask = "TopLeft", scale = 5.000000e-01 : f64} : (tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>) -> tensor<1x4x2x8xf16>
// CHECK-NEXT: %[[R:.*]] = relax.permute_dims %[[A]] {axes = array<i64: 0, 2, 1, 3>} : (tensor<1x4x2x8xf16>) -> tensor<1x2x4x8xf16>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: relax.where
func.func @gpt2_causal(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>) -> tensor<1x2x4x8xf16> {
  %c = relax.constant dense<0.5> : tensor<f16>
  %masked = relax.constant dense<[[[[false, true, true, true], [false, false, true, true], [false, false, false, true], [false, false, false, false]]]]> : tensor<1x1x4x4xi1>
  %ninf = relax.constant dense<0xFC00> : tensor<f16>
  %0 = relax.permute_dims %k {axes = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x8xf16>) -> tensor<1x2x8x4xf16>
  %1 = relax.matmul %q, %0 : (tensor<1x2x4x8xf16>, tensor<1x2x8x4xf16>) -> tensor<1x2x4x4xf16>
  %2 = relax.multiply %1, %c : (tensor<1x2x4x4xf16>, tensor<f16>) -> tensor<1x2x4x4xf16>
  %3 = relax.where %masked, %ninf, %2 : (tensor<1x1x4x4xi1>, tensor<f16>, tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %4 = relax.nn.softmax %3 {axis = 3 : i64} : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %5 = relax.matmul %4, %v : (tensor<1x2x4x4xf16>, tensor<1x2x4x8xf16>) -> tensor<1x2x4x8xf16>
  return %5 : tensor<1x2x4x8xf16>
}

// -----

// Relay: heads merged into the batch, batch_matmul's transposed K, the
// scale on the scores. A unit head dimension makes (B·N, S, 1, H).
// CHECK-LABEL: func.func @relay_batch_matmul
// CHECK-SAME: (%[[Q:.*]]: tensor<4x32x16xf32>, %[[K:.*]]: tensor<4x24x16xf32>, %[[V:.*]]: tensor<4x24x8xf32>)
// CHECK-DAG: %[[Q4:.*]] = relax.expand_dims %[[Q]] {axis = array<i64: 2>} : (tensor<4x32x16xf32>) -> tensor<4x32x1x16xf32>
// CHECK-DAG: %[[K4:.*]] = relax.expand_dims %[[K]] {axis = array<i64: 2>} : (tensor<4x24x16xf32>) -> tensor<4x24x1x16xf32>
// CHECK-DAG: %[[V4:.*]] = relax.expand_dims %[[V]] {axis = array<i64: 2>} : (tensor<4x24x8xf32>) -> tensor<4x24x1x8xf32>
// CHECK: %[[A:.*]] = relax.nn.attention %[[Q4]], %[[K4]], %[[V4]] {scale = 2.500000e-01 : f64}
// CHECK-NEXT: %[[R:.*]] = relax.squeeze %[[A]] {axis = array<i64: 2>} : (tensor<4x32x1x8xf32>) -> tensor<4x32x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @relay_batch_matmul(%q: tensor<4x32x16xf32>, %k: tensor<4x24x16xf32>, %v: tensor<4x24x8xf32>) -> tensor<4x32x8xf32> {
  %c = relax.constant dense<0.25> : tensor<f32>
  %0 = relax.permute_dims %k {axes = array<i64: 0, 2, 1>} : (tensor<4x24x16xf32>) -> tensor<4x16x24xf32>
  %1 = relax.matmul %q, %0 : (tensor<4x32x16xf32>, tensor<4x16x24xf32>) -> tensor<4x32x24xf32>
  %2 = relax.multiply %c, %1 : (tensor<f32>, tensor<4x32x24xf32>) -> tensor<4x32x24xf32>
  %3 = relax.nn.softmax %2 : (tensor<4x32x24xf32>) -> tensor<4x32x24xf32>
  %4 = relax.matmul %3, %v : (tensor<4x32x24xf32>, tensor<4x24x8xf32>) -> tensor<4x32x8xf32>
  return %4 : tensor<4x32x8xf32>
}

// -----

// A mask whose condition is not constant becomes the bias
// where(cond, fill, 0), the bias of a 3-D chain gains the head dimension,
// and scale factors on Q and on the scores multiply (0.5 / 4).
// CHECK-LABEL: func.func @where_bias_and_scales
// CHECK-SAME: (%[[Q:.*]]: tensor<2x8x4xf32>, %[[K:.*]]: tensor<2x8x4xf32>, %[[V:.*]]: tensor<2x8x4xf32>, %[[C:.*]]: tensor<2x8x8xi1>)
// CHECK-DAG: %[[FILL:.*]] = relax.constant dense<-3.40282347E+38> : tensor<f32>
// CHECK-DAG: %[[ZERO:.*]] = relax.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[B:.*]] = relax.where %[[C]], %[[ZERO]], %[[FILL]] : (tensor<2x8x8xi1>, tensor<f32>, tensor<f32>) -> tensor<2x8x8xf32>
// CHECK: %[[B4:.*]] = relax.expand_dims %[[B]] {axis = array<i64: 1>} : (tensor<2x8x8xf32>) -> tensor<2x1x8x8xf32>
// CHECK: relax.nn.attention %{{.*}}, %{{.*}}, %{{.*}}, %[[B4]] {scale = 1.250000e-01 : f64}
func.func @where_bias_and_scales(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x4xf32> {
  %half = relax.constant dense<0.5> : tensor<f32>
  %four = relax.constant dense<4.0> : tensor<f32>
  %min = relax.constant dense<-3.40282347E+38> : tensor<f32>
  %0 = relax.multiply %q, %half : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
  %1 = relax.permute_dims %k {axes = array<i64: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %2 = relax.matmul %0, %1 : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %3 = relax.divide %2, %four : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
  %4 = relax.where %keep, %3, %min : (tensor<2x8x8xi1>, tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
  %5 = relax.nn.softmax %4 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %6 = relax.matmul %5, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %6 : tensor<2x8x4xf32>
}

// -----

// LLaMA with S < S_kv: an additive constant mask of 0 and -inf in the
// bottom-right causal pattern is "BottomRight"; the other bias stays.
// CHECK-LABEL: func.func @bottom_right_bias
// CHECK: relax.nn.attention %{{.*}}, %{{.*}}, %{{.*}}, %arg3 {causal_mask = "BottomRight", scale = 1.000000e+00 : f64} : (tensor<1x2x1x4xf32>, tensor<1x3x1x4xf32>, tensor<1x3x1x4xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x1x4xf32>
func.func @bottom_right_bias(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>, %b: tensor<1x1x2x3xf32>) -> tensor<1x1x2x4xf32> {
  %mask = relax.constant dense<[[0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %0 = relax.permute_dims %k {axes = array<i64: 0, 1, 3, 2>} : (tensor<1x1x3x4xf32>) -> tensor<1x1x4x3xf32>
  %1 = relax.matmul %q, %0 : (tensor<1x1x2x4xf32>, tensor<1x1x4x3xf32>) -> tensor<1x1x2x3xf32>
  %2 = relax.add %1, %mask : (tensor<1x1x2x3xf32>, tensor<2x3xf32>) -> tensor<1x1x2x3xf32>
  %3 = relax.add %b, %2 : (tensor<1x1x2x3xf32>, tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %4 = relax.nn.softmax %3 : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %5 = relax.matmul %4, %v : (tensor<1x1x2x3xf32>, tensor<1x1x3x4xf32>) -> tensor<1x1x2x4xf32>
  return %5 : tensor<1x1x2x4xf32>
}

// -----

// Not attention, left alone: the softmax over another axis; the scores
// also returned (HF's output_attentions); a scale that is not a constant;
// a scale outside the bias (it would scale the bias too); K broadcast over
// the batch; a masked_fill with a finite value (not what adding it does).
// CHECK-LABEL: func.func @softmax_axis
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @softmax_axis(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.nn.softmax %0 {axis = 1 : i64} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = relax.matmul %1, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %2 : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @probabilities_returned
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @probabilities_returned(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x8x8xf32>) {
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.nn.softmax %0 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = relax.matmul %1, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %2, %1 : tensor<2x8x4xf32>, tensor<2x8x8xf32>
}

// CHECK-LABEL: func.func @scale_not_constant
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @scale_not_constant(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>, %c: tensor<f32>) -> tensor<2x8x4xf32> {
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.divide %0, %c : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
  %2 = relax.nn.softmax %1 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %3 = relax.matmul %2, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %3 : tensor<2x8x4xf32>
}

// A NaN or infinite scale (attention takes finite ones; a crash the
// mlc-opt fuzzer found) is left alone.
// CHECK-LABEL: func.func @scale_not_finite
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @scale_not_finite(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %c = relax.constant dense<0x7FC00000> : tensor<f32>
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.multiply %0, %c : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
  %2 = relax.nn.softmax %1 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %3 = relax.matmul %2, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %3 : tensor<2x8x4xf32>
}
// CHECK-LABEL: func.func @scale_infinite
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @scale_infinite(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %c = relax.constant dense<0x7F800000> : tensor<f32>
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.multiply %c, %0 : (tensor<f32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = relax.nn.softmax %1 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %3 = relax.matmul %2, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %3 : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @scale_outside_bias
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @scale_outside_bias(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>, %b: tensor<2x8x8xf32>) -> tensor<2x8x4xf32> {
  %c = relax.constant dense<0.5> : tensor<f32>
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.add %0, %b : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = relax.multiply %1, %c : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
  %3 = relax.nn.softmax %2 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %4 = relax.matmul %3, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %4 : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @key_broadcast
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @key_broadcast(%q: tensor<2x8x4xf32>, %k: tensor<1x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<1x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.nn.softmax %0 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = relax.matmul %1, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %2 : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @finite_fill
// CHECK-NOT: relax.nn.attention
// CHECK: return
func.func @finite_fill(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>, %m: tensor<2x8x8xi1>) -> tensor<2x8x4xf32> {
  %fill = relax.constant dense<-1.0e+04> : tensor<f32>
  %0 = relax.matmul %q, %k : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %1 = relax.where %m, %fill, %0 : (tensor<2x8x8xi1>, tensor<f32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = relax.nn.softmax %1 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %3 = relax.matmul %2, %v : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %3 : tensor<2x8x4xf32>
}
