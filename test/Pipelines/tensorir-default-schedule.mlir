// tensorir-default-schedule{target=cpu}: TVM's default schedule of a TensorIR
// module, on each prim_func: te.compute stages raised to linalg, then tiled,
// packed, vectorized and parallelized. The result still lowers with the CPU
// pipeline. A prim_func that was scheduled by hand keeps its schedule.
// RUN: mlc-opt %s --tensorir-default-schedule | FileCheck %s
// RUN: mlc-opt %s --tensorir-default-schedule=target=cpu | mlc-opt --mlc-cpu-pipeline --verify-each | FileCheck %s --check-prefix=LLVM
// RUN: not mlc-opt %s --tensorir-default-schedule=target=gpu 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: error: mlc-default-schedule: unknown target 'gpu' (only 'cpu')

// The matmul packs the rhs panel (as 2 slivers of 64 columns) once, then
// runs as two parallel tasks of 64 rows, each packing its lhs block (rows
// padded by a cache line), with a 6x64 FMA register tile (64 = 10 x 6 + 4:
// a 4x64 tile last); relu is a 16-wide vector loop.
// CHECK-LABEL: tensorir.prim_func @mm_relu
// CHECK-NOT: tensorir.block
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x128x64xf32>
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c128) step (%c64)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<64x144xf32>
// CHECK-COUNT-6: vector.fma {{.*}} : vector<64xf32>
// CHECK: -> (vector<4x64xf32>)
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: tensorir.return
// LLVM-LABEL: llvm.func @mm_relu
// LLVM: llvm.intr.fmuladd
tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) attributes {tensorir.noalias} {
  %Y = tensorir.alloc_buffer : memref<128x128xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
          %a = memref.load %A[%vi, %vk] : memref<128x128xf32>
          %b = memref.load %B[%vk, %vj] : memref<128x128xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  tensorir.return
}

// CHECK-LABEL: tensorir.prim_func @scheduled
// CHECK: tensorir.for %{{.*}} = 0 to 64 parallel
// CHECK: tensorir.block "B"
// CHECK-NOT: vector.
// LLVM-LABEL: llvm.func @scheduled
tensorir.prim_func @scheduled(%A: memref<64xf32>, %B: memref<64xf32>) {
  tensorir.for %i = 0 to 64 parallel {
    tensorir.block "B"(%vi = spatial(64, %i)) {
      %a = memref.load %A[%vi] : memref<64xf32>
      %e = math.exp %a : f32
      memref.store %e, %B[%vi] : memref<64xf32>
    }
  }
  tensorir.return
}
