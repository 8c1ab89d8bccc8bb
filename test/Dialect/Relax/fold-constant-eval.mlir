// RUN: mlc-opt %s -split-input-file -relax-fold-constant | FileCheck %s
// RUN: mlc-opt %s -split-input-file -relax-fold-constant=max-elements=3 | FileCheck %s --check-prefix=LIMIT
// RUN: mlc-opt %s -split-input-file -relax-fold-constant=max-steps=1 2>/dev/null | FileCheck %s --check-prefix=STEPS

// Ops without folders are evaluated through their kernels; a chain of
// constants folds completely (relu([-1, 2, -3, 4]) * 2 + 0.5).
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[C:.*]] = relax.constant dense<[5.000000e-01, 4.500000e+00, 5.000000e-01, 8.500000e+00]> : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = relax.dataflow
// CHECK-NEXT:      relax.output %[[C]]
// CHECK:         return %[[R]]
// Results of 4 elements are over max-elements=3, but no result is larger
// than its operands together (a transposed or rescaled weight is no bigger
// than the weight): the chain folds all the same.
// LIMIT-LABEL: func.func @chain
// LIMIT-NEXT:    relax.constant dense<[5.000000e-01, 4.500000e+00, 5.000000e-01, 8.500000e+00]>
func.func @chain() -> tensor<4xf32> {
  %x = relax.constant dense<[-1.0, 2.0, -3.0, 4.0]> : tensor<4xf32>
  %two = relax.constant dense<2.0> : tensor<f32>
  %half = relax.constant dense<0.5> : tensor<1xf32>
  %out = relax.dataflow -> tensor<4xf32> {
    %0 = relax.nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    %1 = relax.multiply %0, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %2 = relax.add %1, %half : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    relax.output %2 : tensor<4xf32>
  }
  return %out : tensor<4xf32>
}

// -----

