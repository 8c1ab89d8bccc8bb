// RUN: mlc-opt %s | FileCheck %s
// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s -mlir-print-op-generic | mlc-opt | FileCheck %s

// relax.nn.prelu and relax.image.resize2d: printed forms, defaults elided,
// shape inference (symbolic N and C pass through resize2d).

// CHECK-LABEL: func.func @prelu(
// CHECK: relax.nn.prelu %{{.*}}, %{{.*}} : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// CHECK: relax.nn.prelu %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<6xf32>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
func.func @prelu(%x: tensor<1x4x8x8xf32>, %a: tensor<4xf32>,
                 %y: tensor<?x6xf32, #relax.shape<[n, 6]>>, %b: tensor<6xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<?x6xf32, #relax.shape<[n, 6]>>) {
  %0 = relax.nn.prelu %x, %a : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = relax.nn.prelu %y, %b {axis = -1 : i64}
      : (tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<6xf32>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
  return %0, %1 : tensor<1x4x8x8xf32>, tensor<?x6xf32, #relax.shape<[n, 6]>>
}

// CHECK-LABEL: func.func @resize2d(
// CHECK: relax.image.resize2d %{{.*}} {size = array<i64: 16, 12>} : (tensor<1x3x8x6xf32>) -> tensor<1x3x16x12xf32>
// CHECK: relax.image.resize2d %{{.*}} {coordinate_transformation_mode = "asymmetric", layout = "NHWC", method = "nearest_neighbor", rounding_method = "", size = array<i64: 5>} : (tensor<2x8x6x3xf32>) -> tensor<2x5x5x3xf32>
// CHECK: relax.image.resize2d %{{.*}} {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.500000e+00 : f64, out_dtype = f64, roi = array<f64: 1.000000e-01, 0.000000e+00, 9.000000e-01, 1.000000e+00>, size = array<i64: 4, 4>} : (tensor<?x?x8x6xf32, #relax.shape<[n, c, 8, 6]>>) -> tensor<?x?x4x4xf64, #relax.shape<[n, c, 4, 4]>>
func.func @resize2d(%x: tensor<1x3x8x6xf32>, %h: tensor<2x8x6x3xf32>,
                    %s: tensor<?x?x8x6xf32, #relax.shape<[n, c, 8, 6]>>)
    -> (tensor<1x3x16x12xf32>, tensor<2x5x5x3xf32>, tensor<?x?x4x4xf64, #relax.shape<[n, c, 4, 4]>>) {
  %0 = relax.image.resize2d %x {size = array<i64: 16, 12>} : (tensor<1x3x8x6xf32>) -> tensor<1x3x16x12xf32>
  %1 = relax.image.resize2d %h {size = array<i64: 5>, layout = "NHWC", method = "nearest_neighbor",
                                coordinate_transformation_mode = "asymmetric", rounding_method = ""}
      : (tensor<2x8x6x3xf32>) -> tensor<2x5x5x3xf32>
  %2 = relax.image.resize2d %s {size = array<i64: 4, 4>, coordinate_transformation_mode = "tf_crop_and_resize",
                                roi = array<f64: 0.1, 0.0, 0.9, 1.0>, extrapolation_value = 1.5 : f64, out_dtype = f64}
      : (tensor<?x?x8x6xf32, #relax.shape<[n, c, 8, 6]>>) -> tensor<?x?x4x4xf64, #relax.shape<[n, c, 4, 4]>>
  return %0, %1, %2 : tensor<1x3x16x12xf32>, tensor<2x5x5x3xf32>, tensor<?x?x4x4xf64, #relax.shape<[n, c, 4, 4]>>
}
