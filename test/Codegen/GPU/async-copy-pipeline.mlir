// RUN: mlc-opt %s -split-input-file -mlc-gpu-async-copy-pipeline | FileCheck %s
// RUN: mlc-opt %s -split-input-file -mlc-gpu-async-copy-pipeline=stages=2 | FileCheck %s --check-prefix=TWO
// RUN: not mlc-opt %s -mlc-gpu-async-copy-pipeline=stages=1 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: error: mlc-gpu-async-copy-pipeline: stages must be in [2, 8], got 1

// A tensor-core loop of 4 steps that copies 8 consecutive f16 per thread
// (16 bytes): one cp.async each, 3 copies of the buffer, its 64-byte rows
// padded to 80; steps 0 and 1 before the loop, step k + 2 in it (src-size
// 0 past the last step, the source index clamped to it), the ldmatrix on
// step k's copy.
// CHECK-DAG:   #[[AHEAD:.*]] = affine_map<(d0) -> (d0 + 2)>
// CHECK-DAG:   #[[NEXT:.*]] = affine_map<(d0) -> ((d0 + 2) mod 3)>
// CHECK-DAG:   #[[CUR:.*]] = affine_map<(d0) -> (d0 mod 3)>
// CHECK-LABEL: func.func @pipelined
// CHECK:         %[[BUF:.*]] = memref.alloca() : memref<3x8x40xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref<8x32xf16
// CHECK:         nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %[[BUF]][%c0{{.*}}, %{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK:         nvgpu.device_async_create_group
// CHECK:         nvgpu.device_async_copy %{{.*}}, %[[BUF]][%c1{{.*}}, %{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK:         %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT:    nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
// CHECK-NEXT:    gpu.barrier
// CHECK:         scf.for %[[K:.*]] = %c0 to %c4 step %c1 {
// CHECK:           %[[A:.*]] = affine.apply #[[AHEAD]](%[[K]])
// CHECK:           %[[IN:.*]] = arith.cmpi slt, %[[A]], %c4
// CHECK:           %[[LAST:.*]] = arith.minsi %[[A]], %c3
// CHECK:           %[[S:.*]] = affine.apply #[[NEXT]](%[[K]])
// CHECK:           %[[N:.*]] = arith.select %[[IN]], %c8{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %{{.*}}, %[[BUF]][%[[S]], %{{.*}}, %{{.*}}], 8, %[[N]] {bypassL1}
// CHECK-NOT:       memref.load %{{.*}} : memref<8x128xf16>
// CHECK:           %[[G:.*]] = nvgpu.device_async_create_group
// CHECK:           %[[C:.*]] = affine.apply #[[CUR]](%[[K]])
// CHECK:           nvgpu.ldmatrix %[[BUF]][%[[C]], %{{.*}}, %{{.*}}]
// CHECK:           nvgpu.mma.sync
// CHECK:           nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    nvgpu.device_async_wait %[[G1]] {numGroups = 0 : i32}
// Two stages: one step ahead, nothing pending at the waits.
// TWO-LABEL: func.func @pipelined
// TWO:         memref.alloca() : memref<2x8x40xf16, #gpu.address_space<workgroup>>
// TWO:         nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// TWO:         scf.for
// TWO:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}

