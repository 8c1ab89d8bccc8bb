// The CPU pipeline compiles TensorIR prim_funcs (convert-tensorir-to-scf runs
// first) next to tensor-level functions, checked after every pass; the
// intermediate buffers are freed by the ownership-based deallocation,
// including one allocated inside a parallel loop.
// RUN: mlc-opt %s --mlc-cpu-pipeline --verify-each | FileCheck %s
// RUN: mlc-opt %s --mlc-cpu-bufferize | FileCheck %s --check-prefix=BUF

// CHECK-NOT: tensorir.
// CHECK-DAG: llvm.func @free(!llvm.ptr)
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @mm_relu(
// CHECK-DAG: llvm.func @main(
// CHECK-DAG: llvm.func @copy_through_local(

// BUF-LABEL: func.func @mm_relu(
// BUF:         %[[Y:.*]] = memref.alloc() : memref<128x128xf32>
// BUF:         memref.dealloc %[[Y]] : memref<128x128xf32>
// BUF-NEXT:    return
// BUF-LABEL: func.func @copy_through_local(
// BUF:         scf.parallel
// BUF-NEXT:      %[[T:.*]] = memref.alloc() : memref<1xf32>
// BUF:           memref.dealloc %[[T]] : memref<1xf32>
// BUF-NEXT:      scf.reduce

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
  tensorir.return
}

func.func @main(%x: tensor<4xf32> {relay.name = "x"}) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

tensorir.prim_func @copy_through_local(%A: memref<64xf32>, %B: memref<64xf32>) {
  tensorir.for %i = 0 to 64 parallel {
    tensorir.block "B"(%vi = spatial(64, %i)) {
      %T = tensorir.alloc_buffer : memref<1xf32>
      %c0 = arith.constant 0 : index
      %a = memref.load %A[%vi] : memref<64xf32>
      memref.store %a, %T[%c0] : memref<1xf32>
      %t = memref.load %T[%c0] : memref<1xf32>
      memref.store %t, %B[%vi] : memref<64xf32>
    }
  }
}
