// Kernels of the reductions and softmax (LegalizeReduction.cpp).
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file | FileCheck %s
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --convert-tensorir-to-scf > /dev/null

// sum over a negative axis with keepdims: one A_red block, the kept axis is
// a size-1 spatial variable and the reduced one a reduce variable.
// CHECK-LABEL: tensorir.prim_func private @sum(
// CHECK-SAME: %[[A:.*]]: memref<7x13x5xf32>, %[[O:.*]]: memref<7x1x5xf32>)
// CHECK: tensorir.block "A_red"(%[[I0:.*]] = spatial(7, %{{.*}}), %[[I1:.*]] = spatial(1, %{{.*}}), %[[I2:.*]] = spatial(5, %{{.*}}), %[[K0:.*]] = reduce(13, %{{.*}}))
// CHECK: tensorir.init {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: memref.store %[[ZERO]], %[[O]][%[[I0]], %[[I1]], %[[I2]]]
// CHECK: %[[X:.*]] = memref.load %[[A]][%[[I0]], %[[K0]], %[[I2]]]
// CHECK: %[[ACC:.*]] = memref.load %[[O]][%[[I0]], %[[I1]], %[[I2]]]
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK: memref.store %[[S]], %[[O]][%[[I0]], %[[I1]], %[[I2]]]
// CHECK: func.func @test_sum(
// CHECK: relax.call_tir @sum(%{{.*}}) : (tensor<7x13x5xf32>) -> tensor<7x1x5xf32>
func.func @test_sum(%x: tensor<7x13x5xf32>) -> tensor<7x1x5xf32> {
  %0 = relax.sum %x {axis = array<i64: -2>, keepdims = true} : (tensor<7x13x5xf32>) -> tensor<7x1x5xf32>
  return %0 : tensor<7x1x5xf32>
}

// -----

