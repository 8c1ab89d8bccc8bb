// Preconditions of the loop primitives: each violation is an error at the
// offending loop or block, and the IR is left alone.
// RUN: mlc-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// A negative factor.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot split loop 'i': factor -2 is not positive (use 0 or '?' for the inferred factor)}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [-2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Two inferred factors.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot split loop 'i': at most one factor may be inferred}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [?, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Factors that do not cover the loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot split loop 'i': the product of the factors (6) is smaller than its extent (8)}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// One factor.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot split loop 'i': expected at least 2 factors, got 1}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s = transform.tensorir.split %l0 by [8] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A dynamic extent with an inner inferred factor.
tensorir.prim_func @f(%A: memref<?x8xf32>, %n: index) {
  // expected-error @below {{cannot split loop 'i': its extent is not a constant, so the outermost factor must be the inferred one (e.g. [?, 4])}}
  tensorir.for %i = 0 to %n {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(%n, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<?x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [4, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A loop that does not start at 0.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot split loop 'i': it must start at 0 with step 1}}
  tensorir.for %i = 1 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A non-divisible split of a loop with a statement outside any block.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  %cst = arith.constant 1.0 : f32
  // expected-error @below {{cannot split loop 'i' of extent 8 into a product of 9: a statement outside a block cannot be masked by a predicate}}
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{statement is here}}
    memref.store %cst, %A[%i, %i] : memref<8x8xf32>
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [3, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Fusing loops that are not perfectly nested.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  %cst = arith.constant 1.0 : f32
  // expected-error @below {{cannot fuse: loop 'i' contains a statement other than loop 'j' (the loops must be perfectly nested)}}
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{statement is here}}
    memref.store %cst, %A[%i, %i] : memref<8x8xf32>
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tensorir.fuse %l0, %l1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Fusing loops in the wrong order.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot fuse: loop 'i' is not directly nested in loop 'j'}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tensorir.fuse %l1, %l0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Reordering a loop twice.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot reorder: loop 'i' is listed twice}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reorder %l0, %l1, %l0 : !transform.any_op, !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Reordering loops whose bounds depend on each other.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reorder: the bounds of loop 'j' depend on another loop of the chain}}
    tensorir.for %j = 0 to %i {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.reorder %l1, %l0 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Reordering loops of two different nests.
tensorir.prim_func @f(%A: memref<8xf32>) {
  // expected-error @below {{cannot reorder: loop 'j' and loop 'i' are not in one loop nest (neither contains the other)}}
  tensorir.for %i = 0 to 8 {
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vi] : memref<8xf32>
    }
  }
  tensorir.for %j = 0 to 8 {
    tensorir.block "C"(%vj = spatial(8, %j)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vj] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tensorir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tensorir.get_loops %c : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Parallelizing a reduction loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot parallelize loop 'k': it is bound to reduce iteration variable #1 'vk' of block 'S' (only loops over spatial iteration variables qualify)}}
    tensorir.for %k = 0 to 8 {
      // expected-note @below {{block is here}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.parallel %l1 : !transform.any_op
    transform.yield
  }
}

// -----

// Vectorizing a reduction loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot vectorize loop 'k': it is bound to reduce iteration variable #1 'vk' of block 'S' (only loops over spatial iteration variables qualify)}}
    tensorir.for %k = 0 to 8 {
      // expected-note @below {{block is here}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.vectorize %l1 : !transform.any_op
    transform.yield
  }
}

// -----

// Binding a reduction loop to blockIdx.
tensorir.prim_func @f(%A: memref<8x8xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot bind loop 'k': it is bound to reduce iteration variable #1 'vk' of block 'S' (only loops over spatial iteration variables qualify)}}
    tensorir.for %k = 0 to 8 {
      // expected-note @below {{block is here}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.bind %l1 "blockIdx.x" : !transform.any_op
    transform.yield
  }
}

// -----

// An unknown thread tag.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot bind loop 'i': unknown thread tag "warp.x" (expected blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread or vthread.{x,y,z})}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.bind %l0 "warp.x" : !transform.any_op
    transform.yield
  }
}

// -----

// Changing the kind of a bound loop.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  // expected-error @below {{cannot parallelize loop 'i': it is already thread_binding "threadIdx.x"}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tensorir.bind %l0 "threadIdx.x" : !transform.any_op
    transform.tensorir.parallel %l0 : !transform.any_op
    transform.yield
  }
}

// -----

// A block name that does not exist.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{no block named 'nope' in the target}}
    %b = transform.tensorir.get_block "nope" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// As many results as loops.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{block 'B' has 2 loops but the op has 3 results}}
    %l:3 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A handle to a block where a loop is expected.
tensorir.prim_func @f(%A: memref<8x8xf32>, %n: index) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a handle to a 'tensorir.for', got 'tensorir.block'}}
    transform.tensorir.parallel %b : !transform.any_op
    transform.yield
  }
}

// -----

// Factors whose product overflows a 64-bit integer.
tensorir.prim_func @f(%A: memref<?x8xf32>) {
  // expected-error @below {{cannot split loop 'i': the product of the factors overflows a 64-bit integer}}
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<?x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:3 = transform.tensorir.split %l0 by [?, 4611686018427387904, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An extent of INT64_MAX rounded up to a multiple of 8 overflows (the
// outermost factor would be 2^60, the covered range 2^63).
tensorir.prim_func @f(%A: memref<?x8xf32>) {
  // expected-error @below {{cannot split loop 'i': its extent (9223372036854775807) rounded up to a multiple of the factors overflows a 64-bit integer}}
  tensorir.for %i = 0 to 9223372036854775807 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(9223372036854775807, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<?x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.tensorir.split %l0 by [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Loops whose fused extent overflows a 64-bit integer.
tensorir.prim_func @f(%A: memref<?x8xf32>) {
  // expected-error @below {{cannot fuse loop 'i': the product of the loops' extents overflows a 64-bit integer}}
  tensorir.for %i = 0 to 9223372036854775807 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "B"(%vi = spatial(9223372036854775807, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<?x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tensorir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tensorir.fuse %l0, %l1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
