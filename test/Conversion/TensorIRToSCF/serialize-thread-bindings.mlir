// convert-tensorir-to-scf{serialize-thread-bindings}: blockIdx/threadIdx
// loops become plain serial loops (no loop-kind attribute, no annotation),
// shared/local buffers ordinary allocations, so a GPU schedule runs on the
// host. Without the option the same input is an error (see
// tensorir-to-scf-invalid.mlir).
// RUN: mlc-opt %s --convert-tensorir-to-scf=serialize-thread-bindings | FileCheck %s
// RUN: not mlc-opt %s --convert-tensorir-to-scf -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR

// CHECK-LABEL: func.func @gpu(
// CHECK-SAME: %[[A:.*]]: memref<256xf32>
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<32xf32>
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: tensorir.loop_kind
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: tensorir.loop_kind
// CHECK: memref.store %{{.*}}, %[[SHARED]][%[[TX]]]
// CHECK: memref.store %{{.*}}, %[[A]][
// CHECK: memref.dealloc %[[SHARED]]
// CHECK-NOT: thread_binding
// ERROR: thread-bound loops need the GPU pipeline
tensorir.prim_func @gpu(%A: memref<256xf32>) {
  %S = tensorir.alloc_buffer {scope = "shared"} : memref<32xf32>
  tensorir.for %bx = 0 to 8 thread_binding("blockIdx.x") {
    tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%bx, %tx)
      tensorir.block "S"(%vt = spatial(32, %tx)) {
        %one = arith.constant 1.0 : f32
        memref.store %one, %S[%vt] : memref<32xf32>
      }
      tensorir.block "B"(%vi = spatial(256, %v), %vt = spatial(32, %tx)) {
        %s = memref.load %S[%vt] : memref<32xf32>
        memref.store %s, %A[%vi] : memref<256xf32>
      }
    }
  }
}
