// compute_inline and reverse_compute_inline.
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s

// sch.compute_inline(B): the consumer computes A * 2 at its (transposed)
// index itself; the block, its loops and the buffer are gone, and the
// consumer's regions now read A.
// CHECK-LABEL: tensorir.prim_func @inline(%A: memref<4x8xf32>, %C: memref<8x4xf32>)
// CHECK-NOT:     alloc_buffer
// CHECK:         tensorir.for %i = 0 to 8 {
// CHECK-NEXT:      tensorir.for %j = 0 to 4 {
// CHECK-NEXT:        tensorir.block "C"(%vi = spatial(8, %i), %vj = spatial(4, %j)) reads(%A[%vj, %vi] : memref<4x8xf32>) writes(%C[%vi, %vj] : memref<8x4xf32>) {
// CHECK-NEXT:          %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT:          %[[A:.*]] = memref.load %A[%vj, %vi]
// CHECK-NEXT:          %[[B:.*]] = arith.mulf %[[A]], %[[TWO]]
// CHECK-NEXT:          %[[E:.*]] = math.exp %[[B]]
// CHECK-NEXT:          memref.store %[[E]], %C[%vi, %vj]
// CHECK-NOT:     tensorir.block
tensorir.prim_func @inline(%A: memref<4x8xf32>, %C: memref<8x4xf32>) {
  %B = tensorir.alloc_buffer : memref<4x8xf32>
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) reads(%A[%vi, %vj] : memref<4x8xf32>) writes(%B[%vi, %vj] : memref<4x8xf32>) {
        %two = arith.constant 2.0 : f32
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %b = arith.mulf %a, %two : f32
        memref.store %b, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 4 {
      tensorir.block "C"(%vi = spatial(8, %i), %vj = spatial(4, %j)) reads(%B[%vj, %vi] : memref<4x8xf32>) writes(%C[%vi, %vj] : memref<8x4xf32>) {
        %b = memref.load %B[%vj, %vi] : memref<4x8xf32>
        %e = math.exp %b : f32
        memref.store %e, %C[%vi, %vj] : memref<8x4xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// sch.reverse_compute_inline(D): relu is computed in the producer, which
// stores to D directly (at the index mapped through D's iteration variables).
// CHECK-LABEL: tensorir.prim_func @reverse_inline(%A: memref<4x8xf32>, %D: memref<8x4xf32>)
// CHECK-NOT:     alloc_buffer
// CHECK:         tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) reads(%A[%vi, %vj] : memref<4x8xf32>) writes(%D[%vj, %vi] : memref<8x4xf32>) {
// CHECK-NEXT:      %[[A:.*]] = memref.load %A[%vi, %vj]
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[A]]
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[E]], %[[Z]]
// CHECK-NEXT:      memref.store %[[R]], %D[%vj, %vi]
// CHECK-NOT:     tensorir.block
tensorir.prim_func @reverse_inline(%A: memref<4x8xf32>, %D: memref<8x4xf32>) {
  %C = tensorir.alloc_buffer : memref<4x8xf32>
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) reads(%A[%vi, %vj] : memref<4x8xf32>) writes(%C[%vi, %vj] : memref<4x8xf32>) {
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %e = math.exp %a : f32
        memref.store %e, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 4 {
      tensorir.block "D"(%vi = spatial(8, %i), %vj = spatial(4, %j)) {
        %c = memref.load %C[%vj, %vi] : memref<4x8xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %c, %zero : f32
        memref.store %r, %D[%vi, %vj] : memref<8x4xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %d = transform.tensorir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %d : !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_inline {keep_input} (mlc's): the block reads an output of
// the function, %B, which the producer keeps storing; the block's float16
// cast follows that store, and the block and its loops are gone.
// CHECK-LABEL: tensorir.prim_func @keep_input(%A: memref<4x8xf32>, %B: memref<4x8xf32>, %H: memref<8x4xf16>)
// CHECK:         tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) reads(%A[%vi, %vj] : memref<4x8xf32>) writes(%B[%vi, %vj], %H[%vj, %vi] : memref<4x8xf32>, memref<8x4xf16>) {
// CHECK-NEXT:      %[[A:.*]] = memref.load %A[%vi, %vj]
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[A]]
// CHECK-NEXT:      memref.store %[[E]], %B[%vi, %vj]
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT:      memref.store %[[T]], %H[%vj, %vi]
// CHECK-NOT:     tensorir.block
tensorir.prim_func @keep_input(%A: memref<4x8xf32>, %B: memref<4x8xf32>, %H: memref<8x4xf16>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) reads(%A[%vi, %vj] : memref<4x8xf32>) writes(%B[%vi, %vj] : memref<4x8xf32>) {
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %e = math.exp %a : f32
        memref.store %e, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "H"(%vi = spatial(4, %i), %vj = spatial(8, %j)) reads(%B[%vi, %vj] : memref<4x8xf32>) writes(%H[%vj, %vi] : memref<8x4xf16>) {
        %b = memref.load %B[%vi, %vj] : memref<4x8xf32>
        %h = arith.truncf %b : f32 to f16
        memref.store %h, %H[%vj, %vi] : memref<8x4xf16>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h = transform.tensorir.get_block "H" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %h {keep_input} : !transform.any_op
    transform.yield
  }
}
