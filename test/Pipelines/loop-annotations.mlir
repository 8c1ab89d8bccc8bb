// A hand schedule's vectorized and unrolled loops reach LLVM as loop
// metadata through the CPU pipeline (convert-tensorir-to-scf annotates the
// scf.for, convert-scf-to-cf moves the annotation to the back edge,
// mlc-forward-loop-annotations makes it the branch's loop_annotation).
// RUN: mlc-opt %s --mlc-cpu-pipeline | mlc-translate --mlir-to-llvmir | FileCheck %s

// CHECK-DAG: br label %{{.*}}, !llvm.loop ![[VEC:[0-9]+]]
// CHECK-DAG: br label %{{.*}}, !llvm.loop ![[UNROLL:[0-9]+]]
// CHECK-DAG: ![[VEC]] = distinct !{![[VEC]], ![[VECENABLE:[0-9]+]]}
// CHECK-DAG: ![[VECENABLE]] = !{!"llvm.loop.vectorize.enable", i1 true}
// CHECK-DAG: ![[UNROLL]] = distinct !{![[UNROLL]], !{{[0-9]+}}, ![[FULL:[0-9]+]]}
// CHECK-DAG: ![[FULL]] = !{!"llvm.loop.unroll.full"}
tensorir.prim_func @relu(%A: memref<64x128xf32>, %B: memref<64x128xf32>, %C: memref<64x4xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 128 vectorized {
      tensorir.block "B"(%vi = spatial(64, %i), %vj = spatial(128, %j)) {
        %zero = arith.constant 0.0 : f32
        %a = memref.load %A[%vi, %vj] : memref<64x128xf32>
        %r = arith.maximumf %a, %zero : f32
        memref.store %r, %B[%vi, %vj] : memref<64x128xf32>
      }
    }
  }
  tensorir.for %i = 0 to 64 {
    tensorir.for %j = 0 to 4 unrolled {
      tensorir.block "C"(%vi = spatial(64, %i), %vj = spatial(4, %j)) {
        %one = arith.constant 1.0 : f32
        memref.store %one, %C[%vi, %vj] : memref<64x4xf32>
      }
    }
  }
  tensorir.return
}
