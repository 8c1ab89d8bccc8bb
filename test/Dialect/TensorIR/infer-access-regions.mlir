// RUN: mlc-opt %s -split-input-file --tensorir-infer-access-regions | FileCheck %s
// RUN: mlc-opt %s -split-input-file --tensorir-infer-access-regions | mlc-opt -split-input-file | FileCheck %s
// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-infer-access-regions{overwrite=true}))' | FileCheck %s --check-prefix=OVERWRITE

// mm_relu as TVMScript writes it without T.reads/T.writes: the regions come
// out as TVM infers them; the accumulator Y of the reduction (which has an
// init) is written but not listed as read.

// CHECK-LABEL: tensorir.prim_func @mm_relu
// CHECK:       tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k))
// CHECK-SAME:    reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
// CHECK-SAME:    writes(%Y[%vi, %vj] : memref<128x128xf32>) {
// CHECK:       tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j))
// CHECK-SAME:    reads(%Y[%vi, %vj] : memref<128x128xf32>) writes(%C[%vi, %vj] : memref<128x128xf32>) {
tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  %Y = tensorir.alloc_buffer : memref<128x128xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
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
      tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  tensorir.return
}

// -----
// Accesses of one buffer merge into their bounding box; an index that is not
// affine in the iteration variables covers the whole dimension.

// CHECK-LABEL: tensorir.prim_func @stencil
// CHECK:       tensorir.block "B"(%vi = spatial(128, %i))
// CHECK-SAME:    reads(%A[%vi:%vi + 3], %I[%vi], %D[2, 0:128] : memref<130xf32>, memref<128xindex>, memref<4x128xf32>)
// CHECK-SAME:    writes(%B[%vi] : memref<128xf32>) {
tensorir.prim_func @stencil(%A: memref<130xf32>, %B: memref<128xf32>, %I: memref<128xindex>, %D: memref<4x128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.block "B"(%vi = spatial(128, %i)) {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %p1 = arith.addi %vi, %c1 : index
      %p2 = affine.apply affine_map<(d0) -> (d0 + 2)>(%vi)
      %a0 = memref.load %A[%vi] : memref<130xf32>
      %a1 = memref.load %A[%p1] : memref<130xf32>
      %a2 = memref.load %A[%p2] : memref<130xf32>
      %g = memref.load %I[%vi] : memref<128xindex>
      %d = memref.load %D[%c2, %g] : memref<4x128xf32>
      %s0 = arith.addf %a0, %a1 : f32
      %s1 = arith.addf %s0, %a2 : f32
      %s2 = arith.addf %s1, %d : f32
      memref.store %s2, %B[%vi] : memref<128xf32>
    }
  }
  tensorir.return
}

// -----
// Nested blocks (as after blockize): the inner block's regions are relaxed
// over the loops inside the outer block; block-local buffers are not listed;
// memref.copy counts as a whole-buffer read of its source and write of its
// target.

// CHECK-LABEL: tensorir.prim_func @blockized
// CHECK:       tensorir.block "outer"(%vio = spatial(4, %io))
// CHECK-SAME:    reads(%A[0:16, 0:32] : memref<16x32xf32>)
// CHECK-SAME:    writes(%S[%vio * 4:%vio * 4 + 4], %O[0:16, 0:32] : memref<16xf32>, memref<16x32xf32>) {
// CHECK:       tensorir.block "inner"(%vi = spatial(16, %{{.*}}), %vk = reduce(32, %k))
// CHECK-SAME:    reads(%A[%vi, %vk] : memref<16x32xf32>) writes(%S[%vi] : memref<16xf32>) {
tensorir.prim_func @blockized(%A: memref<16x32xf32>, %S: memref<16xf32>, %O: memref<16x32xf32>) {
  tensorir.for %io = 0 to 4 {
    tensorir.block "outer"(%vio = spatial(4, %io)) {
      %tmp = tensorir.alloc_buffer : memref<4xf32>
      tensorir.for %ii = 0 to 4 {
        tensorir.for %k = 0 to 32 {
          %vi_b = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%vio, %ii)
          tensorir.block "inner"(%vi = spatial(16, %vi_b), %vk = reduce(32, %k)) {
            tensorir.init {
              %zero = arith.constant 0.0 : f32
              memref.store %zero, %S[%vi] : memref<16xf32>
            }
            %a = memref.load %A[%vi, %vk] : memref<16x32xf32>
            %s = memref.load %S[%vi] : memref<16xf32>
            %r = arith.addf %a, %s : f32
            memref.store %r, %S[%vi] : memref<16xf32>
          }
        }
      }
      tensorir.for %j = 0 to 4 {
        %z = arith.constant 0.0 : f32
        memref.store %z, %tmp[%j] : memref<4xf32>
      }
      memref.copy %A, %O : memref<16x32xf32> to memref<16x32xf32>
    }
  }
  tensorir.return
}


// -----
// Regions that are already there are kept, unless overwrite=true; a missing
// one is still filled in.

// CHECK-LABEL: tensorir.prim_func @keep
// CHECK:       tensorir.block "declared"(%vi = spatial(8, %i)) reads(%A[0:8] : memref<8xf32>) writes(%B[%vi] : memref<8xf32>) {
// OVERWRITE-LABEL: tensorir.prim_func @keep
// OVERWRITE:       tensorir.block "declared"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>) writes(%B[%vi] : memref<8xf32>) {
tensorir.prim_func @keep(%A: memref<8xf32>, %B: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.block "declared"(%vi = spatial(8, %i)) reads(%A[0:8] : memref<8xf32>) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.return
}

