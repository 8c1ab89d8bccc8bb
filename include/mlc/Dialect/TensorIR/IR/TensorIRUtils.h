//===- TensorIRUtils.h - tensorir analyses ----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Small static analyses over tensorir used by the verifier, by
// tensorir-infer-access-regions and by schedule primitives: integer ranges of
// index values and the read/write regions of a block.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_TENSORIRUTILS_H
#define MLC_DIALECT_TENSORIR_IR_TENSORIRUTILS_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlc::tensorir {

/// A closed integer interval [min, max].
struct IndexRange {
  int64_t min;
  int64_t max;
};

/// The range an `index` value takes, when it is statically known: constants,
/// induction variables of `tensorir.for` loops with constant bounds,
/// iteration variables of `tensorir.block`s with constant extents, and
/// `affine.apply`/`arith.addi`/`subi`/`muli`/`index_cast` of those.
std::optional<IndexRange> getStaticIndexRange(mlir::Value value);

/// The range of `expr` given ranges of its dimensions and symbols (std::nullopt
/// for unknown ones).
std::optional<IndexRange>
getStaticExprRange(mlir::AffineExpr expr,
                   llvm::ArrayRef<std::optional<IndexRange>> dimRanges,
                   llvm::ArrayRef<std::optional<IndexRange>> symbolRanges = {});

/// The ranges of `block`'s iteration variables ([0, extent - 1] for a
/// constant extent, std::nullopt otherwise).
llvm::SmallVector<std::optional<IndexRange>> getIterVarRanges(BlockOp block);

/// The read and write regions of a block, as in its `reads`/`writes`.
struct AccessRegions {
  llvm::SmallVector<mlir::Value> readBuffers;
  llvm::SmallVector<mlir::Attribute> reads;
  llvm::SmallVector<mlir::Value> writeBuffers;
  llvm::SmallVector<mlir::Attribute> writes;
};

/// Computes the regions `block` reads and writes from the `memref.load` and
/// `memref.store` ops in its body (including `tensorir.init`, nested loops and
/// the declared regions of nested blocks), following TVM's
/// GetBlockReadWriteRegion:
///   - an index that is affine in the iteration variables gives a point;
///     induction variables of loops inside the block (constant bounds) are
///     relaxed to their range;
///   - accesses of one buffer are merged into their bounding box (per
///     dimension, when the bounds differ by a constant; else the whole
///     dimension);
///   - an index that cannot be expressed covers the whole dimension; any
///     other use of the buffer covers the whole buffer, read and/or written
///     as the op's MemoryEffectOpInterface says (both if it has none);
///   - buffers allocated inside the block are not listed;
///   - when the block has a `tensorir.init`, written buffers are not listed
///     as read (the accumulator of a reduction).
/// Fails, with a diagnostic at the block, if a whole-dimension region is
/// needed for a dimension of dynamic size.
mlir::FailureOr<AccessRegions> inferAccessRegions(BlockOp block);

/// A printable name of a buffer: its alloc_buffer name or its argument name
/// (`tensorir.name`), else "buffer".
std::string getBufferName(mlir::Value buffer);

/// Recomputes the declared reads/writes of `block` from its body when it
/// declares them (or always, with `force`).
void refreshAccessRegions(mlir::RewriterBase &rewriter, BlockOp block,
                          bool force = false);

/// Appends a spatial iteration variable of `extent` bound to `binding`
/// (defined outside `block`) to `block` and returns it.
mlir::BlockArgument addSpatialIterVar(mlir::RewriterBase &rewriter,
                                      BlockOp block, mlir::Value binding,
                                      int64_t extent, llvm::StringRef name);

/// A reduction block in TVM's canonical form: its init stores the
/// combiner's identity to `Y[s]`, and its body ends with its only store
/// `Y[s] = combine(Y[s], v)`, `s` distinct spatial iteration variables.
struct ReductionBlock {
  mlir::memref::StoreOp initStore;
  mlir::Attribute identity;
  mlir::memref::StoreOp store;
  mlir::memref::LoadOp accLoad;
  /// The combiner (arith add/mul/max/min/and/or/xor) and which of its
  /// operands is the accumulator.
  mlir::Operation *combiner;
  int accOperand;
  /// The iteration variables indexing `Y`, in order.
  llvm::SmallVector<unsigned> storeIterVars;
};

/// One of the six hardware indices a thread-binding tag names: 0-2
/// blockIdx.{x,y,z}, 3-5 threadIdx.{x,y,z}; -1 for other tags (vthread).
int getHardwareIndex(llvm::StringRef tag);

/// Whether `value` is one of `ivs` or is computed from one of them (also
/// through values used inside the regions of the ops computing it).
bool dependsOn(mlir::Value value, llvm::ArrayRef<mlir::Value> ivs);

/// Clones the computation of `value` (the ops inside `scope` it depends on)
/// before the insertion point of `b`, mapping through `map` (which may
/// replace values, e.g. loop variables, by others). Values defined outside
/// `scope` are used as they are.
mlir::Value cloneValue(mlir::Value value, mlir::IRMapping &map,
                       mlir::OpBuilder &b, mlir::Operation *scope);

/// Whether `value` is the identity of the combiner `op` (an arith op).
bool isIdentityOf(mlir::Operation *op, mlir::Attribute value);

/// Matches `block` as a reduction; std::nullopt with the reason in `*why`
/// (e.g. "the init of block 'S' is not one store of a constant") if not.
std::optional<ReductionBlock> matchReductionBlock(BlockOp block,
                                                  std::string *why);

/// Replaces `block` by its body (TVM's ConvertBlocksToOpaque): iteration
/// variables become their bindings, the `tensorir.init` runs under `scf.if`
/// on "every reduce iteration variable is 0", and the whole body under
/// `scf.if` on the predicate, if any. `zero`, if given, is the index 0 to
/// compare with (else one is created).
void inlineBlock(mlir::RewriterBase &rewriter, BlockOp block,
                 mlir::Value zero = nullptr);

/// The affine expression of the `affine.apply` `apply` (one result), its
/// operands expressed by `express`; std::nullopt if one of them is not.
std::optional<mlir::AffineExpr> expressAffineApply(
    mlir::Operation *apply,
    llvm::function_ref<std::optional<mlir::AffineExpr>(mlir::Value)> express);

/// The affine expression of the binary index op `op` whose operands are
/// already expressed as `lhs` and `rhs`: arith addi, subi, muli (one side
/// constant), and divui, floordivsi, remui by a positive constant (for the
/// non-negative values of loop and iteration variables); std::nullopt for
/// any other op or operands.
std::optional<mlir::AffineExpr>
combineIndexOp(mlir::Operation *op, mlir::AffineExpr lhs, mlir::AffineExpr rhs);

/// Whether `func` only reshapes (TVM's tir::HasReshapePattern): its two
/// parameters are an input and an output of static shapes, identity layouts,
/// the same element type and element count, and its body is one loop nest
/// over the whole output whose single spatial block stores
/// `in[e(v)]` to `out[v]`, where the row-major offset of `e(v)` in the input
/// equals that of `v` in the output (checked exactly on the index
/// arithmetic: add, sub, mul, and div and rem by positive constants). Such
/// a kernel copies the input's bytes unchanged: a view could replace it.
bool hasReshapePattern(PrimFuncOp func);

} // namespace mlc::tensorir

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIRUTILS_H
