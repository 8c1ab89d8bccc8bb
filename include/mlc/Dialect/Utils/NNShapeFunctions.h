//===- NNShapeFunctions.h - result shapes of nn operators -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's type relations for neural-network operators (conv, pool, dense,
// matmul, norms, pad, flatten) as plain functions on shapes, shared by the
// relay and relax dialects.
//
// Conventions:
//  - Dimensions are int64_t with mlir::ShapedType::kDynamic for unknown sizes.
//    A check that needs an unknown size is skipped (as Relay does for `Any`);
//    an output size that depends on an unknown size is unknown.
//  - Failures are reported through an `EmitErrorFn` callback (the
//    `ShapeErrorFn` of ShapeFunctions.h; it may be null) with a message
//    that names the operand or attribute, the expected and the actual value
//    (e.g. "weight has 4 input channels per group but data has 3 channels with
//    groups=1"), and the function returns failure(). Callers prefix the
//    message with the op name (`'relay.nn.conv2d' op ...`).
//  - Layout strings follow TVM: a 2-D data layout is a permutation of "NCHW"
//    (e.g. "NCHW", "NHWC"), a kernel layout a permutation of "OIHW" (e.g.
//    "OIHW", "HWIO", "HWOI"). Blocked layouts such as "NCHW4c" are rejected
//    with an error.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_NNSHAPEFUNCTIONS_H
#define MLC_DIALECT_UTILS_NNSHAPEFUNCTIONS_H

#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <optional>

