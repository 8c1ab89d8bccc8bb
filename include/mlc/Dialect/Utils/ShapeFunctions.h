//===- ShapeFunctions.h - shapes of tensor operators ------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's type relations for elementwise, broadcast, reduction and
// tensor-manipulation operators as plain functions on shapes, shared by the
// relay and relax dialects. Dimensions are int64_t with
// mlir::ShapedType::kDynamic for unknown sizes (Relay's `Any`).
//
// Every function returns failure on invalid input and, if `emitError` is
// non-null, first calls it once with a message that describes the problem in
// terms of shapes and attribute values (e.g. "axis 3 is out of range for rank
// 2"). Callers add the op name and the operand types.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_SHAPEFUNCTIONS_H
#define MLC_DIALECT_UTILS_SHAPEFUNCTIONS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace mlc {

/// Receives the description of a shape error.
using ShapeErrorFn = llvm::function_ref<void(const llvm::Twine &)>;

/// Returns `shape` as "[2, ?, 3]".
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Returns integer attribute values as "[1, -1, 2]" (no `?` handling).
std::string formatIntList(llvm::ArrayRef<int64_t> values);

/// Normalizes a possibly negative `axis` into [0, rank) (or [0, rank] when
/// `allowEnd`, as for expand_dims). On error the message is "axis A is out of
/// range for rank R".
mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                       ShapeErrorFn emitError,
                                       bool allowEnd = false);

/// Numpy broadcasting of two shapes (Relay's BroadcastRel): shapes are
/// right-aligned, a 1 stretches to the other size, an unknown size against a
/// known size > 1 gives the known size, against 1 or unknown gives unknown.
/// On error the message is "dimension D: A vs B" (D indexes the result).
mlir::LogicalResult broadcastShapes(llvm::ArrayRef<int64_t> lhs,
                                    llvm::ArrayRef<int64_t> rhs,
                                    llvm::SmallVectorImpl<int64_t> &result,
                                    ShapeErrorFn emitError);

/// Relay's reshape (InferNewShape + the ReshapeRel size check). `newshape`
/// may contain the special values 0 (copy the input dimension), -1 (infer
/// from the rest), -2 (copy all remaining input dimensions), -3 (merge two
/// input dimensions) and -4 (split an input dimension into the next two
/// values, one of which may be -1). With `allowZero` a 0 is a literal size.
mlir::LogicalResult inferReshapeShape(llvm::ArrayRef<int64_t> input,
                                      llvm::ArrayRef<int64_t> newshape,
                                      llvm::SmallVectorImpl<int64_t> &result,
                                      ShapeErrorFn emitError,
                                      bool allowZero = false);

/// Normalizes transpose `axes` (absent: reverse) into a permutation.
mlir::LogicalResult inferTransposePermutation(
    int64_t rank, std::optional<llvm::ArrayRef<int64_t>> axes,
    llvm::SmallVectorImpl<int64_t> &perm, ShapeErrorFn emitError);

/// expand_dims: inserts `numNewAxis` size-1 dimensions at `axis`, which is
/// in [-rank-1, rank].
mlir::LogicalResult inferExpandDimsShape(llvm::ArrayRef<int64_t> input,
                                         int64_t axis, int64_t numNewAxis,
                                         llvm::SmallVectorImpl<int64_t> &result,
                                         ShapeErrorFn emitError);

/// squeeze: removes the listed axes (each must have size 1 or be unknown), or
/// every size-1 dimension when `axes` is absent (then no dimension may be
/// unknown).
mlir::LogicalResult inferSqueezeShape(
    llvm::ArrayRef<int64_t> input, std::optional<llvm::ArrayRef<int64_t>> axes,
    llvm::SmallVectorImpl<int64_t> &result, ShapeErrorFn emitError);

/// concatenate along `axis`: every input has the same rank and the same
/// sizes off the axis.
mlir::LogicalResult
inferConcatenateShape(llvm::ArrayRef<llvm::ArrayRef<int64_t>> inputs,
                      int64_t axis, llvm::SmallVectorImpl<int64_t> &result,
                      ShapeErrorFn emitError);

/// split into `sections` equal parts (the axis size must be divisible), or
/// at the ascending `indices`, along `axis`. Produces one shape per part.
mlir::LogicalResult
inferSplitShapes(llvm::ArrayRef<int64_t> input, int64_t sections, int64_t axis,
                 llvm::SmallVectorImpl<llvm::SmallVector<int64_t>> &results,
                 ShapeErrorFn emitError);
mlir::LogicalResult
inferSplitShapes(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> indices,
                 int64_t axis,
                 llvm::SmallVectorImpl<llvm::SmallVector<int64_t>> &results,
                 ShapeErrorFn emitError);

/// Relay's strided_slice (StridedSliceRel / topi StridedSliceOutputShape).
/// Without `axes`, begin/end/strides address the leading dimensions; the
/// others are taken whole with stride 1 (`strides` absent means [1]).
/// `sliceMode` is "end" or "size" (end holds sizes, -1 = to the end, strides
/// are ignored). Negative indices count from the end and indices are clamped to
/// the dimension.
mlir::LogicalResult inferStridedSliceShape(
    llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> begin,
    llvm::ArrayRef<int64_t> end, std::optional<llvm::ArrayRef<int64_t>> strides,
    std::optional<llvm::ArrayRef<int64_t>> axes, llvm::StringRef sliceMode,
    llvm::SmallVectorImpl<int64_t> &result, ShapeErrorFn emitError);

/// take (TakeRel): without `axis`, the result has the indices' shape (data is
/// flattened); otherwise data[:axis] + indices[batchDims:] + data[axis+1:].
mlir::LogicalResult
inferTakeShape(llvm::ArrayRef<int64_t> data, llvm::ArrayRef<int64_t> indices,
               std::optional<int64_t> axis, int64_t batchDims,
               llvm::SmallVectorImpl<int64_t> &result, ShapeErrorFn emitError);

/// broadcast_to: `input` must broadcast to exactly `shape`.
mlir::LogicalResult inferBroadcastToShape(
    llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> shape,
    llvm::SmallVectorImpl<int64_t> &result, ShapeErrorFn emitError);

/// The reduced axes of a reduction (TVM's GetReduceAxes), sorted: all axes
/// when `axes` is absent or empty, the listed axes, or with `exclude` the
/// complement of the listed axes.
mlir::LogicalResult inferReduceAxes(int64_t rank,
                                    std::optional<llvm::ArrayRef<int64_t>> axes,
                                    bool exclude,
                                    llvm::SmallVectorImpl<int64_t> &reduced,
                                    ShapeErrorFn emitError);

/// Result shape of a reduction (sum, mean, argmax, ...): the reduced axes are
/// removed, or kept as size 1 with `keepdims`.
mlir::LogicalResult
inferReduceShape(llvm::ArrayRef<int64_t> input,
                 std::optional<llvm::ArrayRef<int64_t>> axes, bool keepdims,
                 bool exclude, llvm::SmallVectorImpl<int64_t> &result,
                 ShapeErrorFn emitError);

} // namespace mlc

#endif // MLC_DIALECT_UTILS_SHAPEFUNCTIONS_H
