//===- ScheduleUtils.h - helpers of the schedule primitives -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_DIALECT_TENSORIR_TRANSFORMS_SCHEDULEUTILS_H
#define MLC_LIB_DIALECT_TENSORIR_TRANSFORMS_SCHEDULEUTILS_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include <string>

namespace mlc::tensorir::schedutil {

/// "loop 'i'" / "block 'Y'" for diagnostics.
std::string describe(ForOp loop);
std::string describe(BlockOp block);

/// The blocks under `op` that are not nested in another block under `op`.
llvm::SmallVector<BlockOp> getChildBlocks(mlir::Operation *op);

/// Whether `op` is an index computation that may be moved freely (no
/// regions, no memory effects).
bool isMovableExpr(mlir::Operation *op);

/// Fails with a diagnostic unless `loop` starts at 0 with step 1.
mlir::LogicalResult checkStartsAtZero(ForOp loop, llvm::StringRef primitive);

/// The constant extent of `loop`, which must start at 0 with step 1.
mlir::FailureOr<int64_t> getConstantExtent(ForOp loop,
                                           llvm::StringRef primitive);

/// Prints `schedule`'s trace script on stdout (whole, also when passes run
/// on several prim_funcs at once), unless nothing was applied.
void printTrace(const Schedule &schedule);

/// The blocks named in `names` (an error for a missing one), or every block
/// of `func` when `names` is empty.
mlir::LogicalResult selectBlocks(PrimFuncOp func,
                                 llvm::ArrayRef<std::string> names,
                                 llvm::SmallVectorImpl<BlockOp> &blocks);

/// Fails with a diagnostic if `loop` holds a statement outside a block, which
/// a predicate for a non-divisible split could not mask.
mlir::LogicalResult checkMaskable(ForOp loop, int64_t extent, int64_t product,
                                  llvm::StringRef primitive);

/// The declared access regions of `block`, or the inferred ones.
mlir::FailureOr<AccessRegions> getAccessRegions(BlockOp block);

/// `value` as an affine expression of `ivs` (as dimensions): constants,
/// `affine.apply` and `arith.addi`/`subi`/`muli` of them.
std::optional<mlir::AffineExpr> toAffine(mlir::Value value,
                                         llvm::ArrayRef<mlir::Value> ivs,
                                         mlir::MLIRContext *ctx);

/// What one iteration of a loop covers of a buffer dimension: the range
/// [lower, lower + extent), `lower` a function of the loops from the scope
/// down to that loop.
struct ProducedRange {
  mlir::AffineExpr lower;
  int64_t extent;
};

/// `region` (of a block `other`, over its iteration variables) as what one
/// iteration of its `numOuter`-th loop (counted from its scope) covers: a
/// constant-size range per buffer dimension starting at an affine function
/// of the first `numOuter` loops. Outer loops for which `relaxOuter` holds
/// are relaxed too (threads of one GPU thread block share a `shared` buffer,
/// so what one iteration covers of it covers all of them). Inner loops for
/// which `keepInner` holds are not relaxed: the range's start may then use
/// them too (dimensions past `numOuter`). Fails through `fail` when a range
/// is not linear or has no constant size.
mlir::FailureOr<llvm::SmallVector<ProducedRange>>
relaxRegion(BlockOp other, BufferRegionAttr region, unsigned numOuter,
            llvm::function_ref<mlir::InFlightDiagnostic()> fail,
            llvm::function_ref<bool(ForOp)> relaxOuter = nullptr,
            llvm::function_ref<bool(ForOp)> keepInner = nullptr);

/// The scope-level op holding `op` (itself, or its outermost loop).
mlir::Operation *getTopInScope(mlir::Operation *op);

/// Checks that the loops around `block` (up to `top`) run it over its whole
/// domain: each binding is the induction variable of its own loop from 0 to
/// the extent. Moving or inlining a block that runs over part of its domain
/// would change what it computes.
mlir::LogicalResult
checkCoversDomain(BlockOp block, mlir::Operation *top,
                  llvm::function_ref<mlir::InFlightDiagnostic()> error);

/// Checks that `block` is alone in its loop nest with no other statement
/// (index computations aside) and has no predicate, nor an init unless
/// `allowInit`.
mlir::LogicalResult
checkAloneInNest(BlockOp block,
                 llvm::function_ref<mlir::InFlightDiagnostic()> error,
                 bool allowInit = false);

/// `base`, or `base_<n>` if a block of `block`'s prim_func has that name
/// (block names are unique in a prim_func).
std::string getUniqueBlockName(BlockOp block, const std::string &base);

/// Finishes a copy block that a primitive built: its iteration variables
/// named v0, v1, ... and its read/write regions computed.
void finishCopyBlock(mlir::RewriterBase &rewriter, BlockOp block);

/// Builds, at the insertion point, a loop nest over `shape` (loops ax0,
/// ax1, ...) with one block `name` of spatial iteration variables, one per
/// loop, whose body `body` builds; finished as by finishCopyBlock.
BlockOp
createSpatialNest(mlir::RewriterBase &rewriter, mlir::Location loc,
                  llvm::StringRef name, llvm::ArrayRef<int64_t> shape,
                  llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                          mlir::ValueRange)>
                      body);

/// One dimension of a row-major fusion of dimensions.
struct FusedDim {
  unsigned dim;
  int64_t stride;
};

/// The results of `map` (over one dimension per entry of `extents`) as
/// row-major fusions: each result a sum of distinct dimensions times
/// strides, the innermost stride 1 and each other the next one times the
/// next extent, every dimension in exactly one result. Returns the
/// dimensions of each result, outermost first; fails through `error`.
mlir::FailureOr<llvm::SmallVector<llvm::SmallVector<FusedDim>>>
matchFusion(mlir::AffineMap map, llvm::ArrayRef<int64_t> extents,
            llvm::function_ref<mlir::InFlightDiagnostic()> error);

/// Dimension `dims[position]` of the fusion `dims` recovered from the fused
/// value `fused`: (fused floordiv stride) mod extent (no mod for the
/// outermost).
mlir::AffineExpr getUnfusedExpr(mlir::AffineExpr fused,
                                llvm::ArrayRef<FusedDim> dims,
                                unsigned position,
                                llvm::ArrayRef<int64_t> extents);

/// Whether `indices` (affine in dimensions of `extents`) index a buffer of
/// `shape` so that each element is the image of exactly one point of the
/// domain: every index a digit (d, d mod b, d floordiv a, (d floordiv a)
/// mod b) of one dimension, the digits of each dimension its complete
/// mixed-radix decomposition (the inverse of a fusion).
bool isDigitDecomposition(llvm::ArrayRef<mlir::AffineExpr> indices,
                          llvm::ArrayRef<int64_t> extents,
                          llvm::ArrayRef<int64_t> shape);

} // namespace mlc::tensorir::schedutil

#endif // MLC_LIB_DIALECT_TENSORIR_TRANSFORMS_SCHEDULEUTILS_H
