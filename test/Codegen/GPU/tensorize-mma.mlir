// RUN: mlc-opt %s -split-input-file -mlc-gpu-tensorize-mma -verify-diagnostics | FileCheck %s

// One warp's 16 x 8 x 16 tile as the tensor-core Matmul rule leaves it
// (thread (g, t) = (threadIdx.y, threadIdx.x) computes rows 2g + h, columns
// 2t + p): A (16 x 16, k innermost) and B (8 x 16, stored N x K) come in
// through ldmatrix, lane l = 4g + t pointing at A's row 2 (l % 8) + (l / 8)
// % 2 (the tile's row l % 16 in mma order) and k 8 (l / 16), and at B's
// column l % 8, k 8 ((l / 8) % 2); the thread's four accumulator elements
// are the mma's C fragment.
// CHECK-DAG: #[[KA:.*]] = affine_map<(d0, d1) -> (((d0 * 4 + d1) floordiv 16) * 8)>
// CHECK-DAG: #[[HALF:.*]] = affine_map<(d0, d1) -> (((d0 * 4 + d1) floordiv 8) mod 2)>
// CHECK-DAG: #[[LMOD8:.*]] = affine_map<(d0, d1) -> ((d0 * 4 + d1) mod 8)>
// CHECK-LABEL: func.func @tile_nt
// CHECK-DAG:     %[[A:.*]] = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[B:.*]] = memref.alloca() : memref<8x16xf16, #gpu.address_space<workgroup>>
// CHECK:         gpu.launch {{.*}} threads(%[[T:.*]], %[[G:.*]], %{{.*}}) in
// CHECK-NOT:       scf.for
// CHECK-DAG:       %[[AROW_L:.*]] = affine.apply #[[LMOD8]](%[[G]], %[[T]])
// CHECK-DAG:       %[[AROW_H:.*]] = affine.apply #[[HALF]](%[[G]], %[[T]])
// CHECK-DAG:       %[[AK:.*]] = affine.apply #[[KA]](%[[G]], %[[T]])
// CHECK:           %[[AROW:.*]] = affine.apply #{{.*}}(%[[AROW_L]], %[[AROW_H]])
// CHECK:           %[[AFRAG:.*]] = nvgpu.ldmatrix %[[A]][%[[AROW]], %[[AK]]] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:           %[[BFRAG:.*]] = nvgpu.ldmatrix %[[B]][%{{.*}}, %{{.*}}] {numTiles = 2 : i32, transpose = false} : memref<8x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-COUNT-4:   memref.load %{{.*}} : memref<2x2xf32, #gpu.address_space<private>>
// CHECK:           %[[CFRAG:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK:           %[[D:.*]] = nvgpu.mma.sync(%[[AFRAG]], %[[BFRAG]], %[[CFRAG]]) {mmaShape = [16, 8, 16]}
// CHECK-COUNT-4:   vector.extract %[[D]]
// CHECK-NOT:       scf.for
// CHECK:           gpu.terminator
func.func @tile_nt(%c_out: memref<32x2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<8x16xf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%col, %kk] : memref<8x16xf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// B stored K x N whose tile columns are contiguous (column 2t + p): lane l
// points at row k = l % 16 and ldmatrix.trans gives the B fragment.
// CHECK-LABEL: func.func @tile_nn
// CHECK:         nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:         nvgpu.ldmatrix %{{.*}}[%[[K:.*]], %{{.*}}] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK:         nvgpu.mma.sync
func.func @tile_nn() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<16x8xf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%kk, %col] : memref<16x8xf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// B stored K x N as the tensor-core Matmul rule leaves it: lane (g, t) has
// the columns 16 t + 2 nt + p of 64 (here tile nt = 3). Every access of the
// buffer, the copy into it included, goes through the column permutation
// 8 ((c / 2) mod 8) + 2 (c / 16) + c mod 2, which puts the tile's columns
// at 24 .. 31, and ldmatrix.trans reads them.
// CHECK-DAG:   #[[PERM:.*]] = affine_map<(d0) -> (((d0 floordiv 2) mod 8) * 8 + (d0 floordiv 16) * 2 + d0 mod 2)>
// CHECK-LABEL: func.func @tile_nn_permuted
// CHECK:         %[[C:.*]] = affine.apply #[[PERM]](%{{.*}})
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[C]]] : memref<16x64xf16
// CHECK:         nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK:         nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true} : memref<16x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-NOT:     memref.load %{{.*}} : memref<16x64xf16
// CHECK:         nvgpu.mma.sync
func.func @tile_nn_permuted(%src: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<16x64xf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %lane = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%g, %t)
    %v = memref.load %src[%g, %lane] : memref<16x64xf16>
    memref.store %v, %b[%g, %lane] : memref<16x64xf16, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 16 + 6 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%kk, %col] : memref<16x64xf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// B stored K x N whose tile columns are neither contiguous nor in the
