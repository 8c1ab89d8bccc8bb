// RUN: mlc-opt %s -split-input-file -convert-tensorir-to-gpu | FileCheck %s

// Bound loops become the launch's indices; a smaller extent is guarded.
// CHECK-LABEL: tensorir.prim_func @elementwise
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], {{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], {{.*}})
// CHECK:           affine.apply #{{.*}}(%[[BX]], %[[TX]])
// CHECK:           tensorir.block "B"
// CHECK:           scf.if
// CHECK:             tensorir.block "C"
// CHECK:           gpu.terminator
// CHECK-NOT:     thread_binding
tensorir.prim_func @elementwise(%A: memref<512xf32>, %B: memref<512xf32>, %C: memref<4x64xf32>) {
  tensorir.for %bx = 0 to 4 thread_binding("blockIdx.x") {
    tensorir.for %tx = 0 to 128 thread_binding("threadIdx.x") {
      %i = affine.apply affine_map<(d0, d1) -> (d0 * 128 + d1)>(%bx, %tx)
      tensorir.block "B"(%vi = spatial(512, %i)) {
        %a = memref.load %A[%vi] : memref<512xf32>
        memref.store %a, %B[%vi] : memref<512xf32>
      }
    }
    tensorir.for %t2 = 0 to 64 thread_binding("threadIdx.x") {
      tensorir.block "C"(%vi = spatial(4, %bx), %vj = spatial(64, %t2)) {
        %z = arith.constant 0.0 : f32
        memref.store %z, %C[%vi, %vj] : memref<4x64xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A shared buffer becomes an alloca in workgroup memory at the start of the
// kernel (mlc-gpu-device-memory makes it an attribution; mlc-gpu-thread-sync
// adds the barriers).
// CHECK-LABEL: tensorir.prim_func @shared
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[S:.*]] = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK:           tensorir.for %k
// CHECK-NEXT:        tensorir.block "S"
// CHECK:             memref.store %{{.*}}, %[[S]]
// CHECK:             tensorir.block "Y"
// CHECK-NOT:     tensorir.alloc_buffer
tensorir.prim_func @shared(%X: memref<8x32xf32>, %Y: memref<32xf32>) {
  %S = tensorir.alloc_buffer : memref<32xf32, #gpu.address_space<workgroup>>
  tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") {
    tensorir.for %k = 0 to 8 {
      tensorir.block "S"(%vi = spatial(32, %tx), %vk = spatial(8, %k)) {
        %x = memref.load %X[%vk, %vi] : memref<8x32xf32>
        memref.store %x, %S[%vi] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      tensorir.block "Y"(%vi = spatial(32, %tx), %vk = reduce(8, %k)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          memref.store %z, %Y[%vi] : memref<32xf32>
        }
        %c31 = arith.constant 31 : index
        %j = arith.subi %c31, %vi : index
        %s = memref.load %S[%j] : memref<32xf32, #gpu.address_space<workgroup>>
        %y = memref.load %Y[%vi] : memref<32xf32>
        %r = arith.addf %y, %s : f32
        memref.store %r, %Y[%vi] : memref<32xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A dynamic grid: the blockIdx extent is computed on the host.
// CHECK-LABEL: tensorir.prim_func @dynamic
// CHECK:         %[[N:.*]] = arith.ceildivui
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[N]],
tensorir.prim_func @dynamic(%n: index, %A: memref<?xf32>) {
  %c64 = arith.constant 64 : index
  %blocks = arith.ceildivui %n, %c64 : index
  tensorir.for %bx = 0 to %blocks thread_binding("blockIdx.x") {
    tensorir.for %tx = 0 to 64 thread_binding("threadIdx.x") {
      %i = affine.apply affine_map<(d0, d1) -> (d0 * 64 + d1)>(%bx, %tx)
      %in = arith.cmpi ult, %i, %n : index
      tensorir.block "A"(%vi = spatial(%n, %i)) where(%in) {
        %z = arith.constant 0.0 : f32
        memref.store %z, %A[%vi] : memref<?xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A storage scope gives the address space; a cross-thread reduction
// (threadIdx.x feeds the reduce variable) accumulates per thread, combines
// the threads with xor shuffles and a shared array of the warps' results,
// and thread 0 stores the result.
// CHECK-LABEL: tensorir.prim_func @cross_thread
// CHECK:         gpu.launch
// CHECK-DAG:       %[[P:.*]] = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
// CHECK-DAG:       %[[W:.*]] = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.store %{{.*}}, %[[P]]
// CHECK:           tensorir.for %k_0 = 0 to 2 {
// CHECK:             tensorir.block "Y"
// CHECK:               memref.load %[[P]]
// CHECK:               memref.store %{{.*}}, %[[P]]
// CHECK-COUNT-5:   gpu.shuffle xor
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.*}}, %[[W]]
// CHECK:           memref.load %[[W]]
// CHECK-COUNT-5:   gpu.shuffle xor
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.*}}, %Y[] : memref<f32>
// CHECK:         gpu.launch
// CHECK-NEXT:      memref.alloca() : memref<64xf32, #gpu.address_space<private>>
tensorir.prim_func @cross_thread(%X: memref<512xf32>, %Y: memref<f32>) {
  %L = tensorir.alloc_buffer {scope = "local"} : memref<64xf32>
  tensorir.for %tx = 0 to 256 thread_binding("threadIdx.x") {
    tensorir.for %k_0 = 0 to 2 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 256 + d1)>(%k_0, %tx)
      tensorir.block "Y"(%vk = reduce(512, %k)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          memref.store %z, %Y[] : memref<f32>
        }
        %x = memref.load %X[%vk] : memref<512xf32>
        %y = memref.load %Y[] : memref<f32>
        %s = arith.addf %y, %x : f32
        memref.store %s, %Y[] : memref<f32>
      }
    }
  }
  tensorir.for %tx = 0 to 64 thread_binding("threadIdx.x") {
    tensorir.block "L"(%vi = spatial(64, %tx)) {
      %z = arith.constant 0.0 : f32
      memref.store %z, %L[%vi] : memref<64xf32>
    }
  }
  tensorir.return
}

// -----

// Fewer than 32 threads along x (here 4, in 4 x 8 x 2 threads) are
// consecutive lanes of one warp: two xor shuffles combine them, with no
// shared array. Every thread then holds the row's maximum: into a local
// buffer each stores its own copy, into global memory thread 0 stores.
// CHECK-LABEL: tensorir.prim_func @quad_max
// CHECK:         gpu.launch
// CHECK-NOT:       address_space<workgroup>
// CHECK:           tensorir.block "M"
// CHECK:           %[[S2:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK:           %[[M2:.*]] = arith.maximumf %{{.*}}, %[[S2]]
// CHECK:           %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[M2]], %c1_i32, %c32_i32{{.*}} : f32
// CHECK:           %[[M1:.*]] = arith.maximumf %[[M2]], %[[S1]]
// CHECK-NOT:       gpu.shuffle
// CHECK:           scf.if %true
// CHECK-NEXT:        memref.store %[[M1]], %{{.*}} : memref<16xf32, #gpu.address_space<private>>
// CHECK:           tensorir.block "G"
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK-COUNT-2:   gpu.shuffle xor
// CHECK-NOT:       gpu.shuffle
// CHECK:           scf.if %[[FIRST]]
// CHECK-NEXT:        memref.store %{{.*}}, %Y[%{{.*}}] : memref<16xf32>
tensorir.prim_func @quad_max(%X: memref<16x32xf32>, %Y: memref<16xf32>) {
  %L = tensorir.alloc_buffer {scope = "local"} : memref<16xf32>
  tensorir.for %tz = 0 to 2 thread_binding("threadIdx.z") {
    tensorir.for %ty = 0 to 8 thread_binding("threadIdx.y") {
      tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
        tensorir.for %c = 0 to 8 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%tz, %ty)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%tx, %c)
          tensorir.block "M"(%vi = spatial(16, %row), %vk = reduce(32, %col)) {
            tensorir.init {
              %z = arith.constant 0xFF800000 : f32
              memref.store %z, %L[%vi] : memref<16xf32>
            }
            %x = memref.load %X[%vi, %vk] : memref<16x32xf32>
            %m = memref.load %L[%vi] : memref<16xf32>
            %r = arith.maximumf %m, %x : f32
            memref.store %r, %L[%vi] : memref<16xf32>
          }
        }
      }
    }
  }
  tensorir.for %tz = 0 to 2 thread_binding("threadIdx.z") {
    tensorir.for %ty = 0 to 8 thread_binding("threadIdx.y") {
      tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
        %row = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%tz, %ty)
        tensorir.block "G"(%vi = spatial(16, %row), %vk = reduce(4, %tx)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %Y[%vi] : memref<16xf32>
          }
          %x = memref.load %L[%vi] : memref<16xf32>
          %y = memref.load %Y[%vi] : memref<16xf32>
          %s = arith.addf %y, %x : f32
          memref.store %s, %Y[%vi] : memref<16xf32>
        }
      }
    }
  }
  tensorir.return
}
