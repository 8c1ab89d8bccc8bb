// RUN: mlc-opt %s --relax-legalize-ops --split-input-file | FileCheck %s
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --mlc-cpu-pipeline --verify-each -o /dev/null

// relax.image.resize2d (topi.image.resize2d) and relax.nn.prelu kernels.

// Nearest neighbor, asymmetric coordinates, TOPI's default rounding (floor
// with an epsilon), with a symbolic batch: one "resize" block whose input
// indices are clamped to the image.
// CHECK-LABEL: tensorir.prim_func private @image_resize2d(
// CHECK-SAME: %[[A:.*]]: memref<?x3x4x5xf32>, %[[T:.*]]: memref<?x3x8x10xf32>)
// CHECK: memref.dim %[[T]], %{{.*}} : memref<?x3x8x10xf32>
// CHECK: tensorir.block "resize"(%[[B:.*]] = spatial(%{{.*}}, %{{.*}}), %[[C:.*]] = spatial(3, %{{.*}}), %[[Y:.*]] = spatial(8, %{{.*}}), %[[X:.*]] = spatial(10, %{{.*}}))
// CHECK-SAME: reads(%[[A]][%[[B]], %[[C]], 0:4, 0:5] : memref<?x3x4x5xf32>)
// CHECK: arith.constant 9.99999974E-6 : f32
// CHECK: math.floor
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[B]], %[[C]], %{{.*}}, %{{.*}}] : memref<?x3x4x5xf32>
// CHECK-NEXT: memref.store %[[V]], %[[T]][%[[B]], %[[C]], %[[Y]], %[[X]]]
// CHECK: relax.call_tir @image_resize2d(%{{.*}}) : (tensor<?x3x4x5xf32, #relax.shape<[n, 3, 4, 5]>>) -> tensor<?x3x8x10xf32, #relax.shape<[n, 3, 8, 10]>>
func.func @resize_nearest(%x: tensor<?x3x4x5xf32, #relax.shape<[n, 3, 4, 5]>>) -> tensor<?x3x8x10xf32, #relax.shape<[n, 3, 8, 10]>> {
  %0 = relax.image.resize2d %x {size = array<i64: 8, 10>, method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = ""}
      : (tensor<?x3x4x5xf32, #relax.shape<[n, 3, 4, 5]>>) -> tensor<?x3x8x10xf32, #relax.shape<[n, 3, 8, 10]>>
  return %0 : tensor<?x3x8x10xf32, #relax.shape<[n, 3, 8, 10]>>
}

// -----

// Linear, half_pixel, NHWC: four clamped loads per output and three lerps.
// CHECK-LABEL: tensorir.prim_func private @image_resize2d(
// CHECK-SAME: %[[A:.*]]: memref<1x4x5x3xf32>, %[[T:.*]]: memref<1x7x9x3xf32>)
// CHECK: tensorir.block "resize"(%[[B:.*]] = spatial(1, %{{.*}}), %[[Y:.*]] = spatial(7, %{{.*}}), %[[X:.*]] = spatial(9, %{{.*}}), %[[C:.*]] = spatial(3, %{{.*}}))
// CHECK-SAME: reads(%[[A]][%[[B]], 0:4, 0:5, %[[C]]] : memref<1x4x5x3xf32>)
// CHECK-COUNT-2: math.floor
// CHECK-COUNT-4: memref.load %[[A]][%[[B]], %{{.*}}, %{{.*}}, %[[C]]]
// CHECK: memref.store %{{.*}}, %[[T]][%[[B]], %[[Y]], %[[X]], %[[C]]]
func.func @resize_linear(%x: tensor<1x4x5x3xf32>) -> tensor<1x7x9x3xf32> {
  %0 = relax.image.resize2d %x {size = array<i64: 7, 9>, layout = "NHWC"} : (tensor<1x4x5x3xf32>) -> tensor<1x7x9x3xf32>
  return %0 : tensor<1x7x9x3xf32>
}

// -----

// tf_crop_and_resize reads extrapolation_value outside the image.
// CHECK-LABEL: tensorir.prim_func private @image_resize2d(
// CHECK: tensorir.block "resize"
// CHECK: arith.ori
// CHECK: arith.ori
// CHECK: %[[OUT:.*]] = arith.ori
// CHECK: %[[FILL:.*]] = arith.constant 2.500000e+00 : f32
// CHECK: arith.select %[[OUT]], %[[FILL]], %{{.*}} : f32
func.func @resize_crop(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %0 = relax.image.resize2d %x {size = array<i64: 3>, coordinate_transformation_mode = "tf_crop_and_resize",
                                roi = array<f64: -0.5, 0.0, 1.0, 1.5>, extrapolation_value = 2.5 : f64}
      : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// Cubic: 16 clamped loads of the 4x4 neighborhood, Keys' weights.
// CHECK-LABEL: tensorir.prim_func private @image_resize2d(
// CHECK: tensorir.block "resize"
// CHECK-COUNT-16: memref.load
// CHECK-NOT: memref.load
// CHECK: memref.store
func.func @resize_cubic(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32> {
  %0 = relax.image.resize2d %x {size = array<i64: 8, 6>, method = "cubic", cubic_exclude = 1 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32>
  return %0 : tensor<1x1x8x6xf32>
}

// -----

// topi.nn.prelu: select(x > 0, x, x * alpha[i_axis]).
// CHECK-LABEL: tensorir.prim_func private @prelu(
// CHECK-SAME: %[[A:.*]]: memref<2x5x3xf32>, %[[S:.*]]: memref<3xf32>, %[[T:.*]]: memref<2x5x3xf32>)
// CHECK: tensorir.block "compute"(%[[I:.*]] = spatial(2, %{{.*}}), %[[J:.*]] = spatial(5, %{{.*}}), %[[K:.*]] = spatial(3, %{{.*}}))
// CHECK: %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]], %[[K]]]
// CHECK: %[[AL:.*]] = memref.load %[[S]][%[[K]]]
// CHECK: %[[P:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : f32
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[AL]] : f32
// CHECK: arith.select %[[P]], %[[X]], %[[M]] : f32
func.func @prelu_last_axis(%x: tensor<2x5x3xf32>, %a: tensor<3xf32>) -> tensor<2x5x3xf32> {
  %0 = relax.nn.prelu %x, %a {axis = -1 : i64} : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}