func.func @pipelined(%A: memref<8x128xf16>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x32xf16, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 0)>(%k, %t)
      %v0 = memref.load %A[%g, %src0] : memref<8x128xf16>
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 8 + 0)>(%t)
      memref.store %v0, %a_s[%g, %dst0] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 1)>(%k, %t)
      %v1 = memref.load %A[%g, %src1] : memref<8x128xf16>
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%t)
      memref.store %v1, %a_s[%g, %dst1] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 2)>(%k, %t)
      %v2 = memref.load %A[%g, %src2] : memref<8x128xf16>
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 8 + 2)>(%t)
      memref.store %v2, %a_s[%g, %dst2] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 3)>(%k, %t)
      %v3 = memref.load %A[%g, %src3] : memref<8x128xf16>
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 8 + 3)>(%t)
      memref.store %v3, %a_s[%g, %dst3] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src4 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 4)>(%k, %t)
      %v4 = memref.load %A[%g, %src4] : memref<8x128xf16>
      %dst4 = affine.apply affine_map<(d0) -> (d0 * 8 + 4)>(%t)
      memref.store %v4, %a_s[%g, %dst4] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src5 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 5)>(%k, %t)
      %v5 = memref.load %A[%g, %src5] : memref<8x128xf16>
      %dst5 = affine.apply affine_map<(d0) -> (d0 * 8 + 5)>(%t)
      memref.store %v5, %a_s[%g, %dst5] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src6 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 6)>(%k, %t)
      %v6 = memref.load %A[%g, %src6] : memref<8x128xf16>
      %dst6 = affine.apply affine_map<(d0) -> (d0 * 8 + 6)>(%t)
      memref.store %v6, %a_s[%g, %dst6] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src7 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 7)>(%k, %t)
      %v7 = memref.load %A[%g, %src7] : memref<8x128xf16>
      %dst7 = affine.apply affine_map<(d0) -> (d0 * 8 + 7)>(%t)
      memref.store %v7, %a_s[%g, %dst7] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %y = arith.constant dense<1.0> : vector<2x2xf16>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// A dynamic trip count (step 1, the bound computed before the loop: a
// causal attention's key tiles end with the query tile): the prologue's
// copies are predicated on their step too, and every copy past the last
// step points at the last step's start (at least the first).
// CHECK-LABEL: func.func @pipelined_dynamic
// CHECK:         %[[N:.*]] = arith.minsi
// CHECK:         %[[LASTM:.*]] = arith.subi %[[N]], %c1
// CHECK:         %[[LAST:.*]] = arith.maxsi %[[LASTM]], %c0
// CHECK:         %[[IN0:.*]] = arith.cmpi slt, %c0{{.*}}, %[[N]]
// CHECK:         arith.minsi %c0{{.*}}, %[[LAST]]
// CHECK:         arith.select %[[IN0]], %c8{{.*}}, %c0
// CHECK:         nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1}
// CHECK:         %[[IN1:.*]] = arith.cmpi slt, %c1{{.*}}, %[[N]]
// CHECK:         arith.select %[[IN1]], %c8{{.*}}, %c0
// CHECK:         scf.for %{{.*}} = %c0 to %[[N]] step %c1 {
// CHECK:           arith.cmpi slt, %{{.*}}, %[[N]]
// CHECK:           arith.minsi %{{.*}}, %[[LAST]]
// CHECK:           nvgpu.mma.sync
func.func @pipelined_dynamic(%A: memref<8x128xf16>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x32xf16, #gpu.address_space<workgroup>>
    %bx1 = arith.addi %bx, %c1 : index
    %n = arith.minsi %bx1, %c4 : index
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %n step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 0)>(%k, %t)
      %v0 = memref.load %A[%g, %src0] : memref<8x128xf16>
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 8 + 0)>(%t)
      memref.store %v0, %a_s[%g, %dst0] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 1)>(%k, %t)
      %v1 = memref.load %A[%g, %src1] : memref<8x128xf16>
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%t)
      memref.store %v1, %a_s[%g, %dst1] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 2)>(%k, %t)
      %v2 = memref.load %A[%g, %src2] : memref<8x128xf16>
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 8 + 2)>(%t)
      memref.store %v2, %a_s[%g, %dst2] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 3)>(%k, %t)
      %v3 = memref.load %A[%g, %src3] : memref<8x128xf16>
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 8 + 3)>(%t)
      memref.store %v3, %a_s[%g, %dst3] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src4 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 4)>(%k, %t)
      %v4 = memref.load %A[%g, %src4] : memref<8x128xf16>
      %dst4 = affine.apply affine_map<(d0) -> (d0 * 8 + 4)>(%t)
      memref.store %v4, %a_s[%g, %dst4] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src5 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 5)>(%k, %t)
      %v5 = memref.load %A[%g, %src5] : memref<8x128xf16>
      %dst5 = affine.apply affine_map<(d0) -> (d0 * 8 + 5)>(%t)
      memref.store %v5, %a_s[%g, %dst5] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src6 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 6)>(%k, %t)
      %v6 = memref.load %A[%g, %src6] : memref<8x128xf16>
      %dst6 = affine.apply affine_map<(d0) -> (d0 * 8 + 6)>(%t)
      memref.store %v6, %a_s[%g, %dst6] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src7 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 7)>(%k, %t)
      %v7 = memref.load %A[%g, %src7] : memref<8x128xf16>
      %dst7 = affine.apply affine_map<(d0) -> (d0 * 8 + 7)>(%t)
      memref.store %v7, %a_s[%g, %dst7] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %y = arith.constant dense<1.0> : vector<2x2xf16>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// A loop without tensor-core tiles keeps its copies (the SIMT rule's
