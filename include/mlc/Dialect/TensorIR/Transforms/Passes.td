//===- Passes.td - tensorir dialect passes ---------------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_TD
#define MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TensorIRInferAccessRegions
    : Pass<"tensorir-infer-access-regions", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Compute the reads/writes regions of tensorir.block ops";
  let description = [{
    Fills in the `reads(...)` and `writes(...)` of every `tensorir.block`
    that lacks them, from the `memref.load`/`memref.store` ops in its body,
    the way TVMScript completes `T.reads`/`T.writes` (TVM's
    `GetBlockReadWriteRegion`):

    - an index affine in the iteration variables (directly, through
      `affine.apply`, or `arith.addi`/`subi`/`muli`) gives a point region;
      loops inside the block are relaxed over their constant ranges;
    - several accesses of one buffer give their bounding box;
    - anything else covers the whole dimension, and an opaque use of a buffer
      (any other op taking it, e.g. `memref.copy`) covers the whole buffer,
      read and/or written according to the op's memory effects;
    - buffers allocated inside the block are not listed, and when the block
      has a `tensorir.init` the written buffers are not listed as read.

    Nested blocks are handled inside out. The pass fails, naming the block
    and the buffer, when a whole-dimension region is needed for a dimension
    of dynamic size (it cannot be written without the size).

    ```mlir
    tensorir.block "C"(%vi = spatial(128, %i)) {
      %0 = memref.load %A[%vi] : memref<128xf32>
      memref.store %0, %C[%vi] : memref<128xf32>
    }
    // becomes
    tensorir.block "C"(%vi = spatial(128, %i)) reads(%A[%vi] : memref<128xf32>)
        writes(%C[%vi] : memref<128xf32>) { ... }
    ```
  }];
  let options = [
    Option<"overwrite", "overwrite", "bool", /*default=*/"false",
           "Recompute the regions of blocks that already have them">
  ];
}

#endif // MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_TD
