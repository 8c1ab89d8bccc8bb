// RUN: mlc-opt %s -split-input-file -mlc-gpu-mark-constant-arguments -verify-diagnostics | FileCheck %s

// The weight (a relax.constant) is marked; the activation is not, nor the
// output buffer.
// CHECK-LABEL: tensorir.prim_func @mm
// CHECK-SAME:    (%A: memref<4x8xf16>, %B: memref<8x4xf16> {tensorir.constant}, %C: memref<4x4xf32>)
tensorir.prim_func @mm(%A: memref<4x8xf16>, %B: memref<8x4xf16>, %C: memref<4x4xf32>) {
  tensorir.return
}
func.func @main(%x: tensor<4x8xf16>) -> tensor<4x4xf32> {
  %w = relax.constant dense<1.0> : tensor<8x4xf16>
  %y = relax.call_tir @mm(%x, %w) : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// Only arguments: nothing is marked when no caller passes a constant.
// CHECK-LABEL: tensorir.prim_func @add
// CHECK-NOT:     tensorir.constant
tensorir.prim_func @add(%A: memref<4xf32>, %B: memref<4xf32>, %C: memref<4xf32>) {
  tensorir.return
}
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %z = relax.call_tir @add(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// The attribute is a unit attribute.
// expected-error @+1 {{'tensorir.constant' of argument #0 must be a unit attribute, got 1 : i64}}
tensorir.prim_func @bad(%A: memref<4xf32> {tensorir.constant = 1}) {
  tensorir.return
}
