// Parallel loops run on OpenMP threads: the CPU pipeline turns scf.parallel
// into omp.parallel + omp.wsloop (a __kmpc_fork_call in LLVM IR), and
// mlc-run --threads=N sets the libomp team size. Each iteration records the
// thread that ran it (omp_get_thread_num), so the output shows how many
// threads the loop really used. The numerics are in
// test/Integration/threads.py.
// RUN: mlc-opt %s --mlc-cpu-pipeline | FileCheck %s --check-prefix=IR
// RUN: mlc-opt %s --mlc-cpu-pipeline | mlc-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: mlc-opt %s "--mlc-cpu-pipeline=openmp=false" | FileCheck %s --check-prefix=NOOMP
// RUN: mlc-run %s --entry=who --threads=2 | FileCheck %s --check-prefix=TWO
// RUN: mlc-run %s --entry=who --threads=1 | FileCheck %s --check-prefix=ONE
// RUN: mlc-run %s --entry=who | FileCheck %s --check-prefix=ONE
// A stack buffer in a parallel body (memref.alloca_scope per iteration).
// RUN: mlc-run %s --entry=stack --threads=2 | FileCheck %s --check-prefix=STACK
// A parallel reduction (scf.reduce) becomes an OpenMP reduction.
// RUN: %python -c "import numpy as np; np.savez('%t.x.npz', X=np.arange(100, dtype=np.float32))"
// RUN: mlc-run %s --entry=sum --inputs=%t.x.npz --threads=2 | FileCheck %s --check-prefix=SUM
// RUN: not mlc-run %s --entry=who --pipeline-options="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=BADOPT

// IR-LABEL: llvm.func @who
// IR:         omp.parallel
// IR:           omp.wsloop
// IR:             omp.loop_nest
// IR-LABEL: llvm.func @stack
// IR:         omp.parallel
// IR:           llvm.intr.stacksave
// IR-LABEL: llvm.func @sum
// IR:         omp.parallel
// IR:           omp.wsloop reduction
// LLVM:       call void {{.*}}@__kmpc_fork_call
// NOOMP-NOT:  omp.
// Static schedule: the first half of the iterations on thread 0, the rest on 1.
// TWO:        Who: tensor<8xi32> min 0 max 1 mean 0.5 [0, 0, 0, 0, 1, 1, ...]
// ONE:        Who: tensor<8xi32> min 0 max 0 mean 0
// STACK:      Out: tensor<8x4xf32> min 0 max 3 mean 1.5 [0, 1, 2, 3, 0, 1, ...]
// SUM:        S: tensor<1xf32> min 4950 max 4950
// BADOPT:     mlc-run: error: invalid --pipeline-options 'no-such-option=1'

func.func private @omp_get_thread_num() -> i32

func.func @who(%out: memref<8xi32> {tensorir.name = "Who"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %t = func.call @omp_get_thread_num() : () -> i32
    memref.store %t, %out[%i] : memref<8xi32>
  }
  return
}

func.func @stack(%out: memref<8x4xf32> {tensorir.name = "Out"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %t = memref.alloca() : memref<4xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %v = arith.index_cast %j : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %t[%j] : memref<4xf32>
    }
    scf.for %j = %c0 to %c4 step %c1 {
      %f = memref.load %t[%j] : memref<4xf32>
      memref.store %f, %out[%i, %j] : memref<8x4xf32>
    }
  }
  return
}

func.func @sum(%x: memref<100xf32> {tensorir.name = "X"}, %out: memref<1xf32> {tensorir.name = "S"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%c100) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<100xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}