// register prefetch is mlc-gpu-pipeline-shared-copies').
// CHECK-LABEL: func.func @not_tensor_core
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         memref.store %{{.*}} : memref<8x32xf16, #gpu.address_space<workgroup>>
func.func @not_tensor_core(%A: memref<8x128xf16>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x32xf16, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 0)>(%k, %t)
      %v0 = memref.load %A[%g, %src0] : memref<8x128xf16>
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 8 + 0)>(%t)
      memref.store %v0, %a_s[%g, %dst0] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 1)>(%k, %t)
      %v1 = memref.load %A[%g, %src1] : memref<8x128xf16>
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%t)
      memref.store %v1, %a_s[%g, %dst1] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 2)>(%k, %t)
      %v2 = memref.load %A[%g, %src2] : memref<8x128xf16>
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 8 + 2)>(%t)
      memref.store %v2, %a_s[%g, %dst2] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 3)>(%k, %t)
      %v3 = memref.load %A[%g, %src3] : memref<8x128xf16>
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 8 + 3)>(%t)
      memref.store %v3, %a_s[%g, %dst3] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src4 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 4)>(%k, %t)
      %v4 = memref.load %A[%g, %src4] : memref<8x128xf16>
      %dst4 = affine.apply affine_map<(d0) -> (d0 * 8 + 4)>(%t)
      memref.store %v4, %a_s[%g, %dst4] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src5 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 5)>(%k, %t)
      %v5 = memref.load %A[%g, %src5] : memref<8x128xf16>
      %dst5 = affine.apply affine_map<(d0) -> (d0 * 8 + 5)>(%t)
      memref.store %v5, %a_s[%g, %dst5] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src6 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 6)>(%k, %t)
      %v6 = memref.load %A[%g, %src6] : memref<8x128xf16>
      %dst6 = affine.apply affine_map<(d0) -> (d0 * 8 + 6)>(%t)
      memref.store %v6, %a_s[%g, %dst6] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src7 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 7)>(%k, %t)
      %v7 = memref.load %A[%g, %src7] : memref<8x128xf16>
      %dst7 = affine.apply affine_map<(d0) -> (d0 * 8 + 7)>(%t)
      memref.store %v7, %a_s[%g, %dst7] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %h = memref.load %a_s[%g, %t] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %e = arith.extf %h : f16 to f32
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// A loop that writes global memory, which a copy issued ahead could read:
// left alone.
// CHECK-LABEL: func.func @writes_global
// CHECK-NOT:     nvgpu.device_async_copy
func.func @writes_global(%A: memref<8x128xf16>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x32xf16, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 0)>(%k, %t)
      %v0 = memref.load %A[%g, %src0] : memref<8x128xf16>
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 8 + 0)>(%t)
      memref.store %v0, %a_s[%g, %dst0] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 1)>(%k, %t)
      %v1 = memref.load %A[%g, %src1] : memref<8x128xf16>
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%t)
      memref.store %v1, %a_s[%g, %dst1] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 2)>(%k, %t)
      %v2 = memref.load %A[%g, %src2] : memref<8x128xf16>
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 8 + 2)>(%t)
      memref.store %v2, %a_s[%g, %dst2] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 3)>(%k, %t)
      %v3 = memref.load %A[%g, %src3] : memref<8x128xf16>
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 8 + 3)>(%t)
      memref.store %v3, %a_s[%g, %dst3] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src4 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 4)>(%k, %t)
      %v4 = memref.load %A[%g, %src4] : memref<8x128xf16>
      %dst4 = affine.apply affine_map<(d0) -> (d0 * 8 + 4)>(%t)
      memref.store %v4, %a_s[%g, %dst4] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src5 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 5)>(%k, %t)
      %v5 = memref.load %A[%g, %src5] : memref<8x128xf16>
      %dst5 = affine.apply affine_map<(d0) -> (d0 * 8 + 5)>(%t)
      memref.store %v5, %a_s[%g, %dst5] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src6 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 6)>(%k, %t)
      %v6 = memref.load %A[%g, %src6] : memref<8x128xf16>
      %dst6 = affine.apply affine_map<(d0) -> (d0 * 8 + 6)>(%t)
      memref.store %v6, %a_s[%g, %dst6] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src7 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 7)>(%k, %t)
      %v7 = memref.load %A[%g, %src7] : memref<8x128xf16>
      %dst7 = affine.apply affine_map<(d0) -> (d0 * 8 + 7)>(%t)
      memref.store %v7, %a_s[%g, %dst7] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %y = arith.constant dense<1.0> : vector<2x2xf16>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%g] : memref<8xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Copies that start one element past a 4-byte boundary: no cp.async
