// Sampling instructions and param split factors: each invalid decision,
// weight or factor is an error naming it.
// RUN: mlc-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// A decision whose product is not the extent.
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    // expected-error @below {{cannot sample a perfect tile of loop 'j': the product of [8, 8] is not the extent 96}}
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
    %t:2 = transform.tensorir.sample_perfect_tile %j {decision = array<i64: 8, 8>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// No tiling of 96 into one factor has an innermost factor of at most 16.
tensorir.prim_func @mm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %Y: memref<64x96xf32>) {
  tensorir.for %i = 0 to 64 {
    // expected-error @below {{cannot sample a perfect tile of loop 'j': the innermost factor 96 exceeds max_innermost_factor 16}}
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
    %t = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = 16} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// The decision has more factors than the op has results.
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
    // expected-error @below {{the decision has 3 factors but the op has 2 results}}
    %t:2 = transform.tensorir.sample_perfect_tile %j {decision = array<i64: 8, 4, 3>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A decision factor that is not positive.
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
    // expected-error @below {{decision factor 0 is not positive}}
    %t:2 = transform.tensorir.sample_perfect_tile %j {decision = array<i64: 96, 0>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A decision beyond the innermost limit.
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
    // expected-error @below {{the innermost factor 32 of the decision exceeds max_innermost_factor 16}}
    %t:2 = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = 16, decision = array<i64: 3, 32>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A negative limit.
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
    // expected-error @below {{max_innermost_factor -1 is negative (0: no limit)}}
    %t:2 = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = -1} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Fewer probabilities than candidates.
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
    // expected-error @below {{2 probabilities for 3 candidates}}
    %c = transform.tensorir.sample_categorical [1, 2, 3] probs [0.5, 0.5] : !transform.param<i64>
    transform.yield
  }
}

// -----

// Weights that are all zero.
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
    // expected-error @below {{the probabilities are all zero}}
    %c = transform.tensorir.sample_categorical [1, 2] probs [0.0, 0.0] : !transform.param<i64>
    transform.yield
  }
}

// -----

// A negative weight.
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
    // expected-error @below {{probability -1 is not a finite non-negative number}}
    %c = transform.tensorir.sample_categorical [1, 2] probs [-1.0, 2.0] : !transform.param<i64>
    transform.yield
  }
}

// -----

// A decision that is not an index of the candidates.
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
    // expected-error @below {{decision 2 is not an index of the 2 candidates}}
    %c = transform.tensorir.sample_categorical [1, 2] probs [1.0, 1.0] {decision = 2 : i64} : !transform.param<i64>
    transform.yield
  }
}

// -----

// A param factor that is not positive.
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
    %c = transform.tensorir.sample_categorical [0] probs [1.0] : !transform.param<i64>
    // expected-error @below {{param factor 0 is not positive}}
    %j0, %j1 = transform.tensorir.split %j by [?, %c] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A param factor holding two values.
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
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c3 = transform.param.constant 3 : i64 -> !transform.param<i64>
    %c = transform.merge_handles %c2, %c3 : !transform.param<i64>
    // expected-error @below {{expected each param factor to hold one integer, got 2 values}}
    %j0, %j1 = transform.tensorir.split %j by [?, %c] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Y's compute locations: C's loops i, j_0 and j_1 (not its own).
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
    %all = transform.tensorir.collect_compute_locations %y : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %all : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{3 : i64}}
    transform.debug.emit_param_as_remark %n : !transform.param<i64>
    transform.yield
  }
}

// -----

// A decision past the compute locations.
tensorir.prim_func @compute_at(%A: memref<4x20x6xf32>, %C: memref<4x20xf32>) {
  %Y = tensorir.alloc_buffer : memref<4x20xf32>
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 20 {
      tensorir.for %k = 0 to 6 {
        // expected-error @below {{cannot sample a compute location of block 'Y': decision 3 is not -1 (where it is) or the index of one of its 3 compute_at locations}}
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
    %loc = transform.tensorir.sample_compute_location %y {decision = 3 : i64} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// TVM's inline decision -2 is not a compute location here.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.tensorir.sample_compute_location' op decision -2 is not -1 (where the block is) or a location index}}
    %loc = transform.tensorir.sample_compute_location %y {decision = -2 : i64} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// tile sizes are integers or params, not '?'.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tensorir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tensorir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{'transform.tensorir.tile' op a tile size is '?'; sizes are integers or params}}
    %i0, %j0, %i1, %j1 = transform.tensorir.tile %i, %j by [?, 32] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
