// Chips whose first PTX ISA is older than 6.0 get PTX 6.0 by default: the
// kernels' cross-thread reductions use shfl.sync, which LLVM cannot select
// for an older ISA (it aborted with "Cannot select: intrinsic
// llvm.nvvm.shfl.sync.bfly.f32", and sm_52/sm_53 with PTX 4.0 at all).
// RUN: mlc-opt %s '--mlc-gpu-pipeline=chip=sm_52 format=isa' | FileCheck %s --check-prefixes=CHECK,SM52
// RUN: mlc-opt %s '--mlc-gpu-pipeline=chip=sm_60 format=isa' | FileCheck %s --check-prefixes=CHECK,SM60
// RUN: mlc-opt %s '--mlc-gpu-pipeline=chip=sm_53 format=isa' | FileCheck %s --check-prefix=SM53

// CHECK: .version 6.0
// SM52: .target sm_52
// SM60: .target sm_60
// CHECK: shfl.sync.bfly
// SM53: .target sm_53

func.func @main(%x: tensor<64x1024xf32>) -> tensor<64xf32> {
  %0 = relay.sum %x {axis = array<i64: 1>} : (tensor<64x1024xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
