// RUN: mlc-opt %s -split-input-file -relax-fold-constant=max-steps=100 -verify-diagnostics

// Interpreter errors leave the call unfolded with a warning at the call
// and the interpreter's error as a note at the offending op.

// A gather (take) whose indices leave the data: only seen at run time.
tensorir.prim_func private @oob(%A: memref<4xf32>, %I: memref<3xi64>, %B: memref<3xf32>) {
  tensorir.for %i = 0 to 3 {
    tensorir.block "B"(%vi = spatial(3, %i)) {
      %k = memref.load %I[%vi] : memref<3xi64>
      %j = arith.index_cast %k : i64 to index
      // expected-note @below {{tensorir interpreter: out-of-bounds load from buffer 'A' at index [4] (shape [4])}}
      %a = memref.load %A[%j] : memref<4xf32>
      memref.store %a, %B[%vi] : memref<3xf32>
    }
  }
}
func.func @main() -> tensor<3xf32> {
  %a = relax.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = relax.constant dense<[0, 3, 4]> : tensor<3xi64>
  // expected-warning @below {{relax-fold-constant: cannot evaluate the kernel @oob of these constant operands; left unfolded}}
  %0 = relax.call_tir @oob(%a, %i) : (tensor<4xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A scatter into an intermediate with a negative index.
tensorir.prim_func private @oob_store(%I: memref<2xi32>, %B: memref<2xf32>) {
  %T = tensorir.alloc_buffer : memref<2x2xf32>
  tensorir.for %i = 0 to 2 {
    tensorir.block "T"(%vi = spatial(2, %i)) {
      %k = memref.load %I[%vi] : memref<2xi32>
      %j = arith.index_cast %k : i32 to index
      %one = arith.constant 1.0 : f32
      // expected-note @below {{tensorir interpreter: out-of-bounds store to buffer 'T' at index [1, -1] (shape [2, 2])}}
      memref.store %one, %T[%vi, %j] : memref<2x2xf32>
    }
  }
}
func.func @main() -> tensor<2xf32> {
  %i = relax.constant dense<[0, -1]> : tensor<2xi32>
  // expected-warning @below {{cannot evaluate the kernel @oob_store}}
  %0 = relax.call_tir @oob_store(%i) : (tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

tensorir.prim_func private @unsupported(%A: memref<4xi32>, %B: memref<4xi32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.block "B"(%vi = spatial(4, %i)) {
      %a = memref.load %A[%vi] : memref<4xi32>
      // expected-note @below {{tensorir interpreter: unsupported operation 'math.ctpop'}}
      %c = math.ctpop %a : i32
      memref.store %c, %B[%vi] : memref<4xi32>
    }
  }
}
// Warned once, although another op folds (and the pass iterates).
func.func @main() -> tensor<4xi32> {
  %a = relax.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = relax.nn.relu %a : (tensor<4xi32>) -> tensor<4xi32>
  // expected-warning @below {{cannot evaluate the kernel @unsupported}}
  %0 = relax.call_tir @unsupported(%b) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

tensorir.prim_func private @div_zero(%A: memref<2xi32>, %B: memref<2xi32>) {
  tensorir.for %i = 0 to 2 {
    tensorir.block "B"(%vi = spatial(2, %i)) {
      %a = memref.load %A[%vi] : memref<2xi32>
      // expected-note @below {{tensorir interpreter: integer division by zero}}
      %d = arith.divsi %a, %a : i32
      memref.store %d, %B[%vi] : memref<2xi32>
    }
  }
}
func.func @main() -> tensor<2xi32> {
  %a = relax.constant dense<[3, 0]> : tensor<2xi32>
  // expected-warning @below {{cannot evaluate the kernel @div_zero}}
  %0 = relax.call_tir @div_zero(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// A binding outside its block domain (no predicate), data-dependent.
tensorir.prim_func private @bad_binding(%A: memref<4xindex>, %B: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    %c1 = arith.constant 1 : index
    %j = memref.load %A[%i] : memref<4xindex>
    // expected-note @below {{tensorir interpreter: block "B": iteration variable #0 'vi' is bound to 4, outside its domain [0, 4)}}
    tensorir.block "B"(%vi = spatial(4, %j)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %B[%c1] : memref<4xf32>
    }
  }
}
func.func @main() -> tensor<4xf32> {
  %a = relax.constant dense<[0, 1, 4, 2]> : tensor<4xindex>
  // expected-warning @below {{cannot evaluate the kernel @bad_binding}}
  %0 = relax.call_tir @bad_binding(%a) : (tensor<4xindex>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// relax-fold-constant's max-steps bounds the interpreted operations.
tensorir.prim_func private @long(%A: memref<64xf32>, %B: memref<64xf32>) {
  tensorir.for %i = 0 to 64 {
    // expected-note @below {{tensorir interpreter: stopped after 100 executed operations (the step limit)}}
    tensorir.block "B"(%vi = spatial(64, %i)) {
      %a = memref.load %A[%vi] : memref<64xf32>
      memref.store %a, %B[%vi] : memref<64xf32>
    }
  }
}
func.func @main() -> tensor<64xf32> {
  %a = relax.constant dense<1.0> : tensor<64xf32>
  // expected-warning @below {{cannot evaluate the kernel @long}}
  %0 = relax.call_tir @long(%a) : (tensor<64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
