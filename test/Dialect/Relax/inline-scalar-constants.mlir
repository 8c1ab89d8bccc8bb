// RUN: mlc-opt %s -split-input-file -relax-inline-scalar-constants | FileCheck %s

// Two calls of one kernel with different scalar exponents: each gets its
// own copy with the exponent as an immediate and without the parameter
// (the first call a clone, placed after the original; the second, then the
// only caller, the original); the constants go. The vector operand stays a
// parameter, and the block's declared reads drop the scalar.
// CHECK-LABEL: module @two_exponents
// CHECK:         tensorir.prim_func private @power(%[[A:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK:           tensorir.block "T_power"(%[[V:.*]] = spatial(8, %{{.*}})) reads(%[[A]][%[[V]]] : memref<8xf32>) writes(%[[OUT]][%[[V]]] : memref<8xf32>)
// CHECK:             %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:             math.powf %{{.*}}, %[[C]] : f32
// CHECK:         tensorir.prim_func private @power_0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK:             arith.constant 3.000000e+00 : f32
// CHECK:         func.func @main(%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>)
// CHECK-NOT:       relax.constant
// CHECK:           %[[P:.*]] = relax.call_tir @power_0(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:           relax.call_tir @power(%[[P]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:           relax.call_tir @add(%{{.*}}, %[[Y]])
module @two_exponents {
  tensorir.prim_func private @power(%A: memref<8xf32>, %B: memref<f32>, %T: memref<8xf32>) {
    tensorir.for %i = 0 to 8 {
      tensorir.block "T_power"(%vi = spatial(8, %i)) reads(%A[%vi], %B[] : memref<8xf32>, memref<f32>) writes(%T[%vi] : memref<8xf32>) {
        %a = memref.load %A[%vi] : memref<8xf32>
        %b = memref.load %B[] : memref<f32>
        %r = math.powf %a, %b : f32
        memref.store %r, %T[%vi] : memref<8xf32>
      }
    }
    tensorir.return
  }
  tensorir.prim_func private @add(%A: memref<8xf32>, %B: memref<8xf32>, %T: memref<8xf32>) {
    tensorir.for %i = 0 to 8 {
      tensorir.block "T_add"(%vi = spatial(8, %i)) {
        %a = memref.load %A[%vi] : memref<8xf32>
        %b = memref.load %B[%vi] : memref<8xf32>
        %r = arith.addf %a, %b : f32
        memref.store %r, %T[%vi] : memref<8xf32>
      }
    }
    tensorir.return
  }
  func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
    %c3 = relax.constant dense<3.0> : tensor<f32>
    %c2 = relax.constant dense<2.0> : tensor<f32>
    %0 = relax.call_tir @power(%x, %c3) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = relax.call_tir @power(%0, %c2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = relax.call_tir @add(%1, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

// Left alone: a constant of rank 1 (a vector, even of one element), an
// operand that is not a constant, and a scalar whose parameter the kernel
// uses other than by loading it (here memref.copy).
// CHECK-LABEL: module @kept
// CHECK:         tensorir.prim_func private @scale(%{{.*}}: memref<8xf32>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<8xf32>)
// CHECK:         tensorir.prim_func private @copy(%{{.*}}: memref<f32>, %{{.*}}: memref<f32>)
// CHECK:         relax.call_tir @scale(%{{.*}}, %{{.*}}) : (tensor<8xf32>, tensor<1xf32>)
// CHECK:         relax.call_tir @copy(%{{.*}}) : (tensor<f32>)
// CHECK:         relax.call_tir @copy(%{{.*}}) : (tensor<f32>)
module @kept {
  tensorir.prim_func private @scale(%A: memref<8xf32>, %B: memref<1xf32>, %T: memref<8xf32>) {
    tensorir.for %i = 0 to 8 {
      tensorir.block "T"(%vi = spatial(8, %i)) {
        %c0 = arith.constant 0 : index
        %a = memref.load %A[%vi] : memref<8xf32>
        %b = memref.load %B[%c0] : memref<1xf32>
        %r = arith.mulf %a, %b : f32
        memref.store %r, %T[%vi] : memref<8xf32>
      }
    }
    tensorir.return
  }
  tensorir.prim_func private @copy(%A: memref<f32>, %T: memref<f32>) {
    memref.copy %A, %T : memref<f32> to memref<f32>
    tensorir.return
  }
  func.func @main(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<f32>, tensor<f32>) {
    %v = relax.constant dense<2.0> : tensor<1xf32>
    %c = relax.constant dense<2.0> : tensor<f32>
    %0 = relax.call_tir @scale(%x, %v) : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    %1 = relax.call_tir @copy(%s) : (tensor<f32>) -> tensor<f32>
    %2 = relax.call_tir @copy(%c) : (tensor<f32>) -> tensor<f32>
    return %0, %1, %2 : tensor<8xf32>, tensor<f32>, tensor<f32>
  }
}