// (4, 8 or 16 aligned bytes) covers them, so the loop is left alone.
// CHECK-LABEL: func.func @misaligned
// CHECK-NOT:     nvgpu.device_async_copy
func.func @misaligned(%A: memref<8x128xf16>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x32xf16, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 1)>(%k, %t)
      %v0 = memref.load %A[%g, %src0] : memref<8x128xf16>
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 8 + 0)>(%t)
      memref.store %v0, %a_s[%g, %dst0] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 2)>(%k, %t)
      %v1 = memref.load %A[%g, %src1] : memref<8x128xf16>
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%t)
      memref.store %v1, %a_s[%g, %dst1] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 3)>(%k, %t)
      %v2 = memref.load %A[%g, %src2] : memref<8x128xf16>
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 8 + 2)>(%t)
      memref.store %v2, %a_s[%g, %dst2] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 4)>(%k, %t)
      %v3 = memref.load %A[%g, %src3] : memref<8x128xf16>
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 8 + 3)>(%t)
      memref.store %v3, %a_s[%g, %dst3] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src4 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 5)>(%k, %t)
      %v4 = memref.load %A[%g, %src4] : memref<8x128xf16>
      %dst4 = affine.apply affine_map<(d0) -> (d0 * 8 + 4)>(%t)
      memref.store %v4, %a_s[%g, %dst4] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src5 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 6)>(%k, %t)
      %v5 = memref.load %A[%g, %src5] : memref<8x128xf16>
      %dst5 = affine.apply affine_map<(d0) -> (d0 * 8 + 5)>(%t)
      memref.store %v5, %a_s[%g, %dst5] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src6 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 7)>(%k, %t)
      %v6 = memref.load %A[%g, %src6] : memref<8x128xf16>
      %dst6 = affine.apply affine_map<(d0) -> (d0 * 8 + 6)>(%t)
      memref.store %v6, %a_s[%g, %dst6] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %src7 = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1 * 8 + 8)>(%k, %t)
      %v7 = memref.load %A[%g, %src7] : memref<8x128xf16>
      %dst7 = affine.apply affine_map<(d0) -> (d0 * 8 + 7)>(%t)
      memref.store %v7, %a_s[%g, %dst7] : memref<8x32xf16, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %y = arith.constant dense<1.0> : vector<2x2xf16>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// Masked copies (pad_einsum's zero padding inlined into the copy): rows past
