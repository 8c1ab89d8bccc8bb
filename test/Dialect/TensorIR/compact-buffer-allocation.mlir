// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(tensorir-compact-buffer-allocation))' | FileCheck %s
// RUN: mlc-opt %s -split-input-file -pass-pipeline='builtin.module(tensorir.prim_func(tensorir-compact-buffer-allocation{thread-private-locals=false}))' | FileCheck %s --check-prefix=SERIAL

// A local accumulator used under the thread loop shrinks to one thread's
// part (4 elements); the shared copy, filled by all threads per step of k,
// to one step (the threads' loops relaxed); the blocks that access them are
// inlined with rebased indices. A global buffer keeps its shape.
// CHECK-LABEL: tensorir.prim_func @gpu_scopes
// CHECK-DAG:     %L = tensorir.alloc_buffer {scope = "local"} : memref<4xf32>
// CHECK-DAG:     %S = tensorir.alloc_buffer {scope = "shared"} : memref<32xf32>
// CHECK-DAG:     %G = tensorir.alloc_buffer : memref<128xf32>
// CHECK-NOT:     tensorir.block "L_init"
// CHECK:         memref.store %{{.*}}, %L[%i_2]
// CHECK:         memref.store %{{.*}}, %S[%a]
// CHECK:         memref.load %S[%i_1]
// CHECK:         memref.store %{{.*}}, %G[%{{.*}}] : memref<128xf32>
tensorir.prim_func @gpu_scopes(%X: memref<128xf32>, %Y: memref<128xf32>) {
  %L = tensorir.alloc_buffer {scope = "local"} : memref<128xf32>
  %S = tensorir.alloc_buffer {scope = "shared"} : memref<128xf32>
  %G = tensorir.alloc_buffer : memref<128xf32>
  tensorir.for %i_1 = 0 to 32 thread_binding("threadIdx.x") {
    tensorir.for %i_2 = 0 to 4 {
      %i = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i_1, %i_2)
      tensorir.block "L_init"(%vi = spatial(128, %i)) {
        %z = arith.constant 0.0 : f32
        memref.store %z, %L[%vi] : memref<128xf32>
      }
    }
    tensorir.for %k = 0 to 4 {
      tensorir.for %a = 0 to 32 thread_binding("threadIdx.x") {
        %j = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%k, %a)
        tensorir.block "S"(%vj = spatial(128, %j)) {
          %x = memref.load %X[%vj] : memref<128xf32>
          memref.store %x, %S[%vj] : memref<128xf32>
        }
      }
      tensorir.for %i_2 = 0 to 4 {
        %i = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i_1, %i_2)
        %j = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%k, %i_1)
        tensorir.block "L"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
          %l = memref.load %L[%vi] : memref<128xf32>
          %s = memref.load %S[%vj] : memref<128xf32>
          %r = arith.addf %l, %s : f32
          memref.store %r, %L[%vi] : memref<128xf32>
        }
      }
    }
    tensorir.for %i_2 = 0 to 4 {
      %i = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i_1, %i_2)
      tensorir.block "G"(%vi = spatial(128, %i)) {
        %l = memref.load %L[%vi] : memref<128xf32>
        memref.store %l, %G[%vi] : memref<128xf32>
        memref.store %l, %Y[%vi] : memref<128xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Left alone: a local buffer also used by an op other than a load or a
// store, and one whose access is not affine.
// CHECK-LABEL: tensorir.prim_func @not_compacted
// CHECK-DAG:     tensorir.alloc_buffer {scope = "local"} : memref<64xf32>
// CHECK-DAG:     tensorir.alloc_buffer {scope = "local"} : memref<16xf32>
// CHECK:         tensorir.block "A"
tensorir.prim_func @not_compacted(%X: memref<64xf32>, %I: memref<16xindex>) {
  %A = tensorir.alloc_buffer {scope = "local"} : memref<64xf32>
  %B = tensorir.alloc_buffer {scope = "local"} : memref<16xf32>
  tensorir.for %t = 0 to 16 thread_binding("threadIdx.x") {
    tensorir.block "A"(%vt = spatial(16, %t)) {
      memref.copy %X, %A : memref<64xf32> to memref<64xf32>
      %idx = memref.load %I[%vt] : memref<16xindex>
      %z = arith.constant 0.0 : f32
      memref.store %z, %B[%idx] : memref<16xf32>
    }
  }
  tensorir.return
}

// -----

// A row reduction across threads into a shared buffer with a row per
// thread block (dlight's GeneralReduction) shrinks to one row. The
// cross-thread reduction stays a block for convert-tensorir-to-gpu: it
// indexes the buffer through a new spatial iteration variable bound to the
// rebased index (0), the same for its init, accumulator load and store;
// the consumer is inlined.
// CHECK-LABEL: tensorir.prim_func @cross_thread_row
// CHECK:         %S = tensorir.alloc_buffer {scope = "shared"} : memref<1xf32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         tensorir.block "S"(%vr = spatial(4096, %r), %vk = reduce(256, %t), %[[V:.*]] = spatial(1, %[[C0]])) {
// CHECK:           memref.store %{{.*}}, %S[%[[V]]]
// CHECK:           memref.load %S[%[[V]]]
// CHECK:           memref.store %{{.*}}, %S[%[[V]]]
// CHECK-NOT:     tensorir.block "Y"
// CHECK:         memref.load %S[%{{c0.*}}] : memref<1xf32>
tensorir.prim_func @cross_thread_row(%X: memref<4096x256xf32>, %Y: memref<4096x256xf32>) {
  %S = tensorir.alloc_buffer {scope = "shared"} : memref<4096xf32>
  tensorir.for %r = 0 to 4096 thread_binding("blockIdx.x") {
    tensorir.for %t = 0 to 256 thread_binding("threadIdx.x") {
      tensorir.block "S"(%vr = spatial(4096, %r), %vk = reduce(256, %t)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          memref.store %z, %S[%vr] : memref<4096xf32>
        }
        %x = memref.load %X[%vr, %vk] : memref<4096x256xf32>
        %s = memref.load %S[%vr] : memref<4096xf32>
        %a = arith.addf %s, %x : f32
        memref.store %a, %S[%vr] : memref<4096xf32>
      }
    }
    tensorir.for %t = 0 to 256 thread_binding("threadIdx.x") {
      tensorir.block "Y"(%vr = spatial(4096, %r), %vj = spatial(256, %t)) {
        %x = memref.load %X[%vr, %vj] : memref<4096x256xf32>
        %s = memref.load %S[%vr] : memref<4096xf32>
        %d = arith.subf %x, %s : f32
        memref.store %d, %Y[%vr, %vj] : memref<4096x256xf32>
      }
    }
  }
  tensorir.return
}

