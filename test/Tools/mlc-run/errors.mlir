// mlc-run checks inputs by parameter name, shape and dtype, and fails with a
// message naming the parameter and the file; it writes no output file then.
// RUN: %python -c "import numpy as np; np.savez('%t.good.npz', x=np.ones((2, 3), np.float32)); np.savez('%t.shape.npz', x=np.ones((2, 4), np.float32)); np.savez('%t.dtype.npz', x=np.ones((2, 3), np.float64)); np.savez('%t.extra.npz', x=np.ones((2, 3), np.float32), y=np.ones(1))"
// RUN: rm -f %t.out.npz
// RUN: not mlc-run %s -O 9 --inputs=%t.good.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not test -e %t.out.npz
// OPT: mlc-run: error: -O9 is not an optimization level (0-3)
// RUN: not mlc-run %s --inputs=%t.good.npz --pipeline-options=hoist-result-allocs=false 2>&1 | FileCheck %s --check-prefix=HOIST
// RUN: not mlc-run %s --inputs=%t.shape.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not test -e %t.out.npz
// RUN: not mlc-run %s --inputs=%t.dtype.npz 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not mlc-run %s --inputs=%t.extra.npz 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: not mlc-run %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mlc-run %s --inputs=%t.good.npz --params=%t.good.npz 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not mlc-run %s --inputs=%t.good.npz --entry=nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: head -c 50 %t.good.npz > %t.trunc.npz
// RUN: not mlc-run %s --inputs=%t.trunc.npz 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not mlc-run %s --inputs=%t.missing.npz 2>&1 | FileCheck %s --check-prefix=NOFILE

// HOIST: mlc-run: error: mlc-run needs hoist-result-allocs=true (it passes result buffers to the entry); mlc-compile takes hoist-result-allocs=false
// SHAPE: mlc-run: error: parameter 'x' expects tensor<2x3xf32> but '{{.*}}.shape.npz' holds tensor<2x4xf32>
// DTYPE: mlc-run: error: parameter 'x' expects tensor<2x3xf32> but '{{.*}}.dtype.npz' holds tensor<2x3xf64>
// EXTRA: mlc-run: error: '{{.*}}.extra.npz' has 'y', which is no parameter of 'main'
// MISSING: mlc-run: error: no value for parameter 'x' of 'main': no --inputs or --params file is given
// TWICE: mlc-run: error: parameter 'x' is given by both
// ENTRY: mlc-run: error: no function 'nope' in
// TRUNC: mlc-run: error: {{.*}}trunc.npz
// NOFILE: mlc-run: error: {{.*}}missing.npz

func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