// 6 select zero, their row index clamped to 5. One mask for the group: the
// cp.async copies 4 elements or none (zero-fill), and not past the last
// step either.
// CHECK-LABEL: func.func @masked_rows
// CHECK:         %[[IN0:.*]] = arith.cmpi ult, %{{.*}}, %c6
// CHECK:         %[[N0:.*]] = arith.select %[[IN0]], %c4{{.*}}, %c0
// CHECK:         nvgpu.device_async_copy %{{.*}}, %{{.*}}, 4, %[[N0]] {bypassL1}
// CHECK:         scf.for
// CHECK:           %[[STEP:.*]] = arith.cmpi slt
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c6
// CHECK:           %[[BOTH:.*]] = arith.andi %[[STEP]], %[[IN]] : i1
// CHECK:           %[[N:.*]] = arith.select %[[BOTH]], %c4{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %{{.*}}, %{{.*}}, 4, %[[N]] {bypassL1}
// CHECK-NOT:       arith.select %{{.*}} : f32
func.func @masked_rows(%A: memref<8x64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %bound = arith.constant 6 : index
  %last = arith.constant 5 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x16xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %in = arith.cmpi ult, %g, %bound : index
      %row = arith.minui %g, %last : index
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 0)>(%k, %t)
      %v0 = memref.load %A[%row, %src0] : memref<8x64xf32>
      %m0 = arith.select %in, %v0, %zero : f32
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 4 + 0)>(%t)
      memref.store %m0, %a_s[%g, %dst0] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 1)>(%k, %t)
      %v1 = memref.load %A[%row, %src1] : memref<8x64xf32>
      %m1 = arith.select %in, %v1, %zero : f32
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 4 + 1)>(%t)
      memref.store %m1, %a_s[%g, %dst1] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 2)>(%k, %t)
      %v2 = memref.load %A[%row, %src2] : memref<8x64xf32>
      %m2 = arith.select %in, %v2, %zero : f32
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%t)
      memref.store %m2, %a_s[%g, %dst2] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 3)>(%k, %t)
      %v3 = memref.load %A[%row, %src3] : memref<8x64xf32>
      %m3 = arith.select %in, %v3, %zero : f32
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 4 + 3)>(%t)
      memref.store %m3, %a_s[%g, %dst3] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x16xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
      %y = arith.constant dense<1.0> : vector<2x1xf32>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// Two masks on each element (an implicit GEMM's im2col row of an NHWC
// image: the tile's row tail, then the convolution's padding, both the same
// for the 4 channels of the group): one cp.async of the 4 elements, copied
// when both hold.
// CHECK-LABEL: func.func @two_masks
// CHECK:         %[[ROW0:.*]] = arith.cmpi ult, %{{.*}}, %c6
// CHECK:         %[[PAD0:.*]] = arith.cmpi sge, %{{.*}}, %c1
// CHECK:         %[[BOTH0:.*]] = arith.andi %[[PAD0]], %[[ROW0]] : i1
// CHECK:         %[[N0:.*]] = arith.select %[[BOTH0]], %c4{{.*}}, %c0
// CHECK:         nvgpu.device_async_copy %{{.*}}, %{{.*}}, 4, %[[N0]] {bypassL1}
// CHECK:         scf.for
// CHECK:           %[[STEP:.*]] = arith.cmpi slt
// CHECK:           %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %c6
// CHECK:           %[[PAD:.*]] = arith.cmpi sge, %{{.*}}, %c1
// CHECK:           %[[AND1:.*]] = arith.andi %[[STEP]], %[[PAD]] : i1
// CHECK:           %[[AND2:.*]] = arith.andi %[[AND1]], %[[ROW]] : i1
// CHECK:           %[[N:.*]] = arith.select %[[AND2]], %c4{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %{{.*}}, %{{.*}}, 4, %[[N]] {bypassL1}
// CHECK-NOT:       arith.select %{{.*}} : f32
func.func @two_masks(%A: memref<8x64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %bound = arith.constant 6 : index
  %last = arith.constant 5 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x16xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %in = arith.cmpi ult, %g, %bound : index
      %pad = arith.cmpi sge, %k, %c1 : index
      %row = arith.minui %g, %last : index
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 0)>(%k, %t)
      %v0 = memref.load %A[%row, %src0] : memref<8x64xf32>
      %p0 = arith.select %pad, %v0, %zero : f32
      %m0 = arith.select %in, %p0, %zero : f32
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 4 + 0)>(%t)
      memref.store %m0, %a_s[%g, %dst0] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 1)>(%k, %t)
      %v1 = memref.load %A[%row, %src1] : memref<8x64xf32>
      %p1 = arith.select %pad, %v1, %zero : f32
      %m1 = arith.select %in, %p1, %zero : f32
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 4 + 1)>(%t)
      memref.store %m1, %a_s[%g, %dst1] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 2)>(%k, %t)
      %v2 = memref.load %A[%row, %src2] : memref<8x64xf32>
      %p2 = arith.select %pad, %v2, %zero : f32
      %m2 = arith.select %in, %p2, %zero : f32
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%t)
      memref.store %m2, %a_s[%g, %dst2] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 3)>(%k, %t)
      %v3 = memref.load %A[%row, %src3] : memref<8x64xf32>
      %p3 = arith.select %pad, %v3, %zero : f32
      %m3 = arith.select %in, %p3, %zero : f32
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 4 + 3)>(%t)
      memref.store %m3, %a_s[%g, %dst3] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x16xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
      %y = arith.constant dense<1.0> : vector<2x1xf32>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// Columns past 12 masked, each element's column clamped to 11: the group of
