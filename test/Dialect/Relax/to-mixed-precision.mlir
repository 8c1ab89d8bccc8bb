// RUN: mlc-opt %s --relax-to-mixed-precision --split-input-file | FileCheck %s
// RUN: mlc-opt %s --split-input-file \
// RUN:   --relax-to-mixed-precision="out-dtype=float16" | FileCheck %s --check-prefix=OUT16
// RUN: mlc-opt %s --split-input-file \
// RUN:   --relax-to-mixed-precision="compute-dtype=bfloat16" | FileCheck %s --check-prefix=BF16

// Always (matmul) + follow (add, relu) + never (softmax): the parameters
// are cast once, the bias constant is cast at compile time, the matmul
// accumulates in f32 and its result is stored in f16 for the add; softmax
// gets its f32 operand back and the signature does not change.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-DAG: %[[XH:.*]] = relax.astype %[[X]] {dtype = f16} : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-DAG: %[[WH:.*]] = relax.astype %[[W]] {dtype = f16} : (tensor<8x16xf32>) -> tensor<8x16xf16>
// CHECK-DAG: %[[B:.*]] = relax.constant dense<1.500000e+00> : tensor<16xf16>
// CHECK: %[[MM:.*]] = relax.matmul %[[XH]], %[[WH]] {out_dtype = f32} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
// CHECK: %[[MMH:.*]] = relax.astype %[[MM]] {dtype = f16} : (tensor<4x16xf32>) -> tensor<4x16xf16>
// CHECK: %[[ADD:.*]] = relax.add %[[MMH]], %[[B]] : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
// CHECK: %[[RELU:.*]] = relax.nn.relu %[[ADD]] : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %[[BACK:.*]] = relax.astype %[[RELU]] {dtype = f32} : (tensor<4x16xf16>) -> tensor<4x16xf32>
// CHECK: %[[SM:.*]] = relax.nn.softmax %[[BACK]] : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: return %[[SM]] : tensor<4x16xf32>
// CHECK-NOT: dense<1.500000e+00> : tensor<16xf32>
// With out-dtype=float16 the matmul result is f16 itself.
// OUT16-LABEL: func.func @mlp
// OUT16: %[[MM:.*]] = relax.matmul %{{.*}}, %{{.*}} {out_dtype = f16} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
// OUT16-NEXT: relax.add %[[MM]], %{{.*}} : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
// BF16-LABEL: func.func @mlp
// BF16: relax.matmul %{{.*}}, %{{.*}} {out_dtype = f32} : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xf32>
// BF16: relax.add %{{.*}}, %{{.*}} : (tensor<4x16xbf16>, tensor<16xbf16>) -> tensor<4x16xbf16>
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %b = relax.constant dense<1.5> : tensor<16xf32>
  %0 = relax.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = relax.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = relax.nn.relu %1 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %3 = relax.nn.softmax %2 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}

// -----