// permutable 64-column layout (column 4t + p of 16): each thread loads its
// four B elements (k 2t + e + 8q, column g of the tile) itself.
// CHECK-LABEL: func.func @tile_nn_gather
// CHECK:         nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-4: memref.load %{{.*}} : memref<16x16xf16, #gpu.address_space<workgroup>>
// CHECK:         vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK:         nvgpu.mma.sync

func.func @tile_nn_gather() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%kk, %col] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// The warp's lanes must be threadIdx.y (8) x threadIdx.x (4).
func.func @not_a_warp() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{mma_sync loop in a launch that is not 4 x 8 threads in x and y}}
    scf.for %h = %c0 to %c2 step %c1 {
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// A tile that is not 2 x 2 x 16.
func.func @wrong_extents(%acc: memref<2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    // expected-error @+1 {{cannot tensorize the mma_sync loop: expected loops of 2, 2 and 16 iterations from 0, perfectly nested}}
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c8 step %c1 {
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// bf16 A and B: the same fragments (ldmatrix moves 16-bit elements); the
// bf16 mma.sync is lowered by mlc-gpu-lower-bf16-mma-sync.
// CHECK-LABEL: func.func @tile_nt_bf16
// CHECK:         nvgpu.ldmatrix {{.*}} -> vector<4x2xbf16>
// CHECK:         nvgpu.ldmatrix {{.*}} -> vector<2x2xbf16>
// CHECK:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @tile_nt_bf16(%c_out: memref<32x2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xbf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<8x16xbf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xbf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : bf16 to f32
          %y = memref.load %b[%col, %kk] : memref<8x16xbf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : bf16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// f16 A, bf16 B: no mma.sync form multiplies the two.
func.func @mixed_f16_bf16(%c_out: memref<32x2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<8x16xbf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    // expected-error @+1 {{cannot tensorize the mma_sync loop: expected f16 or bf16 A and B of one type}}
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%col, %kk] : memref<8x16xbf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : bf16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

// tf32 (m16n8k8, f32 A and B, allow-tf32): A (16 x 8, k innermost) through
// ldmatrix.x4, an f32 being two of its 16-bit elements (lane l points at
// row l % 16 in mma order and k 4 (l / 16)), B stored N x K through
// ldmatrix.x2 (column l % 8, k 4 ((l / 8) % 2)); one register per element.
// CHECK-DAG: #[[KA4:.*]] = affine_map<(d0, d1) -> (((d0 * 4 + d1) floordiv 16) * 4)>
// CHECK-DAG: #[[KB4:.*]] = affine_map<(d0, d1) -> ((((d0 * 4 + d1) floordiv 8) mod 2) * 4)>
// CHECK-LABEL: func.func @tile_nt_tf32
// CHECK:         %[[AK:.*]] = affine.apply #[[KA4]]
// CHECK:         %[[A:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}, %[[AK]]] {numTiles = 4 : i32, transpose = false} : memref<16x8xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK:         %[[BK:.*]] = affine.apply #[[KB4]]
// CHECK:         %[[B:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}, %[[BK]]] {numTiles = 2 : i32, transpose = false} : memref<8x8xf32, #gpu.address_space<workgroup>> -> vector<2x1xf32>
// CHECK:         nvgpu.mma.sync(%[[A]], %[[B]], %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @tile_nt_tf32(%c_out: memref<32x2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x8xf32, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<8x8xf32, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c8 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x8xf32, #gpu.address_space<workgroup>>
          %y = memref.load %b[%col, %kk] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %x, %y : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k8"}}
    gpu.terminator
  }
  return
}

// -----

// tf32 with B stored K x N: ldmatrix.trans moves 16-bit elements, so each
// thread loads its b0 (k t, column g) and b1 (k t + 4) itself.
// CHECK-LABEL: func.func @tile_nn_tf32
// CHECK:         nvgpu.ldmatrix {{.*}} -> vector<4x1xf32>
// CHECK-NOT:     nvgpu.ldmatrix
// CHECK-COUNT-2: memref.load %{{.*}} : memref<8x8xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[B:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2x1xf32>
// CHECK:         nvgpu.mma.sync(%{{.*}}, %[[B]], %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
func.func @tile_nn_tf32() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x8xf32, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<8x8xf32, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c8 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x8xf32, #gpu.address_space<workgroup>>
          %y = memref.load %b[%kk, %col] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %x, %y : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k8"}}
    gpu.terminator
  }
  return
}

