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

def TensorIRAnnotateOpPattern
    : Pass<"tensorir-annotate-op-pattern", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Classify each prim_func by TVM's operator pattern kind";
  let description = [{
    TVM's `relax.transform.AnnotateTIROpPattern` (the `PatternKindAnalyzer`
    of `src/relax/analysis/tir_op_pattern_kind.cc`): sets the discardable
    attribute `tensorir.op_pattern = #tensorir.op_pattern<...>` on every
    `tensorir.prim_func` that does not have one yet (a pre-set kind is kept).
    `relax-fuse-ops` reads it.

    Each `tensorir.block` is looked at on its own, in program order,
    starting from `elemwise`; the function's kind is the combination (max,
    with the exceptions below) over its blocks. In a block, the body without
    its `tensorir.init` must store to one index tuple (several
    `memref.store`s with different indices, or none, give `opaque`); each
    `memref.load` compared with the store gives
    - `elemwise`: the same indices (`C[i, j] = A[i, j]`),
    - `broadcast`: the load indices are a subsequence of the store indices,
      unit dimensions indexed by 0 skipped (`C[i, j] = B[j]`),
    - `injective`: the store indices are variables and the load indices use
      only those (`C[i, j] = A[j, i]`, `B[i * 4 + j]`);
    a block with one elementwise and otherwise broadcast loads is
    `elemwise` (`C[i, j] = A[i, j] + B[j]`). A block whose loads fit none of
    these and that has reduce iteration variables is
    - `out_ewise_fusable` when its body is a multiply-accumulate
      `C[...] = C[...] + A[...] * B[...]` where A and B each miss some store
      variable (matmul, conv2d), or when some load indexes with an
      expression of a reduce variable (pooling);
    - `comm_reduce` otherwise (`sum`, `max`);
    and `opaque` without reduce variables. A spatial block that writes a
    function argument after a `comm_reduce` block makes the function
    `out_ewise_fusable` (softmax-like: reduce, then elementwise output).

    Any other memory access (an op with memory effects other than
    `memref.load`/`memref.store`, or a store outside every block) makes the
    function `opaque`. `tuple` is never derived (it is TVM's kind of tuple
    expressions). A prim_func without blocks is `elemwise`, as in TVM.
  }];
}

//===----------------------------------------------------------------------===//
// Scheduling passes: the common tensorir.Schedule primitives applied to
// every block (or the named ones), for pipelines without a transform script.
//===----------------------------------------------------------------------===//

