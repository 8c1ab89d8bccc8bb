// The Matmul rule's kernel in PTX: per K step of 16, each thread copies
// twice 4 consecutive floats of A and of B, each with one 16-byte global
// load and one 16-byte shared store (vectorized copy lanes +
// mlc-gpu-assume-alignment; shared
// buffers declared 16-byte aligned), reads its register tile's operands
// from shared memory 16 bytes at a time, writes C back 16 bytes at a time,
// and syncs twice per K step (before the copies, before the compute).
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t.ptx

// CHECK:     .entry matmul_kernel
// CHECK:       .shared .align 16 .b8 __wg_matmul_kernel_0[8192];
// CHECK:       .shared .align 16 .b8 __wg_matmul_kernel_1[8192];
// CHECK:     $L__BB0_1:
// CHECK-NEXT:  bar.sync 0;
// CHECK-NEXT:  ld.global.v4.b32
// CHECK:       st.shared.v4.b32
// CHECK:       ld.global.v4.b32
// CHECK:       st.shared.v4.b32
// CHECK:       ld.global.v4.b32
// CHECK:       st.shared.v4.b32
// CHECK:       ld.global.v4.b32
// CHECK:       st.shared.v4.b32
// CHECK-NEXT:  bar.sync 0;
// CHECK-NEXT:  ld.shared.v4.b32
// CHECK-NOT:   bar.sync
// CHECK:       @%p{{[0-9]+}} bra $L__BB0_1;
// CHECK:       st.global.v4.b32
// No scalar global or shared access is left in the kernel.
// SCALAR-NOT: {{(ld|st)}}.{{(global|shared)}}.b32
func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = relay.nn.matmul %a, %b : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