// -----

// m16n8k8 is tf32 only: extended f16 operands are an error.
func.func @tf32_f16_operands() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<16x8xf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    // expected-error @+1 {{cannot tensorize the mma_sync loop: expected f32 A and B loaded from memory (m16n8k8 is the tf32 mma)}}
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c8 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%g, %h)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %a[%row, %kk] : memref<16x16xf16, #gpu.address_space<workgroup>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%kk, %col] : memref<16x8xf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k8"}}
    gpu.terminator
  }
  return
}

// -----

// f32 operands: mma.sync m16n8k16 multiplies f16 or bf16.
func.func @f32_operands() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %b = memref.alloca() : memref<8x16xf32, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    // expected-error @+1 {{cannot tensorize the mma_sync loop: expected C = C + extf(A) * extf(B) with an f32 C}}
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %x = memref.load %a[%h, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %b[%p, %kk] : memref<8x16xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %x, %y : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}

// -----

func.func @unknown_shape() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{unsupported mma_sync shape "m16n8k32"; expected "m16n8k16" or "m16n8k8" (tf32)}}
  scf.for %h = %c0 to %c1 step %c1 {
  } {tensorir.annotations = {mma_sync = "m16n8k32"}}
  return
}

// -----

// A in the thread's registers (a flash-attention kernel's P, left by an
// earlier mma in the accumulator layout, here rebased by the lane's first
// column 2t): each lane loads its own fragment elements, k 2t + e + 8 (q /
// 2), at 2t + e + 8 (q / 2) - 2t. B stored K x N is read by the
// accumulator's own columns 2t + p, already 8 contiguous ones: ldmatrix
// with transpose, and the buffer is not permuted.
// CHECK-LABEL: func.func @private_a
// CHECK:         gpu.launch
// CHECK-COUNT-8:   memref.load %{{.*}} : memref<2x10xf16, #gpu.address_space<private>>
// CHECK:           %[[AFRAG:.*]] = vector.from_elements {{.*}} : vector<4x2xf16>
// CHECK:           %[[BFRAG:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<16x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK:           nvgpu.mma.sync(%[[AFRAG]], %[[BFRAG]], %{{.*}}) {mmaShape = [16, 8, 16]}
// CHECK-NOT:       affine_map<(d0) -> ((d0 floordiv 2) mod 8
func.func @private_a(%c_out: memref<32x2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %b = memref.alloca() : memref<16x64xf16, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%t, %g, %w) in (%sx = %c4, %sy = %c8, %sz = %c1) {
    %p_regs = memref.alloca() : memref<2x10xf16, #gpu.address_space<private>>
    %acc = memref.alloca() : memref<2x2xf32, #gpu.address_space<private>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = %c0 to %c2 step %c1 {
        scf.for %kk = %c0 to %c16 step %c1 {
          %k = affine.apply affine_map<(d0, d1) -> (d0 - d1 * 2)>(%kk, %t)
          %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%t, %p)
          %x = memref.load %p_regs[%h, %k] : memref<2x10xf16, #gpu.address_space<private>>
          %xf = arith.extf %x : f16 to f32
          %y = memref.load %b[%kk, %col] : memref<16x64xf16, #gpu.address_space<workgroup>>
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %c = memref.load %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
          %s = arith.addf %c, %m : f32
          memref.store %s, %acc[%h, %p] : memref<2x2xf32, #gpu.address_space<private>>
        }
      }
    } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    gpu.terminator
  }
  return
}
