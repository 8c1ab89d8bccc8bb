// Kernels of the normalizations (LegalizeNormalization.cpp).
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file | FileCheck %s
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --convert-tensorir-to-scf > /dev/null

// batch_norm (inference): one block per channel element, gamma without
// beta (center = false); the moving statistics are copied to results 1, 2.
// CHECK-LABEL: tensorir.prim_func private @batch_norm(
// CHECK-SAME: %[[X:[^:]*]]: memref<2x4x3xf32>, %[[G:[^:]*]]: memref<4xf32>, %[[B:[^:]*]]: memref<4xf32>, %[[M:[^:]*]]: memref<4xf32>, %[[V:[^:]*]]: memref<4xf32>, %[[O:[^:]*]]: memref<2x4x3xf32>, %[[OM:[^:]*]]: memref<4xf32>, %[[OV:[^:]*]]: memref<4xf32>)
// CHECK: tensorir.block "T_batch_norm"(%[[I0:.*]] = spatial(2, %{{.*}}), %[[I1:.*]] = spatial(4, %{{.*}}), %[[I2:.*]] = spatial(3, %{{.*}}))
// CHECK: %[[XV:.*]] = memref.load %[[X]][%[[I0]], %[[I1]], %[[I2]]]
// CHECK: %[[VV:.*]] = memref.load %[[V]][%[[I1]]]
// CHECK: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK: %[[VE:.*]] = arith.addf %[[VV]], %[[EPS]]
// CHECK: %[[SQ:.*]] = math.sqrt %[[VE]]
// CHECK: %[[MV:.*]] = memref.load %[[M]][%[[I1]]]
// CHECK: %[[D:.*]] = arith.subf %[[XV]], %[[MV]]
// CHECK: %[[N:.*]] = arith.divf %[[D]], %[[SQ]]
// CHECK: %[[GV:.*]] = memref.load %[[G]][%[[I1]]]
// CHECK: %[[R:.*]] = arith.mulf %[[N]], %[[GV]]
// CHECK-NOT: memref.load %[[B]]
// CHECK: memref.store %[[R]], %[[O]][%[[I0]], %[[I1]], %[[I2]]]
// CHECK: tensorir.block "T_batch_norm_mean"
// CHECK: memref.load %[[M]]
// CHECK: memref.store %{{.*}}, %[[OM]]
// CHECK: tensorir.block "T_batch_norm_var"
// CHECK: memref.load %[[V]]
// CHECK: memref.store %{{.*}}, %[[OV]]
// CHECK: relax.call_tir @batch_norm(
func.func @test_batch_norm(%x: tensor<2x4x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<2x4x3xf32> {
  %0, %1, %2 = relax.nn.batch_norm %x, %g, %b, %m, %v {center = false, epsilon = 1.0e-3 : f64} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>)
  return %0 : tensor<2x4x3xf32>
}

// -----

