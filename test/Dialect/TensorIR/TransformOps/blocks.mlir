// Block primitives of the TensorIR schedule as transform ops:
// decompose_reduction and reverse_compute_at.
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s

// The MLC course's mm_relu schedule: split(j, [None, 4]), reorder(j0, k, j1),
// reverse_compute_at(C, j0), decompose_reduction(Y, k). The init block
// copies only the loop that feeds a spatial variable (j_1), writes what the
// update wrote and reads nothing; the update now reads Y.
// CHECK-DAG:   #[[J:.*]] = affine_map<(d0, d1) -> (d0 * 4 + d1)>
// CHECK-LABEL: tensorir.prim_func @mm_relu
// CHECK:         tensorir.for %i = 0 to 128 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 32 {
// CHECK-NEXT:        tensorir.for %j_1_init = 0 to 4 {
// CHECK-NEXT:          %[[VI:.*]] = affine.apply #[[J]](%j_0, %j_1_init)
// CHECK-NEXT:          tensorir.block "Y_init"(%vi = spatial(128, %i), %vj = spatial(128, %[[VI]])) reads() writes(%Y[%vi, %vj] : memref<128x128xf32>) {
// CHECK-NEXT:            arith.constant 0.0
// CHECK-NEXT:            memref.store
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        tensorir.for %k = 0 to 128 {
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 4 {
// CHECK-NEXT:            %[[VU:.*]] = affine.apply #[[J]](%j_0, %j_1)
// CHECK-NEXT:            tensorir.block "Y_update"(%vi = spatial(128, %i), %vj = spatial(128, %[[VU]]), %vk = reduce(128, %k))
// CHECK-SAME:              reads(%Y[%vi, %vj], %A[%vi, %vk], %B[%vk, %vj] : {{.*}}) writes(%Y[%vi, %vj] : memref<128x128xf32>) {
// CHECK-NOT:               tensorir.init
// CHECK:               }
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        tensorir.for %ax0 = 0 to 4 {
// CHECK-NEXT:          %[[VC:.*]] = affine.apply #[[J]](%j_0, %ax0)
// CHECK-NEXT:          tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %[[VC]])) reads(%Y[%vi, %vj] : memref<128x128xf32>) writes(%C[%vi, %vj] : memref<128x128xf32>) {
// CHECK:             }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    tensorir.return
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
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tensorir.split %j by [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reorder %j0, %k, %j1 : !transform.any_op, !transform.any_op, !transform.any_op
    transform.tensorir.reverse_compute_at %c at %j0 : !transform.any_op, !transform.any_op
    %init = transform.tensorir.decompose_reduction %y at %k : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at under a tiled producer with a tail (10 = 2 * 8 - 6):
// the consumer covers the 8-wide tile and is guarded by its domain; the
// unit-extent dimension (one row per iteration of i) gets no loop.
// decompose_reduction at the outer loop of a split reduction with a tail:
// the init keeps no predicate term of the reduction loops.
// CHECK-LABEL: tensorir.prim_func @tail
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 2 {
// CHECK-NEXT:        tensorir.for %j_1_init = 0 to 8 {
// CHECK:               %[[PI:.*]] = arith.cmpi ult
// CHECK-NEXT:          tensorir.block "S_init"({{.*}}) where(%[[PI]])
// CHECK:             tensorir.for %k_0 = 0 to 3 {
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 8 {
// CHECK-NEXT:            tensorir.for %k_1 = 0 to 2 {
// CHECK:                   arith.andi
// CHECK-NEXT:              tensorir.block "S_update"
// CHECK:             tensorir.for %ax0 = 0 to 8 {
// CHECK-NEXT:          %[[V:.*]] = affine.apply #{{.*}}(%j_0, %ax0)
// CHECK-NEXT:          %[[C10:.*]] = arith.constant 10 : index
// CHECK-NEXT:          %[[P:.*]] = arith.cmpi ult, %[[V]], %[[C10]] : index
// CHECK-NEXT:          tensorir.block "T"(%vi = spatial(4, %i), %vj = spatial(10, %[[V]])) where(%[[P]])
tensorir.prim_func @tail(%A: memref<4x10x5xf32>, %T: memref<4x10xf32>) {
  %S = tensorir.alloc_buffer : memref<4x10xf32>
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 10 {
      tensorir.for %k = 0 to 5 {
        tensorir.block "S"(%vi = spatial(4, %i), %vj = spatial(10, %j), %vk = reduce(5, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %S[%vi, %vj] : memref<4x10xf32>
          }
          %s = memref.load %S[%vi, %vj] : memref<4x10xf32>
          %a = memref.load %A[%vi, %vj, %vk] : memref<4x10x5xf32>
          %r = arith.addf %s, %a : f32
          memref.store %r, %S[%vi, %vj] : memref<4x10xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 10 {
      tensorir.block "T"(%vi = spatial(4, %i), %vj = spatial(10, %j)) {
        %s = memref.load %S[%vi, %vj] : memref<4x10xf32>
        %e = math.exp %s : f32
        memref.store %e, %T[%vi, %vj] : memref<4x10xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tensorir.split %j by [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tensorir.split %k by [?, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reorder %k0, %j1 : !transform.any_op, !transform.any_op
    transform.tensorir.reverse_compute_at %t at %j0 : !transform.any_op, !transform.any_op
    %init = transform.tensorir.decompose_reduction %s at %k0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// compute_at of a reduction producer under the consumer's split loop
// (sch.compute_at(Y, j_0) after sch.split(j, [None, 8]) of C over 20):
// Y computes the 8 columns C reads in one iteration, guarded against the
// tail, with its reduction over the whole domain; its init stays.
// CHECK-LABEL: tensorir.prim_func @compute_at
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 3 {
// CHECK-NEXT:        tensorir.for %ax0 = 0 to 8 {
// CHECK-NEXT:          tensorir.for %ax1 = 0 to 6 {
// CHECK-NEXT:            %[[V:.*]] = affine.apply #{{.*}}(%j_0, %ax0)
// CHECK-NEXT:            %[[C20:.*]] = arith.constant 20 : index
// CHECK-NEXT:            %[[P:.*]] = arith.cmpi ult, %[[V]], %[[C20]] : index
// CHECK-NEXT:            tensorir.block "Y"(%vi = spatial(4, %i), %vj = spatial(20, %[[V]]), %vk = reduce(6, %ax1)) where(%[[P]])
// CHECK-NEXT:              tensorir.init
// CHECK:             tensorir.for %j_1 = 0 to 8 {
// CHECK:               tensorir.block "C"
// CHECK-NOT:     tensorir.for
// CHECK:         tensorir.return
tensorir.prim_func @compute_at(%A: memref<4x20x6xf32>, %C: memref<4x20xf32>) {
  %Y = tensorir.alloc_buffer : memref<4x20xf32>
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 20 {
      tensorir.for %k = 0 to 6 {
        tensorir.block "Y"(%vi = spatial(4, %i), %vj = spatial(20, %j), %vk = reduce(6, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<4x20xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<4x20xf32>
          %a = memref.load %A[%vi, %vj, %vk] : memref<4x20x6xf32>
          %s = arith.addf %y, %a : f32
          memref.store %s, %Y[%vi, %vj] : memref<4x20xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 20 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(20, %j)) {
        %y = memref.load %Y[%vi, %vj] : memref<4x20xf32>
        %e = math.exp %y : f32
        memref.store %e, %C[%vi, %vj] : memref<4x20xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tensorir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tensorir.split %j by [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.compute_at %y at %j0 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// cache_read of A by Y, then compute_at of the copy under i: one row of A
// per iteration; cache_write of C, copied back per row by reverse_compute_at.
// CHECK-LABEL: tensorir.prim_func @cache
// CHECK:         %A_shared = tensorir.alloc_buffer {scope = "shared"} : memref<16x8xf32>
// CHECK-NEXT:    tensorir.for %i = 0 to 16 {
// CHECK-NEXT:      tensorir.for %ax0 = 0 to 8 {
// CHECK-NEXT:        tensorir.block "A_shared"(%v0 = spatial(16, %i), %v1 = spatial(8, %ax0)) reads(%A[%v0, %v1] : memref<16x8xf32>) writes(%A_shared[%v0, %v1] : memref<16x8xf32>) {
// CHECK-NEXT:          %[[X:.*]] = memref.load %A[%v0, %v1]
// CHECK-NEXT:          memref.store %[[X]], %A_shared[%v0, %v1]
// CHECK:           tensorir.for %k = 0 to 8 {
// CHECK-NEXT:        tensorir.block "S"
// CHECK:               memref.load %A_shared[%vi, %vk]
// CHECK:         %C_local = tensorir.alloc_buffer {scope = "local"} : memref<16xf32>
// CHECK-NEXT:    tensorir.for %i = 0 to 16 {
// CHECK-NEXT:      tensorir.block "C"
// CHECK:             memref.store %{{.*}}, %C_local[%vi]
// CHECK:           tensorir.block "C_local"(%v0 = spatial(16, %i)) reads(%C_local[%v0] : memref<16xf32>) writes(%C[%v0] : memref<16xf32>)
tensorir.prim_func @cache(%A: memref<16x8xf32>, %C: memref<16xf32>) {
  %S = tensorir.alloc_buffer : memref<16xf32>
  tensorir.for %i = 0 to 16 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(16, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<16xf32>
        }
        %s = memref.load %S[%vi] : memref<16xf32>
        %a = memref.load %A[%vi, %vk] : memref<16x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<16xf32>
      }
    }
  }
  tensorir.for %i = 0 to 16 {
    tensorir.block "C"(%vi = spatial(16, %i)) {
      %s = memref.load %S[%vi] : memref<16xf32>
      %e = math.exp %s : f32
      memref.store %e, %C[%vi] : memref<16xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %as = transform.tensorir.cache_read %s 0 "shared" : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %as at %i : !transform.any_op, !transform.any_op
    %cl = transform.tensorir.cache_write %c 0 "local" : (!transform.any_op) -> !transform.any_op
    %ci = transform.tensorir.get_loops %c : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_at %cl at %ci : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// rfactor of the inner part of a split reduction.
// CHECK-LABEL: tensorir.prim_func @rfactor
// CHECK:         %S_rf = tensorir.alloc_buffer : memref<4x8xf32>
// CHECK:         tensorir.block "sum_rf"(%{{.*}} = spatial(4, %k_1), %{{.*}} = spatial(8, %i), %{{.*}} = reduce(4, %k_0))
// CHECK:           memref.store %{{.*}}, %S_rf
// CHECK:         tensorir.for %ax0 = 0 to 8 {
// CHECK-NEXT:      tensorir.for %k_1_rf = 0 to 4 {
// CHECK-NEXT:        tensorir.block "sum"(%[[V:.*]] = spatial(8, %ax0), %[[R:.*]] = reduce(4, %k_1_rf))
// CHECK:               memref.load %S_rf[%[[R]], %[[V]]]
tensorir.prim_func @rfactor(%A: memref<8x16xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 16 {
      tensorir.block "sum"(%vi = spatial(8, %i), %vk = reduce(16, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x16xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "sum" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tensorir.split %k by [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %rf = transform.tensorir.rfactor %k1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
