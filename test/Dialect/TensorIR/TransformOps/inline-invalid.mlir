// Preconditions of compute_inline and reverse_compute_inline.
// RUN: mlc-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// A reduction cannot be inlined.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot compute_inline block 'S': the block has reduce iteration variables}}
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
    transform.tensorir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// An output buffer (a function argument) cannot be inlined away.
tensorir.prim_func @f(%A: memref<8xf32>, %B: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot compute_inline block 'B': it writes a buffer that is not a tensorir.alloc_buffer}}
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
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

// The store must be at the iteration variables, each once.
tensorir.prim_func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tensorir.alloc_buffer : memref<8xf32>
  %c7 = arith.constant 7 : index
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot compute_inline block 'B': the store index is not its iteration variables, each once}}
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      %r = arith.subi %c7, %vi : index
      memref.store %a, %B[%r] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "C"(%vi = spatial(8, %i)) {
      %b = memref.load %B[%vi] : memref<8xf32>
      memref.store %b, %C[%vi] : memref<8xf32>
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

// A second writer of the buffer.
tensorir.prim_func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot compute_inline block 'B': block 'B2' also writes the buffer it writes}}
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{block is here}}
    tensorir.block "B2"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
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

// reverse_compute_inline into a reduction producer would apply the consumer
// to partial sums.
tensorir.prim_func @f(%A: memref<8x8xf32>, %T: memref<8xf32>) {
  %S = tensorir.alloc_buffer : memref<8xf32>
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-note @below {{producer is here}}
      tensorir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %s = memref.load %S[%vi] : memref<8xf32>
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_inline block 'T': the producer is a reduction (the block would be applied to partial results)}}
    tensorir.block "T"(%vi = spatial(8, %i)) {
      %s = memref.load %S[%vi] : memref<8xf32>
      %e = math.exp %s : f32
      memref.store %e, %T[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tensorir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// The consumer must read its input at its iteration variables.
tensorir.prim_func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tensorir.alloc_buffer : memref<8xf32>
  %c7 = arith.constant 7 : index
  tensorir.for %i = 0 to 8 {
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_inline block 'C': it reads its input at an index that is not its iteration variables, each once}}
    tensorir.block "C"(%vi = spatial(8, %i)) {
      %r = arith.subi %c7, %vi : index
      %b = memref.load %B[%r] : memref<8xf32>
      memref.store %b, %C[%vi] : memref<8xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %c : !transform.any_op
    transform.yield
  }
}

// -----

// Without keep_input, a block reading an output of the function has no
// intermediate to inline into.
tensorir.prim_func @f(%A: memref<8xf32>, %B: memref<8xf32>, %H: memref<8xf16>) {
  tensorir.for %i = 0 to 8 {
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_inline block 'H': it reads no buffer that a block writes}}
    tensorir.block "H"(%vi = spatial(8, %i)) {
      %b = memref.load %B[%vi] : memref<8xf32>
      %h = arith.truncf %b : f32 to f16
      memref.store %h, %H[%vi] : memref<8xf16>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h = transform.tensorir.get_block "H" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %h : !transform.any_op
    transform.yield
  }
}

// -----

// With keep_input the block must cover all that the producer writes: the
// producer's other elements would lose their second output.
tensorir.prim_func @f(%A: memref<8xf32>, %B: memref<8xf32>, %H: memref<4xf16>) {
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{producer is here}}
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 4 {
    // expected-error @below {{cannot reverse_compute_inline block 'H': with keep_input the block must cover the producer's whole domain}}
    tensorir.block "H"(%vi = spatial(4, %i)) {
      %b = memref.load %B[%vi] : memref<8xf32>
      %h = arith.truncf %b : f32 to f16
      memref.store %h, %H[%vi] : memref<4xf16>
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

// -----

// With keep_input, nothing between the producer and the block may write
// what the block reads.
tensorir.prim_func @f(%A: memref<8xf32>, %B: memref<8xf32>, %H: memref<8xf16>) {
  tensorir.for %i = 0 to 8 {
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{block is here}}
    tensorir.block "again"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      %d = arith.addf %a, %a : f32
      memref.store %d, %B[%vi] : memref<8xf32>
    }
  }
  tensorir.for %i = 0 to 8 {
    // expected-error @below {{cannot reverse_compute_inline block 'H': block 'again' between it and its producer accesses its buffers}}
    tensorir.block "H"(%vi = spatial(8, %i)) {
      %b = memref.load %B[%vi] : memref<8xf32>
      %h = arith.truncf %b : f32 to f16
      memref.store %h, %H[%vi] : memref<8xf16>
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
