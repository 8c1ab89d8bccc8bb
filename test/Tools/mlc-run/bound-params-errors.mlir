// With a relay entry, --params are bound as constants before compiling, so
// they leave the signature; the messages still say what was given twice or
// where a missing value was looked for.
// RUN: %python -c "import numpy as np; np.savez('%t.p.npz', w=np.ones((2, 3), np.float32)); np.savez('%t.x.npz', x=np.ones((2, 3), np.float32)); np.savez('%t.xw.npz', x=np.ones((2, 3), np.float32), w=np.ones((2, 3), np.float32)); np.savez('%t.other.npz', v=np.ones((2, 3), np.float32))"
// RUN: rm -f %t.out.npz
// RUN: not mlc-run %s --params=%t.p.npz --inputs=%t.xw.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not test -e %t.out.npz
// RUN: not mlc-run %s --params=%t.x.npz --inputs=%t.other.npz 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mlc-run %s --params=%t.p.npz 2>&1 | FileCheck %s --check-prefix=NOINPUTS
// RUN: not mlc-run %s --inputs=%t.x.npz 2>&1 | FileCheck %s --check-prefix=NOPARAMS
// RUN: mlc-run %s --params=%t.p.npz --inputs=%t.x.npz | FileCheck %s --check-prefix=OK
// TWICE: mlc-run: error: parameter 'w' is given by both '{{.*}}.xw.npz' and '{{.*}}.p.npz'
// MISSING: mlc-run: error: no value for parameter 'w' of 'main': neither '{{.*}}.other.npz' (--inputs) nor '{{.*}}.x.npz' (--params) has 'w'
// NOINPUTS: mlc-run: error: no value for parameter 'x' of 'main': '{{.*}}.p.npz' (--params) has no 'x', and no --inputs file is given
// NOPARAMS: mlc-run: error: no value for parameter 'w' of 'main': '{{.*}}.x.npz' (--inputs) has no 'w', and no --params file is given
// OK: out0: tensor<2x3xf32> min 2 max 2 mean 2 [2, 2, 2, 2, 2, 2]

func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}, %w: tensor<2x3xf32> {relay.name = "w"}) -> tensor<2x3xf32> {
  %0 = relay.add %x, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