// prod over all axes (no axis): a rank-0 output, identity 1; max/min use
// the lowest/highest value.
// CHECK-LABEL: tensorir.prim_func private @prod(
// CHECK: tensorir.block "A_red"(%{{.*}} = reduce(3, %{{.*}}), %{{.*}} = reduce(4, %{{.*}}))
// CHECK: arith.constant 1 : i32
// CHECK: arith.muli
// CHECK-LABEL: tensorir.prim_func private @max(
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK-LABEL: tensorir.prim_func private @min(
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minimumf
func.func @test_prod_max_min(%x: tensor<3x4xi32>, %y: tensor<3x4xf32>) -> (tensor<i32>, tensor<3xi32>, tensor<4xf32>) {
  %0 = relax.prod %x : (tensor<3x4xi32>) -> tensor<i32>
  %1 = relax.max %x {axis = array<i64: 1>} : (tensor<3x4xi32>) -> tensor<3xi32>
  %2 = relax.min %y {axis = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<i32>, tensor<3xi32>, tensor<4xf32>
}

// -----

// A reduction of a rank-0 tensor reduces nothing: a copy (no tensorir.init,
// which needs a reduce variable).
// CHECK-LABEL: tensorir.prim_func private @max(
// CHECK-NEXT: tensorir.block "A_red" reads
// CHECK-NOT: tensorir.init
// CHECK: tensorir.return
func.func @test_max_scalar(%x: tensor<f32>) -> tensor<f32> {
  %0 = relax.max %x : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// mean: the sum into an A_red buffer, then T_divide by the element count,
// read from the buffer size when it is symbolic.
// CHECK-LABEL: tensorir.prim_func private @mean(
// CHECK-SAME: %[[A:.*]]: memref<?x13xf32>, %[[O:.*]]: memref<1x13xf32>)
// CHECK: %[[RED:.*]] = tensorir.alloc_buffer : memref<1x13xf32>
// CHECK: %[[N:.*]] = memref.dim %[[A]], %c0
// CHECK: tensorir.block "A_red"(%{{.*}} = spatial(1, %{{.*}}), %{{.*}} = spatial(13, %{{.*}}), %{{.*}} = reduce(%[[N]], %{{.*}}))
// CHECK: %[[N2:.*]] = memref.dim %[[A]], %c0
// CHECK: tensorir.block "T_divide"
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[N2]] : index to i64
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[I]] : i64 to f32
// CHECK-NEXT: %[[S:.*]] = memref.load %[[RED]]
// CHECK-NEXT: arith.divf %[[S]], %[[F]] : f32
func.func @test_mean_symbolic(%x: tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<1x13xf32> {
  %0 = relax.mean %x {axis = array<i64: 0>, keepdims = true} : (tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<1x13xf32>
  return %0 : tensor<1x13xf32>
}

// -----

// argmax: TVM's (index, value) reducer in two A_red_temp buffers; ties keep
// the smaller index (unsigned, so the initial -1 never wins); A_red copies
// the index out.
// CHECK-LABEL: tensorir.prim_func private @argmax(
// CHECK-SAME: %[[A:.*]]: memref<?x13xf32>, %[[O:.*]]: memref<?xi64>)
// CHECK: %[[IDX:.*]] = tensorir.alloc_buffer(%{{.*}}) {{.*}}: memref<?xi64>
// CHECK: %[[VAL:.*]] = tensorir.alloc_buffer(%{{.*}}) {{.*}}: memref<?xf32>
// CHECK: tensorir.block "A_red_temp"(%[[I:.*]] = spatial(%{{.*}}, %{{.*}}), %[[K:.*]] = reduce(13, %{{.*}}))
// CHECK-SAME: writes(%[[IDX]][%[[I]]], %[[VAL]][%[[I]]] : memref<?xi64>, memref<?xf32>)
// CHECK: tensorir.init {
// CHECK-DAG: arith.constant -1 : i64
// CHECK-DAG: arith.constant 0xFF800000 : f32
// CHECK: %[[X:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[AI:.*]] = memref.load %[[IDX]][%[[I]]]
// CHECK: %[[AV:.*]] = memref.load %[[VAL]][%[[I]]]
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[AV]], %[[X]]
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[AV]], %[[X]]
// CHECK: %[[LT:.*]] = arith.cmpi ult, %[[AI]], %[[KI]]
// CHECK: %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]]
// CHECK: %[[KEEP:.*]] = arith.ori %[[GT]], %[[TIE]]
// CHECK: %[[NI:.*]] = arith.select %[[KEEP]], %[[AI]], %[[KI]] : i64
// CHECK: %[[NV:.*]] = arith.select %[[GT]], %[[AV]], %[[X]] : f32
// CHECK: memref.store %[[NI]], %[[IDX]][%[[I]]]
// CHECK: memref.store %[[NV]], %[[VAL]][%[[I]]]
// CHECK: tensorir.block "A_red"
// CHECK: memref.load %[[IDX]]
// CHECK: memref.store %{{.*}}, %[[O]]
func.func @test_argmax(%x: tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<?xi64, #relax.shape<[n]>> {
  %0 = relax.argmax %x {axis = 1 : i64} : (tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<?xi64, #relax.shape<[n]>>
  return %0 : tensor<?xi64, #relax.shape<[n]>>
}

// -----

// argmin without axis: the row-major index over all axes, and +inf first.
// CHECK-LABEL: tensorir.prim_func private @argmin(
// CHECK: tensorir.block "A_red_temp"(%[[K0:.*]] = reduce(3, %{{.*}}), %[[K1:.*]] = reduce(4, %{{.*}}))
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[M:.*]] = arith.muli %[[K0]], %[[C4]]
// CHECK: %[[FLAT:.*]] = arith.addi %[[M]], %[[K1]]
// CHECK: arith.index_cast %[[FLAT]] : index to i64
// CHECK: arith.cmpf olt
func.func @test_argmin_flat(%x: tensor<3x4xf32>) -> tensor<i64> {
  %0 = relax.argmin %x : (tensor<3x4xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// softmax: TOPI's four stages over intermediate buffers.
// CHECK-LABEL: tensorir.prim_func private @softmax(
// CHECK-SAME: %[[A:.*]]: memref<4x6x3xf32>, %[[O:.*]]: memref<4x6x3xf32>)
// CHECK: %[[MAX:.*]] = tensorir.alloc_buffer : memref<4x3xf32>
// CHECK: tensorir.block "T_softmax_maxelem"(%[[I0:.*]] = spatial(4, %{{.*}}), %[[I1:.*]] = spatial(3, %{{.*}}), %[[K:.*]] = reduce(6, %{{.*}}))
// CHECK: memref.load %[[A]][%[[I0]], %[[K]], %[[I1]]]
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = tensorir.alloc_buffer : memref<4x3xf32>
// CHECK: %[[EXP:.*]] = tensorir.alloc_buffer : memref<4x6x3xf32>
// CHECK: tensorir.block "T_softmax_exp"
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: tensorir.block "T_softmax_expsum"
// CHECK: memref.load %[[EXP]]
// CHECK: arith.addf
// CHECK: tensorir.block "T_softmax_norm"
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[O]]
func.func @test_softmax(%x: tensor<4x6x3xf32>) -> tensor<4x6x3xf32> {
  %0 = relax.nn.softmax %x {axis = 1 : i64} : (tensor<4x6x3xf32>) -> tensor<4x6x3xf32>
  return %0 : tensor<4x6x3xf32>
}

// -----

// log_softmax: x - max - log(sum(exp(x - max))), without the exp buffer.
// CHECK-LABEL: tensorir.prim_func private @log_softmax(
// CHECK: tensorir.block "T_log_softmax_maxelem"(%{{.*}} = spatial(6, %{{.*}}), %{{.*}} = reduce(4, %{{.*}}))
// CHECK: tensorir.block "T_log_softmax_expsum"
// CHECK: math.exp
// CHECK: tensorir.block "T_log_softmax_norm"
// CHECK: math.log
// CHECK: arith.subf
// CHECK: arith.subf
func.func @test_log_softmax(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = relax.nn.log_softmax %x {axis = 0 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
