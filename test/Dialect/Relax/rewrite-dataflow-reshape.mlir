// RUN: mlc-opt %s -split-input-file -relax-rewrite-dataflow-reshape | FileCheck %s

// A kernel that only reshapes (2x3x4 -> 6x4, the input's indices computed
// from the output's by div and rem) becomes relax.reshape of its input, and
// the kernel, left without calls, is erased. Its reader is unchanged.
// CHECK-LABEL: func.func @reshape_then_exp
// CHECK:         relax.dataflow
// CHECK-NEXT:      %[[R:.*]] = relax.reshape %arg0 {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:      relax.call_tir @exp(%[[R]])
// CHECK-NOT:     tensorir.prim_func private @reshape(
tensorir.prim_func private @reshape(%A: memref<2x3x4xf32>, %B: memref<6x4xf32>) {
  %c3 = arith.constant 3 : index
  tensorir.for %i0 = 0 to 6 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_reshape"(%v0 = spatial(6, %i0), %v1 = spatial(4, %i1)) {
        %0 = arith.divui %v0, %c3 : index
        %1 = arith.remui %v0, %c3 : index
        %2 = memref.load %A[%0, %1, %v1] : memref<2x3x4xf32>
        memref.store %2, %B[%v0, %v1] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
tensorir.prim_func private @exp(%A: memref<6x4xf32>, %B: memref<6x4xf32>) {
  tensorir.for %i0 = 0 to 6 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_exp"(%v0 = spatial(6, %i0), %v1 = spatial(4, %i1)) {
        %0 = memref.load %A[%v0, %v1] : memref<6x4xf32>
        %1 = math.exp %0 : f32
        memref.store %1, %B[%v0, %v1] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
func.func @reshape_then_exp(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = relax.dataflow -> tensor<6x4xf32> {
    %1 = relax.call_tir @reshape(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %2 = relax.call_tir @exp(%1) : (tensor<6x4xf32>) -> tensor<6x4xf32>
    relax.output %2 : tensor<6x4xf32>
  }
  return %0 : tensor<6x4xf32>
}

// -----

// A fused reshape and expand_dims (1x4x3x8 -> 12x1x8, as FuseTIR leaves
// it: nested divisions, a unit dimension on each side) is a reshape too.
// CHECK-LABEL: func.func @reshape_expand_dims
// CHECK:         relax.reshape %arg0 {shape = array<i64: 12, 1, 8>} : (tensor<1x4x3x8xf16>) -> tensor<12x1x8xf16>
// CHECK-NOT:     tensorir.prim_func private @fused_reshape_expand_dims
tensorir.prim_func private @fused_reshape_expand_dims(%A: memref<1x4x3x8xf16>, %B: memref<12x1x8xf16>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  tensorir.for %i0 = 0 to 12 {
    tensorir.for %i1 = 0 to 1 {
      tensorir.for %i2 = 0 to 8 {
        tensorir.block "T_expand_dims"(%v0 = spatial(12, %i0), %v1 = spatial(1, %i1), %v2 = spatial(8, %i2)) {
          %0 = arith.remui %v0, %c3 : index
          %1 = arith.divui %v0, %c3 : index
          %2 = arith.remui %1, %c4 : index
          %3 = arith.divui %1, %c4 : index
          %4 = memref.load %A[%3, %2, %0, %v2] : memref<1x4x3x8xf16>
          memref.store %4, %B[%v0, %v1, %v2] : memref<12x1x8xf16>
        }
      }
    }
  }
  tensorir.return
}
tensorir.prim_func private @neg(%A: memref<12x1x8xf16>, %B: memref<12x1x8xf16>) {
  tensorir.for %i0 = 0 to 12 {
    tensorir.for %i1 = 0 to 1 {
      tensorir.for %i2 = 0 to 8 {
        tensorir.block "T_neg"(%v0 = spatial(12, %i0), %v1 = spatial(1, %i1), %v2 = spatial(8, %i2)) {
          %0 = memref.load %A[%v0, %v1, %v2] : memref<12x1x8xf16>
          %1 = arith.negf %0 : f16
          memref.store %1, %B[%v0, %v1, %v2] : memref<12x1x8xf16>
        }
      }
    }
  }
  tensorir.return
}
func.func @reshape_expand_dims(%x: tensor<1x4x3x8xf16>) -> tensor<12x1x8xf16> {
  %0 = relax.dataflow -> tensor<12x1x8xf16> {
    %1 = relax.call_tir @fused_reshape_expand_dims(%x) : (tensor<1x4x3x8xf16>) -> tensor<12x1x8xf16>
    %2 = relax.call_tir @neg(%1) : (tensor<12x1x8xf16>) -> tensor<12x1x8xf16>
    relax.output %2 : tensor<12x1x8xf16>
  }
  return %0 : tensor<12x1x8xf16>
}

// -----

// Kept: a transpose (the same shape, other offsets), a copy that swaps the
// roles of div and rem (the element count and shapes of a reshape, not its
// order), a reshape that also computes, and a reshape outside a dataflow
// block. The reshape kernel stays for that caller, while its calls inside
// the block become views, also the one whose result leaves the block.
// CHECK:         tensorir.prim_func private @reshape(
// CHECK-LABEL: func.func @kept
// CHECK:         relax.call_tir @transpose(
// CHECK:         relax.call_tir @scrambled(
// CHECK:         relax.call_tir @reshape_scaled(
// CHECK:         %[[OUT:.*]] = relax.reshape %arg1
// CHECK:         %[[V:.*]] = relax.reshape %arg1
// CHECK:         relax.call_tir @exp(%[[V]])
// CHECK:         relax.output {{.*}}, %[[OUT]], %{{.*}} :
// CHECK:         relax.call_tir @reshape(
tensorir.prim_func private @transpose(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tensorir.for %i0 = 0 to 4 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_transpose"(%v0 = spatial(4, %i0), %v1 = spatial(4, %i1)) {
        %0 = memref.load %A[%v1, %v0] : memref<4x4xf32>
        memref.store %0, %B[%v0, %v1] : memref<4x4xf32>
      }
    }
  }
  tensorir.return
}
tensorir.prim_func private @scrambled(%A: memref<2x3x4xf32>, %B: memref<6x4xf32>) {
  %c2 = arith.constant 2 : index
  tensorir.for %i0 = 0 to 6 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_reshape"(%v0 = spatial(6, %i0), %v1 = spatial(4, %i1)) {
        %0 = arith.remui %v0, %c2 : index
        %1 = arith.divui %v0, %c2 : index
        %2 = memref.load %A[%0, %1, %v1] : memref<2x3x4xf32>
        memref.store %2, %B[%v0, %v1] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
tensorir.prim_func private @reshape_scaled(%A: memref<2x3x4xf32>, %B: memref<6x4xf32>) {
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  tensorir.for %i0 = 0 to 6 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_reshape"(%v0 = spatial(6, %i0), %v1 = spatial(4, %i1)) {
        %0 = arith.divui %v0, %c3 : index
        %1 = arith.remui %v0, %c3 : index
        %2 = memref.load %A[%0, %1, %v1] : memref<2x3x4xf32>
        %3 = arith.mulf %2, %two : f32
        memref.store %3, %B[%v0, %v1] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
tensorir.prim_func private @reshape(%A: memref<2x3x4xf32>, %B: memref<6x4xf32>) {
  %c3 = arith.constant 3 : index
  tensorir.for %i0 = 0 to 6 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_reshape"(%v0 = spatial(6, %i0), %v1 = spatial(4, %i1)) {
        %0 = arith.divui %v0, %c3 : index
        %1 = arith.remui %v0, %c3 : index
        %2 = memref.load %A[%0, %1, %v1] : memref<2x3x4xf32>
        memref.store %2, %B[%v0, %v1] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
tensorir.prim_func private @exp(%A: memref<6x4xf32>, %B: memref<6x4xf32>) {
  tensorir.for %i0 = 0 to 6 {
    tensorir.for %i1 = 0 to 4 {
      tensorir.block "T_exp"(%v0 = spatial(6, %i0), %v1 = spatial(4, %i1)) {
        %0 = memref.load %A[%v0, %v1] : memref<6x4xf32>
        %1 = math.exp %0 : f32
        memref.store %1, %B[%v0, %v1] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
func.func @kept(%x: tensor<4x4xf32>, %y: tensor<2x3x4xf32>) -> (tensor<4x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
  %0:5 = relax.dataflow -> tensor<4x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32> {
    %1 = relax.call_tir @transpose(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = relax.call_tir @scrambled(%y) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %3 = relax.call_tir @reshape_scaled(%y) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %4 = relax.call_tir @reshape(%y) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %6 = relax.call_tir @reshape(%y) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %7 = relax.call_tir @exp(%6) : (tensor<6x4xf32>) -> tensor<6x4xf32>
    relax.output %1, %2, %3, %4, %7 : tensor<4x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
  }
  %5 = relax.call_tir @reshape(%y) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0#0, %0#1, %0#2, %0#3, %0#4, %5 : tensor<4x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}