// 4 starts at a multiple of 4 and 12 is one, so its masks agree with the
// first's; the copy reads from the group's start (clamped to 8).
// CHECK-LABEL: func.func @masked_columns
// CHECK:         scf.for
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[COL:.*]], %c12
// CHECK:           %[[START:.*]] = arith.minui %[[COL]], %c8
// CHECK:           %[[BOTH:.*]] = arith.andi %{{.*}}, %[[IN]] : i1
// CHECK:           %[[N:.*]] = arith.select %[[BOTH]], %c4{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[START]]], %{{.*}}, 4, %[[N]] {bypassL1}
// CHECK-NOT:       memref.load
func.func @masked_columns(%A: memref<8x64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %bound = arith.constant 12 : index
  %last = arith.constant 11 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x16xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 0)>(%k, %t)
      %in0 = arith.cmpi ult, %src0, %bound : index
      %col0 = arith.minui %src0, %last : index
      %v0 = memref.load %A[%g, %col0] : memref<8x64xf32>
      %m0 = arith.select %in0, %v0, %zero : f32
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 4 + 0)>(%t)
      memref.store %m0, %a_s[%g, %dst0] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 1)>(%k, %t)
      %in1 = arith.cmpi ult, %src1, %bound : index
      %col1 = arith.minui %src1, %last : index
      %v1 = memref.load %A[%g, %col1] : memref<8x64xf32>
      %m1 = arith.select %in1, %v1, %zero : f32
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 4 + 1)>(%t)
      memref.store %m1, %a_s[%g, %dst1] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 2)>(%k, %t)
      %in2 = arith.cmpi ult, %src2, %bound : index
      %col2 = arith.minui %src2, %last : index
      %v2 = memref.load %A[%g, %col2] : memref<8x64xf32>
      %m2 = arith.select %in2, %v2, %zero : f32
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%t)
      memref.store %m2, %a_s[%g, %dst2] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 3)>(%k, %t)
      %in3 = arith.cmpi ult, %src3, %bound : index
      %col3 = arith.minui %src3, %last : index
      %v3 = memref.load %A[%g, %col3] : memref<8x64xf32>
      %m3 = arith.select %in3, %v3, %zero : f32
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 4 + 3)>(%t)
      memref.store %m3, %a_s[%g, %dst3] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x16xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
      %y = arith.constant dense<1.0> : vector<2x1xf32>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// Columns past 10: a group of 4 could straddle the bound, one of 2 cannot:
