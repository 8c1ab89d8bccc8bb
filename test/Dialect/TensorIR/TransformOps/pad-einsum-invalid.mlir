// Preconditions of pad_einsum, and of reverse_compute_inline into a
// producer with a smaller domain.
// RUN: mlc-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// One factor per iteration variable.
tensorir.prim_func @f(%A: memref<10x8xf32>, %B: memref<10x8xf32>) {
  tensorir.for %i = 0 to 10 {
    tensorir.for %j = 0 to 8 {
      // expected-error @below {{cannot pad_einsum block 'B': expected 2 padding factors (one per iteration variable), got 1}}
      tensorir.block "B"(%vi = spatial(10, %i), %vj = spatial(8, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<10x8xf32>
        memref.store %a, %B[%vi, %vj] : memref<10x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [16] : !transform.any_op
    transform.yield
  }
}

// -----

tensorir.prim_func @f(%A: memref<10x8xf32>, %B: memref<10x8xf32>) {
  tensorir.for %i = 0 to 10 {
    tensorir.for %j = 0 to 8 {
      // expected-error @below {{cannot pad_einsum block 'B': the padding factor of iteration variable #1 'vj' must be positive, got -4}}
      tensorir.block "B"(%vi = spatial(10, %i), %vj = spatial(8, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<10x8xf32>
        memref.store %a, %B[%vi, %vj] : memref<10x8xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [16, -4] : !transform.any_op
    transform.yield
  }
}

// -----

// An index that is not an iteration variable (a stencil) is not an einsum.
tensorir.prim_func @f(%A: memref<11xf32>, %B: memref<10xf32>) {
  tensorir.for %i = 0 to 10 {
    // expected-error @below {{cannot pad_einsum block 'B': dimension 0 of buffer 'A' is not indexed by an iteration variable or a constant (not an einsum)}}
    tensorir.block "B"(%vi = spatial(10, %i)) {
      %c1 = arith.constant 1 : index
      %n = arith.addi %vi, %c1 : index
      // expected-note @below {{access is here}}
      %a = memref.load %A[%n] : memref<11xf32>
      memref.store %a, %B[%vi] : memref<10xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [16] : !transform.any_op
    transform.yield
  }
}

// -----

// A loop over part of the domain (after a split, say) is not the block's own.
tensorir.prim_func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  tensorir.for %i = 0 to 5 {
    %c2 = arith.constant 2 : index
    %x = arith.muli %i, %c2 : index
    // expected-error @below {{cannot pad_einsum block 'B': its loops do not run iteration variable #0 'vi' over its whole domain}}
    tensorir.block "B"(%vi = spatial(10, %x)) {
      %a = memref.load %A[%vi] : memref<10xf32>
      memref.store %a, %B[%vi] : memref<10xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [16] : !transform.any_op
    transform.yield
  }
}

// -----

// Accumulating into the output without an init: its padded copy would start
// uninitialised.
tensorir.prim_func @f(%A: memref<10x8xf32>, %C: memref<10xf32>) {
  tensorir.for %i = 0 to 10 {
    tensorir.for %k = 0 to 8 {
      // expected-error @below {{cannot pad_einsum block 'C': it writes buffer 'C' without a tensorir.init (the padded copy would start uninitialised)}}
      tensorir.block "C"(%vi = spatial(10, %i), %vk = reduce(8, %k)) {
        %a = memref.load %A[%vi, %vk] : memref<10x8xf32>
        %c = memref.load %C[%vi] : memref<10xf32>
        %s = arith.addf %c, %a : f32
        memref.store %s, %C[%vi] : memref<10xf32>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [16, 1] : !transform.any_op
    transform.yield
  }
}

// -----

// A padded extent past INT64_MAX.
tensorir.prim_func @f(%A: memref<9223372036854775807xi8>) {
  tensorir.for %i = 0 to 9223372036854775807 {
    // expected-error @below {{cannot pad_einsum block 'A': the padded extent of iteration variable #0 'vi' overflows a 64-bit integer}}
    tensorir.block "A"(%vi = spatial(9223372036854775807, %i)) {
      %z = arith.constant 0 : i8
      memref.store %z, %A[%vi] : memref<9223372036854775807xi8>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [2] : !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_inline: a consumer over more than its producer's domain.
tensorir.prim_func @f(%A: memref<8xf32>, %C: memref<10xf32>) {
  %B = tensorir.alloc_buffer : memref<10xf32>
  tensorir.for %i = 0 to 8 {
    // expected-note @below {{producer is here}}
    tensorir.block "B"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %B[%vi] : memref<10xf32>
    }
  }
  tensorir.for %i = 0 to 10 {
    // expected-error @below {{cannot reverse_compute_inline block 'C': iteration variable #0 'vi' and the producer's #0 'vi' have different domains (and the block's is not a constant prefix of the producer's)}}
    tensorir.block "C"(%vi = spatial(10, %i)) {
      %b = memref.load %B[%vi] : memref<10xf32>
      memref.store %b, %C[%vi] : memref<10xf32>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %b : !transform.any_op
    transform.yield
  }
}