// A follow op with an f32 operand that is not a constant computes in f32;
// then the matmul result is not rounded to f16 on the way.
// CHECK-LABEL: func.func @f32_bias
// CHECK: %[[MM:.*]] = relax.matmul {{.*}} -> tensor<4x16xf32>
// CHECK-NEXT: relax.add %[[MM]], %{{.*}} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
func.func @f32_bias(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = relax.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = relax.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// A constant out of f16's range (70000 > 65504) keeps its follow op in f32,
// while bfloat16 has the range of f32.
// CHECK-LABEL: func.func @out_of_range
// CHECK: relax.multiply %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
// BF16-LABEL: func.func @out_of_range
// BF16: relax.multiply %{{.*}}, %{{.*}} : (tensor<4x16xbf16>, tensor<bf16>) -> tensor<4x16xbf16>
func.func @out_of_range(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %c = relax.constant dense<7.0e+04> : tensor<f32>
  %0 = relax.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = relax.multiply %0, %c : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// conv2d (always) with batch_norm and relu (follow) of bound weights, inside
// a dataflow block: its output gets the f32 type back. The dense_resource
// weight becomes an f16 blob of its own.
// CHECK-LABEL: func.func @conv
// CHECK: relax.constant dense_resource<conv_w_f16> : tensor<4x3x3x3xf16>
// CHECK: relax.dataflow
// CHECK: %[[CONV:.*]] = relax.nn.conv2d %{{.*}}, %{{.*}} {out_dtype = f32, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x8x8xf32>
// CHECK: relax.nn.batch_norm %{{.*}} : ({{.*}}xf16>{{.*}}) -> (tensor<1x4x8x8xf16>, tensor<4xf16>, tensor<4xf16>)
// CHECK: %[[R:.*]] = relax.nn.relu %{{.*}} : (tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf16>
// CHECK: %[[OUT:.*]] = relax.astype %[[R]] {dtype = f32}
// CHECK: relax.output %[[OUT]] : tensor<1x4x8x8xf32>
func.func @conv(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = relax.constant dense_resource<conv_w> : tensor<4x3x3x3xf32>
  %g = relax.constant dense<1.0> : tensor<4xf32>
  %b = relax.constant dense<0.5> : tensor<4xf32>
  %m = relax.constant dense<0.25> : tensor<4xf32>
  %v = relax.constant dense<2.0> : tensor<4xf32>
  %r = relax.dataflow -> tensor<1x4x8x8xf32> {
    %0 = relax.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
    %1:3 = relax.nn.batch_norm %0, %g, %b, %m, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>)
    %2 = relax.nn.relu %1#0 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    relax.output %2 : tensor<1x4x8x8xf32>
  }
  return %r : tensor<1x4x8x8xf32>
}

{-#
  dialect_resources: {
    builtin: {
      conv_w: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D041000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D041000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D041000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D041"
    }
  }
#-}

// -----

// float64 and integer computations are not changed.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: relax.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf64>, tensor<8x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: relax.add %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: return
func.func @untouched(%x: tensor<4x8xf64>, %w: tensor<8x16xf64>, %i: tensor<4xi32>) -> (tensor<4x16xf64>, tensor<4xi32>) {
  %0 = relax.matmul %x, %w : (tensor<4x8xf64>, tensor<8x16xf64>) -> tensor<4x16xf64>
  %1 = relax.add %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<4x16xf64>, tensor<4xi32>
}

// -----

// attention is an always op without out_dtype: its operands (bias
// included) are cast, it returns float16 (accumulating in float32 itself),
// and the float32 result is restored for the return.
// CHECK-LABEL: func.func @attention
// CHECK-DAG: %[[Q:.*]] = relax.astype %arg0 {dtype = f16}
// CHECK-DAG: %[[K:.*]] = relax.astype %arg1 {dtype = f16}
// CHECK-DAG: %[[V:.*]] = relax.astype %arg2 {dtype = f16}
// CHECK-DAG: %[[B:.*]] = relax.astype %arg3 {dtype = f16}
// CHECK: %[[A:.*]] = relax.nn.attention %[[Q]], %[[K]], %[[V]], %[[B]] {scale = 1.250000e-01 : f64} : (tensor<1x32x2x64xf16>, tensor<1x32x2x64xf16>, tensor<1x32x2x64xf16>, tensor<1x1x1x32xf16>) -> tensor<1x32x2x64xf16>
// CHECK-NOT: out_dtype
// CHECK: %[[R:.*]] = relax.astype %[[A]] {dtype = f32}
// CHECK: return %[[R]]
func.func @attention(%q: tensor<1x32x2x64xf32>, %k: tensor<1x32x2x64xf32>, %v: tensor<1x32x2x64xf32>, %b: tensor<1x1x1x32xf32>) -> tensor<1x32x2x64xf32> {
  %0 = relax.nn.attention %q, %k, %v, %b {scale = 0.125 : f64} : (tensor<1x32x2x64xf32>, tensor<1x32x2x64xf32>, tensor<1x32x2x64xf32>, tensor<1x1x1x32xf32>) -> tensor<1x32x2x64xf32>
  return %0 : tensor<1x32x2x64xf32>
}

// -----

// A splat constant is cast as one value, whatever its size (a fuzzed
// 2^31-element splat ran out of memory).
// CHECK-LABEL: func.func @huge_splat
// CHECK: relax.constant dense<1.000000e+00> : tensor<1x2147483648xf16>
func.func @huge_splat(%w: tensor<2147483648x3xf32>) -> tensor<1x3xf32> {
  %ones = relax.constant dense<1.0> : tensor<1x2147483648xf32>
  %m = relax.matmul %ones, %w : (tensor<1x2147483648xf32>, tensor<2147483648x3xf32>) -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}

// -----

// The casts in front of an always op move above the data movement that
// feeds only them (reshape, permute_dims, split, expand_dims; the split's
// three results are all cast): the add's result is cast once, where a GEMM
// epilogue can store it in f16, and the layout changes move f16. The add
// stays f32 (its bias is an f32 parameter).
// CHECK-LABEL: func.func @qkv_split
// CHECK: %[[ADD:.*]] = relax.add %{{.*}}, %{{.*}} : (tensor<16x96xf32>, tensor<96xf32>) -> tensor<16x96xf32>
// CHECK-NEXT: %[[H:.*]] = relax.astype %[[ADD]] {dtype = f16} : (tensor<16x96xf32>) -> tensor<16x96xf16>
// CHECK-NEXT: %[[R:.*]] = relax.reshape %[[H]] {{.*}} -> tensor<1x16x3x2x16xf16>
// CHECK-NEXT: %[[P:.*]] = relax.permute_dims %[[R]] {{.*}} -> tensor<3x1x2x16x16xf16>
// CHECK-NEXT: %[[S:.*]]:3 = relax.split %[[P]] {{.*}} -> (tensor<1x1x2x16x16xf16>, tensor<1x1x2x16x16xf16>, tensor<1x1x2x16x16xf16>)
// CHECK-NOT: relax.astype
// CHECK: relax.nn.attention %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : (tensor<2x16x1x16xf16>, tensor<2x16x1x16xf16>, tensor<2x16x1x16xf16>) -> tensor<2x16x1x16xf16>
func.func @qkv_split(%x: tensor<16x32xf32>, %w: tensor<32x96xf32>, %b: tensor<96xf32>) -> tensor<2x16x1x16xf32> {
  %0 = relax.matmul %x, %w : (tensor<16x32xf32>, tensor<32x96xf32>) -> tensor<16x96xf32>
  %1 = relax.add %0, %b : (tensor<16x96xf32>, tensor<96xf32>) -> tensor<16x96xf32>
  %2 = relax.reshape %1 {shape = array<i64: 1, 16, 3, 2, 16>} : (tensor<16x96xf32>) -> tensor<1x16x3x2x16xf32>
  %3 = relax.permute_dims %2 {axes = array<i64: 2, 0, 3, 1, 4>} : (tensor<1x16x3x2x16xf32>) -> tensor<3x1x2x16x16xf32>
  %4:3 = relax.split %3 {indices_or_sections = 3 : i64} : (tensor<3x1x2x16x16xf32>) -> (tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>)
  %5 = relax.reshape %4#0 {shape = array<i64: 2, 16, 16>} : (tensor<1x1x2x16x16xf32>) -> tensor<2x16x16xf32>
  %6 = relax.reshape %4#1 {shape = array<i64: 2, 16, 16>} : (tensor<1x1x2x16x16xf32>) -> tensor<2x16x16xf32>
  %7 = relax.reshape %4#2 {shape = array<i64: 2, 16, 16>} : (tensor<1x1x2x16x16xf32>) -> tensor<2x16x16xf32>
  %8 = relax.expand_dims %5 {axis = array<i64: 2>} : (tensor<2x16x16xf32>) -> tensor<2x16x1x16xf32>
  %9 = relax.expand_dims %6 {axis = array<i64: 2>} : (tensor<2x16x16xf32>) -> tensor<2x16x1x16xf32>
  %10 = relax.expand_dims %7 {axis = array<i64: 2>} : (tensor<2x16x16xf32>) -> tensor<2x16x1x16xf32>
  %11 = relax.nn.attention %8, %9, %10 {scale = 2.500000e-01 : f64} : (tensor<2x16x1x16xf32>, tensor<2x16x1x16xf32>, tensor<2x16x1x16xf32>) -> tensor<2x16x1x16xf32>
  return %11 : tensor<2x16x1x16xf32>
}

// -----

// A cast does not move above data movement whose result something else
// uses in f32 (the reshape's result is also returned), nor above one
// whose data has other uses.
// CHECK-LABEL: func.func @shared_reshape
// CHECK: %[[R:.*]] = relax.reshape %{{.*}} {{.*}} -> tensor<4x8xf32>
// CHECK: %[[RH:.*]] = relax.astype %[[R]] {dtype = f16}
// CHECK: relax.matmul %[[RH]]
// CHECK: %[[T:.*]] = relax.permute_dims %[[S:.*]] : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK: relax.astype %[[T]] {dtype = f16}
func.func @shared_reshape(%x: tensor<32xf32>, %y: tensor<8x4xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = relax.reshape %x {shape = array<i64: 4, 8>} : (tensor<32xf32>) -> tensor<4x8xf32>
  %1 = relax.matmul %0, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = relax.permute_dims %y : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %3 = relax.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %3, %y : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// A float16 model: its always ops accumulate in f32 as well (TVM sets every
// always op's out_dtype), their results rounded back to f16 once for the
// ops after them; the signature does not change. (With out-dtype=float16
// nothing changes.)
// CHECK-LABEL: func.func @half_model
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>, %[[W:.*]]: tensor<8x16xf16>, %[[B:.*]]: tensor<16xf16>) -> (tensor<4x16xf16>, tensor<1x1x1x1xf16>)
// CHECK: %[[MM:.*]] = relax.matmul %[[X]], %[[W]] {out_dtype = f32} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
// CHECK: %[[MMH:.*]] = relax.astype %[[MM]] {dtype = f16} : (tensor<4x16xf32>) -> tensor<4x16xf16>
// CHECK: %[[ADD:.*]] = relax.add %[[MMH]], %[[B]] : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
// CHECK: %[[CONV:.*]] = relax.nn.conv2d %{{.*}}, %{{.*}} {{.*}}out_dtype = f32{{.*}} -> tensor<1x1x1x1xf32>
// CHECK: %[[CONVH:.*]] = relax.astype %[[CONV]] {dtype = f16} : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf16>
// CHECK: return %[[ADD]], %[[CONVH]] : tensor<4x16xf16>, tensor<1x1x1x1xf16>
// OUT16-LABEL: func.func @half_model
// OUT16-NOT: relax.astype
// OUT16: relax.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
// OUT16-NOT: relax.astype
func.func @half_model(%x: tensor<4x8xf16>, %w: tensor<8x16xf16>, %b: tensor<16xf16>) -> (tensor<4x16xf16>, tensor<1x1x1x1xf16>) {
  %0 = relax.matmul %x, %w : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  %1 = relax.add %0, %b : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
  %2 = relax.reshape %1 {shape = array<i64: 1, 4, 4, 4>} : (tensor<4x16xf16>) -> tensor<1x4x4x4xf16>
  %3 = relax.nn.conv2d %2, %2 {padding = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>) -> tensor<1x1x1x1xf16>
  return %1, %3 : tensor<4x16xf16>, tensor<1x1x1x1xf16>
}
