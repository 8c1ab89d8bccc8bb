// RUN: mlc-opt %s -split-input-file -mlc-gpu-tensorize-wgmma -cse -verify-diagnostics | FileCheck %s

// One 128 x 128 tile per warpgroup, as the Hopper Matmul rule leaves it:
// thread tx accumulates row tx of the tile in shared memory over K = 128.
// The host encodes the tensor maps of A (boxes of 128 x 64) and B (64 x
// 64, two per stage) through the runtime (f16: data type 6, 128-byte
// swizzle 3, 256-byte L2 promotion 3, zero fill 0) and launches with
// dynamic shared memory: 1024 bytes of alignment slack plus 2 stages of
// 32 KiB (K = 128 is 2 k-tiles), which the 64 KiB accumulator overlays at
// the end. Thread 0 initializes the mbarriers and issues the first stage;
// every k-tile waits for its stage, multiplies it (wgmma, B transposed),
// and lets thread 0 refill the stage the previous one used.
// CHECK-LABEL: func.func @tile
// CHECK-DAG:     %[[CA:.*]] = memref.cast %{{.*}} : memref<256x128xf16> to memref<*xf16>
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : i64
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : i64
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i64
// CHECK:         %[[AMAP:.*]] = call @mlc_cuda_tensor_map_encode_tiled_f16(%[[CA]], %[[C6]], %[[C3]], %[[C3]], %[[C0]], %[[C128]], %[[C64]], %[[C1]], %[[C1]], %[[C1]]) : (memref<*xf16>, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> !llvm.ptr
// CHECK:         %[[BMAP:.*]] = call @mlc_cuda_tensor_map_encode_tiled_f16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C64]], %[[C64]], %[[C1]], %[[C1]], %[[C1]])
// CHECK:         %[[SMEM:.*]] = arith.constant 66560 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK-NOT:       memref.alloca
// CHECK:           %[[A:.*]] = builtin.unrealized_conversion_cast %[[AMAP]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK:           %[[B:.*]] = builtin.unrealized_conversion_cast %[[BMAP]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:           %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK:           scf.if
// CHECK-COUNT-2:     nvgpu.mbarrier.init %[[BARS]]
// CHECK:             nvgpu.tma.prefetch.descriptor %[[A]]
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %{{.*}}
// CHECK:               nvgpu.tma.async.load %[[A]][%{{.*}}, %{{.*}}], %[[BARS]][%{{.*}}] to %{{.*}} : {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-2:       nvgpu.tma.async.load %[[B]]
// CHECK:           %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator
// CHECK:           %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[IN:.*]] = %[[INIT]])
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[BARS]]
// CHECK:             %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[A]]
// CHECK:             %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[B]]
// CHECK:             %[[D:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[IN]] {transposeB}
// CHECK:             gpu.barrier
// CHECK:             scf.if
// CHECK:               nvgpu.tma.async.load %[[A]]
// CHECK:             scf.yield %[[D]]
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           gpu.barrier
// CHECK:           %[[TILE:.*]] = memref.view %[[DYN]]
// CHECK:           nvgpu.warpgroup.mma.store %[[ACC]], %[[TILE]] : <fragmented = vector<128x128xf32>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK:             memref.load %[[TILE]]
// CHECK:         func.func private @mlc_cuda_tensor_map_encode_tiled_f16(memref<*xf16>, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> !llvm.ptr
#row = affine_map<(d0, d1) -> (d0 * 128 + d1)>
func.func @tile(%A: memref<256x128xf16>, %B: memref<128x256xf16>, %D: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x128xf32, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %row = affine.apply #row(%by, %tx)
        %col = affine.apply #row(%bx, %j)
        %first = arith.cmpi eq, %k, %c0 : index
        scf.if %first {
          memref.store %zero, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        }
        %a = memref.load %A[%row, %k] : memref<256x128xf16>
        %b = memref.load %B[%k, %col] : memref<128x256xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    scf.for %i = %c0 to %c128 step %c1 {
      %v = memref.load %acc[%i, %tx] : memref<128x128xf32, #gpu.address_space<workgroup>>
      %row = affine.apply #row(%by, %i)
      %col = affine.apply #row(%bx, %tx)
      memref.store %v, %D[%row, %col] : memref<256x256xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A B bound to a constant (an argument relax passes a constant to, or a
// constant global) is host memory: its tensor map is the runtime's
// constant encoder's, which describes a device copy of it. A stays a
// buffer.
// CHECK-LABEL: func.func @constant_argument
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_f16(
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_constant_f16(
// CHECK:         nvgpu.warpgroup.mma
// CHECK-LABEL: func.func @constant_global
// CHECK:         %[[W:.*]] = memref.get_global @weight
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_f16(
// CHECK:         %[[CW:.*]] = memref.cast %[[W]] : memref<128x256xf16> to memref<*xf16>
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_constant_f16(%[[CW]],
// CHECK:         nvgpu.warpgroup.mma
// CHECK-DAG:     func.func private @mlc_cuda_tensor_map_encode_tiled_f16(
// CHECK-DAG:     func.func private @mlc_cuda_tensor_map_encode_tiled_constant_f16(
#row = affine_map<(d0, d1) -> (d0 * 128 + d1)>
memref.global "private" constant @weight : memref<128x256xf16> = dense<1.0>
func.func @constant_argument(%A: memref<256x128xf16>, %B: memref<128x256xf16> {tensorir.constant}, %D: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x128xf32, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %row = affine.apply #row(%by, %tx)
        %col = affine.apply #row(%bx, %j)
        %first = arith.cmpi eq, %k, %c0 : index
        scf.if %first {
          memref.store %zero, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        }
        %a = memref.load %A[%row, %k] : memref<256x128xf16>
        %b = memref.load %B[%k, %col] : memref<128x256xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    scf.for %i = %c0 to %c128 step %c1 {
      %v = memref.load %acc[%i, %tx] : memref<128x128xf32, #gpu.address_space<workgroup>>
      %row = affine.apply #row(%by, %i)
      %col = affine.apply #row(%bx, %tx)
      memref.store %v, %D[%row, %col] : memref<256x256xf32>
    }
    gpu.terminator
  }
  return
}

func.func @constant_global(%A: memref<256x128xf16>, %D: memref<256x256xf32>) {
  %B = memref.get_global @weight : memref<128x256xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x128xf32, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %row = affine.apply #row(%by, %tx)
        %col = affine.apply #row(%bx, %j)
        %first = arith.cmpi eq, %k, %c0 : index
        scf.if %first {
          memref.store %zero, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        }
        %a = memref.load %A[%row, %k] : memref<256x128xf16>
        %b = memref.load %B[%k, %col] : memref<128x256xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    scf.for %i = %c0 to %c128 step %c1 {
      %v = memref.load %acc[%i, %tx] : memref<128x128xf32, #gpu.address_space<workgroup>>
      %row = affine.apply #row(%by, %i)
      %col = affine.apply #row(%bx, %tx)
      memref.store %v, %D[%row, %col] : memref<256x256xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A GEMM of 64 columns has its accumulator shrunk to 128 x 64 (the tile
// loop's columns past 64 masked): the warpgroup still stores the whole
// 128 x 128 tile, and the write-back reads the accumulator's part of it,
// rows 128 apart.
// CHECK-LABEL: func.func @narrow
// CHECK:         %[[TILE:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.warpgroup.mma.store %{{.*}}, %[[TILE]]
// CHECK:         %[[PART:.*]] = memref.subview %[[TILE]][0, 0] [128, 64] [1, 1] : memref<128x128xf32, #gpu.address_space<workgroup>> to memref<128x64xf32, strided<[128, 1]>, #gpu.address_space<workgroup>>
// CHECK:         memref.load %[[PART]][%{{.*}}, %{{.*}}] : memref<128x64xf32, strided<[128, 1]>, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloca
#row = affine_map<(d0, d1) -> (d0 * 128 + d1)>
func.func @narrow(%A: memref<256x128xf16>, %B: memref<128x64xf16>, %D: memref<256x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x64xf32, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %row = affine.apply #row(%by, %tx)
        %in = arith.cmpi ult, %j, %c64 : index
        scf.if %in {
          %first = arith.cmpi eq, %k, %c0 : index
          scf.if %first {
            memref.store %zero, %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
          }
          %a = memref.load %A[%row, %k] : memref<256x128xf16>
          %b = memref.load %B[%k, %j] : memref<128x64xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %old = memref.load %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
          %new = arith.addf %old, %p : f32
          memref.store %new, %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
        }
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    scf.for %i = %c0 to %c128 step %c1 {
      %in = arith.cmpi ult, %tx, %c64 : index
      scf.if %in {
        %v = memref.load %acc[%i, %tx] : memref<128x64xf32, #gpu.address_space<workgroup>>
        %row = affine.apply #row(%by, %i)
        memref.store %v, %D[%row, %tx] : memref<256x64xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

func.func @wrong_threads(%A: memref<256x128xf16>, %B: memref<128x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x128xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{cannot tensorize the wgmma loop: its launch is not one warpgroup (128 x 1 x 1 threads)}}
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %a = memref.load %A[%tx, %k] : memref<256x128xf16>
        %b = memref.load %B[%k, %j] : memref<128x256xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    gpu.terminator
  }
  return
}

// -----

func.func @not_a_product(%A: memref<256x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x128xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{cannot tensorize the wgmma loop: it does not accumulate extf(A[.., row, k]) * extf(B[.., k, n])}}
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %a = memref.load %A[%tx, %k] : memref<256x128xf16>
        %af = arith.extf %a : f16 to f32
        %old = memref.load %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %af : f32
        memref.store %new, %acc[%tx, %j] : memref<128x128xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    gpu.terminator
  }
  return
}

// -----

func.func @bad_shape() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{unsupported wgmma shape "m64n256k16"; expected "m64n128k16" or "m64n64k16"}}
  scf.for %j = %c0 to %c1 step %c1 {
  } {tensorir.annotations = {wgmma = "m64n256k16"}}
  return
}

// -----

// A shrunk accumulator is read in place in the 128 x 128 tile, through a
// strided view that only loads and stores take.
func.func @narrow_copied(%A: memref<256x128xf16>, %B: memref<128x64xf16>, %D: memref<128x64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x64xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{cannot tensorize the wgmma loop: its accumulator, smaller than the tile, is used by 'memref.copy' after the nest; only loads and stores can read it there}}
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %a = memref.load %A[%tx, %k] : memref<256x128xf16>
        %b = memref.load %B[%k, %j] : memref<128x64xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16"}}
    memref.copy %acc, %D : memref<128x64xf32, #gpu.address_space<workgroup>> to memref<128x64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// An implicit GEMM as the Hopper conv rule leaves it (`wgmma_a = "gather"`):
// A is the im2col of a 1x10x10x8 NHWC image under a 3x3 kernel (padding 1:
// 100 rows, K = 72), read at clamped addresses under the padding's
// predicate and the row guard row < 100; B is the 3x3x8x64 HWIO weight,
// whose indices address row k of it collapsed to 72 x 64. The host encodes
// only B's tensor map; A's descriptors take the 128-byte swizzle from the
// type of a map that is never read. Every thread copies 8 pieces of 16
// bytes of each k-tile (cp.async, zero-filled where the predicates fail)
// into the swizzled stage, one cp.async group per k-tile; each k-tile waits
// for its own group, fences it for the async proxy and meets the other
// threads before the wgmma.
// CHECK-LABEL: func.func @gather
// CHECK:         %[[W:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<3x3x8x64xf16> into memref<72x64xf16>
// CHECK:         %[[CW:.*]] = memref.cast %[[W]] : memref<72x64xf16> to memref<*xf16>
// CHECK:         call @mlc_cuda_tensor_map_encode_tiled_f16(%[[CW]],
// CHECK-NOT:     call @mlc_cuda_tensor_map_encode_tiled_f16
// CHECK:         gpu.launch
// CHECK:           %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:           %[[A:.*]] = builtin.unrealized_conversion_cast %[[NULL]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK-NOT:       nvgpu.tma.prefetch.descriptor %[[A]]
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c16384
// CHECK-COUNT-2:       nvgpu.tma.async.load
// CHECK:             %[[CHUNK:.*]] = arith.remui %{{.*}}, %c8 : index
// CHECK:             %[[ROW:.*]] = arith.divui %{{.*}}, %c8 : index
// CHECK:             %[[K0:.*]] = arith.addi
// CHECK:             %[[KIN:.*]] = arith.cmpi ult, %[[K0]], %c72 : index
// CHECK:             %[[SWZ:.*]] = arith.xori %[[CHUNK]],
// CHECK:             %[[COL:.*]] = arith.muli %[[SWZ]], %c8 : index
// CHECK:             %[[N:.*]] = arith.select %{{.*}}, %c8, %c0 : index
// CHECK:             nvgpu.device_async_copy %{{.*}}[%c0, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %[[COL]]], 8, %[[N]] {bypassL1} : memref<1x10x10x8xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-7:     nvgpu.device_async_copy
// CHECK:             nvvm.cp.async.commit.group
// CHECK:           scf.for
// CHECK:             nvvm.cp.async.wait.group 0
// CHECK-NEXT:        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:        gpu.barrier
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[A]]
// CHECK:             nvgpu.warpgroup.mma
// CHECK:             gpu.barrier
// CHECK:             scf.if
// CHECK:               nvgpu.tma.async.load
// CHECK-COUNT-8:       nvgpu.device_async_copy
// CHECK:             nvvm.cp.async.commit.group
// CHECK:             scf.yield
#row = affine_map<(d0, d1) -> (d0 * 128 + d1)>
#y = affine_map<(d0, d1) -> (d0 floordiv 10 + d1 floordiv 24 - 1)>
#x = affine_map<(d0, d1) -> (d0 mod 10 + (d1 floordiv 8) mod 3 - 1)>
#c = affine_map<(d0) -> (d0 mod 8)>
#ry = affine_map<(d0) -> (d0 floordiv 24)>
#rx = affine_map<(d0) -> ((d0 floordiv 8) mod 3)>
func.func @gather(%X: memref<1x10x10x8xf16>, %W: memref<3x3x8x64xf16>, %D: memref<100x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %c72 = arith.constant 72 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<100x64xf32, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c72 step %c1 {
        %row = affine.apply #row(%by, %tx)
        %in_col = arith.cmpi ult, %j, %c64 : index
        scf.if %in_col {
          %in_row = arith.cmpi ult, %row, %c100 : index
          scf.if %in_row {
            %first = arith.cmpi eq, %k, %c0 : index
            scf.if %first {
              memref.store %zero, %acc[%tx, %j] : memref<100x64xf32, #gpu.address_space<workgroup>>
            }
            %y = affine.apply #y(%row, %k)
            %x = affine.apply #x(%row, %k)
            %c = affine.apply #c(%k)
            %y0 = arith.cmpi sge, %y, %c0 : index
            %y1 = arith.cmpi slt, %y, %c10 : index
            %x0 = arith.cmpi sge, %x, %c0 : index
            %x1 = arith.cmpi slt, %x, %c10 : index
            %py = arith.andi %y0, %y1 : i1
            %px = arith.andi %x0, %x1 : i1
            %pred = arith.andi %py, %px : i1
            %yc = arith.maxsi %y, %c0 : index
            %yc2 = arith.minsi %yc, %c9 : index
            %xc = arith.maxsi %x, %c0 : index
            %xc2 = arith.minsi %xc, %c9 : index
            %a = memref.load %X[%c0, %yc2, %xc2, %c] : memref<1x10x10x8xf16>
            %as = arith.select %pred, %a, %zero16 : f16
            %ry = affine.apply #ry(%k)
            %rx = affine.apply #rx(%k)
            %b = memref.load %W[%ry, %rx, %c, %j] : memref<3x3x8x64xf16>
            %af = arith.extf %as : f16 to f32
            %bf = arith.extf %b : f16 to f32
            %p = arith.mulf %af, %bf : f32
            %old = memref.load %acc[%tx, %j] : memref<100x64xf32, #gpu.address_space<workgroup>>
            %new = arith.addf %old, %p : f32
            memref.store %new, %acc[%tx, %j] : memref<100x64xf32, #gpu.address_space<workgroup>>
          }
        }
      }
    } {tensorir.annotations = {wgmma = "m64n128k16", wgmma_a = "gather"}}
    scf.for %i = %c0 to %c100 step %c1 {
      %in = arith.cmpi ult, %tx, %c64 : index
      scf.if %in {
        %v = memref.load %acc[%i, %tx] : memref<100x64xf32, #gpu.address_space<workgroup>>
        memref.store %v, %D[%i, %tx] : memref<100x64xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// B's leading indices must address row k of it: here they repeat rows.
#row = affine_map<(d0, d1) -> (d0 * 128 + d1)>
#mod = affine_map<(d0) -> (d0 mod 3)>
func.func @gather_b_not_rows(%X: memref<128x72xf16>, %W: memref<3x3x8x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c72 = arith.constant 72 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x64xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{cannot tensorize the wgmma loop: it does not accumulate extf(A) * extf(B[.., k, n]) with A ([select(c, ] load [, 0)]) depending on the thread and B's rows on k}}
    scf.for %j = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c72 step %c1 {
        %a = memref.load %X[%tx, %k] : memref<128x72xf16>
        %r = affine.apply #mod(%k)
        %b = memref.load %W[%r, %r, %c0, %j] : memref<3x3x8x64xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n128k16", wgmma_a = "gather"}}
    gpu.terminator
  }
  return
}

// -----

func.func @bad_operand_a() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{unsupported wgmma_a "tma"; expected "gather"}}
  scf.for %j = %c0 to %c1 step %c1 {
  } {tensorir.annotations = {wgmma = "m64n128k16", wgmma_a = "tma"}}
  return
}

// -----

// A tile of 64 columns (m64n64k16, GEMMs of at most 64 columns): one 64 x 64
// box of B per stage (24 KiB stages: 16 KiB of A, 8 KiB of B, which the
// stage's mbarrier expects), a 128 x 64 accumulator in registers and in the
// tile's buffer, which the 1024 bytes of slack plus 2 stages hold.
// CHECK-LABEL: func.func @tile64
// CHECK:         %[[SMEM:.*]] = arith.constant 50176 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c24576
// CHECK:           nvgpu.tma.async.load {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[B0:.*]] = arith.addi %{{.*}}, %c16384 : index
// CHECK-NEXT:      %[[BV:.*]] = memref.view %{{.*}}[%[[B0]]][]
// CHECK-NEXT:      nvgpu.tma.async.load {{.*}} to %[[BV]] {{.*}} -> memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:       nvgpu.tma.async.load
// CHECK:           nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x64xf32>>
// CHECK:           nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {transposeB} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x64xf32>>
// CHECK:           nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} : <fragmented = vector<128x64xf32>> to memref<128x64xf32, #gpu.address_space<workgroup>>
#row = affine_map<(d0, d1) -> (d0 * 128 + d1)>
func.func @tile64(%A: memref<256x128xf16>, %B: memref<128x64xf16>, %D: memref<256x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<128x64xf32, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %c64 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %row = affine.apply #row(%by, %tx)
        %first = arith.cmpi eq, %k, %c0 : index
        scf.if %first {
          memref.store %zero, %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
        }
        %a = memref.load %A[%row, %k] : memref<256x128xf16>
        %b = memref.load %B[%k, %j] : memref<128x64xf16>
        %af = arith.extf %a : f16 to f32
        %bf = arith.extf %b : f16 to f32
        %p = arith.mulf %af, %bf : f32
        %old = memref.load %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
        %new = arith.addf %old, %p : f32
        memref.store %new, %acc[%tx, %j] : memref<128x64xf32, #gpu.address_space<workgroup>>
      }
    } {tensorir.annotations = {wgmma = "m64n64k16"}}
    scf.for %i = %c0 to %c128 step %c1 {
      %in = arith.cmpi ult, %tx, %c64 : index
      scf.if %in {
        %v = memref.load %acc[%i, %tx] : memref<128x64xf32, #gpu.address_space<workgroup>>
        %row = affine.apply #row(%by, %i)
        memref.store %v, %D[%row, %tx] : memref<256x64xf32>
      }
    }
    gpu.terminator
  }
  return
}
