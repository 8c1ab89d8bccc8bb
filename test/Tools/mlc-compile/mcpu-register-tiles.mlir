// With --mcpu, the default schedule's register tiles fit that CPU's vector
// registers rather than the host's (CPU pipeline option target-vector-bits,
// which the compiler sets from the CPU's features): Haswell (AVX2, 16
// registers of 256 bits) gets 6 x 16 tiles, six rows of one 16-float
// vector; Skylake-AVX512 (32 of 512 bits) 6 x 64, six rows of 64 floats;
// Zen 4 (512-bit FMAs in two 256-bit halves) 6 x 32 (CPU pipeline option
// target-cpu, which --mcpu sets). An explicit target-vector-bits wins over
// the CPU's features, an explicit target-cpu over --mcpu.
// RUN: mlc-compile %s --mcpu=haswell -o %t.haswell.ll
// RUN: FileCheck %s --check-prefix=AVX2 < %t.haswell.ll
// RUN: mlc-compile %s --mcpu=skylake-avx512 -o %t.skx.ll
// RUN: FileCheck %s --check-prefix=AVX512 < %t.skx.ll
// RUN: mlc-compile %s --mcpu=haswell --pipeline-options=target-vector-bits=512 -o %t.forced.ll
// RUN: FileCheck %s --check-prefix=AVX512 < %t.forced.ll
// RUN: mlc-compile %s --mcpu=znver4 -o %t.zen4.ll
// RUN: FileCheck %s --check-prefix=ZEN4 < %t.zen4.ll
// RUN: mlc-compile %s --mcpu=znver4 --pipeline-options=target-cpu=znver5 -o %t.zen5.ll
// RUN: FileCheck %s --check-prefix=AVX512 < %t.zen5.ll

// AVX2-COUNT-6: call <16 x float> @llvm.fmuladd.v16f32
// AVX2-NOT: <64 x float> @llvm.fmuladd
// AVX512-COUNT-6: call <64 x float> @llvm.fmuladd.v64f32
// ZEN4-COUNT-6: call <32 x float> @llvm.fmuladd.v32f32
// ZEN4-NOT: <64 x float> @llvm.fmuladd
func.func @main(%a: tensor<192x256xf32>, %b: tensor<256x128xf32>) -> tensor<192x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<192x128xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<192x128xf32>) -> tensor<192x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<192x256xf32>, tensor<256x128xf32>) outs(%fill : tensor<192x128xf32>) -> tensor<192x128xf32>
  return %c : tensor<192x128xf32>
}
