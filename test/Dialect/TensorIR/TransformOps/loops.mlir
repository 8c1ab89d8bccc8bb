// Loop primitives of the TensorIR schedule as transform ops: the IR they
// produce.
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s

// sch.split(j, [None, 4]) with an inferred factor, then
// sch.reorder(j0, k, j1): the handle to k stays valid across the split.
// CHECK-DAG:   #[[J:.*]] = affine_map<(d0, d1) -> (d0 * 4 + d1)>
// CHECK-LABEL: tensorir.prim_func @split_reorder
// CHECK:         tensorir.for %i = 0 to 16 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 8 {
// CHECK-NEXT:        tensorir.for %k = 0 to 16 {
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 4 {
// CHECK-NEXT:            %[[V:.*]] = affine.apply #[[J]](%j_0, %j_1)
// CHECK-NEXT:            tensorir.block "Y"(%vi = spatial(16, %i), %vj = spatial(32, %[[V]]), %vk = reduce(16, %k)) {
tensorir.prim_func @split_reorder(%A: memref<16x16xf32>, %B: memref<16x32xf32>, %Y: memref<16x32xf32>) {
  tensorir.for %i = 0 to 16 {
    tensorir.for %j = 0 to 32 {
      tensorir.for %k = 0 to 16 {
        tensorir.block "Y"(%vi = spatial(16, %i), %vj = spatial(32, %j), %vk = reduce(16, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<16x32xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<16x32xf32>
          %a = memref.load %A[%vi, %vk] : memref<16x16xf32>
          %b = memref.load %B[%vk, %vj] : memref<16x32xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<16x32xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tensorir.split %j by [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reorder %j0, %k, %j1 : !transform.any_op, !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A split whose factors do not divide the extent (100 = 4 * 2 * 16 - 28):
// the block gets TVM's T.where((i_0 * 2 + i_1) * 16 + i_2 < 100), and-ed
// with its own predicate. Each use of the old loop variable gets its own
// affine.apply (CSE merges them).
// CHECK-DAG:   #[[I:.*]] = affine_map<(d0, d1, d2) -> ((d0 * 2 + d1) * 16 + d2)>
// CHECK-LABEL: tensorir.prim_func @split_tail
// CHECK:         tensorir.for %i_0 = 0 to 4 {
// CHECK-NEXT:      tensorir.for %i_1 = 0 to 2 {
// CHECK-NEXT:        tensorir.for %i_2 = 0 to 16 {
// CHECK-NEXT:          %[[I0:.*]] = affine.apply #[[I]](%i_0, %i_1, %i_2)
// CHECK-NEXT:          %[[OLD:.*]] = arith.cmpi sge, %[[I0]], %c50 : index
// CHECK-NEXT:          %[[V:.*]] = affine.apply #[[I]](%i_0, %i_1, %i_2)
// CHECK-NEXT:          %[[V2:.*]] = affine.apply #[[I]](%i_0, %i_1, %i_2)
// CHECK-NEXT:          %[[C100:.*]] = arith.constant 100 : index
// CHECK-NEXT:          %[[P:.*]] = arith.cmpi ult, %[[V2]], %[[C100]] : index
// CHECK-NEXT:          %[[AND:.*]] = arith.andi %[[OLD]], %[[P]] : i1
// CHECK-NEXT:          tensorir.block "B"(%vi = spatial(100, %[[V]])) where(%[[AND]]) {
tensorir.prim_func @split_tail(%A: memref<100xf32>) {
  %c50 = arith.constant 50 : index
  tensorir.for %i = 0 to 100 {
    %p = arith.cmpi sge, %i, %c50 : index
    tensorir.block "B"(%vi = spatial(100, %i)) where(%p) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vi] : memref<100xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tensorir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %l:3 = transform.tensorir.split %i by [4, 2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// sch.fuse(i, j) then split and loop kinds; the index computation between
// the loops (a binding helper) moves into the fused loop.
// CHECK:       #[[DIV:.*]] = affine_map<(d0) -> (d0 floordiv 8)>
// CHECK-NEXT:  #[[MOD:.*]] = affine_map<(d0) -> (d0 mod 8)>
// CHECK-LABEL: tensorir.prim_func @fuse
// CHECK:         tensorir.for %i_j_fused_0 = 0 to 16 parallel {
// CHECK-NEXT:      tensorir.for %i_j_fused_1 = 0 to 4 vectorized {
// CHECK-NEXT:        %[[F:.*]] = affine.apply #{{.*}}(%i_j_fused_0, %i_j_fused_1)
// CHECK-NEXT:        %[[I:.*]] = affine.apply #[[DIV]](%[[F]])
// CHECK-NEXT:        %[[I1:.*]] = arith.addi %[[I]]
// CHECK-NEXT:        %[[F2:.*]] = affine.apply #{{.*}}(%i_j_fused_0, %i_j_fused_1)
// CHECK-NEXT:        %[[J:.*]] = affine.apply #[[MOD]](%[[F2]])
// CHECK-NEXT:        tensorir.block "B"(%vi = spatial(9, %[[I1]]), %vj = spatial(8, %[[J]])) {
tensorir.prim_func @fuse(%A: memref<9x8xf32>) {
  %c1 = arith.constant 1 : index
  tensorir.for %i = 0 to 8 {
    %i1 = arith.addi %i, %c1 : index
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(9, %i1), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<9x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tensorir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %o, %v = transform.tensorir.split %f by [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.parallel %o : !transform.any_op
    transform.tensorir.vectorize %v : !transform.any_op
    transform.yield
  }
}

// -----

// tile = split each loop + reorder outer parts first; unroll and bind. Only
// i has a tail (20 = 3 * 8 - 4).
// CHECK-LABEL: tensorir.prim_func @tile
// CHECK:         tensorir.for %i_0 = 0 to 3 thread_binding("blockIdx.x") {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 2 thread_binding("threadIdx.x") {
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 8 unrolled {
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 16 {
// CHECK:                 %[[P:.*]] = arith.cmpi ult, %{{.*}}, %c20 : index
// CHECK-NOT:             arith.cmpi
// CHECK:                 tensorir.block "B"{{.*}} where(%[[P]])
tensorir.prim_func @tile(%A: memref<20x32xf32>) {
  tensorir.for %i = 0 to 20 {
    tensorir.for %j = 0 to 32 {
      tensorir.block "B"(%vi = spatial(20, %i), %vj = spatial(32, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<20x32xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t:4 = transform.tensorir.tile %i, %j by [8, 16] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tensorir.bind %t#0 "blockIdx.x" : !transform.any_op
    transform.tensorir.bind %t#1 "threadIdx.x" : !transform.any_op
    transform.tensorir.unroll %t#2 : !transform.any_op
    transform.yield
  }
}

// -----

// threadIdx may carry a reduction (cross-thread reduction); reorder of loops
// that are not adjacent keeps the loop in between in place.
// CHECK-LABEL: tensorir.prim_func @bind_reduce
// CHECK:         tensorir.for %k = 0 to 32 thread_binding("threadIdx.x") {
// CHECK-NEXT:      tensorir.for %j = 0 to 2 {
// CHECK-NEXT:        tensorir.for %i = 0 to 4 {
tensorir.prim_func @bind_reduce(%A: memref<4x2x32xf32>, %S: memref<4x2xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 2 {
      tensorir.for %k = 0 to 32 {
        tensorir.block "S"(%vi = spatial(4, %i), %vj = spatial(2, %j), %vk = reduce(32, %k)) {
          %s = memref.load %S[%vi, %vj] : memref<4x2xf32>
          %a = memref.load %A[%vi, %vj, %vk] : memref<4x2x32xf32>
          %r = arith.addf %s, %a : f32
          memref.store %r, %S[%vi, %vj] : memref<4x2xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tensorir.reorder %k, %i : !transform.any_op, !transform.any_op
    transform.tensorir.bind %k "threadIdx.x" : !transform.any_op
    transform.yield
  }
}

// -----

// A loop with a dynamic extent (a legalized kernel with a symbolic shape):
// split by [?, 4] gives ceildiv(n, 4) outer iterations and a predicate
// against n.
// CHECK-DAG:   #[[CEIL:.*]] = affine_map<()[s0] -> (s0 ceildiv 4)>
// CHECK-DAG:   #[[IDX:.*]] = affine_map<(d0, d1) -> (d0 * 4 + d1)>
// CHECK-LABEL: tensorir.prim_func @split_dynamic
// CHECK:         %[[N:.*]] = memref.dim
// CHECK-NEXT:    %[[OUTER:.*]] = affine.apply #[[CEIL]]()[%[[N]]]
// CHECK-NEXT:    tensorir.for %i_0 = 0 to %[[OUTER]] {
// CHECK-NEXT:      tensorir.for %i_1 = 0 to 4 {
// CHECK-NEXT:        %[[V:.*]] = affine.apply #[[IDX]](%i_0, %i_1)
// CHECK-NEXT:        %[[V2:.*]] = affine.apply #[[IDX]](%i_0, %i_1)
// CHECK-NEXT:        %[[P:.*]] = arith.cmpi ult, %[[V2]], %[[N]] : index
// CHECK-NEXT:        tensorir.block "B"(%vi = spatial(%[[N]], %[[V]])) where(%[[P]]) {
tensorir.prim_func @split_dynamic(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  tensorir.for %i = 0 to %n {
    tensorir.block "B"(%vi = spatial(%n, %i)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vi] : memref<?xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tensorir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tensorir.split %i by [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
