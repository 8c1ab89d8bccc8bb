// An elementwise kernel moves 16 bytes per load and store: the Fallback
// rule's vector lanes, its results stored after all of the thread's loads
// (a load may not move above a store that may alias it, which kept LLVM's
// load/store vectorizer from merging scalar accesses: 61 % of an H200's
// copy bandwidth for relu with one f32 per thread).
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// CHECK:     .entry add_kernel
// CHECK:       ld.global.v4.b32
// CHECK:       ld.global.v4.b32
// CHECK:       st.global.v4.b32
// CHECK-NOT:   ld.global.b32
func.func @main(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = relay.add %x, %y : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
