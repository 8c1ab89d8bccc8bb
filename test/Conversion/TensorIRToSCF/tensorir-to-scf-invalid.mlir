// What convert-tensorir-to-scf cannot lower is a diagnostic at the op.
// RUN: mlc-opt %s --convert-tensorir-to-scf --split-input-file --verify-diagnostics

tensorir.prim_func @gpu(%A: memref<256xf32>) {
  // expected-error @below {{'tensorir.for' op is bound to 'blockIdx.x': thread-bound loops need the GPU pipeline}}
  tensorir.for %bx = 0 to 8 thread_binding("blockIdx.x") {
    // expected-error @below {{'tensorir.for' op is bound to 'threadIdx.x': thread-bound loops need the GPU pipeline}}
    tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%bx, %tx)
      tensorir.block "B"(%vi = spatial(256, %v)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi] : memref<256xf32>
      }
    }
  }
}

// -----

tensorir.prim_func @vthread() {
  // expected-error @below {{'tensorir.for' op is bound to 'vthread': thread-bound loops need the GPU pipeline}}
  tensorir.for %v = 0 to 4 thread_binding("vthread") {
  }
}

// -----

func.func @outside() {
  // expected-error @below {{'tensorir.for' op cannot be lowered outside a 'tensorir.prim_func'}}
  tensorir.for %i = 0 to 4 {
  }
  return
}

// -----

// A valid prim_func next to an unsupported one: nothing is lowered.
tensorir.prim_func @fine(%A: memref<4xf32>) {
}
tensorir.prim_func @bound() {
  // expected-error @below {{thread-bound loops need the GPU pipeline}}
  tensorir.for %tx = 0 to 32 thread_binding("threadIdx.y") {
  }
}