// 8-byte copies (cp.async.ca), two per row.
// CHECK-LABEL: func.func @masked_columns_straddle
// CHECK:         scf.for
// CHECK:           nvgpu.device_async_copy %{{.*}}, %{{.*}}, 2, %{{.*}} :
// CHECK:           nvgpu.device_async_copy %{{.*}}, %{{.*}}, 2, %{{.*}} :
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_create_group
func.func @masked_columns_straddle(%A: memref<8x64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %bound = arith.constant 10 : index
  %last = arith.constant 9 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %a_s = memref.alloca() : memref<8x16xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %src0 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 0)>(%k, %t)
      %in0 = arith.cmpi ult, %src0, %bound : index
      %col0 = arith.minui %src0, %last : index
      %v0 = memref.load %A[%g, %col0] : memref<8x64xf32>
      %m0 = arith.select %in0, %v0, %zero : f32
      %dst0 = affine.apply affine_map<(d0) -> (d0 * 4 + 0)>(%t)
      memref.store %m0, %a_s[%g, %dst0] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src1 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 1)>(%k, %t)
      %in1 = arith.cmpi ult, %src1, %bound : index
      %col1 = arith.minui %src1, %last : index
      %v1 = memref.load %A[%g, %col1] : memref<8x64xf32>
      %m1 = arith.select %in1, %v1, %zero : f32
      %dst1 = affine.apply affine_map<(d0) -> (d0 * 4 + 1)>(%t)
      memref.store %m1, %a_s[%g, %dst1] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src2 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 2)>(%k, %t)
      %in2 = arith.cmpi ult, %src2, %bound : index
      %col2 = arith.minui %src2, %last : index
      %v2 = memref.load %A[%g, %col2] : memref<8x64xf32>
      %m2 = arith.select %in2, %v2, %zero : f32
      %dst2 = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%t)
      memref.store %m2, %a_s[%g, %dst2] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %src3 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 4 + 3)>(%k, %t)
      %in3 = arith.cmpi ult, %src3, %bound : index
      %col3 = arith.minui %src3, %last : index
      %v3 = memref.load %A[%g, %col3] : memref<8x64xf32>
      %m3 = arith.select %in3, %v3, %zero : f32
      %dst3 = affine.apply affine_map<(d0) -> (d0 * 4 + 3)>(%t)
      memref.store %m3, %a_s[%g, %dst3] : memref<8x16xf32, #gpu.address_space<workgroup>>
      %x = nvgpu.ldmatrix %a_s[%g, %c0] {numTiles = 4 : i32, transpose = false} : memref<8x16xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
      %y = arith.constant dense<1.0> : vector<2x1xf32>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %r = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %r[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    }
    gpu.terminator
  }
  return
}

// -----

// Workgroup buffers that ldmatrix reads and no pipeline multi-buffers (a
// tile copied once, before the loop) get the same padding of their 128-byte
// rows (64 f16 + 8: ldmatrix's 8 rows start in 8 different bank groups),
// as long as the kernel's static shared memory stays within 48 KiB: %q
// (8 KiB + 1 KiB) is padded, %big (36 KiB + 4.5 KiB) would pass the limit
// and is not.
// CHECK-LABEL: func.func @pad_ldmatrix_source
// CHECK-DAG:     memref.alloca() : memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     memref.alloca() : memref<288x64xf16, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.ldmatrix %{{.*}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// TWO-LABEL: func.func @pad_ldmatrix_source
func.func @pad_ldmatrix_source(%src: memref<64x64xf16>, %out: memref<4x2xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %q = memref.alloca() : memref<64x64xf16, #gpu.address_space<workgroup>>
    %big = memref.alloca() : memref<288x64xf16, #gpu.address_space<workgroup>>
    %x = memref.load %src[%t, %c0] : memref<64x64xf16>
    memref.store %x, %q[%t, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>
    memref.store %x, %big[%t, %c0] : memref<288x64xf16, #gpu.address_space<workgroup>>
    %f = nvgpu.ldmatrix %q[%t, %c0] {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %g = nvgpu.ldmatrix %big[%t, %c0] {numTiles = 4 : i32, transpose = false} : memref<288x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %s = arith.addf %f, %g : vector<4x2xf16>
    vector.store %s, %out[%c0, %c0] : memref<4x2xf16>, vector<4x2xf16>
    gpu.terminator
  }
  return
}
