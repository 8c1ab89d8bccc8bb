// --target=cpu|cuda[:sm_XX] selects the pipeline (cpu, the default, as
// before). Invalid values are rejected before anything is compiled, whether
// or not mlc was built with CUDA, and no output file is written.
// RUN: %python -c "import numpy as np; np.savez('%t.in.npz', x=np.arange(6, dtype=np.float32).reshape(2, 3))"
// RUN: rm -f %t.out.npz
// RUN: mlc-run %s --target=cpu --inputs=%t.in.npz | FileCheck %s --check-prefix=CPU
// RUN: mlc-run --help | FileCheck %s --check-prefix=HELP
// RUN: not mlc-run %s --target=rocm --inputs=%t.in.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=ROCM
// RUN: not mlc-run %s --target=cuda:sm_1 --inputs=%t.in.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mlc-run %s --target=cuda: --inputs=%t.in.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: not mlc-run %s --target=cpu:sm_90 --inputs=%t.in.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=CPUCHIP
// RUN: not mlc-run %s --target=cuda:sm_90 --pipeline-options='features=+ptx60' --inputs=%t.in.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not mlc-run %s --target=cuda --pipeline-options='openmp=false' --inputs=%t.in.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: not test -e %t.out.npz

// CPU: out0: tensor<2x3xf32> min 0 max 10 mean 5 [0, 2, 4, 6, 8, 10]
// HELP: --target=<target> {{.*}}cpu (the host), or cuda[:sm_XX]
// ROCM: mlc-run: error: unknown --target 'rocm' (expected cpu or cuda[:sm_XX])
// CHIP: mlc-run: error: unknown GPU chip 'sm_1' in --target 'cuda:sm_1' (expected cuda:sm_XX with sm_50 ... sm_121a, e.g. cuda:sm_90 for H100)
// NOCHIP: mlc-run: error: --target 'cuda:' names no chip (expected cuda or cuda:sm_XX, e.g. cuda:sm_90)
// CPUCHIP: mlc-run: error: --target=cpu takes no chip ('cpu:sm_90')
// PTX: mlc-run: error: PTX ISA 6.0 (+ptx60) is too old for mlc's kernels on sm_90: they need +ptx78 or later
// OPTIONS: mlc-run: error: invalid --pipeline-options 'openmp=false'

func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}) -> tensor<2x3xf32> {
  %0 = arith.addf %x, %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
