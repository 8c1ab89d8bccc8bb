// mlc-run writes every result as out0, out1, ... in an .npz numpy reads, and
// prints a summary line per result and the latency with --bench.
// RUN: %python -c "import numpy as np; np.savez('%t.in.npz', x=np.arange(6, dtype=np.float32).reshape(2, 3), n=np.array([7, -1], np.int64))"
// RUN: mlc-run %s --inputs=%t.in.npz --outputs=%t.out.npz --bench=3 --no-cache | FileCheck %s
// RUN: %python -c "import numpy as np; d = np.load('%t.out.npz'); x = np.arange(6, dtype=np.float32).reshape(2, 3); assert sorted(d.files) == ['out0', 'out1', 'out2'], d.files; assert d['out0'].dtype == np.float32 and (d['out0'] == x + x).all(); assert d['out1'].dtype == np.int64 and (d['out1'] == [7, -1]).all(); assert d['out2'].shape == () and d['out2'] == 15; print('npz ok')" | FileCheck %s --check-prefix=NPZ

// CHECK: out0: tensor<2x3xf32> min 0 max 10 mean 5 [0, 2, 4, 6, 8, 10]
// CHECK: out1: tensor<2xi64> min -1 max 7
// CHECK: out2: tensor<f32> min 15 max 15
// CHECK: compile time: {{[0-9.]+}} ms (MLIR pipeline {{[0-9.]+}} ms, LLVM {{[0-9.]+}} ms)
// CHECK-NEXT: latency over 3 runs: min {{[0-9.]+}} ms, median {{[0-9.]+}} ms, max {{[0-9.]+}} ms
// NPZ: npz ok

func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}, %n: tensor<2xi64> {relay.name = "n"})
    -> (tensor<2x3xf32>, tensor<2xi64>, tensor<f32>) {
  %sum = arith.addf %x, %x : tensor<2x3xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %total = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%zero : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum, %n, %total : tensor<2x3xf32>, tensor<2xi64>, tensor<f32>
}