def TensorIRCompactBufferAllocation
    : Pass<"tensorir-compact-buffer-allocation",
           "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Shrink shared/local buffers to what one thread block or "
                "thread uses (TVM's CompactBufferAllocation)";
  let description = [{
    TVM's `tir.transform.CompactBufferAllocation` for the buffers of a GPU
    schedule: `cache_read`/`cache_write` create a `shared` or `local` buffer
    as large as the region the whole loop nest reads or writes, and
    `compute_at` then fills it piece by piece. This pass gives each
    `tensorir.alloc_buffer` with storage scope `shared`, `shared.dyn` or
    `local` the shape of what one iteration of the innermost loop enclosing
    all its accesses (their lowest common ancestor) touches:

    - the region each block accesses is relaxed over the loops below that
      loop and, for `shared` buffers, over the `threadIdx` loops above it
      (the threads of a block share the buffer); it must be linear in them
      and of constant size;
    - every `memref.load`/`memref.store` of the buffer is rebased by the
      start of that region (an affine function of the loops above); the
      blocks that access it therefore become their bodies (TVM's
      `ConvertBlocksToOpaque`: iteration variables replaced by their
      bindings, the init under `scf.if`), as their indices now use the
      loops. This is a lowering step: run it after scheduling, right before
      `convert-tensorir-to-gpu`;
    - a cross-thread reduction (a reduce iteration variable fed by a
      `threadIdx` loop, which `convert-tensorir-to-gpu` lowers) stays a
      block: it indexes the compacted buffer through new spatial iteration
      variables bound to the rebased indices, so that its init, accumulator
      load and store still index it with distinct iteration variables (a
      row sum per thread block becomes `memref<1xf32>`).

    A `local` buffer is private to a thread, so `threadIdx` loops of one tag
    are one thread in every statement that accesses it (TVM's thread
    variables): with `thread-private-locals` (the default) they are not
    relaxed, and a local buffer that several thread-bound loop nests of a
    kernel share (a flash-attention kernel's running maximum and output
    accumulator) shrinks to what one thread touches. Without it (the host
    emulation of GPU schedules, which runs the threads one after another
    and so needs every thread's elements at once) such a buffer keeps what
    all threads of the block touch.

    As in TVM, the buffer is taken to hold nothing across iterations of the
    loops above the common ancestor (which is what compute_at builds). A
    buffer with a dynamic shape, one used by anything but loads and stores
    in blocks of its own scope, or one whose region is not affine is left as
    it is. `global` buffers are left alone.

    ```mlir
    %A_shared = tensorir.alloc_buffer {scope = "shared"} : memref<1024x1024xf32>
    // filled and read per 64x8 tile inside `tensorir.for %ko`: becomes
    %A_shared = tensorir.alloc_buffer {scope = "shared"} : memref<64x8xf32>
    ```
  }];
  let options = [
    Option<"threadPrivateLocals", "thread-private-locals", "bool",
           /*default=*/"true",
           "Shrink a local buffer to one thread's part also where several "
           "threadIdx loop nests access it (off for the host emulation, "
           "which runs the threads one after another)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def TensorIRTile : Pass<"tensorir-tile", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Tile the outer loops around tensorir.blocks (sch.tile)";
  let description = [{
    For each block (all blocks, or those named by `blocks`), tiles the
    outermost `sizes.size()` loops around it: each is split by `[?, size]`
    (with a `where` predicate when the size does not divide the extent) and
    the outer parts are moved above the inner ones, like
    `transform.tensorir.tile`. Example: `tensorir-tile{sizes=32,32}` turns
    `for i, j, k` of a matmul into `for i_0, j_0, i_1, j_1, k`.

    Unnamed blocks that do not fit (fewer loops, loops that are not
    perfectly nested, not constant) are left alone; for a named block that
    does not fit, the pass fails with the primitive's diagnostic.

    With `print-trace`, each of these passes prints what it applied to a
    prim_func as a transform script that `mlc-opt --transform-interpreter`
    replays on the original module (TVM's `sch.trace`).
  }];
  let options = [
    ListOption<"sizes", "sizes", "int64_t", "Tile sizes, outermost first">,
    ListOption<"blocks", "blocks", "std::string",
               "Names of the blocks to tile (default: every block)">,
    Option<"printTrace", "print-trace", "bool", /*default=*/"false",
           "Print the primitives applied to each prim_func as a transform "
           "script (Schedule::getTraceScript) on stdout">
  ];
}

def TensorIRParallelize
    : Pass<"tensorir-parallelize", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Mark the outermost loop around tensorir.blocks parallel";
  let description = [{
    For each block (all blocks, or those named by `blocks`), marks the
    outermost loop of its nest `parallel` (sch.parallel), when that loop only
    feeds spatial iteration variables and is serial. Unnamed blocks whose
    loop does not qualify are left alone; a named one fails with the
    primitive's diagnostic.
  }];
  let options = [
    ListOption<"blocks", "blocks", "std::string",
               "Names of the blocks (default: every block)">,
    Option<"printTrace", "print-trace", "bool", /*default=*/"false",
           "Print the primitives applied to each prim_func as a transform "
           "script (Schedule::getTraceScript) on stdout">
  ];
}

def TensorIRVectorize
    : Pass<"tensorir-vectorize", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Mark the innermost loop around tensorir.blocks vectorized";
  let description = [{
    For each block (all blocks, or those named by `blocks`), marks the
    innermost loop around it `vectorized` (sch.vectorize), when that loop
    only feeds spatial iteration variables and is serial. Unnamed blocks
    whose loop does not qualify are left alone; a named one fails with the
    primitive's diagnostic.
  }];
  let options = [
    ListOption<"blocks", "blocks", "std::string",
               "Names of the blocks (default: every block)">,
    Option<"printTrace", "print-trace", "bool", /*default=*/"false",
           "Print the primitives applied to each prim_func as a transform "
           "script (Schedule::getTraceScript) on stdout">
  ];
}

#endif // MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_TD
