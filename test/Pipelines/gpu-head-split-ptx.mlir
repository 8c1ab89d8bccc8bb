// A transformer's head split and merge copy 16 bytes per thread
// (ld.global.v4 and st.global.v4).
// RUN: split-file %s %t
// RUN: mlc-compile --target=cuda:sm_90 %t/split.mlir -o %t/split.ptx
// RUN: FileCheck %s --check-prefix=SPLIT < %t/split.ptx
// RUN: mlc-compile --target=cuda:sm_90 %t/merge.mlir -o %t/merge.ptx
// RUN: FileCheck %s --check-prefix=MERGE < %t/merge.ptx

// The split (the QKV projection's (tokens, 3 x heads x 64) f16 rows to
// (3, batch, heads, tokens, 64)) reads its input by a linear index through
// a collapsed view of it (convert-tensorir-to-scf), which
// mlc-gpu-assume-alignment marks aligned as the input itself: without
// that, expand-strided-metadata dropped the input's mark and each thread
// loaded its 8 elements 2 bytes at a time.
// SPLIT:     .entry
// SPLIT:       ld.global.v4.b32
// SPLIT:       st.global.v4.b32
// SPLIT-NOT:   ld.global.b16
// SPLIT-NOT:   ld.global.u16

// The merge ((batch x heads, tokens, 1, 64) attention output, as
// relax.nn.attention leaves Relay's batch_matmul attention, to (tokens,
// heads x 64)) indexes its input by x rem 64 under a dimension of size 1:
// convert-tensorir-to-scf takes x rem 64 as (x0 rem 64) + lane, and the
// other indices as the vector's, so the lanes' addresses are consecutive.
// MERGE:     .entry
// MERGE:       ld.global.v4.b32
// MERGE:       st.global.v4.b32
// MERGE-NOT:   ld.global.b16
// MERGE-NOT:   ld.global.u16

//--- split.mlir
func.func @main(%x: tensor<256x2304xf16>) -> tensor<24x128x64xf16> {
  %0 = relax.reshape %x {shape = array<i64: 2, 128, 3, 12, 64>} : (tensor<256x2304xf16>) -> tensor<2x128x3x12x64xf16>
  %1 = relax.permute_dims %0 {axes = array<i64: 2, 0, 3, 1, 4>} : (tensor<2x128x3x12x64xf16>) -> tensor<3x2x12x128x64xf16>
  %2:3 = relax.split %1 {indices_or_sections = 3 : i64, axis = 0 : i64} : (tensor<3x2x12x128x64xf16>) -> (tensor<1x2x12x128x64xf16>, tensor<1x2x12x128x64xf16>, tensor<1x2x12x128x64xf16>)
  %3 = relax.reshape %2#0 {shape = array<i64: 24, 128, 64>} : (tensor<1x2x12x128x64xf16>) -> tensor<24x128x64xf16>
  return %3 : tensor<24x128x64xf16>
}

//--- merge.mlir
func.func @main(%x: tensor<24x128x1x64xf16>) -> tensor<256x768xf16> {
  %0 = relax.squeeze %x {axis = array<i64: 2>} : (tensor<24x128x1x64xf16>) -> tensor<24x128x64xf16>
  %1 = relax.reshape %0 {shape = array<i64: 2, 12, 128, 64>} : (tensor<24x128x64xf16>) -> tensor<2x12x128x64xf16>
  %2 = relax.permute_dims %1 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x12x128x64xf16>) -> tensor<2x128x12x64xf16>
  %3 = relax.reshape %2 {shape = array<i64: 256, 768>} : (tensor<2x128x12x64xf16>) -> tensor<256x768xf16>
  return %3 : tensor<256x768xf16>
}
