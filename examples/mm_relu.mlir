// The MLC course's mm_relu (TensorIR, seed 004): Y = A @ B, C = relu(Y).
// Run: mlc-run examples/mm_relu.mlir --entry=mm_relu --inputs=ab.npz --outputs=c.npz
tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) attributes {tensorir.noalias} {
  %Y = tensorir.alloc_buffer : memref<128x128xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k))
            reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
            writes(%Y[%vi, %vj] : memref<128x128xf32>) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
          %a = memref.load %A[%vi, %vk] : memref<128x128xf32>
          %b = memref.load %B[%vk, %vj] : memref<128x128xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j))
          reads(%Y[%vi, %vj] : memref<128x128xf32>) writes(%C[%vi, %vj] : memref<128x128xf32>) {
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
}
