// A Matmul-rule kernel with the 4 x 4 register tile (M, N < 128): its K
// loop is software-pipelined (mlc-gpu-pipeline-shared-copies): the first
// K step's global loads come before the loop, each iteration loads the
// next step's A and B (8-byte vectors) while it stores the current one into
// shared memory and computes, and the last step is peeled after the loop.
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// CHECK:     .entry matmul_kernel
// CHECK:       ld.global.v2.b32
// CHECK:       ld.global.v2.b32
// CHECK:     $L__BB0_1:
// CHECK-NEXT:  bar.sync 0;
// CHECK:       ld.global.v2.b32
// CHECK:       ld.global.v2.b32
// CHECK:       st.shared.v2.b32
// CHECK:       st.shared.v2.b32
// CHECK:       bar.sync 0;
// CHECK:       ld.shared.v4.b32
// CHECK:       @%p{{[0-9]+}} bra $L__BB0_1;
// CHECK-NOT:   ld.global
// CHECK:       bar.sync 0;
// CHECK-NEXT:  st.shared.v2.b32
// CHECK-NEXT:  st.shared.v2.b32
// CHECK-NEXT:  bar.sync 0;
// CHECK:       ld.shared.v4.b32
// CHECK:       st.global.v4.b32
func.func @main(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %0 = relay.nn.matmul %a, %b : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
