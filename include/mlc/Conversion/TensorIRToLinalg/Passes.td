//===- Passes.td - tensorir-to-linalg conversion ------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_TENSORIRTOLINALG_PASSES_TD
#define MLC_CONVERSION_TENSORIRTOLINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTensorIRToLinalg
    : Pass<"convert-tensorir-to-linalg", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "raise te.compute-shaped tensorir blocks to linalg.generic";
  let description = [{
    Raises the stages that `relax-legalize-ops` writes with
    `PrimFuncBuilder::compute`/`reduce` (TVM's `te.compute`) to
    `linalg.generic` on the same memrefs, so that upstream tiling and
    vectorization (`mlc-default-schedule`) can schedule them. A
    `tensorir.block` is raised when

    - it is the only op of a perfect nest of `serial` `tensorir.for` loops
      `0 to N step 1` with constant `N`, one loop per iteration variable,
      binding `i` being the induction variable of loop `i` and the domain of
      iteration variable `i` being `N`, and it has no `where` predicate;
    - its body is `memref.load`s whose indices are affine in the iteration
      variables (`arith.addi`/`subi`/`muli` by constants), pure scalar
      `arith`/`math` ops, and last one `memref.store` whose indices are the
      spatial iteration variables (each once, no reduce variable);
    - loads of the stored buffer use the store's indices (the accumulator);
    - its `tensorir.init`, if any, stores one value to the same element
      without using a reduce variable.

    The init becomes a `linalg.generic` over the output alone, the block a
    `linalg.generic` with one input per distinct (buffer, access map) and the
    stored buffer as output; iteration variables used as values become
    `linalg.index`. Reduce iteration variables that no access uses as a
    whole index (a pooling window's `y * 2 + ky`) get their ranges from an
    extra shape-only input, a `memref.alloca` of i8 at the function entry
    that the body never reads, as with upstream's `linalg.pooling_*` ops.
    Everything else (predicated or non-affine accesses such as
    the clamped indices of a pad stage, scheduled loops, dynamic extents) is
    left to `convert-tensorir-to-scf`, which runs afterwards and keeps the
    raised ops.

    ```mlir
    tensorir.for %i = 0 to 4 {
      tensorir.for %j = 0 to 8 {
        tensorir.block "T_add"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
          %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
          %b = memref.load %B[%vj] : memref<8xf32>
          %s = arith.addf %a, %b : f32
          memref.store %s, %C[%vi, %vj] : memref<4x8xf32>
        }
      }
    }
    // becomes
    linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1),
                                     (d0, d1) -> (d0, d1)], ...}
        ins(%A, %B : ...) outs(%C : ...) { ... arith.addf ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // MLC_CONVERSION_TENSORIRTOLINALG_PASSES_TD
