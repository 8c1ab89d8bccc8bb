// Preconditions of transform_block_layout and reindex, and of
// reverse_compute_inline into a producer whose store is not one element per
// iteration.
// RUN: mlc-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// One dimension per iteration variable.
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot transform_block_layout block 'B': the index map has 1 dimensions and 0 symbols, expected 2 dimensions (one per iteration variable) and no symbol}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i) -> (i)> : !transform.any_op
    transform.yield
  }
}

// -----

// A fusion is row-major: the outer stride is the inner extent (6).
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot transform_block_layout block 'B': result 0 (d0 * 5 + d1) is not a row-major fusion of its dimensions (d0 has stride 5, expected 6)}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i, j) -> (i * 5 + j)> : !transform.any_op
    transform.yield
  }
}

// -----

// Each variable in exactly one result.
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot transform_block_layout block 'B': dimension d0 is used by more than one result}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i, j) -> (i, i * 6 + j)> : !transform.any_op
    transform.yield
  }
}

// -----

tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot transform_block_layout block 'B': dimension d1 is used by no result}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i, j) -> (i)> : !transform.any_op
    transform.yield
  }
}

// -----

// Only sums of variables times constants (a fusion) can be undone.
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot transform_block_layout block 'B': result 0 (d0 floordiv 2) is not a sum of dimensions times constants}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i, j) -> (i floordiv 2, j)> : !transform.any_op
    transform.yield
  }
}

// -----

// Spatial and reduce variables stay apart.
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot transform_block_layout block 'B': result 0 fuses spatial and reduce iteration variables}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = reduce(6, %j)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          memref.store %z, %B[%vi] : memref<4xf32>
        }
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        %b = memref.load %B[%vi] : memref<4xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %B[%vi] : memref<4xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i, j) -> (i * 6 + j)> : !transform.any_op
    transform.yield
  }
}

// -----

// reindex: the buffer index is in range.
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot reindex block 'B' read buffer #1: the block has 1 read buffers}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.reindex %b "read" 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An index that is no affine function of the iteration variables.
tensorir.prim_func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot reindex block 'B' read buffer #0: dimension 1 of buffer 'A' is not an affine function of the iteration variables}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %c3 = arith.constant 3 : index
        %m = arith.minsi %vj, %c3 : index
        // expected-note @below {{access is here}}
        %a = memref.load %A[%vi, %m] : memref<4x6xf32>
        memref.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.reindex %b "read" 0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// One index for all accesses of the buffer.
tensorir.prim_func @f(%A: memref<4x7xf32>, %B: memref<4x6xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      // expected-error @below {{cannot reindex block 'B' read buffer #0: buffer 'A' is accessed at two different indices}}
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %c1 = arith.constant 1 : index
        %j1 = arith.addi %vj, %c1 : index
        %a = memref.load %A[%vi, %vj] : memref<4x7xf32>
        // expected-note @below {{access is here}}
        %a1 = memref.load %A[%vi, %j1] : memref<4x7xf32>
        %s = arith.addf %a, %a1 : f32
        memref.store %s, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.reindex %b "read" 0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{buffer_index_type must be "read" or "write", got "both"}}
    %c = transform.tensorir.reindex %b "both" 0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_inline: a producer storing T[v floordiv 2] writes each
// element twice and half of T never; its consumer cannot take its stores.
tensorir.prim_func @f(%A: memref<8xf32>, %Out: memref<4xf32>) {
  %T = tensorir.alloc_buffer : memref<4xf32>
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{producer is here}}
    tensorir.block "T"(%v = spatial(8, %i)) {
      %a = memref.load %A[%v] : memref<8xf32>
      %h = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%v)
      memref.store %a, %T[%h] : memref<4xf32>
    }
  }
  tensorir.for %i = 0 to 4 {
    // expected-error @below {{cannot reverse_compute_inline block 'Out': the store index is not its iteration variables, each once, nor a decomposition of them that stores each element once}}
    tensorir.block "Out"(%v = spatial(4, %i)) {
      %t = memref.load %T[%v] : memref<4xf32>
      memref.store %t, %Out[%v] : memref<4xf32>
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "Out" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %b : !transform.any_op
    transform.yield
  }
}
