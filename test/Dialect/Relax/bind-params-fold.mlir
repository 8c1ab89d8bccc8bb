// RUN: rm -rf %t && %python %S/Inputs/make_params.py %t
// RUN: mlc-opt %s -relax-bind-params="params=%t/mlp.npz func-name=bound" -relax-fold-constant | FileCheck %s

// After binding, parameter-only computations fold, reading the blobs:
// w0 = [[0, .5, 1], [1.5, 2, 2.5], [3, 3.5, 4], [4.5, 5, 5.5]], b0 = [1, 2, 3];
// ones(1, 4) x w0 + b0 = [10, 13, 16].
// CHECK-LABEL: func.func @bound()
// CHECK-NEXT: %[[C:.*]] = relax.constant dense<{{\[}}[1.000000e+01, 1.300000e+01, 1.600000e+01]]> : tensor<1x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @bound(%w0: tensor<4x3xf32> {relax.name = "w0"}, %b0: tensor<3xf32> {relax.name = "b0"}) -> tensor<1x3xf32> {
  %ones = relax.constant dense<1.0> : tensor<1x4xf32>
  %m = relax.matmul %ones, %w0 : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %a = relax.add %m, %b0 : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %a : tensor<1x3xf32>
}
