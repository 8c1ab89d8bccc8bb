// A transformer's head split (the QKV projection's (tokens, 3 x heads x
// 64) f16 rows to (3, batch, heads, tokens, 64)): each thread copies 16
// bytes, ld.global.v4 and st.global.v4. The kernel reads the input by a
// linear index through a collapsed view of it (convert-tensorir-to-scf),
// which mlc-gpu-assume-alignment marks aligned as the input itself: without
// that, expand-strided-metadata dropped the input's mark and each thread
// loaded its 8 elements 2 bytes at a time.
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// CHECK:     .entry
// CHECK:       ld.global.v4.b32
// CHECK:       st.global.v4.b32
// CHECK-NOT:   ld.global.b16
// CHECK-NOT:   ld.global.u16
func.func @main(%x: tensor<256x2304xf16>) -> tensor<24x128x64xf16> {
  %0 = relax.reshape %x {shape = array<i64: 2, 128, 3, 12, 64>} : (tensor<256x2304xf16>) -> tensor<2x128x3x12x64xf16>
  %1 = relax.permute_dims %0 {axes = array<i64: 2, 0, 3, 1, 4>} : (tensor<2x128x3x12x64xf16>) -> tensor<3x2x12x128x64xf16>
  %2:3 = relax.split %1 {indices_or_sections = 3 : i64, axis = 0 : i64} : (tensor<3x2x12x128x64xf16>) -> (tensor<1x2x12x128x64xf16>, tensor<1x2x12x128x64xf16>, tensor<1x2x12x128x64xf16>)
  %3 = relax.reshape %2#0 {shape = array<i64: 24, 128, 64>} : (tensor<1x2x12x128x64xf16>) -> tensor<24x128x64xf16>
  return %3 : tensor<24x128x64xf16>
}
