//===- ScheduleUtils.h - helpers of the default CPU schedule ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// What the kernel classes of the default CPU schedule (KernelSchedules.h)
// and the pass that drives them (DefaultSchedule.cpp) share: the markers that
// tiling leaves for the later steps, and tiling and indexing-map helpers.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CPU_SCHEDULEUTILS_H
#define MLC_LIB_CODEGEN_CPU_SCHEDULEUTILS_H

#include "mlc/Support/ElementCount.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlc::cpu {

/// Marks the register-level ops to vectorize and the tile loops to peel.
inline constexpr llvm::StringLiteral kVectorizeMarker = "mlc.vectorize";
inline constexpr llvm::StringLiteral kPeelMarker = "mlc.peel";
/// Marks the k loop around a contraction's register tile.
inline constexpr llvm::StringLiteral kRegisterLoopMarker = "mlc.register_k";
/// Marks an elementwise tile whose loops of extent one are dropped before
/// vectorization (flattenUnitLoops): a fused epilogue on a convolution's
/// register tile, which flattenConvTile flattens alike.
inline constexpr llvm::StringLiteral kFlattenMarker = "mlc.flatten";
/// Marks an op that the schedule runs on one thread: a padded window
/// reduction's border part (mlc-cpu-split-padded-windows), a row or column
/// of the output, less work than a fork and join of the threads costs.
inline constexpr llvm::StringLiteral kSingleThreadMarker = "mlc.single_thread";
/// Whether `op` already runs in a parallel task (an scf.forall: a channel
/// task of mlc-cpu-split-padded-windows), whose thread it then runs on.
inline bool isInParallelTask(mlir::Operation *op) {
  return op->getParentOfType<mlir::scf::ForallOp>() != nullptr;
}
/// Marks a register loop whose reduction is split across vector lanes.
inline constexpr llvm::StringLiteral kLaneLoopMarker = "mlc.lanes";

/// The cache line of the x86 and Arm cores the schedule targets.
inline constexpr int64_t kCacheLineBytes = 64;
/// Elementwise ops smaller than this run on one thread (a fork costs more).
inline constexpr int64_t kMinParallelElements = 1 << 15;

/// Tiles `op` with `sizes` (0: not tiled) and erases it; returns the tiled
/// op, or null when tiling failed (then `op` is left alone). `innermost`,
/// if given, is set to the innermost tile loop (null when none was made).
mlir::linalg::LinalgOp tile(mlir::RewriterBase &rewriter,
                            mlir::linalg::LinalgOp op,
                            llvm::ArrayRef<int64_t> sizes, bool forall = false,
                            mlir::Operation **innermost = nullptr);

/// Clamps a tile size to the extent (a tile covering the whole dimension is
/// no tile).
int64_t clampTile(int64_t size, int64_t extent);

/// The buffer that `value` is a view of (upstream's skipViewLikeOps on
/// memrefs; other values are their own).
mlir::Value rootBuffer(mlir::Value value);

/// Whether the readers of `view` take another layout of it: subviews whose
/// readers do, and ops that read any strided memref (linalg ops,
/// prefetches).
bool canRetype(mlir::Value view);

/// Replaces `subview` by the same subview of `source`, whose layout may
/// differ: the subviews that read it are rebuilt alike, the other readers
/// (canRetype) take the new view as it is.
void retypeSubview(mlir::RewriterBase &rewriter,
                   mlir::memref::SubViewOp subview, mlir::Value source);

/// Coefficients of `expr`'s dimensions when it is a sum of dimensions with
/// constant factors (no constant term); nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>> linearForm(mlir::AffineExpr expr,
                                                     unsigned numDims);

/// The dimension of `map`'s innermost result, the contiguous one of a
/// row-major buffer; nullopt for a scalar or a constant index.
std::optional<unsigned> innermostDim(mlir::AffineMap map);

/// Whether every indexing map of `op` is a projected permutation (constant
/// zero results allowed), the only maps the vectorizer takes.
bool hasProjectedPermutationMaps(mlir::linalg::LinalgOp op);

/// A register tile the vectorizer takes: loop dimensions of static extent 1
/// become 0 in the indexing maps that are not projected permutations (a
/// fused reshape reads through (d0 * 32 + d1, d2), which is (0, d2) in a
/// 1 x 1 x 16 tile), and operands indexed at a constant are replaced by
/// rank-reduced views without those dimensions (the vectorizer rejects
/// constant results on buffers). Returns the op that replaces `op` (or `op`).
mlir::linalg::GenericOp dropConstantIndices(mlir::RewriterBase &rewriter,
                                            mlir::linalg::GenericOp op);

/// An elementwise generic (static, projected permutation maps, no
/// linalg.index) without its loops of extent one: on rank-reduced views of
/// its operands that drop the dimensions those loops (or constants) index,
/// at offset 0 (or the constant), like the views of flattenConvTile.
/// Returns the op that replaces `op` (or `op`).
mlir::linalg::GenericOp flattenUnitLoops(mlir::RewriterBase &rewriter,
                                         mlir::linalg::GenericOp op);

/// The row-major bytes (`size` of them) of a constant global's initial
/// value (dense or dense_resource); nullopt for a splat, which every order
/// stores alike; failure for what has no such bytes.
mlir::FailureOr<std::optional<llvm::ArrayRef<char>>>
getConstantBytes(mlir::Attribute value, int64_t size);

} // namespace mlc::cpu

#endif // MLC_LIB_CODEGEN_CPU_SCHEDULEUTILS_H
