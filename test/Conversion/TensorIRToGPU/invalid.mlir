// RUN: mlc-opt %s -split-input-file -convert-tensorir-to-gpu -verify-diagnostics

tensorir.prim_func @host_block(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @below {{'A' of @host_block is not inside a loop bound to blockIdx/threadIdx: it would run on the host}}
    tensorir.block "A"(%vi = spatial(4, %i)) {
      %z = arith.constant 0.0 : f32
      memref.store %z, %A[%vi] : memref<4xf32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @too_many_threads(%A: memref<2048xf32>) {
  // expected-error @below {{has 2048x1x1 = 2048 threads per block; at most 1024}}
  tensorir.for %tx = 0 to 2048 thread_binding("threadIdx.x") {
    tensorir.block "A"(%vi = spatial(2048, %tx)) {
      %z = arith.constant 0.0 : f32
      memref.store %z, %A[%vi] : memref<2048xf32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @dynamic_threads(%n: index, %A: memref<?xf32>) {
  // expected-error @below {{has a dynamic extent; threadIdx extents must be constants}}
  tensorir.for %tx = 0 to %n thread_binding("threadIdx.x") {
    tensorir.block "A"(%vi = spatial(%n, %tx)) {
      %z = arith.constant 0.0 : f32
      memref.store %z, %A[%vi] : memref<?xf32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @cross_thread(%X: memref<64xf32>, %Y: memref<1xf32>) {
  tensorir.for %tx = 0 to 64 thread_binding("threadIdx.x") {
    // expected-error @below {{'Y' reduces over loop 'tx' (threadIdx.x): cross-thread reductions are not lowered to the GPU yet}}
    tensorir.block "Y"(%vk = reduce(64, %tx)) {
      tensorir.init {
        %z = arith.constant 0.0 : f32
        %c0 = arith.constant 0 : index
        memref.store %z, %Y[%c0] : memref<1xf32>
      }
      %c0 = arith.constant 0 : index
      %x = memref.load %X[%vk] : memref<64xf32>
      %y = memref.load %Y[%c0] : memref<1xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %Y[%c0] : memref<1xf32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @big_shared(%A: memref<16384xf32>) {
  %S = tensorir.alloc_buffer : memref<16384xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{uses 65536 bytes of shared memory; at most 49152 can be allocated statically}}
  tensorir.for %tx = 0 to 128 thread_binding("threadIdx.x") {
    tensorir.block "S"(%vi = spatial(128, %tx)) {
      %z = arith.constant 0.0 : f32
      memref.store %z, %S[%vi] : memref<16384xf32, #gpu.address_space<workgroup>>
    }
  }
  tensorir.return
}
