// A parameter bound from --params fixes the symbols of its relax shape: an
// input that disagrees is an error before the call (the compiled entry's own
// check would abort; found by the mlc-run fuzzer, seed 43), and results
// sized by those symbols are allocated from them.
// RUN: %python -c "import numpy as np; np.savez('%t.p.npz', x=np.ones((5, 3), np.float32)); np.savez('%t.bad.npz', y=np.ones((1, 3), np.float32)); np.savez('%t.ok.npz', y=np.full((5, 3), 2, np.float32)); np.savez('%t.both.npz', x=np.ones((5, 3), np.float32), y=np.ones((3, 3), np.float32))"
// RUN: rm -f %t.out.npz
// RUN: not mlc-run %s --params=%t.p.npz --inputs=%t.bad.npz --outputs=%t.out.npz 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.out.npz
// RUN: mlc-run %s --params=%t.p.npz --inputs=%t.ok.npz | FileCheck %s --check-prefix=OK
// Two bound parameters that disagree (mlc-run fuzzer, seed 59):
// RUN: not mlc-run %s --params=%t.both.npz 2>&1 | FileCheck %s --check-prefix=BOTH
// BAD: mlc-run: error: parameter 'y' has 1 for dimension 0 (n), but a bound parameter set n = 5
// BOTH: mlc-run: error: bound parameters of 'main' set n to both 5 and 3
// OK: out0: tensor<5x3xf32> min 2 max 2 mean 2
// OK: out1: tensor<3xf32> min 10 max 10 mean 10

func.func @main(%x: tensor<?x3xf32, #relax.shape<[n, 3]>> {relax.name = "x"},
                %y: tensor<?x3xf32, #relax.shape<[n, 3]>> {relax.name = "y"}) -> (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<3xf32>) {
  %0 = relax.multiply %x, %y : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[n, 3]>>
  %1 = relax.sum %0 {axis = array<i64: 0>} : (tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<3xf32>
  return %0, %1 : tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<3xf32>
}
