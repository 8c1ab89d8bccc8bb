// A transpose (a dense layer's weight, 3072 x 768 f16) moves 16 bytes per
// load and store: the Transpose rule's 8 x 8 elements per thread pass
// through registers (no local memory), 8 vector loads along the input's
// rows, 8 vector stores along the output's.
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// CHECK:     .entry permute_dims_kernel
// CHECK-NOT: .local
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK-NOT: ld.global
// CHECK-COUNT-8: st.global.v4.b32
// CHECK-NOT: {{ld|st}}.global
func.func @main(%w: tensor<3072x768xf16>) -> tensor<768x3072xf16> {
  %0 = relay.transpose %w {axes = array<i64: 1, 0>} : (tensor<3072x768xf16>) -> tensor<768x3072xf16>
  return %0 : tensor<768x3072xf16>
}
