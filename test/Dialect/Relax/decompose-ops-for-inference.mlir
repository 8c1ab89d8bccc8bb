// RUN: mlc-opt %s --relax-decompose-ops-for-inference --split-input-file | FileCheck %s
// RUN: mlc-opt %s --relax-decompose-ops-for-inference --relax-fold-constant \
// RUN:   --relax-dce=entry= --split-input-file | FileCheck %s --check-prefix=FOLD

// NCHW (axis 1): scale = gamma * rsqrt(var + eps) and shift = beta - mean *
// scale, expanded to [C, 1, 1]; the statistics results are the moving ones.
// CHECK-LABEL: func.func @nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x3x3xf32>, %[[G:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[M:.*]]: tensor<4xf32>, %[[V:.*]]: tensor<4xf32>)
// CHECK: %[[EPS:.*]] = relax.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[VE:.*]] = relax.add %[[V]], %[[EPS]]
// CHECK: %[[R:.*]] = relax.rsqrt %[[VE]]
// CHECK: %[[S:.*]] = relax.multiply %[[G]], %[[R]]
// CHECK: %[[MS:.*]] = relax.multiply %[[M]], %[[S]]
// CHECK: %[[T:.*]] = relax.subtract %[[B]], %[[MS]]
// CHECK: %[[S3:.*]] = relax.expand_dims %[[S]] {axis = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[T3:.*]] = relax.expand_dims %[[T]] {axis = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[XS:.*]] = relax.multiply %[[X]], %[[S3]]
// CHECK: %[[Y:.*]] = relax.add %[[XS]], %[[T3]] : (tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NOT: relax.nn.batch_norm
// CHECK: return %[[Y]], %[[M]], %[[V]]
func.func @nchw(%x: tensor<1x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>)
    -> (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y, %nm, %nv = relax.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-3} : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>)
  return %y, %nm, %nv : tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The last axis needs no expansion; without scale and center, gamma and
// beta are left out. With constant statistics the scale and shift fold:
// var 3 + eps 1 -> rsqrt 0.5; mean 2 -> shift -1.
// CHECK-LABEL: func.func @nhwc_no_affine
// CHECK: %[[R:.*]] = relax.rsqrt
// CHECK-NOT: relax.expand_dims
// CHECK: %[[MS:.*]] = relax.multiply %{{.*}}, %[[R]]
// CHECK: %[[T:.*]] = relax.negative %[[MS]]
// CHECK: %[[XS:.*]] = relax.multiply %{{.*}}, %[[R]] : (tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
// CHECK: relax.add %[[XS]], %[[T]]
// FOLD-LABEL: func.func @nhwc_no_affine
// FOLD-DAG: %[[S:.*]] = relax.constant dense<5.000000e-01> : tensor<8xf32>
// FOLD-DAG: %[[T:.*]] = relax.constant dense<-1.000000e+00> : tensor<8xf32>
// FOLD: %[[XS:.*]] = relax.multiply %{{.*}}, %[[S]]
// FOLD: relax.add %[[XS]], %[[T]]
func.func @nhwc_no_affine(%x: tensor<2x5x8xf32>) -> tensor<2x5x8xf32> {
  %g = relax.constant dense<7.0> : tensor<8xf32>
  %b = relax.constant dense<9.0> : tensor<8xf32>
  %m = relax.constant dense<2.0> : tensor<8xf32>
  %v = relax.constant dense<3.0> : tensor<8xf32>
  %y, %nm, %nv = relax.nn.batch_norm %x, %g, %b, %m, %v {axis = -1 : i64, epsilon = 1.0, center = false, scale = false} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %y : tensor<2x5x8xf32>
}

// -----

// Negative: integer batch_norm (no rsqrt) is left alone.
// CHECK-LABEL: func.func @integer
// CHECK: relax.nn.batch_norm
func.func @integer(%x: tensor<1x4xi32>, %p: tensor<4xi32>) -> tensor<1x4xi32> {
  %y, %nm, %nv = relax.nn.batch_norm %x, %p, %p, %p, %p : (tensor<1x4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> (tensor<1x4xi32>, tensor<4xi32>, tensor<4xi32>)
  return %y : tensor<1x4xi32>
}
