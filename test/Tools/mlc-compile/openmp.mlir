// Already-lowered input (here from upstream passes with OpenMP) is compiled
// as it is; a shared library that calls into libomp is linked against it
// with an rpath, and loads and runs from Python (b == 2 * a, exactly).
// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-opt %s --convert-scf-to-openmp --convert-scf-to-cf --convert-openmp-to-llvm --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts -o %t/par.llvm.mlir
// RUN: mlc-compile %t/par.llvm.mlir -o %t/par.so --emit-header=%t/par.h
// RUN: llvm-readelf -d %t/par.so | FileCheck %s --check-prefix=NEEDED
// RUN: FileCheck %s --check-prefix=HEADER < %t/par.h
// RUN: %python -c "import ctypes, numpy as np; lib = ctypes.CDLL('%t/par.so'); f = lib.par; f.restype = None; a = np.random.default_rng(0).standard_normal(1000).astype(np.float32); b = np.zeros_like(a); i64 = ctypes.c_int64; f(*[ctypes.c_void_p(a.ctypes.data)] * 2, i64(0), i64(1000), i64(1), *[ctypes.c_void_p(b.ctypes.data)] * 2, i64(0), i64(1000), i64(1)); assert (b == 2 * a).all(); print('openmp ok')" | FileCheck %s

// NEEDED-DAG: (RUNPATH) {{.*}}llvm-22/lib
// NEEDED-DAG: (NEEDED) {{.*}}libomp
// HEADER: void par(void *arg0, void *arg1, int64_t arg2, int64_t arg3, int64_t arg4, void *arg5, void *arg6, int64_t arg7, int64_t arg8, int64_t arg9);
// CHECK: openmp ok

func.func @par(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  return
}
