// float16 math on the CPU is computed in float32
// (math-extend-to-supported-types): upstream's erf approximation in float16
// used f16 FMAs, which x86 without AVX512-FP16 lowers to libgcc's
// __truncdfhf2 per element, so the library did not link (--no-undefined).
// Now it links, and the approximation's FMAs are f32 between one extension
// and one truncation.
// RUN: mlc-compile --target=cpu %s -o %t.so
// RUN: mlc-compile --target=cpu %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// CHECK-NOT: fma.v{{[0-9]+}}f16
// CHECK-NOT: __truncdfhf2
// CHECK:     fpext <{{[0-9]+}} x half> %{{.*}} to <{{[0-9]+}} x float>
// CHECK:     call <{{[0-9]+}} x float> @llvm.fma.v{{[0-9]+}}f32
// CHECK:     fptrunc <{{[0-9]+}} x float> %{{.*}} to <{{[0-9]+}} x half>
// CHECK-NOT: fma.v{{[0-9]+}}f16

func.func @main(%arg0: tensor<64x64xf16> {relay.name = "h"}) -> tensor<64x64xf16> {
  %0 = relay.erf %arg0 : (tensor<64x64xf16>) -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}
