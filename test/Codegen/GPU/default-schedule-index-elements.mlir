// The vector fallback of the GPU schedule on buffers of `index` elements
// (no fixed width): no vector lanes, instead of a crash reading their width
// (found by the mlc-opt fuzzer, seed 43).
// RUN: mlc-opt %s --mlc-cpu-bufferize=emulate-gpu-schedule=1 | FileCheck %s

// CHECK-LABEL: func.func @nested
// CHECK: memref.load {{.*}} : memref<16xindex>
tensorir.prim_func @nested(%A: memref<?xf32>, %I: memref<16xindex>, %B: memref<16xf32>) {
  tensorir.block "root" {
    tensorir.for %i = 0 to 1 {
      tensorir.block "inner"(%vi = spatial(16, %i)) {
        %idx = memref.load %I[%vi] : memref<16xindex>
        %a = memref.load %A[%idx] : memref<?xf32>
        memref.store %a, %B[%vi] : memref<16xf32>
      }
    }
  }
  tensorir.return
}