// Multi-stage kernels (softmax: max, exp-sum, normalize), reductions with a
// different result type (argmax: i64), and an op of a constant and a
// non-constant, which stays.
// CHECK-LABEL: func.func @kernels
// CHECK-DAG:     %[[S:.*]] = relax.constant dense<2.500000e-01> : tensor<2x4xf32>
// CHECK-DAG:     %[[M:.*]] = relax.constant dense<[1.500000e+00, 3.500000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[A:.*]] = relax.constant dense<1> : tensor<2xi64>
// CHECK:         %[[L:.*]] = relax.add %arg0, %[[M]]
// CHECK:         return %[[S]], %[[L]], %[[A]]
// The 2-element results stay under max-elements=3; the softmax's 8
// elements do not, and its operand, a splat, stores one: it stays (a
// 2^31-element splat would otherwise be expanded).
// LIMIT-LABEL: func.func @kernels
// LIMIT:         relax.nn.softmax
// LIMIT-NOT:     relax.mean
// LIMIT-NOT:     relax.argmax
// LIMIT:         return
func.func @kernels(%x: tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2xf32>, tensor<2xi64>) {
  %u = relax.constant dense<3.0> : tensor<2x4xf32>
  %m = relax.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = relax.nn.softmax %u {axis = -1 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = relax.mean %m {axis = array<i64: 1>} : (tensor<2x2xf32>) -> tensor<2xf32>
  %2 = relax.add %x, %1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = relax.argmax %m {axis = 0 : i64} : (tensor<2x2xf32>) -> tensor<2xi64>
  %4 = relax.argmax %3 {axis = 0 : i64} : (tensor<2xi64>) -> tensor<i64>
  %5 = relax.astype %4 {dtype = f32} : (tensor<i64>) -> tensor<f32>
  return %0, %2, %3 : tensor<2x4xf32>, tensor<2xf32>, tensor<2xi64>
}

// -----

// Results over 1024 elements become dense_resource blobs, which later ops
// read: sum(2 * 3 over 64 columns) = 384.
// CHECK-LABEL: func.func @resource
// CHECK-DAG:     %[[S:.*]] = relax.constant dense<3.840000e+02> : tensor<32xf32>
// CHECK-DAG:     %[[B:.*]] = relax.constant dense_resource<folded> : tensor<32x64xf32>
// CHECK:         return %[[B]], %[[S]]
func.func @resource() -> (tensor<32x64xf32>, tensor<32xf32>) {
  %a = relax.constant dense<2.0> : tensor<32x64xf32>
  %b = relax.constant dense<3.0> : tensor<32x64xf32>
  %0 = relax.multiply %a, %b : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = relax.sum %0 {axis = array<i64: 1>} : (tensor<32x64xf32>) -> tensor<32xf32>
  return %0, %1 : tensor<32x64xf32>, tensor<32xf32>
}

// -----

// relax.call_tir of a tensorir.prim_func with constant operands is
// interpreted too; calls with tir_vars are not.
// CHECK-LABEL: func.func @call_tir
// CHECK-NEXT:    %[[C:.*]] = relax.constant dense<[3.000000e+00, 5.000000e+00, 7.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    return %[[C]]
// LIMIT-LABEL: func.func @call_tir
// LIMIT:         relax.constant dense<[3.000000e+00, 5.000000e+00, 7.000000e+00]>
tensorir.prim_func private @axpy(%X: memref<3xf32>, %Y: memref<3xf32>, %Z: memref<3xf32>) {
  tensorir.for %i = 0 to 3 {
    tensorir.block "Z"(%vi = spatial(3, %i)) {
      %x = memref.load %X[%vi] : memref<3xf32>
      %y = memref.load %Y[%vi] : memref<3xf32>
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %x, %two : f32
      %s = arith.addf %m, %y : f32
      memref.store %s, %Z[%vi] : memref<3xf32>
    }
  }
}
func.func @call_tir() -> tensor<3xf32> {
  %x = relax.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = relax.constant dense<1.0> : tensor<3xf32>
  %0 = relax.call_tir @axpy(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Mixed dtypes (out_dtype) are beyond the matmul folder; with a limit below
// the result size, which is also larger than the operands (an outer
// product: 16 elements of 8), the kernel path does not take it either, nor
// a broadcast that grows a constant.
// CHECK-LABEL: func.func @no_fold
// CHECK-NOT:     relax.matmul
// CHECK-NOT:     relax.broadcast_to
// CHECK:         return
// LIMIT-LABEL: func.func @no_fold
// LIMIT:         relax.matmul
// LIMIT:         relax.broadcast_to
func.func @no_fold() -> (tensor<4x4xf32>, tensor<2x4xf32>) {
  %a = relax.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf16>
  %b = relax.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf16>
  %m = relax.matmul %a, %b {out_dtype = f32} : (tensor<4x1xf16>, tensor<1x4xf16>) -> tensor<4x4xf32>
  %c = relax.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %d = relax.broadcast_to %c {shape = array<i64: 2, 4>} : (tensor<4xf32>) -> tensor<2x4xf32>
  return %m, %d : tensor<4x4xf32>, tensor<2x4xf32>
}

// -----

// permute_dims moves elements without the interpreter, so the step limit
// does not apply (nn.dense's transposed 25088 x 4096 weight took more than
// 2^26 steps and was transposed on every call): with max-steps=1 the
// transpose folds, the relu (interpreted) does not.
// STEPS-LABEL: func.func @permute_without_steps
// STEPS-NEXT:    %[[T:.*]] = relax.constant dense<{{\[}}{{\[}}[0, 3], [1, 4], [2, 5]], {{\[}}[6, 9], [7, 10], [8, 11]]]> : tensor<2x3x2xi32>
// STEPS:         relax.nn.relu %[[T]]
// CHECK-LABEL: func.func @permute_without_steps
// CHECK-NEXT:    relax.constant dense<{{\[}}{{\[}}[0, 3], [1, 4], [2, 5]], {{\[}}[6, 9], [7, 10], [8, 11]]]> : tensor<2x3x2xi32>
// CHECK-NOT:     relax.nn.relu
func.func @permute_without_steps() -> tensor<2x3x2xi32> {
  %x = relax.constant dense<[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]]> : tensor<2x2x3xi32>
  %out = relax.dataflow -> tensor<2x3x2xi32> {
    %t = relax.permute_dims %x {axes = array<i64: 0, 2, 1>} : (tensor<2x2x3xi32>) -> tensor<2x3x2xi32>
    %a = relax.nn.relu %t : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>
    relax.output %a : tensor<2x3x2xi32>
  }
  return %out : tensor<2x3x2xi32>
}
