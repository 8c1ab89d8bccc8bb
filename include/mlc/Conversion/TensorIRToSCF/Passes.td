//===- Passes.td - tensorir-to-scf conversion ---------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_TENSORIRTOSCF_PASSES_TD
#define MLC_CONVERSION_TENSORIRTOSCF_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTensorIRToSCF : Pass<"convert-tensorir-to-scf", "::mlir::ModuleOp"> {
  let summary = "lower tensorir prim_funcs to func/scf/memref loop nests";
  let description = [{
    Lowers every `tensorir.prim_func` of the module to upstream loop-level IR
    (what TVM's `LowerInitBlock`, `ConvertBlocksToOpaque`,
    `LowerOpaqueBlock` and `FlattenBuffer` do before codegen, minus the
    flattening, which the memref lowering does):

    - `tensorir.prim_func @f(...)` becomes `func.func @f(...)` with the same
      buffer and scalar arguments and no results (destination passing); the
      visibility and the `tensorir.name` argument attributes are kept (mlc-run
      binds arguments by that name); `tensorir.noalias` is dropped.
      `tensorir.return` becomes `func.return`.
    - `tensorir.alloc_buffer` becomes `memref.alloc` at the same place, plus a
      `memref.dealloc` at the end of its scope (before the `func.return`, or
      at the end of the block's body) unless `insert-deallocs=false`, which
      leaves freeing to the ownership-based buffer deallocation of the CPU
      pipeline (that pipeline does not accept existing deallocs).
    - `tensorir.for` `serial`/`unrolled`/`vectorized` becomes `scf.for`,
      `parallel` becomes a one-dimensional `scf.parallel`; a non-serial kind
      is kept as the discardable attribute `tensorir.loop_kind` for later
      passes. `vectorized` and `unrolled` loops also get an
      `llvm.loop_annotation` (`vectorize` enabled; full unroll for a constant
      trip count, else enabled), which `convert-scf-to-cf` moves to the
      loop's back edge, so that LLVM's loop vectorizer and unroller carry out
      a hand schedule's `sch.vectorize` / `sch.unroll`. `thread_binding`
      loops are an error (they need the GPU pipeline) unless
      `serialize-thread-bindings` is set: then they become serial loops, one
      thread (or block) after another. TensorIR's semantics do not depend on
      how loops run, so this executes a GPU schedule on the host, e.g. to check
      its numerics on a machine without a GPU (shared and local buffers become
      ordinary allocations; a cross-thread reduction a sequential one).
    - `tensorir.block` is replaced by its body with the iteration variables
      replaced by their bindings, inside an `scf.if` on the `where`
      predicate when there is one; `reads`/`writes`/annotations are dropped.
    - `tensorir.init` becomes an `scf.if` that runs its body when every
      reduce iteration variable equals 0, the start of its domain (TVM's
      `LowerInitBlock`).

    ```mlir
    tensorir.for %k = 0 to 128 {
      tensorir.block "Y"(%vi = spatial(128, %i), %vk = reduce(128, %k)) {
        tensorir.init { memref.store %zero, %Y[%vi] : memref<128xf32> }
        ...
      }
    }
    // becomes
    scf.for %k = %c0 to %c128 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first { memref.store %zero, %Y[%i] : memref<128xf32> }
      ...
    }
    ```
  }];
  let options = [
    Option<"insertDeallocs", "insert-deallocs", "bool", /*default=*/"true",
           "free alloc_buffer buffers with memref.dealloc at the end of their "
           "scope (false: leave it to buffer deallocation)">,
    Option<"serializeThreadBindings", "serialize-thread-bindings", "bool",
           /*default=*/"false",
           "lower blockIdx/threadIdx-bound loops as serial loops (run a GPU "
           "schedule on the host) instead of rejecting them">,
    Option<"fullUnroll", "full-unroll", "bool", /*default=*/"false",
           "fully unroll `unrolled` and `vectorized` loops with constant "
           "trip counts here instead of leaving it to LLVM's unroller "
           "through loop metadata, which may decline (on NVPTX a register "
           "tile indexed in a rolled loop is put in local memory, and "
           "vector lanes are consecutive accesses that LLVM's load/store "
           "vectorizer merges; before unrolling, a vectorized loop's "
           "accesses through a reshape's div and rem by the buffer's last "
           "dimension index the collapsed buffer, and x div C, x rem C with "
           "x = aligned base + lane and C a multiple of the lanes become "
           "base div C, base rem C + lane)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // MLC_CONVERSION_TENSORIRTOSCF_PASSES_TD
