//===- Passes.td - relax-to-memref conversion ---------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_RELAXTOMEMREF_PASSES_TD
#define MLC_CONVERSION_RELAXTOMEMREF_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertRelaxToMemRef : Pass<"convert-relax-to-memref", "::mlir::ModuleOp"> {
  let summary = "lower legalized relax functions to memref-level host code";
  let description = [{
    Host lowering of Relax graph functions, what TVM's `CallTIRRewrite`,
    `ToNonDataflow` and `VMShapeLower` do, in one conversion. It runs after
    `relax-legalize-ops` (only host operations are left) and after
    `convert-tensorir-to-scf` (the kernels are memref-level `func.func`s).

    A relax function is a `func.func` that holds a relax operation or has a
    `#relax.shape` tensor in its signature; other tensor functions (linalg,
    ...) are left to bufferization, even when their parameters carry
    `relax.name`. In a relax function:

    - Tensor parameters and results become memrefs with the identity layout
      (`#relax.shape` encodings dropped, symbolic dims `?`); `relax.name`
      parameter attributes and the visibility stay. Symbolic dims of the
      parameters are bound to `memref.dim`s of the arguments (a name that
      appears twice, or an expression, is checked like a `match_cast`).
    - `relax.dataflow` is inlined: the values of its `relax.output` replace
      its results.
    - `relax.call_tir @f(args) tir_vars [...]` allocates every result with
      `memref.alloc` (alignment 64; dynamic sizes evaluated from the result's
      `#relax.shape` expressions) and becomes
      `func.call @f(args..., results..., tir_vars...)`; `tir_vars` are
      `index` values cast to the callee's scalar parameter types and operands
      are `memref.cast` to its buffer types. A callee that is still a
      `tensorir.prim_func` is an error (run `convert-tensorir-to-scf` first).
    - `relax.call_dps_packed "name"(args)` allocates its results the same way
      and calls a private external `func.func @name` with memref parameters
      and `llvm.emit_c_interface`, created on first use, so the
      implementation (TVM's registered packed function, e.g. `env.linear`) is
      linked in: a C function `_mlir_ciface_<name>` taking pointers to
      strided memref descriptors. A function of that name already in the
      module with the same type is called instead.
    - `relax.match_cast` becomes `memref.cast` plus one
      `cf.assert` per dimension that the target type fixes (a static size,
      or an expression over names already bound) whose message names the
      dimension and the expected value; a plain name seen for the first time
      is bound to the run-time size.
    - `relax.constant` becomes a private constant `memref.global` (one per
      distinct value, alignment 64) read by `memref.get_global`.
    - `relax.reshape` between static shapes (what
      `relax-rewrite-dataflow-reshape` leaves of a kernel that only
      reshapes) becomes a view of its input's buffer:
      `memref.collapse_shape` to one dimension, then `memref.expand_shape`
      to the result's shape; no copy.
    - `func.call` of another relax function gets the converted types.
    - Results are fresh buffers owned by the caller: a returned value that is
      not an allocation of this function (a parameter, a constant, or a
      buffer returned twice) is copied into a new `memref.alloc`, except a
      reshape view of an allocation that no other result uses: that
      allocation is made in the returned shape instead (its users get the
      view in the old shape), so the reshaped result is returned without a
      copy. The CPU
      pipeline's `buffer-results-to-out-params` then turns a returned
      allocation into a destination-passing out-parameter without a copy.
      No `memref.dealloc` is inserted: buffer deallocation does that.

    A size is computed from the names bound so far (parameters,
    `match_cast`s) or, failing that, from an operand of the same operation
    whose shape has the name as a dimension; an unbound name is an error
    naming it. Any other relax operation is an error naming it (run
    `relax-legalize-ops` first), as is a non-relax operation on tensors in a
    relax function.

    ```mlir
    %y = relax.call_tir @linear0(%x, %w, %b)
        : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>,
           tensor<128xf32>) -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    // becomes (with %x: memref<?x784xf32>)
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?x784xf32>
    %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x128xf32>
    call @linear0(%x, %w, %b, %y)
        : (memref<?x784xf32>, memref<128x784xf32>, memref<128xf32>,
           memref<?x128xf32>) -> ()
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // MLC_CONVERSION_RELAXTOMEMREF_PASSES_TD