namespace mlc {
namespace nn {

/// Receives the message of a shape-function failure; may be null.
using EmitErrorFn = ShapeErrorFn;

/// Shapes are small vectors of dims (ShapedType::kDynamic for unknown).
using Shape = llvm::SmallVector<int64_t, 4>;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Normalizes `axis` (negative counts from the back) into [0, rank).
/// `what` names the attribute in messages (e.g. "axis").
mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                       llvm::StringRef what,
                                       EmitErrorFn emitError);

/// Returns, for each letter of `primal` (e.g. "NCHW"), its position in
/// `layout`, if `layout` is a permutation of `primal`. `what` names the
/// attribute in messages (e.g. "data_layout").
mlir::FailureOr<llvm::SmallVector<int64_t, 4>>
getLayoutPermutation(llvm::StringRef layout, llvm::StringRef primal,
                     llvm::StringRef what, EmitErrorFn emitError);

/// TVM's get_pad_tuple2d: 1 value pads all sides, 2 values are
/// (top/bottom, left/right), 4 values are (top, left, bottom, right).
/// Returns {top, left, bottom, right}. Negative padding is an error.
mlir::FailureOr<std::array<int64_t, 4>>
getPadTuple2D(llvm::ArrayRef<int64_t> padding, EmitErrorFn emitError);

/// Checks that `values` (attribute `what`) has `size` entries, each >= `min`.
mlir::LogicalResult checkIntList(llvm::ArrayRef<int64_t> values, size_t size,
                                 int64_t min, llvm::StringRef what,
                                 EmitErrorFn emitError);

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

struct Conv2DAttrs {
  llvm::ArrayRef<int64_t> strides;  // 2 values
  llvm::ArrayRef<int64_t> padding;  // 1, 2 or 4 values
  llvm::ArrayRef<int64_t> dilation; // 2 values
  int64_t groups = 1;
  std::optional<int64_t> channels;
  std::optional<llvm::ArrayRef<int64_t>> kernelSize; // 2 values if present
  llvm::StringRef dataLayout = "NCHW";
  llvm::StringRef kernelLayout = "OIHW";
  llvm::StringRef outLayout = ""; // "" means dataLayout
};

/// Relay's Conv2DRel: shape of nn.conv2d(data, weight). Checks the channel /
/// group consistency, and kernel_size / channels against the weight.
mlir::FailureOr<Shape> inferConv2DShape(llvm::ArrayRef<int64_t> data,
                                        llvm::ArrayRef<int64_t> weight,
                                        const Conv2DAttrs &attrs,
                                        EmitErrorFn emitError);

struct Conv2DTransposeAttrs {
  llvm::ArrayRef<int64_t> strides;       // 2 values
  llvm::ArrayRef<int64_t> padding;       // 1, 2 or 4 values
  llvm::ArrayRef<int64_t> dilation;      // 2 values
  llvm::ArrayRef<int64_t> outputPadding; // 2 values
  int64_t groups = 1;
  std::optional<int64_t> channels;
  std::optional<llvm::ArrayRef<int64_t>> kernelSize; // 2 values if present
  llvm::StringRef dataLayout = "NCHW";
  llvm::StringRef kernelLayout = "IOHW";
  llvm::StringRef outLayout = ""; // "" means dataLayout
};

/// Relay's Conv2DTransposeRel: data [N, C, H, W] and weight [C, O / groups,
/// KH, KW] (IOHW) give [N, O, OH, OW] with
///   OH = strides[0] * (H - 1) + (KH - 1) * dilation[0] + 1
///        - pad_top - pad_bottom + output_padding[0].
/// O is `channels` if given, else weight's O * groups.
mlir::FailureOr<Shape> inferConv2DTransposeShape(
    llvm::ArrayRef<int64_t> data, llvm::ArrayRef<int64_t> weight,
    const Conv2DTransposeAttrs &attrs, EmitErrorFn emitError);

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

struct Pool2DAttrs {
  llvm::ArrayRef<int64_t> poolSize; // 2 values
  llvm::ArrayRef<int64_t> strides;  // 2 values
  llvm::ArrayRef<int64_t> dilation; // 2 values
  llvm::ArrayRef<int64_t> padding;  // 1, 2 or 4 values
  llvm::StringRef layout = "NCHW";
  llvm::StringRef outLayout = ""; // "" means layout
  bool ceilMode = false;
};

/// Relay's Pool2DRel (max_pool2d, avg_pool2d):
///   out = (in + pad - ((pool - 1) * dilation + 1) [+ stride - 1]) / stride + 1
/// where the bracketed term is added in ceil_mode.
mlir::FailureOr<Shape> inferPool2DShape(llvm::ArrayRef<int64_t> data,
                                        const Pool2DAttrs &attrs,
                                        EmitErrorFn emitError);

/// Relay's GlobalPool2DRel: H and W of `layout` become 1.
mlir::FailureOr<Shape> inferGlobalPool2DShape(llvm::ArrayRef<int64_t> data,
                                              llvm::StringRef layout,
                                              llvm::StringRef outLayout,
                                              EmitErrorFn emitError);

/// Relay's AdaptivePool2DRel: H and W become output_size (empty: unchanged;
/// one value: both; two values: (H, W)).
mlir::FailureOr<Shape> inferAdaptivePool2DShape(
    llvm::ArrayRef<int64_t> data, llvm::ArrayRef<int64_t> outputSize,
    llvm::StringRef layout, llvm::StringRef outLayout, EmitErrorFn emitError);

/// Relay's UpSamplingRel: H and W of `layout` become round(H * scaleH) and
/// round(W * scaleW).
mlir::FailureOr<Shape> inferUpSamplingShape(llvm::ArrayRef<int64_t> data,
                                            double scaleH, double scaleW,
                                            llvm::StringRef layout,
                                            EmitErrorFn emitError);

//===----------------------------------------------------------------------===//
// Dense / matmul
//===----------------------------------------------------------------------===//

/// Relay's MatmulRel with transpose_a=false, transpose_b=true (nn.dense):
/// data [..., K] x weight [units, K] -> [..., units].
mlir::FailureOr<Shape> inferDenseShape(llvm::ArrayRef<int64_t> data,
                                       llvm::ArrayRef<int64_t> weight,
                                       std::optional<int64_t> units,
                                       EmitErrorFn emitError);

/// Relay's MatmulRel (nn.matmul): a [..., M, K] (or [..., K, M] with
/// transposeA) x b [K, N] (or [N, K] with transposeB) -> [..., M, N].
mlir::FailureOr<Shape> inferMatmulShape(llvm::ArrayRef<int64_t> a,
                                        llvm::ArrayRef<int64_t> b,
                                        std::optional<int64_t> units,
                                        bool transposeA, bool transposeB,
                                        EmitErrorFn emitError);

/// Relay's BatchMatmulRel: x [B, M, K] (or [B, K, M] with transposeA),
/// y [B, K, N] (or [B, N, K] with transposeB) -> [B, M, N]; a batch of 1 on
/// one side broadcasts.
mlir::FailureOr<Shape> inferBatchMatmulShape(llvm::ArrayRef<int64_t> x,
                                             llvm::ArrayRef<int64_t> y,
                                             bool transposeA, bool transposeB,
                                             EmitErrorFn emitError);

//===----------------------------------------------------------------------===//
// Normalization, bias, pad, flatten
//===----------------------------------------------------------------------===//

/// Checks a per-channel 1-D operand (`what`, e.g. "bias" or "gamma") of shape
/// `param` against dimension `axis` (already normalized) of `data`.
mlir::LogicalResult checkChannelVector(llvm::ArrayRef<int64_t> data,
                                       int64_t axis,
                                       llvm::ArrayRef<int64_t> param,
                                       llvm::StringRef what,
                                       EmitErrorFn emitError);

/// Relay's PadRel: `padWidth` holds (before, after) pairs flattened
/// row-major, two per dimension. Negative widths crop; the result must not be
/// negative.
mlir::FailureOr<Shape> inferPadShape(llvm::ArrayRef<int64_t> data,
                                     llvm::ArrayRef<int64_t> padWidth,
                                     EmitErrorFn emitError);

/// Relay's BatchFlattenRel: [N, d1, d2, ...] -> [N, d1 * d2 * ...].
mlir::FailureOr<Shape> inferBatchFlattenShape(llvm::ArrayRef<int64_t> data,
                                              EmitErrorFn emitError);

} // namespace nn
} // namespace mlc

#endif // MLC_DIALECT_UTILS_NNSHAPEFUNCTIONS_H