// -----

// A local buffer shared by two thread nests of a kernel (a running row
// maximum, written in one stage and read in the next): threadIdx loops of
// one tag are one thread, so it shrinks to the thread's 2 rows (rows
// 8 tz + 2 ty + [0, 2) under both nests' own loops); the 4 x-threads of a
// row each keep a copy. Without thread-private-locals (the host
// emulation, which runs the threads one after another) it keeps the thread
// block's 16 rows.
// CHECK-LABEL: tensorir.prim_func @across_nests
// CHECK:         %M = tensorir.alloc_buffer {scope = "local"} : memref<2xf32>
// CHECK:         thread_binding("threadIdx.z")
// CHECK:           tensorir.for %[[R:.*]] = 0 to 2 {
// CHECK:             memref.store %{{.*}}, %M[%[[R]]] : memref<2xf32>
// CHECK:         thread_binding("threadIdx.z")
// CHECK:           tensorir.for %[[R2:.*]] = 0 to 2 {
// CHECK:             memref.load %M[%[[R2]]] : memref<2xf32>
// SERIAL-LABEL: tensorir.prim_func @across_nests
// SERIAL:         %M = tensorir.alloc_buffer {scope = "local"} : memref<16xf32>
tensorir.prim_func @across_nests(%X: memref<64xf32>, %Y: memref<64x4xf32>) {
  %M = tensorir.alloc_buffer {scope = "local"} : memref<64xf32>
  tensorir.for %bx = 0 to 4 thread_binding("blockIdx.x") {
    tensorir.for %tz = 0 to 2 thread_binding("threadIdx.z") {
      tensorir.for %ty = 0 to 4 thread_binding("threadIdx.y") {
        tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
          tensorir.for %r = 0 to 2 {
            %row = affine.apply affine_map<(d0, d1, d2, d3) -> (d0 * 16 + d1 * 8 + d2 * 2 + d3)>(%bx, %tz, %ty, %r)
            tensorir.block "max"(%vi = spatial(64, %row)) {
              %x = memref.load %X[%vi] : memref<64xf32>
              memref.store %x, %M[%vi] : memref<64xf32>
            }
          }
        }
      }
    }
    tensorir.for %tz = 0 to 2 thread_binding("threadIdx.z") {
      tensorir.for %ty = 0 to 4 thread_binding("threadIdx.y") {
        tensorir.for %tx = 0 to 4 thread_binding("threadIdx.x") {
          tensorir.for %r = 0 to 2 {
            %row = affine.apply affine_map<(d0, d1, d2, d3) -> (d0 * 16 + d1 * 8 + d2 * 2 + d3)>(%bx, %tz, %ty, %r)
            tensorir.block "use"(%vi = spatial(64, %row), %vj = spatial(4, %tx)) {
              %m = memref.load %M[%vi] : memref<64xf32>
              memref.store %m, %Y[%vi, %vj] : memref<64x4xf32>
            }
          }
        }
      }
    }
  }
  tensorir.return
}
