// Two kernels with one body under two names (@add_a, @add_b), another one
// (@scale), and a relax function calling @add_a twice and @scale once.
tensorir.prim_func private @add_a(%A: memref<64xf32>, %B: memref<64xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 64 {
    tensorir.block "add"(%vi = spatial(64, %i)) reads(%A[%vi] : memref<64xf32>) writes(%B[%vi] : memref<64xf32>) {
      %one = arith.constant 1.0 : f32
      %a = memref.load %A[%vi] : memref<64xf32>
      %s = arith.addf %a, %one : f32
      memref.store %s, %B[%vi] : memref<64xf32>
    }
  }
}
tensorir.prim_func private @add_b(%A: memref<64xf32>, %B: memref<64xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 64 {
    tensorir.block "add"(%vi = spatial(64, %i)) reads(%A[%vi] : memref<64xf32>) writes(%B[%vi] : memref<64xf32>) {
      %one = arith.constant 1.0 : f32
      %a = memref.load %A[%vi] : memref<64xf32>
      %s = arith.addf %a, %one : f32
      memref.store %s, %B[%vi] : memref<64xf32>
    }
  }
}
tensorir.prim_func private @scale(%A: memref<64xf32>, %B: memref<64xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 64 {
    tensorir.block "scale"(%vi = spatial(64, %i)) reads(%A[%vi] : memref<64xf32>) writes(%B[%vi] : memref<64xf32>) {
      %two = arith.constant 2.0 : f32
      %a = memref.load %A[%vi] : memref<64xf32>
      %s = arith.mulf %a, %two : f32
      memref.store %s, %B[%vi] : memref<64xf32>
    }
  }
}
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = relax.dataflow -> tensor<64xf32> {
    %0 = relax.call_tir @add_a(%x) : (tensor<64xf32>) -> tensor<64xf32>
    %1 = relax.call_tir @scale(%0) : (tensor<64xf32>) -> tensor<64xf32>
    %2 = relax.call_tir @add_a(%1) : (tensor<64xf32>) -> tensor<64xf32>
    relax.output %2 : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