// layer_norm with a symbolic batch, f16 accumulating in f32 (TOPI):
// A_sum, A_mean, A_var_sum = sum((x - mean)^2), then T_layer_norm.
// CHECK-LABEL: tensorir.prim_func private @layer_norm(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x8xf16>, %[[G:[^:]*]]: memref<8xf16>, %[[B:[^:]*]]: memref<8xf16>, %[[O:[^:]*]]: memref<?x8xf16>)
// CHECK: %[[N:.*]] = memref.dim %[[X]], %c0
// CHECK: %[[SUM:.*]] = tensorir.alloc_buffer(%[[N]]) {{.*}}: memref<?xf32>
// CHECK: tensorir.block "A_sum"(%{{.*}} = spatial(%{{.*}}, %{{.*}}), %{{.*}} = reduce(8, %{{.*}}))
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[MEAN:.*]] = tensorir.alloc_buffer(%[[N]]) {{.*}}: memref<?xf32>
// CHECK: tensorir.block "A_mean"
// CHECK: arith.constant 8.000000e+00 : f32
// CHECK: %[[VAR:.*]] = tensorir.alloc_buffer(%[[N]]) {{.*}}: memref<?xf32>
// CHECK: tensorir.block "A_var_sum"
// CHECK: %[[XF:.*]] = arith.extf
// CHECK: %[[MV:.*]] = memref.load %[[MEAN]]
// CHECK: %[[D:.*]] = arith.subf %[[XF]], %[[MV]] : f32
// CHECK: arith.mulf %[[D]], %[[D]] : f32
// CHECK: tensorir.block "T_layer_norm"(%[[I0:.*]] = spatial(%{{.*}}, %{{.*}}), %[[I1:.*]] = spatial(8, %{{.*}}))
// CHECK: memref.load %[[VAR]][%[[I0]]]
// CHECK: math.rsqrt %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.load %[[G]][%[[I1]]]
// CHECK: memref.load %[[B]][%[[I1]]]
func.func @test_layer_norm(%x: tensor<?x8xf16, #relax.shape<[n, 8]>>, %g: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<?x8xf16, #relax.shape<[n, 8]>> {
  %0 = relax.nn.layer_norm %x, %g, %b {axes = array<i64: -1>} : (tensor<?x8xf16, #relax.shape<[n, 8]>>, tensor<8xf16>, tensor<8xf16>) -> tensor<?x8xf16, #relax.shape<[n, 8]>>
  return %0 : tensor<?x8xf16, #relax.shape<[n, 8]>>
}

// -----

// layer_norm over axes [2, 0]: gamma is indexed in the listed order.
// CHECK-LABEL: tensorir.prim_func private @layer_norm(
// CHECK: tensorir.block "A_sum"(%[[S:.*]] = spatial(4, %{{.*}}), %[[K0:.*]] = reduce(2, %{{.*}}), %[[K1:.*]] = reduce(3, %{{.*}}))
// CHECK: memref.load %{{.*}}[%[[K0]], %[[S]], %[[K1]]]
// CHECK: tensorir.block "T_layer_norm"(%[[I0:.*]] = spatial(2, %{{.*}}), %[[I1:.*]] = spatial(4, %{{.*}}), %[[I2:.*]] = spatial(3, %{{.*}}))
// CHECK: memref.load %{{.*}}[%[[I2]], %[[I0]]] : memref<3x2xf32>
func.func @test_layer_norm_axes(%x: tensor<2x4x3xf32>, %g: tensor<3x2xf32>, %b: tensor<3x2xf32>) -> tensor<2x4x3xf32> {
  %0 = relax.nn.layer_norm %x, %g, %b {axes = array<i64: 2, 0>} : (tensor<2x4x3xf32>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// group_norm: statistics per (batch, group); channel c is group c / 2,
// element c % 2 of the group.
// CHECK-LABEL: tensorir.prim_func private @group_norm(
// CHECK: %[[SUM:.*]] = tensorir.alloc_buffer : memref<2x3xf32>
// CHECK: tensorir.block "A_sum"(%[[N:.*]] = spatial(2, %{{.*}}), %[[GR:.*]] = spatial(3, %{{.*}}), %[[K0:.*]] = reduce(2, %{{.*}}), %[[K1:.*]] = reduce(5, %{{.*}}))
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[BASE:.*]] = arith.muli %[[GR]], %[[C2]]
// CHECK: %[[C:.*]] = arith.addi %[[BASE]], %[[K0]]
// CHECK: memref.load %{{.*}}[%[[N]], %[[C]], %[[K1]]]
// CHECK: tensorir.block "A_mean"
// CHECK: arith.constant 1.000000e+01 : f32
// CHECK: tensorir.block "A_var_sum"
// CHECK: tensorir.block "T_group_norm"(%[[I0:.*]] = spatial(2, %{{.*}}), %[[I1:.*]] = spatial(6, %{{.*}}), %{{.*}} = spatial(5, %{{.*}}))
// CHECK: %[[G:.*]] = arith.divui %[[I1]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[I0]], %[[G]]] : memref<2x3xf32>
func.func @test_group_norm(%x: tensor<2x6x5xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x5xf32> {
  %0 = relax.nn.group_norm %x, %g, %b {num_groups = 3 : i64} : (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

// instance_norm with channels last: statistics over axis 1 only.
// CHECK-LABEL: tensorir.prim_func private @instance_norm(
// CHECK: tensorir.alloc_buffer : memref<2x3xf32>
// CHECK: tensorir.block "A_sum"(%{{.*}} = spatial(2, %{{.*}}), %{{.*}} = spatial(3, %{{.*}}), %{{.*}} = reduce(4, %{{.*}}))
// CHECK: tensorir.block "T_instance_norm"
// CHECK: arith.constant 4.000000e+00 : f32

// A rank-2 instance_norm reduces nothing: the sums are copies (no
// tensorir.init without a reduce variable).
// CHECK-LABEL: tensorir.prim_func private @instance_norm_0(
// CHECK: tensorir.block "A_sum"(%{{.*}} = spatial(3, %{{.*}}), %{{.*}} = spatial(4, %{{.*}}))
// CHECK-NOT: tensorir.init
// CHECK: tensorir.block "T_instance_norm"
func.func @test_instance_norm(%x: tensor<2x4x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %y: tensor<3x4xf32>, %h: tensor<4xf32>) -> (tensor<2x4x3xf32>, tensor<3x4xf32>) {
  %0 = relax.nn.instance_norm %x, %g, %b {channel_axis = -1 : i64} : (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  %1 = relax.nn.instance_norm %y, %h, %h : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0, %1 : tensor<2x4x3xf32>, tensor<3x4xf32>
}
