// The chip/PTX pair is checked before the pipeline is built (LLVM would
// abort on an invalid one).
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=chip=sm_90 features=+ptx60' 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=chip=sm_999' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=features=ptx80' 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=format=cubin' 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not mlc-compile --target=cuda:sm_70 --pipeline-options='features=+ptx50' %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not ls %t.ptx
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=chip=sm_52 features=+ptx41' 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not mlc-compile --target=rocm %s -o %t.so 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mlc-opt %s '--mlc-gpu-pipeline=chip=sm_90 async-copy-stages=1' 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not mlc-compile %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CPUPTX
// RUN: not mlc-compile --target=cuda:sm_90 --pipeline-options='conv-layout=XYZW' %s -o %t.layout.ptx 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not ls %t.layout.ptx

// PTX: PTX ISA 6.0 (+ptx60) is too old for mlc's kernels on sm_90: they need +ptx78 or later
// CHIP: unknown GPU chip 'sm_999'
// FEATURE: invalid PTX feature 'ptx80' (expected +ptxNN
// FORMAT: unknown GPU binary format 'cubin'
// COMPILE: mlc-compile: error: PTX ISA 5.0 (+ptx50) is too old for mlc's kernels on sm_70: they need +ptx60 or later
// OLD: PTX ISA 4.1 (+ptx41) is too old for mlc's kernels on sm_52: they need +ptx60 or later
// TARGET: mlc-compile: error: unknown --target 'rocm' (expected cpu or cuda[:sm_XX])
// CPUPTX: mlc-compile: error: a .ptx output needs --target=cuda
// STAGES: async-copy-stages must be 0 or in [2, 8], got 1
// LAYOUT: relax-convert-layout: data-layout "XYZW" is not supported: expected a permutation of "NCHW"

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
