// Sampling instructions (TVM's sample_perfect_tile, sample_categorical,
// sample_compute_location) as transform ops, and split, tile and compute_at
// by their results. A recorded decision is what
// the ops return; without one they draw from `seed`, the same draw every
// time (the second RUN replays the script and compares the IR).
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s
// RUN: mlc-opt %s --transform-interpreter --split-input-file -o %t.1.mlir
// RUN: mlc-opt %s --transform-interpreter --split-input-file -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// The ops print as they parse:
// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// (sample_compute_location's ROUNDTRIP lines are at its cases below.)
// ROUNDTRIP: transform.tensorir.sample_perfect_tile %{{.*}} {decision = array<i64: 8, 12>, max_innermost_factor = 16 : i64} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
// ROUNDTRIP: transform.tensorir.split %{{.*}} by [%{{.*}}#0, %{{.*}}#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
// ROUNDTRIP: transform.tensorir.sample_categorical [1, 2, 4, 8] probs [2.500000e-01, 2.500000e-01, 2.500000e-01, 2.500000e-01] {decision = 2 : i64} : !transform.param<i64>
// ROUNDTRIP: transform.tensorir.split %{{.*}} by [?, 2, %{{.*}}] : (!transform.any_op, !transform.param<i64>)

// The decision [8, 12] of j (96) and [3, 16] of k (48) split the loops.
// CHECK-LABEL: tensorir.prim_func @mm
// CHECK:         tensorir.for %i = 0 to 64 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 8 {
// CHECK-NEXT:        tensorir.for %j_1 = 0 to 12 {
// CHECK-NEXT:          tensorir.for %k_0 = 0 to 3 {
// CHECK-NEXT:            tensorir.for %k_1 = 0 to 16 {
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 96 {
      tensorir.for %k = 0 to 48 {
        tensorir.block "Y"(%vi = spatial(64, %i), %vj = spatial(96, %j), %vk = reduce(48, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<64x96xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<64x96xf32>
          %a = memref.load %A[%vi, %vk] : memref<64x48xf32>
          %b = memref.load %B[%vk, %vj] : memref<48x96xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<64x96xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t:2 = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = 16, decision = array<i64: 8, 12>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %u:2 = transform.tensorir.sample_perfect_tile %k {decision = array<i64: 3, 16>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %j0, %j1 = transform.tensorir.split %j by [%t#0, %t#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tensorir.split %k by [%u#0, %u#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A param factor mixed with a constant and an inferred one; a categorical
// decision picks candidates[2] = 4.
// CHECK-LABEL: tensorir.prim_func @mm
// CHECK:         tensorir.for %i_0 = 0 to 8 {
// CHECK-NEXT:      tensorir.for %i_1 = 0 to 2 {
// CHECK-NEXT:        tensorir.for %i_2 = 0 to 4 {
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 96 {
      tensorir.for %k = 0 to 48 {
        tensorir.block "Y"(%vi = spatial(64, %i), %vj = spatial(96, %j), %vk = reduce(48, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<64x96xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<64x96xf32>
          %a = memref.load %A[%vi, %vk] : memref<64x48xf32>
          %b = memref.load %B[%vk, %vj] : memref<48x96xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<64x96xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c = transform.tensorir.sample_categorical [1, 2, 4, 8] probs [0.25, 0.25, 0.25, 0.25] {decision = 2 : i64} : !transform.param<i64>
    %i0, %i1, %i2 = transform.tensorir.split %i by [?, 2, %c] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Drawn tilings: one factor is the whole extent; a limit of 1 leaves the
// innermost loop of extent 1; a candidate of weight 0 is never drawn (the
// only one of positive weight is).
// CHECK-LABEL: tensorir.prim_func @mm
// CHECK:         tensorir.for %i = 0 to 64 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 96 {
// CHECK-NEXT:        tensorir.for %j_1 = 0 to 1 {
// CHECK-NEXT:          tensorir.for %k_0 = 0 to 48 {
// CHECK-NEXT:            tensorir.for %k_1 = 0 to 1 {
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 96 {
      tensorir.for %k = 0 to 48 {
        tensorir.block "Y"(%vi = spatial(64, %i), %vj = spatial(96, %j), %vk = reduce(48, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<64x96xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<64x96xf32>
          %a = memref.load %A[%vi, %vk] : memref<64x48xf32>
          %b = memref.load %B[%vk, %vj] : memref<48x96xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<64x96xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %one = transform.tensorir.sample_perfect_tile %j {seed = 5} : (!transform.any_op) -> !transform.param<i64>
    %t:2 = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = 1, seed = 11} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %c = transform.tensorir.sample_categorical [1, 96, 3] probs [0.0, 1.0, 0.0] {seed = 9} : !transform.param<i64>
    %j0, %j1 = transform.tensorir.split %j by [%c, %t#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tensorir.split %k by [?, %t#1] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Seeded draws of three factors of 96 with an innermost limit of 16: any
// tiling, the same one in both runs (diffed above).
// CHECK-LABEL: tensorir.prim_func @mm
// CHECK:         tensorir.for %j_0
// CHECK-NEXT:      tensorir.for %j_1
// CHECK-NEXT:        tensorir.for %j_2
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 96 {
      tensorir.for %k = 0 to 48 {
        tensorir.block "Y"(%vi = spatial(64, %i), %vj = spatial(96, %j), %vk = reduce(48, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<64x96xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<64x96xf32>
          %a = memref.load %A[%vi, %vk] : memref<64x48xf32>
          %b = memref.load %B[%vk, %vj] : memref<48x96xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<64x96xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t:3 = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = 16, seed = 1234} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %j0, %j1, %j2 = transform.tensorir.split %j by [%t#0, %t#1, %t#2] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A loop of 2^40 iterations: drawing a tiling takes O(sqrt(extent)) steps,
// not O(extent), and leaves the IR alone.
// CHECK-LABEL: tensorir.prim_func @huge
// CHECK:         tensorir.for %i = 0 to 1099511627776 {
tensorir.prim_func @huge() {
  tensorir.for %i = 0 to 1099511627776 {
    tensorir.block "Y"(%vi = spatial(1099511627776, %i)) {
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tensorir.get_loops %y : (!transform.any_op) -> !transform.any_op
    %t:3 = transform.tensorir.sample_perfect_tile %i {max_innermost_factor = 64, seed = 2} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// tile takes a sampled size: i by 16 (candidates[1]), j by 32.
// ROUNDTRIP: transform.tensorir.tile %{{.*}}, %{{.*}} by [%{{.*}}, 32] : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
// CHECK-LABEL: tensorir.prim_func @mm
// CHECK:         tensorir.for %i_0 = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 3 {
// CHECK-NEXT:        tensorir.for %i_1 = 0 to 16 {
// CHECK-NEXT:          tensorir.for %j_1 = 0 to 32 {
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 96 {
      tensorir.for %k = 0 to 48 {
        tensorir.block "Y"(%vi = spatial(64, %i), %vj = spatial(96, %j), %vk = reduce(48, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<64x96xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<64x96xf32>
          %a = memref.load %A[%vi, %vk] : memref<64x48xf32>
          %b = memref.load %B[%vk, %vj] : memref<48x96xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<64x96xf32>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c = transform.tensorir.sample_categorical [8, 16] probs [0.5, 0.5] {decision = 1 : i64} : !transform.param<i64>
    %i0, %j0, %i1, %j1 = transform.tensorir.tile %i, %j by [%c, 32] : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// sample_compute_location: decision 1 is the second of Y's compute
// locations in pre-order (C's loops i, j_0, j_1): compute_at moves Y
// under j_0, as sch.compute_at(Y, j_0) does.
// ROUNDTRIP: transform.tensorir.sample_compute_location %{{.*}} {decision = 1 : i64} : (!transform.any_op) -> !transform.any_op
// ROUNDTRIP: transform.tensorir.collect_compute_locations %{{.*}} : (!transform.any_op) -> !transform.any_op
// CHECK-LABEL: tensorir.prim_func @compute_at
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 3 {
// CHECK-NEXT:        tensorir.for %ax0 = 0 to 8 {
// CHECK-NEXT:          tensorir.for %ax1 = 0 to 6 {
// CHECK:                 tensorir.block "Y"
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
    %loc = transform.tensorir.sample_compute_location %y {decision = 1 : i64} : (!transform.any_op) -> !transform.any_op
    %all = transform.tensorir.collect_compute_locations %y : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %y at %loc : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Decision -1 (TVM's root location): the handle is empty and compute_at
// leaves Y where it is.
// CHECK-LABEL: tensorir.prim_func @compute_at
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j = 0 to 20 {
// CHECK-NEXT:        tensorir.for %k = 0 to 6 {
// CHECK-NEXT:          tensorir.block "Y"
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j_0 = 0 to 3 {
// CHECK-NEXT:        tensorir.for %j_1 = 0 to 8 {
// CHECK:               tensorir.block "C"
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
    %loc = transform.tensorir.sample_compute_location %y {decision = -1 : i64} : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %y at %loc : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A drawn location (seed 1, uniform over -1, i and j): the same every run
// (the diff above); it is j, so Y computes one element per iteration.
// CHECK-LABEL: tensorir.prim_func @compute_at
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      tensorir.for %j = 0 to 20 {
// CHECK-NEXT:        tensorir.for %ax0 = 0 to 6 {
// CHECK-NEXT:          tensorir.block "Y"
// CHECK:             tensorir.block "C"
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
    %loc = transform.tensorir.sample_compute_location %y {seed = 1 : i64} : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %y at %loc : !transform.any_op, !transform.any_op
    transform.yield
  }
}
