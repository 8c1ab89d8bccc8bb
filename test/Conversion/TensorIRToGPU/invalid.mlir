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

tensorir.prim_func @cross_thread(%X: memref<64xf32>, %Y: memref<f32>) {
  tensorir.for %tx = 0 to 48 thread_binding("threadIdx.x") {
    // expected-error @below {{'Y' reduces over loop 'tx' (threadIdx.x) across threads in the kernel of @cross_thread at block 'Y': the number of threads (48) must be a multiple of the warp size, 32}}
    tensorir.block "Y"(%vk = reduce(48, %tx)) {
      tensorir.init {
        %z = arith.constant 0.0 : f32
        memref.store %z, %Y[] : memref<f32>
      }
      %x = memref.load %X[%vk] : memref<64xf32>
      %y = memref.load %Y[] : memref<f32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %Y[] : memref<f32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @cross_thread_y(%X: memref<64x32xf32>, %Y: memref<64xf32>) {
  tensorir.for %ty = 0 to 2 thread_binding("threadIdx.y") {
    tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") {
      // expected-error @below {{the reduction must use all threads of the block, along threadIdx.x only}}
      tensorir.block "Y"(%vi = spatial(64, %ty), %vk = reduce(32, %tx)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          memref.store %z, %Y[%vi] : memref<64xf32>
        }
        %x = memref.load %X[%vi, %vk] : memref<64x32xf32>
        %y = memref.load %Y[%vi] : memref<64xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %Y[%vi] : memref<64xf32>
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @cross_thread_sub(%X: memref<64xf32>, %Y: memref<f32>) {
  tensorir.for %tx = 0 to 64 thread_binding("threadIdx.x") {
    // expected-error @below {{the stored value of block 'Y' is not a combiner (add, mul, max, min, ...) whose identity the init stores}}
    tensorir.block "Y"(%vk = reduce(64, %tx)) {
      tensorir.init {
        %z = arith.constant 0.0 : f32
        memref.store %z, %Y[] : memref<f32>
      }
      %x = memref.load %X[%vk] : memref<64xf32>
      %y = memref.load %Y[] : memref<f32>
      %s = arith.subf %y, %x : f32
      memref.store %s, %Y[] : memref<f32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @bad_scope(%X: memref<64xf32>) {
  // expected-error @below {{'tensorir.alloc_buffer' op has unknown storage scope "texture" (expected global, shared, shared.dyn or local)}}
  %S = tensorir.alloc_buffer {scope = "texture"} : memref<64xf32>
  tensorir.return
}

// -----

tensorir.prim_func @cross_thread_f64(%X: memref<64xf64>, %Y: memref<f64>) {
  tensorir.for %tx = 0 to 64 thread_binding("threadIdx.x") {
    // expected-error @below {{only 32-bit add/mul/min/max/and/or/xor reductions can be combined across threads, not 'arith.addf' on 'f64'}}
    tensorir.block "Y"(%vk = reduce(64, %tx)) {
      tensorir.init {
        %z = arith.constant 0.0 : f64
        memref.store %z, %Y[] : memref<f64>
      }
      %x = memref.load %X[%vk] : memref<64xf64>
      %y = memref.load %Y[] : memref<f64>
      %s = arith.addf %y, %x : f64
      memref.store %s, %Y[] : memref<f64>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @cross_thread_lanes(%X: memref<8x6xf32>, %Y: memref<8xf32>) {
  tensorir.for %ty = 0 to 8 thread_binding("threadIdx.y") {
    tensorir.for %tx = 0 to 6 thread_binding("threadIdx.x") {
      // expected-error @below {{a reduction over fewer than 32 threads (6) must be over a power of two of them, in whole warps (the block has 48 threads)}}
      tensorir.block "Y"(%vi = spatial(8, %ty), %vk = reduce(6, %tx)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          memref.store %z, %Y[%vi] : memref<8xf32>
        }
        %x = memref.load %X[%vi, %vk] : memref<8x6xf32>
        %y = memref.load %Y[%vi] : memref<8xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %Y[%vi] : memref<8xf32>
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @cross_thread_partial(%X: memref<16x4xf32>, %Y: memref<16xf32>) {
  tensorir.for %bx = 0 to 1 thread_binding("blockIdx.x") {
    tensorir.for %ty = 0 to 16 thread_binding("threadIdx.y") {
      tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
        %s = arith.constant 0.0 : f32
      }
    }
    tensorir.for %ty = 0 to 8 thread_binding("threadIdx.y") {
      tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
        // expected-error @below {{the reduction must run on every thread: loop 'ty' (threadIdx.y) leaves threads of the block out}}
        tensorir.block "Y"(%vi = spatial(16, %ty), %vk = reduce(4, %tx)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %Y[%vi] : memref<16xf32>
          }
          %x = memref.load %X[%vi, %vk] : memref<16x4xf32>
          %y = memref.load %Y[%vi] : memref<16xf32>
          %s = arith.addf %x, %y : f32
          memref.store %s, %Y[%vi] : memref<16xf32>
        }
      }
    }
  }
  tensorir.return
}
