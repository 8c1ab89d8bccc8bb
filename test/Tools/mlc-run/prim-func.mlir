// mlc-run runs buffer entries (tensorir.prim_funcs, destination passing):
// buffers are bound by their tensorir.name, a buffer missing from --inputs
// starts zeroed, and every buffer is written to --outputs under its name.
// RUN: %python -c "import numpy as np; np.savez('%t.in.npz', X=np.arange(6, dtype=np.float32).reshape(2, 3)); np.savez('%t.acc.npz', X=np.arange(6, dtype=np.float32).reshape(2, 3), Acc=np.full(3, 10, np.float32)); np.savez('%t.bad.npz', X=np.ones((3, 2), np.float32))"
// RUN: mlc-run %s --entry=scale_and_sum --inputs=%t.in.npz --outputs=%t.out.npz | FileCheck %s
// RUN: %python -c "import numpy as np; d = np.load('%t.out.npz'); x = np.arange(6, dtype=np.float32).reshape(2, 3); assert sorted(d.files) == ['Acc', 'X', 'Y'], d.files; assert (d['X'] == x).all(); assert (d['Y'] == 2 * x).all(); assert (d['Acc'] == x.sum(0)).all(), d['Acc']; print('npz ok')" | FileCheck %s --check-prefix=NPZ
// A given output buffer is read: Acc is accumulated into without an init.
// RUN: mlc-run %s --entry=accumulate --inputs=%t.acc.npz | FileCheck %s --check-prefix=ACC
// Scalars are 0-d arrays (int64 for index), passed by value, not written back.
// RUN: %python -c "import numpy as np; np.savez('%t.axpy.npz', X=np.arange(4, dtype=np.float32), alpha=np.float32(2.5), n=np.int64(3)); np.savez('%t.noscalar.npz', X=np.arange(4, dtype=np.float32))"
// RUN: mlc-run %s --entry=axpy --inputs=%t.axpy.npz --outputs=%t.axpy.out.npz | FileCheck %s --check-prefix=AXPY
// RUN: %python -c "import numpy as np; d = np.load('%t.axpy.out.npz'); assert sorted(d.files) == ['X', 'Y'], d.files; assert (d['Y'] == [0, 2.5, 5, 0]).all(), d['Y']; print('axpy ok')" | FileCheck %s --check-prefix=AXPYNPZ
// RUN: not mlc-run %s --entry=axpy --inputs=%t.noscalar.npz 2>&1 | FileCheck %s --check-prefix=NOSCALAR
// RUN: not mlc-run %s --entry=scale_and_sum --inputs=%t.bad.npz 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not mlc-run %s --entry=dynamic 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not mlc-run %s --entry=mixed 2>&1 | FileCheck %s --check-prefix=MIXED

// CHECK: X: tensor<2x3xf32> min 0 max 5
// CHECK: Y: tensor<2x3xf32> min 0 max 10 mean 5 [0, 2, 4, 6, 8, 10]
// CHECK: Acc: tensor<3xf32> min 3 max 7 mean 5 [3, 5, 7]
// NPZ: npz ok
// ACC: Acc: tensor<3xf32> min 13 max 17 mean 15 [13, 15, 17]
// SHAPE: mlc-run: error: parameter 'X' expects tensor<2x3xf32> but '{{.*}}.bad.npz' holds tensor<3x2xf32>
// AXPY-NOT: alpha
// AXPY: Y: tensor<4xf32> min 0 max 5 mean 1.875 [0, 2.5, 5, 0]
// AXPYNPZ: axpy ok
// NOSCALAR: mlc-run: error: no value for parameter 'alpha' of 'axpy'
// DYN: mlc-run: error: parameter 0 of 'dynamic' is neither a scalar nor a statically shaped memref with the identity layout
// MIXED: mlc-run: error: 'mixed' takes buffers and returns results

tensorir.prim_func @scale_and_sum(%X: memref<2x3xf32>, %Y: memref<2x3xf32>, %Acc: memref<3xf32>) {
  tensorir.for %i = 0 to 2 {
    tensorir.for %j = 0 to 3 {
      tensorir.block "Y"(%vi = spatial(2, %i), %vj = spatial(3, %j)) {
        %x = memref.load %X[%vi, %vj] : memref<2x3xf32>
        %y = arith.addf %x, %x : f32
        memref.store %y, %Y[%vi, %vj] : memref<2x3xf32>
      }
    }
  }
  tensorir.for %j = 0 to 3 {
    tensorir.for %i = 0 to 2 {
      tensorir.block "Acc"(%vj = spatial(3, %j), %vi = reduce(2, %i)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %Acc[%vj] : memref<3xf32>
        }
        %a = memref.load %Acc[%vj] : memref<3xf32>
        %x = memref.load %X[%vi, %vj] : memref<2x3xf32>
        %s = arith.addf %a, %x : f32
        memref.store %s, %Acc[%vj] : memref<3xf32>
      }
    }
  }
}

tensorir.prim_func @accumulate(%X: memref<2x3xf32>, %Acc: memref<3xf32>) {
  tensorir.for %j = 0 to 3 {
    tensorir.for %i = 0 to 2 {
      tensorir.block "Acc"(%vj = spatial(3, %j), %vi = reduce(2, %i)) {
        %a = memref.load %Acc[%vj] : memref<3xf32>
        %x = memref.load %X[%vi, %vj] : memref<2x3xf32>
        %s = arith.addf %a, %x : f32
        memref.store %s, %Acc[%vj] : memref<3xf32>
      }
    }
  }
}

tensorir.prim_func @axpy(%X: memref<4xf32>, %Y: memref<4xf32>, %alpha: f32, %n: index) {
  tensorir.for %i = 0 to %n {
    tensorir.block "Y"(%vi = spatial(4, %i)) {
      %x = memref.load %X[%vi] : memref<4xf32>
      %y = arith.mulf %x, %alpha : f32
      memref.store %y, %Y[%vi] : memref<4xf32>
    }
  }
}

tensorir.prim_func @dynamic(%A: memref<?xf32>) {
}

func.func @mixed(%A: memref<4xf32>) -> tensor<4xf32> {
  %t = bufferization.to_tensor %A restrict : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}
