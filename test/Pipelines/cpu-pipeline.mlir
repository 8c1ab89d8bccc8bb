// The CPU pipeline turns a tensor-level module into the LLVM dialect with a
// destination-passing entry point, under --verify-each, and the result
// translates to LLVM IR.
// RUN: mlc-opt %s --mlc-cpu-pipeline --verify-each | FileCheck %s
// RUN: mlc-opt %s --mlc-cpu-pipeline | mlc-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: mlc-opt %s --mlc-cpu-pipeline=hoist-result-allocs=false | FileCheck %s --check-prefix=RESULTS
// RUN: mlc-opt %s --mlc-cpu-pipeline=approximate-math=false | FileCheck %s --check-prefix=LIBM
// RUN: mlc-opt %s --mlc-cpu-pipeline="hoist-result-allocs=false heap-buffer-cache=false" | FileCheck %s --check-prefix=MALLOC

// Two 2-D memref inputs and one 2-D memref output: 3 × (2 ptr + 1 + 2×2 i64).
// CHECK-LABEL: llvm.func @main(
// CHECK-SAME: %arg14: !llvm.ptr, %arg15: !llvm.ptr, %arg16: i64, %arg17: i64, %arg18: i64, %arg19: i64, %arg20: i64)
// CHECK-NOT: -> !llvm.struct
// exp is a polynomial (mlc-approximate-math), not a call.
// CHECK-NOT: llvm.intr.exp
// CHECK: llvm.intr.fma
// CHECK-NOT: llvm.intr.exp
// CHECK-NOT: memref.
// CHECK-NOT: linalg.

// LLVMIR: define void @main(ptr

// LIBM: llvm.intr.exp

// Without out-parameters the result comes back as a descriptor, allocated
// through the heap buffer cache (mlc-heap-buffer-cache), or by malloc
// without it.
// RESULTS: llvm.func @main({{.*}}) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// RESULTS: llvm.call @_mlir_memref_to_llvm_alloc
// RESULTS: llvm.func internal @_mlir_memref_to_llvm_alloc
// MALLOC: llvm.func @main
// MALLOC: llvm.call @malloc
// MALLOC-NOT: _mlir_memref_to_llvm
func.func @main(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%fill : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
