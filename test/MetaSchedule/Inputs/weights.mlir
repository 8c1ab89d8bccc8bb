// A kernel (@mul) that every call passes a constant weight (a
// dense_resource blob, as bound parameters are, then a splat), and one
// (@mul_mixed) that one call passes a constant and the other a computed
// value at the same position.
tensorir.prim_func private @mul(%A: memref<4xf32>, %W: memref<4xf32>, %B: memref<4xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 {
    tensorir.block "mul"(%vi = spatial(4, %i)) reads(%A[%vi], %W[%vi] : memref<4xf32>, memref<4xf32>) writes(%B[%vi] : memref<4xf32>) {
      %a = memref.load %A[%vi] : memref<4xf32>
      %w = memref.load %W[%vi] : memref<4xf32>
      %s = arith.mulf %a, %w : f32
      memref.store %s, %B[%vi] : memref<4xf32>
    }
  }
}
tensorir.prim_func private @mul_mixed(%A: memref<4xf32>, %W: memref<4xf32>, %B: memref<4xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 {
    tensorir.block "mul"(%vi = spatial(4, %i)) reads(%A[%vi], %W[%vi] : memref<4xf32>, memref<4xf32>) writes(%B[%vi] : memref<4xf32>) {
      %a = memref.load %A[%vi] : memref<4xf32>
      %w = memref.load %W[%vi] : memref<4xf32>
      %s = arith.mulf %a, %w : f32
      memref.store %s, %B[%vi] : memref<4xf32>
    }
  }
}
func.func @main(%y: tensor<4xf32>) -> tensor<4xf32> {
  %r = relax.dataflow -> tensor<4xf32> {
    %w0 = relax.constant dense_resource<w0> : tensor<4xf32>
    %w1 = relax.constant dense<5.0> : tensor<4xf32>
    %0 = relax.call_tir @mul(%y, %w0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = relax.call_tir @mul(%0, %w1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = relax.call_tir @mul_mixed(%1, %w1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3 = relax.call_tir @mul_mixed(%2, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relax.output %3 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
