// Preconditions of decompose_reduction and reverse_compute_at: each
// violation is an error at the block or loop, and the IR is left alone.
// RUN: mlc-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// A block without init.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot decompose the reduction of block 'S' at loop 'k': it has no tensorir.init}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %x = transform.tensorir.decompose_reduction %s at %k : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop that does not contain the block.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  // expected-error @below {{cannot decompose the reduction of block 'S' at loop 'i': the loop does not contain the block}}
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ti = transform.tensorir.get_loops %t : (!transform.any_op) -> !transform.any_op
    %x = transform.tensorir.decompose_reduction %s at %ti : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The reduction loop outside the decomposition point.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  // expected-error @below {{cannot decompose the reduction of block 'S' at loop 'i': loop 'k' outside it is bound to a reduce iteration variable, so the initialisation would run more than once}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reorder %k, %i : !transform.any_op, !transform.any_op
    %x = transform.tensorir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A consumer that is already under the loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot reverse_compute_at block 'S' under loop 'i': the block has reduce iteration variables (only a spatial block can be moved)}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ti = transform.tensorir.get_loops %t : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_at %s at %ti : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer under the loop already.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot reverse_compute_at block 'S' under loop 'i': the block is already under the loop}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reverse_compute_at %s at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The producer is incomplete after one iteration of a reduction loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-note @below {{producer is here}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_at block 'T' under loop 'k': block 'S' is not complete after one iteration: its reduce iteration variable #1 'vk' depends on the loop or a loop outside it}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reverse_compute_at %t at %k : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A block in between that writes what the consumer reads.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  %c0 = arith.constant 0 : index
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  // expected-note @below {{block is here}}
  tensorir.block "W"(%w = spatial(8, %c0)) {
    %one = arith.constant 1.0 : f32
    memref.store %one, %S[%w] : memref<8xf32>
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_at block 'T' under loop 'i': block 'W' between them accesses its buffers}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reverse_compute_at %t at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer that reads the produced buffer at a shifted index.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_at block 'T' under loop 'i': dimension 0 of the buffer it reads from block 'S' is not indexed by one spatial iteration variable}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %c7 = arith.constant 7 : index
      %vi2 = arith.subi %c7, %vi : index
      %s = memref.load %S[%vi2] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reverse_compute_at %t at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer that reads nothing produced under the loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_at block 'T' under loop 'i': no block under the loop writes a buffer it reads}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %T[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reverse_compute_at %t at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// compute_at of a block that writes a function argument.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot compute_at block 'S' under loop 'i': it writes a buffer that is not a tensorir.alloc_buffer (an output would only be computed where the loop reads it)}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ti = transform.tensorir.get_loops %t : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %s at %ti : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// compute_at with another reader of the output outside the loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot compute_at block 'S' under loop 'i': block 'U' outside the loop reads its output}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
  tensorir.for %u = 0 to 8 {
    // expected-note @below {{block is here}}
    tensorir.block "U"(%vu = spatial(8, %u)) {
      %s = memref.load %S[%vu] : memref<8xf32>
      memref.store %s, %T[%vu] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ti = transform.tensorir.get_loops %t : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %s at %ti : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// compute_at of a consumer.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot compute_at block 'T' under loop 'i': the block does not come before the loop}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.compute_at %t at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// cache_read of a buffer index that does not exist.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot cache_read block 'S' buffer #3: it reads 1 buffers, there is no buffer #3}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %x = transform.tensorir.cache_read %s 3 "shared" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cache_write of a block that accumulates without an init.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot cache_write block 'S' buffer #0: the block reads buffer 'S' without a tensorir.init (the cache would start uninitialised)}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %x = transform.tensorir.cache_write %s 0 "local" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// rfactor of a spatial loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  // expected-error @below {{cannot rfactor loop 'i': it is bound to spatial iteration variable #0 'vi' of block 'S'}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %x = transform.tensorir.rfactor %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// rfactor of a reduction whose init is not the identity of its combiner.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot rfactor loop 'k': the stored value of block 'S' is not a combiner (add, mul, max, min, ...) whose identity the init stores}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 1.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %x = transform.tensorir.rfactor %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A consumer whose loops run over part of its domain.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 4 {
    // expected-error @below {{cannot reverse_compute_at block 'T' under loop 'i': its loops do not run iteration variable #0 'vi' over its whole domain (each binding must be its own loop over the domain)}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tensorir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reverse_compute_at %t at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// cache_read into a storage scope TensorIR does not know.
tensorir.prim_func @f(%A: memref<8xf32>, %T: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot cache_read block 'T' buffer #0: unknown storage scope "texture" (expected global, shared, shared.dyn or local)}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %x = transform.tensorir.cache_read %t 0 "texture" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
