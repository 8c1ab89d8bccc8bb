// Symbolic shapes at the entry: a dynamic dimension takes the size of the
// given array, and the results' sizes follow from the symbols of the
// parameters' relax shapes (n of #relax.shape<[n, 784]>), as TVM's VM runs a
// relax function with a symbolic batch. Checked against numpy for n = 5
// and n = 1 (f32, rtol 1e-5 against float64); a symbol given two sizes, an
// array of the wrong static size and a result whose size nothing determines
// are errors naming the parameter or result.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(0); w = r.standard_normal((784, 16)).astype(np.float32); [np.savez('%t.n%d.npz' % n, x=r.standard_normal((n, 784)).astype(np.float32), b=r.standard_normal((n, 16)).astype(np.float32), w=w) for n in (5, 1)]; np.savez('%t.clash.npz', x=np.ones((5, 784), np.float32), b=np.ones((4, 16), np.float32), w=w); np.savez('%t.static.npz', x=np.ones((5, 700), np.float32), b=np.ones((5, 16), np.float32), w=w)"
// RUN: mlc-run %s --inputs=%t.n5.npz --outputs=%t.out5.npz | FileCheck %s --check-prefix=N5
// RUN: mlc-run %s --inputs=%t.n1.npz --outputs=%t.out1.npz | FileCheck %s --check-prefix=N1
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.out%d.npz' % n)['out0'], np.maximum(d['x'].astype(np.float64) @ d['w'] + d['b'], 0), rtol=1e-5, atol=1e-4) for n in (5, 1) for d in [np.load('%t.n%d.npz' % n)]]; print('numpy ok')" | FileCheck %s --check-prefix=NUMPY
// RUN: not mlc-run %s --inputs=%t.clash.npz 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not mlc-run %s --inputs=%t.static.npz 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not mlc-run %s --entry=unknown_result --inputs=%t.n5.npz 2>&1 | FileCheck %s --check-prefix=RESULT

// N5: out0: tensor<5x16xf32>
// N1: out0: tensor<1x16xf32>
// NUMPY: numpy ok
// CLASH: mlc-run: error: parameter 'b' has 4 for dimension 0 (n), but another parameter set n = 5
// STATIC: mlc-run: error: parameter 'x' expects tensor<?x784xf32, #relax.shape<[n, 784]>> but '{{.*}}static.npz' holds tensor<5x700xf32>
// RESULT: mlc-run: error: result 0 of 'unknown_result' has type tensor<?x16xf32, #relax.shape<[m, 16]>>, whose dimension 0 the parameters' shapes do not determine

func.func @main(%x: tensor<?x784xf32, #relax.shape<[n, 784]>> {relax.name = "x"},
                %w: tensor<784x16xf32> {relax.name = "w"},
                %b: tensor<?x16xf32, #relax.shape<[n, 16]>> {relax.name = "b"})
    -> tensor<?x16xf32, #relax.shape<[n, 16]>> {
  %0 = relax.matmul %x, %w : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<784x16xf32>) -> tensor<?x16xf32, #relax.shape<[n, 16]>>
  %1 = relax.add %0, %b : (tensor<?x16xf32, #relax.shape<[n, 16]>>, tensor<?x16xf32, #relax.shape<[n, 16]>>) -> tensor<?x16xf32, #relax.shape<[n, 16]>>
  %2 = relax.nn.relu %1 : (tensor<?x16xf32, #relax.shape<[n, 16]>>) -> tensor<?x16xf32, #relax.shape<[n, 16]>>
  return %2 : tensor<?x16xf32, #relax.shape<[n, 16]>>
}

func.func @unknown_result(%x: tensor<?x784xf32, #relax.shape<[n, 784]>> {relax.name = "x"},
                          %w: tensor<784x16xf32> {relax.name = "w"},
                          %b: tensor<?x16xf32, #relax.shape<[n, 16]>> {relax.name = "b"})
    -> tensor<?x16xf32, #relax.shape<[m, 16]>> {
  %0 = relax.matmul %x, %w : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<784x16xf32>) -> tensor<?x16xf32, #relax.shape<[n, 16]>>
  %1 = relax.match_cast %0 : tensor<?x16xf32, #relax.shape<[n, 16]>> to tensor<?x16xf32, #relax.shape<[m, 16]>>
  return %1 : tensor<?x16xf32, #relax.shape<[m, 16]>>
}
