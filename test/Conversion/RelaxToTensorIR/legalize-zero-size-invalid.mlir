// TensorIR loops and blocks have positive extents: a kernel that would
// iterate over a zero-size dimension is an error at the relax op, with the
// reason and the zero-size operand or result; zero-size operands that the
// kernel does not iterate over (see legalize-manipulation.mlir: pad) and
// non-empty tensors legalize as usual.
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics | FileCheck %s

func.func @sum_over_empty_axis(%x: tensor<2x0xf32>) -> tensor<2xf32> {
  // expected-error @below {{'relax.sum' op cannot be legalized: its kernel is invalid ('tensorir.block' op iteration variable #1 'v_k0' has extent 0, expected a positive extent)}}
  // expected-note @below {{operand #0 has type 'tensor<2x0xf32>', with a zero-size dimension; TensorIR loops have positive extents}}
  %0 = relax.sum %x {axis = array<i64: 1>} : (tensor<2x0xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @empty_result(%x: tensor<4x3xf32>) -> tensor<4x0xf32> {
  // expected-error @below {{'relax.strided_slice' op cannot be legalized: its kernel is invalid}}
  // expected-note @below {{result #0 has type 'tensor<4x0xf32>', with a zero-size dimension}}
  %0 = relax.strided_slice %x {axes = array<i64: 1>, begin = array<i64: 1>, end = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @sum
// CHECK: func.func @sum_over_axis
// CHECK: relax.call_tir @sum
func.func @sum_over_axis(%x: tensor<2x5xf32>) -> tensor<2xf32> {
  %0 = relax.sum %x {axis = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
