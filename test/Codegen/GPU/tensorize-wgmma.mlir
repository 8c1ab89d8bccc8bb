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
  // expected-error @+1 {{unsupported wgmma shape "m64n256k16"; expected "m64n128k16"}}
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
    // expected-error @+1 {{cannot tensorize the wgmma loop: its accumulator, smaller than 128 x 128, is used by 'memref.copy' after the nest; only loads and stores can read it there}}
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
