// RUN: mlc-opt %s --relax-legalize-ops --split-input-file | FileCheck %s
// RUN: mlc-opt %s --relax-legalize-ops=skip-ops=relax.nn.relu --split-input-file | FileCheck %s --check-prefix=SKIP
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --mlc-cpu-pipeline --verify-each -o /dev/null

// A broadcasting binary op: one spatial block over the output; the 1-D
// operand is read at the trailing index, reads/writes are inferred.
// CHECK-LABEL: tensorir.prim_func private @add(
// CHECK-SAME:      %A: memref<4x8xf32>, %B: memref<8xf32>, %T_add: memref<4x8xf32>) attributes {tensorir.noalias} {
// CHECK-NEXT:    tensorir.for %i0 = 0 to 4 {
// CHECK-NEXT:      tensorir.for %i1 = 0 to 8 {
// CHECK-NEXT:        tensorir.block "T_add"(%v_i0 = spatial(4, %i0), %v_i1 = spatial(8, %i1))
// CHECK-SAME:          reads(%A[%v_i0, %v_i1], %B[%v_i1] : memref<4x8xf32>, memref<8xf32>)
// CHECK-SAME:          writes(%T_add[%v_i0, %v_i1] : memref<4x8xf32>) {
// CHECK-NEXT:          %[[X:.*]] = memref.load %A[%v_i0, %v_i1]
// CHECK-NEXT:          %[[Y:.*]] = memref.load %B[%v_i1]
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:          memref.store %[[S]], %T_add[%v_i0, %v_i1]
// CHECK:       tensorir.prim_func private @relu(%A: memref<4x8xf32>, %T_relu: memref<4x8xf32>)
// CHECK:         arith.maximumf
// A second op with the same name, attributes and types reuses the kernel;
// one with other types gets its own, renamed.
// CHECK:       tensorir.prim_func private @add_0(%A: memref<4x8xf32>, %B: memref<4x8xf32>, %T_add: memref<4x8xf32>)
// CHECK-LABEL: func.func @main(
// CHECK:         %[[A:.*]] = relax.call_tir @add(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = relax.call_tir @relu(%[[A]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = relax.call_tir @add(%[[R]], %arg1)
// CHECK-NEXT:    %[[C:.*]] = relax.call_tir @add_0(%[[B]], %arg0)
// CHECK-NEXT:    relax.output %[[C]]

// SKIP-LABEL: func.func @main(
// SKIP:         relax.call_tir @add(
// SKIP-NEXT:    relax.nn.relu
// SKIP-NOT:     @relu
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %out = relax.dataflow -> tensor<4x8xf32> {
    %0 = relax.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = relax.nn.relu %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = relax.add %1, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %3 = relax.add %2, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    relax.output %3 : tensor<4x8xf32>
  }
  return %out : tensor<4x8xf32>
}

// -----

// Symbolic shapes: the kernel takes `?` buffers and reads the extent from
// the output buffer; the call keeps the #relax.shape types.
// CHECK-LABEL: tensorir.prim_func private @exp_kernel(%A: memref<?x8xf32>, %T_exp: memref<?x8xf32>)
// CHECK:         %[[N:.*]] = memref.dim %T_exp, %c0 : memref<?x8xf32>
// CHECK-NEXT:    tensorir.for %i0 = 0 to %[[N]] {
// CHECK:           tensorir.block "compute"(%v_i0 = spatial(%[[N]], %i0), %v_i1 = spatial(8, %i1))
// CHECK:             math.exp
// CHECK-LABEL: func.func @symbolic(
// CHECK:         relax.call_tir @exp_kernel(%arg0) : (tensor<?x8xf32, #relax.shape<[n, 8]>>) -> tensor<?x8xf32, #relax.shape<[n, 8]>>
func.func @symbolic(%x: tensor<?x8xf32, #relax.shape<[n, 8]>>) -> tensor<?x8xf32, #relax.shape<[n, 8]>> {
  %0 = relax.exp %x : (tensor<?x8xf32, #relax.shape<[n, 8]>>) -> tensor<?x8xf32, #relax.shape<[n, 8]>>
  return %0 : tensor<?x8xf32, #relax.shape<[n, 8]>>
}

// -----

// Comparisons produce i1, astype follows C casts, clip is max(min(x, hi), lo),
// where selects with broadcasting.
// CHECK-LABEL: tensorir.prim_func private @less(
// CHECK:         arith.cmpf olt
// CHECK-LABEL: tensorir.prim_func private @astype(%A: memref<3xf32>, %T_astype: memref<3xi32>)
// CHECK:         arith.fptosi {{.*}} : f32 to i32
// CHECK-LABEL: tensorir.prim_func private @clip(
// CHECK:         %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:    %[[MIN:.*]] = arith.minimumf %{{.*}}, %[[HI]]
// CHECK-NEXT:    %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.maximumf %[[MIN]], %[[LO]]
// CHECK-LABEL: tensorir.prim_func private @where(%A: memref<3xi1>, %B: memref<3xf32>, %C: memref<1xf32>, %T_where: memref<3xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.load %C[%[[C0]]]
// CHECK:         arith.select
func.func @misc(%x: tensor<3xf32>, %y: tensor<1xf32>) -> (tensor<3xi32>, tensor<3xf32>) {
  %c = relax.less %x, %y : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xi1>
  %i = relax.astype %x {dtype = i32} : (tensor<3xf32>) -> tensor<3xi32>
  %k = relax.clip %x {max = 6.0 : f64, min = 0.0 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  %w = relax.where %c, %k, %y : (tensor<3xi1>, tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  return %i, %w : tensor<3xi32>, tensor<3xf32>
}

// -----

// A dimension of size 1 in both an operand and the output is read at its
// iteration variable (it is 0 either way), so the kernel reads its input
// at its iteration variables (a batch-1 convolution's epilogue then inlines
// into the convolution); one that broadcasts reads index 0.
// CHECK-LABEL: tensorir.prim_func private @multiply(
// CHECK-SAME:      %A: memref<1x4x8xf32>, %B: memref<1x1x8xf32>, %T_multiply: memref<1x4x8xf32>)
// CHECK:           reads(%A[%v_i0, %v_i1, %v_i2], %B[%v_i0, 0, %v_i2] : memref<1x4x8xf32>, memref<1x1x8xf32>)
// CHECK-NEXT:      memref.load %A[%v_i0, %v_i1, %v_i2]
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:      memref.load %B[%v_i0, %[[ZERO]], %v_i2]
func.func @main(%x: tensor<1x4x8xf32>, %s: tensor<1x1x8xf32>) -> tensor<1x4x8xf32> {
  %0 = relax.dataflow -> tensor<1x4x8xf32> {
    %1 = relax.multiply %x, %s : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
    relax.output %1 : tensor<1x4x8xf32>
  }
  return %0 : tensor<1x4x8xf32>
}
