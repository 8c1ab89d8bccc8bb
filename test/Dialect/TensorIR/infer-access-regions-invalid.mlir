// RUN: mlc-opt %s -split-input-file --tensorir-infer-access-regions -verify-diagnostics

// A gather through a dynamically sized buffer: the region of %A would be the
// whole (unknown-size) dimension, which an affine region cannot state.

// expected-note @+1 {{buffer defined here}}
tensorir.prim_func @gather(%A: memref<?xf32>, %I: memref<16xindex>, %B: memref<16xf32>) {
  tensorir.for %i = 0 to 16 {
    // expected-error @+1 {{'tensorir.block' op cannot infer the access region of block 'gather': an access of dimension 0 of a buffer of type 'memref<?xf32>' is not affine in the iteration variables and the dimension has dynamic size}}
    tensorir.block "gather"(%vi = spatial(16, %i)) {
      %idx = memref.load %I[%vi] : memref<16xindex>
      %a = memref.load %A[%idx] : memref<?xf32>
      memref.store %a, %B[%vi] : memref<16xf32>
    }
  }
  tensorir.return
}

// -----

// The same failure inside a nested block is reported once, at that block.
// expected-note @+1 {{buffer defined here}}
tensorir.prim_func @nested(%A: memref<?xf32>, %I: memref<16xindex>, %B: memref<16xf32>) {
  tensorir.block "root" {
    tensorir.for %i = 0 to 16 {
      // expected-error @+1 {{cannot infer the access region of block 'inner'}}
      tensorir.block "inner"(%vi = spatial(16, %i)) {
        %idx = memref.load %I[%vi] : memref<16xindex>
        %a = memref.load %A[%idx] : memref<?xf32>
        memref.store %a, %B[%vi] : memref<16xf32>
      }
    }
  }
  tensorir.return
}
