//===- RelayToRelax.cpp - relay-to-relax ------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Turns relay functions into relax functions: parameter names, op-by-op
// rewrites, and one dataflow block around the body.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/RelayToRelax/Passes.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Utils/Dataflow.h"
#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"
#include "mlc/Dialect/Utils/NNShapeFunctions.h"
#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlc {
#define GEN_PASS_DEF_RELAYTORELAX
#include "mlc/Conversion/RelayToRelax/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;

static constexpr llvm::StringLiteral kRelayNameAttr = "relay.name";

namespace {

/// Builds the relax ops of one rewrite whose result types are inferred. The
/// ODS builders abort when inference fails (e.g. on a zero-size axis that
/// the relay op allowed); here a failure erases what the rewrite created so
/// far, so that the pattern fails with the IR unchanged and an error at the
/// op.
class InferredOps {
public:
  explicit InferredOps(PatternRewriter &rewriter) : rewriter(rewriter) {}

  template <typename OpTy, typename... Args>
  FailureOr<Value> create(Location loc, Args &&...args) {
    FailureOr<OpTy> op =
        createInferred<OpTy>(rewriter, loc, std::forward<Args>(args)...);
    if (failed(op)) {
      for (Operation *created : llvm::reverse(ops))
        rewriter.eraseOp(created);
      ops.clear();
      return failure();
    }
    ops.push_back(*op);
    return op->getOperation()->getResult(0);
  }

private:
  PatternRewriter &rewriter;
  SmallVector<Operation *> ops;
};

struct ConvertConstant : OpRewritePattern<relay::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> constant = InferredOps(rewriter).create<relax::ConstantOp>(
        op.getLoc(), op.getValueAttr());
    if (failed(constant))
      return failure();
    rewriter.replaceOp(op, *constant);
    return success();
  }
};

struct ConvertAdd : OpRewritePattern<relay::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::AddOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::AddOp>(op, op.getType(), op.getLhs(),
                                              op.getRhs());
    return success();
  }
};

/// Elementwise binary relay ops map 1:1 onto the relax op of the same name.
template <typename RelayOp, typename RelaxOp>
struct ConvertBinary : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<RelaxOp>(op, op.getType(), op.getLhs(),
                                         op.getRhs());
    return success();
  }
};

template <typename RelayOp, typename RelaxOp>
struct ConvertUnary : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<RelaxOp>(op, op.getType(), op.getData());
    return success();
  }
};

/// nn.softmax / nn.log_softmax keep their axis.
template <typename RelayOp, typename RelaxOp>
struct ConvertSoftmax : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<RelaxOp>(op, op.getType(), op.getData(),
                                         op.getAxisAttr());
    return success();
  }
};

/// reshape: the relay result type is the (static) target shape, so Relay's
/// special values (0, -1, -2, ...) are already resolved.
struct ConvertCast : OpRewritePattern<relay::CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::CastOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::AstypeOp>(op, op.getType(), op.getData(),
                                                 op.getDtypeAttr());
    return success();
  }
};

struct ConvertClip : OpRewritePattern<relay::ClipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::ClipOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::ClipOp>(
        op, op.getType(), op.getData(), op.getAMinAttr(), op.getAMaxAttr());
    return success();
  }
};

struct ConvertWhere : OpRewritePattern<relay::WhereOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::WhereOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::WhereOp>(
        op, op.getType(), op.getCondition(), op.getX(), op.getY());
    return success();
  }
};

/// relay.reshape and relay.nn.batch_flatten (TVM Relax has no batch_flatten)
/// become relax.reshape to their static result shape.
template <typename RelayOp>
struct ConvertToStaticReshape : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic result shape");
    rewriter.replaceOpWithNewOp<relax::ReshapeOp>(
        op, type, op.getData(), rewriter.getDenseI64ArrayAttr(type.getShape()));
    return success();
  }
};

struct ConvertTranspose : OpRewritePattern<relay::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::PermuteDimsOp>(
        op, op.getType(), op.getData(), op.getAxesAttr());
    return success();
  }
};

/// `value` with its last two dimensions swapped (a 2-D value is reversed,
/// as TVM's translator emits `permute_dims(w)` without axes).
static FailureOr<Value> transposeLastTwo(InferredOps &ops, Location loc,
                                         Value value) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  DenseI64ArrayAttr axes;
  if (rank != 2) {
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[rank - 2], perm[rank - 1]);
    axes = DenseI64ArrayAttr::get(value.getContext(), perm);
  }
  return ops.create<relax::PermuteDimsOp>(loc, value, axes);
}

/// relax.matmul(a, b) replacing `op`, with out_dtype when the result element
/// type is not the operands' common one.
static void replaceWithMatmul(PatternRewriter &rewriter, Operation *op, Value a,
                              Value b) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type lhs = cast<RankedTensorType>(a.getType()).getElementType();
  Type rhs = cast<RankedTensorType>(b.getType()).getElementType();
  TypeAttr outDtype;
  if (lhs != rhs || lhs != resultType.getElementType())
    outDtype = TypeAttr::get(resultType.getElementType());
  rewriter.replaceOpWithNewOp<relax::MatmulOp>(op, resultType, a, b, outDtype);
}

/// nn.matmul and nn.batch_matmul: transposed operands get a permute_dims of
/// their last two dimensions, then numpy matmul.
template <typename RelayOp>
struct ConvertMatmulLike : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    Value a = op->getOperand(0), b = op->getOperand(1);
    for (Value v : {a, b})
      if (cast<RankedTensorType>(v.getType()).getRank() < 2)
        return rewriter.notifyMatchFailure(op, "operand of rank < 2");
    InferredOps ops(rewriter);
    for (auto [value, transpose] :
         {std::pair<Value *, bool>(&a, op.getTransposeA()),
          std::pair<Value *, bool>(&b, op.getTransposeB())}) {
      if (!transpose)
        continue;
      FailureOr<Value> transposed = transposeLastTwo(ops, op.getLoc(), *value);
      if (failed(transposed))
        return failure();
      *value = *transposed;
    }
    replaceWithMatmul(rewriter, op, a, b);
    return success();
  }
};

/// nn.dense(x, w) is matmul(x, permute_dims(w)), as in TVM's Relay->Relax
/// translator.
struct ConvertDense : OpRewritePattern<relay::DenseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::DenseOp op,
                                PatternRewriter &rewriter) const override {
    if (cast<RankedTensorType>(op.getWeight().getType()).getRank() != 2)
      return rewriter.notifyMatchFailure(op, "weight is not 2-D");
    InferredOps ops(rewriter);
    FailureOr<Value> wT = transposeLastTwo(ops, op.getLoc(), op.getWeight());
    if (failed(wT))
      return failure();
    replaceWithMatmul(rewriter, op, op.getData(), *wT);
    return success();
  }
};

/// nn.bias_add(x, b, axis): b (1-D) gets trailing unit dimensions so that it
/// broadcasts along `axis` (none when `axis` is the last one), then add.
struct ConvertBiasAdd : OpRewritePattern<relay::BiasAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::BiasAddOp op,
                                PatternRewriter &rewriter) const override {
    int64_t rank = cast<RankedTensorType>(op.getData().getType()).getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return rewriter.notifyMatchFailure(op, "axis out of range");
    Value bias = op.getBias();
    if (axis != rank - 1) {
      SmallVector<int64_t> newAxes =
          llvm::to_vector(llvm::seq<int64_t>(1, rank - axis));
      FailureOr<Value> expanded =
          InferredOps(rewriter).create<relax::ExpandDimsOp>(
              op.getLoc(), bias, rewriter.getDenseI64ArrayAttr(newAxes));
      if (failed(expanded))
        return failure();
      bias = *expanded;
    }
    rewriter.replaceOpWithNewOp<relax::AddOp>(op, op.getType(), op.getData(),
                                              bias);
    return success();
  }
};

/// Replaces `op` by the relax op `name` on `operands` with `op`'s result
/// types and its attributes minus `drop` (relay and relax share TVM's
/// attribute names and MLIR kinds).
static void replaceWithSameAttrs(PatternRewriter &rewriter, Operation *op,
                                 StringRef name, ValueRange operands,
                                 ArrayRef<StringRef> drop = {},
                                 ArrayRef<NamedAttribute> extra = {}) {
  OperationState state(op->getLoc(), name);
  state.addOperands(operands);
  state.addTypes(op->getResultTypes());
  for (NamedAttribute attr : op->getAttrs())
    if (!llvm::is_contained(drop, attr.getName().getValue()))
      state.addAttribute(attr.getName(), attr.getValue());
  for (NamedAttribute attr : extra)
    state.addAttribute(attr.getName(), attr.getValue());
  rewriter.replaceOp(op, rewriter.create(state)->getResults());
}

/// nn.conv2d: relax has no `channels` / `kernel_size` (they only restate the
/// weight's shape, which relay's type relation has checked).
struct ConvertConv2D : OpRewritePattern<relay::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(rewriter, op, relax::Conv2DOp::getOperationName(),
                         op->getOperands(), {"channels", "kernel_size"});
    return success();
  }
};

/// nn.max_pool2d / nn.avg_pool2d: same attributes.
struct ConvertConv2DTranspose : OpRewritePattern<relay::Conv2DTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::Conv2DTransposeOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(rewriter, op,
                         relax::Conv2DTransposeOp::getOperationName(),
                         op->getOperands(), {"channels", "kernel_size"});
    return success();
  }
};

template <typename RelayOp, typename RelaxOp>
struct ConvertSameAttrs : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(rewriter, op, RelaxOp::getOperationName(),
                         op->getOperands());
    return success();
  }
};

/// strided_slice: same attributes in slice_mode="end"; "size" becomes ends.
struct ConvertStridedSlice : OpRewritePattern<relay::StridedSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::StridedSliceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSliceMode() == "end") {
      replaceWithSameAttrs(rewriter, op,
                           relax::StridedSliceOp::getOperationName(),
                           op->getOperands(), {"slice_mode"});
      return success();
    }
    // slice_mode="size" (topi's ConvertToVec): `end` holds sizes, -1 meaning
    // "to the end", and the sliced strides are 1.
    ArrayRef<int64_t> begin = op.getBegin(), sizes = op.getEnd();
    if (op.getSliceMode() != "size" || begin.size() != sizes.size())
      return rewriter.notifyMatchFailure(
          op, "slice_mode is not 'end', or 'size' with one size per begin");
    SmallVector<int64_t> ends;
    for (auto [start, size] : llvm::zip(begin, sizes)) {
      int64_t end;
      if (size < 0 || llvm::AddOverflow(start, size, end))
        end = std::numeric_limits<int64_t>::max();
      ends.push_back(end);
    }
    SmallVector<NamedAttribute> extra = {
        rewriter.getNamedAttr("end", rewriter.getDenseI64ArrayAttr(ends))};
    if (std::optional<ArrayRef<int64_t>> strides = op.getStrides()) {
      SmallVector<int64_t> unit(*strides);
      for (size_t i = 0; i < unit.size() && i < ends.size(); ++i)
        unit[i] = 1;
      extra.push_back(rewriter.getNamedAttr(
          "strides", rewriter.getDenseI64ArrayAttr(unit)));
    }
    replaceWithSameAttrs(
        rewriter, op, relax::StridedSliceOp::getOperationName(),
        op->getOperands(), {"slice_mode", "end", "strides"}, extra);
    return success();
  }
};

struct ConvertTake : OpRewritePattern<relay::TakeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::TakeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getBatchDims() != 0)
      return rewriter.notifyMatchFailure(op, "batch_dims is not 0");
    replaceWithSameAttrs(rewriter, op, relax::TakeOp::getOperationName(),
                         op->getOperands(), {"batch_dims"});
    return success();
  }
};

/// nn.global_avg_pool2d is adaptive_avg_pool2d to 1x1, as in TVM Relax.
struct ConvertGlobalAvgPool2D : OpRewritePattern<relay::GlobalAvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::GlobalAvgPool2DOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(
        rewriter, op, relax::AdaptiveAvgPool2DOp::getOperationName(),
        op->getOperands(), {},
        {rewriter.getNamedAttr("output_size",
                               rewriter.getDenseI64ArrayAttr({1, 1}))});
    return success();
  }
};

/// sum / mean: relax has no `exclude`; the reduced axes are listed instead
/// (computed by the shared inferReduceAxes).
template <typename RelayOp, typename RelaxOp>
struct ConvertReduce : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    DenseI64ArrayAttr axis = op.getAxisAttr();
    if (op.getExclude()) {
      std::optional<ArrayRef<int64_t>> axes;
      if (axis)
        axes = axis.asArrayRef();
      SmallVector<int64_t> reduced;
      if (failed(inferReduceAxes(
              cast<RankedTensorType>(op.getData().getType()).getRank(), axes,
              /*exclude=*/true, reduced, nullptr)))
        return rewriter.notifyMatchFailure(op, "invalid axes");
      if (reduced.empty()) {
        // Nothing reduced: the value itself.
        rewriter.replaceOp(op, op.getData());
        return success();
      }
      axis = rewriter.getDenseI64ArrayAttr(reduced);
    }
    rewriter.replaceOpWithNewOp<RelaxOp>(op, op.getType(), op.getData(), axis,
                                         op.getKeepdimsAttr());
    return success();
  }
};

/// relay.argmax/argmin (i32, an axis list) to relax's (i64, one axis) and a
/// relax.astype back to i32. The reduced axes (after `exclude`) must be one
/// axis, or all of them: relay's index over all axes is the flattened index,
/// which relax computes without `axis`.
template <typename RelayOp, typename RelaxOp>
struct ConvertArgReduce : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSelectLastIndex())
      return rewriter.notifyMatchFailure(op, "select_last_index");
    int64_t rank = cast<RankedTensorType>(op.getData().getType()).getRank();
    std::optional<ArrayRef<int64_t>> axes;
    if (DenseI64ArrayAttr axisAttr = op.getAxisAttr())
      axes = axisAttr.asArrayRef();
    SmallVector<int64_t> reduced;
    if (failed(inferReduceAxes(rank, axes, op.getExclude(), reduced, nullptr)))
      return rewriter.notifyMatchFailure(op, "invalid axes");
    IntegerAttr axis;
    if (reduced.size() == 1)
      axis = rewriter.getI64IntegerAttr(reduced[0]);
    else if (static_cast<int64_t>(reduced.size()) != rank)
      return rewriter.notifyMatchFailure(op,
                                         "reduces several but not all axes");
    auto resultType = cast<RankedTensorType>(op.getType());
    Value index = RelaxOp::create(rewriter, op.getLoc(),
                                  resultType.clone(rewriter.getI64Type()),
                                  op.getData(), axis, op.getKeepdimsAttr());
    rewriter.replaceOpWithNewOp<relax::AstypeOp>(
        op, resultType, index, TypeAttr::get(resultType.getElementType()));
    return success();
  }
};

/// Dropout is the identity at inference: its output is the input. The mask
/// has no relax equivalent, so a used mask is not converted.
struct ConvertDropout : OpRewritePattern<relay::DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::DropoutOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMask().use_empty())
      return rewriter.notifyMatchFailure(op, "the mask is used");
    if (op.getOutput().getType() != op.getData().getType())
      return rewriter.notifyMatchFailure(op, "output type differs");
    rewriter.replaceAllUsesWith(op.getOutput(), op.getData());
    rewriter.eraseOp(op);
    return success();
  }
};

/// relay.expand_dims inserts `num_newaxis` dimensions at `axis`; relax's
/// lists the new result positions.
struct ConvertExpandDims : OpRewritePattern<relay::ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::ExpandDimsOp op,
                                PatternRewriter &rewriter) const override {
    int64_t rank = cast<RankedTensorType>(op.getData().getType()).getRank();
    int64_t axis = op.getAxis(), count = op.getNumNewaxis();
    if (axis < 0)
      axis += rank + 1;
    if (axis < 0 || axis > rank || count < 0)
      return rewriter.notifyMatchFailure(op, "invalid axis or num_newaxis");
    if (count == 0) {
      rewriter.replaceOp(op, op.getData());
      return success();
    }
    rewriter.replaceOpWithNewOp<relax::ExpandDimsOp>(
        op, op.getType(), op.getData(),
        rewriter.getDenseI64ArrayAttr(
            llvm::to_vector(llvm::seq<int64_t>(axis, axis + count))));
    return success();
  }
};

struct ConvertConcatenate : OpRewritePattern<relay::ConcatenateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::ConcatenateOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(rewriter, op, relax::ConcatOp::getOperationName(),
                         op->getOperands());
    return success();
  }
};

/// nn.batch_norm: same attributes; its three results map 1:1.
struct ConvertBatchNorm : OpRewritePattern<relay::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(rewriter, op, relax::BatchNormOp::getOperationName(),
                         op->getOperands());
    return success();
  }
};

/// nn.layer_norm: relay's single `axis` is relax's `axes = [axis]`.
/// instance_norm / group_norm: relay's `axis` is relax's `channel_axis`.
template <typename RelayOp, typename RelaxOp>
struct ConvertChannelNorm : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(
        rewriter, op, RelaxOp::getOperationName(), op->getOperands(), {"axis"},
        {rewriter.getNamedAttr("channel_axis",
                               rewriter.getI64IntegerAttr(op.getAxis()))});
    return success();
  }
};

struct ConvertLayerNorm : OpRewritePattern<relay::LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithSameAttrs(
        rewriter, op, relax::LayerNormOp::getOperationName(), op->getOperands(),
        {"axis"},
        {rewriter.getNamedAttr("axes",
                               rewriter.getDenseI64ArrayAttr(
                                   {static_cast<int64_t>(op.getAxis())}))});
    return success();
  }
};

/// nn.upsampling is image.resize2d to its result size, as TOPI's upsampling:
/// "bilinear"/"bicubic" are resize2d's "linear"/"cubic", the coordinates
/// are "align_corners" or "asymmetric", and the rounding TOPI's default.
struct ConvertUpSampling : OpRewritePattern<relay::UpSamplingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::UpSamplingOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    FailureOr<SmallVector<int64_t, 4>> perm =
        nn::getLayoutPermutation(op.getLayout(), "NCHW", "layout", nullptr);
    if (failed(perm) || type.getRank() != 4)
      return rewriter.notifyMatchFailure(op, "unsupported layout");
    int64_t h = type.getDimSize((*perm)[2]), w = type.getDimSize((*perm)[3]);
    if (ShapedType::isDynamic(h) || ShapedType::isDynamic(w))
      return rewriter.notifyMatchFailure(op, "dynamic output size");
    StringRef method = op.getMethod();
    method.consume_front("bi");
    if (method != "nearest_neighbor" && method != "linear" && method != "cubic")
      return rewriter.notifyMatchFailure(op, "unknown method");
    rewriter.replaceOpWithNewOp<relax::Resize2DOp>(
        op, type, op.getData(), rewriter.getDenseI64ArrayAttr({h, w}),
        /*roi=*/nullptr, op.getLayoutAttr(), rewriter.getStringAttr(method),
        rewriter.getStringAttr(op.getAlignCorners() ? "align_corners"
                                                    : "asymmetric"),
        rewriter.getStringAttr(""), /*cubic_alpha=*/nullptr,
        /*cubic_exclude=*/nullptr, /*extrapolation_value=*/nullptr,
        /*out_dtype=*/nullptr);
    return success();
  }
};

/// The (H, W) positions of a 2-D pooling layout whose out_layout is empty or
/// equal.
static FailureOr<std::pair<int64_t, int64_t>>
getPoolHW(RankedTensorType type, StringRef layout, StringRef outLayout) {
  FailureOr<SmallVector<int64_t, 4>> perm =
      nn::getLayoutPermutation(layout, "NCHW", "layout", nullptr);
  if (failed(perm) || type.getRank() != 4 ||
      (!outLayout.empty() && outLayout != layout))
    return failure();
  return std::make_pair((*perm)[2], (*perm)[3]);
}

/// nn.global_max_pool2d, and nn.adaptive_max_pool2d to 1x1, are relax.max
/// over H and W with keepdims (relax has no max counterpart of
/// adaptive_avg_pool2d; other adaptive max pools stay unconverted).
template <typename RelayOp>
struct ConvertGlobalMaxPool2D : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    auto perm = nn::getLayoutPermutation(op.getLayout(), "NCHW", "layout",
                                         /*emitError=*/nullptr);
    if (failed(perm))
      return rewriter.notifyMatchFailure(op, "unsupported layout");
    auto type = cast<RankedTensorType>(op.getType());
    int64_t h = (*perm)[2], w = (*perm)[3];
    if (type.getRank() != 4 || type.getDimSize(h) != 1 ||
        type.getDimSize(w) != 1)
      return rewriter.notifyMatchFailure(op, "output is not 1x1");
    rewriter.replaceOpWithNewOp<relax::MaxOp>(
        op, type, op.getData(),
        rewriter.getDenseI64ArrayAttr({std::min(h, w), std::max(h, w)}),
        rewriter.getBoolAttr(true));
    return success();
  }
};

/// nn.adaptive_max_pool2d (TVM Relax has no such op): the identity for an
/// unchanged size, relax.max for 1x1, relax.nn.max_pool2d when the sizes
/// divide, else the max is taken one axis at a time over TOPI's bins
/// [floor(i * in / out), ceil((i + 1) * in / out)), each a strided_slice and
/// a keepdims max, concatenated.
struct ConvertAdaptiveMaxPool2D : OpRewritePattern<relay::AdaptiveMaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::AdaptiveMaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getData().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    auto hw = getPoolHW(inType, op.getLayout(), op.getOutLayout());
    if (failed(hw))
      return rewriter.notifyMatchFailure(op, "unsupported layout");
    auto [hDim, wDim] = *hw;
    int64_t inH = inType.getDimSize(hDim), inW = inType.getDimSize(wDim);
    int64_t outH = outType.getDimSize(hDim), outW = outType.getDimSize(wDim);
    if (ShapedType::isDynamic(inH) || ShapedType::isDynamic(inW) ||
        ShapedType::isDynamic(outH) || ShapedType::isDynamic(outW))
      return rewriter.notifyMatchFailure(op, "dynamic spatial size");
    Location loc = op.getLoc();
    Value data = op.getData();
    if (inH == outH && inW == outW) {
      rewriter.replaceOp(op, data);
      return success();
    }
    if (outH == 1 && outW == 1) {
      rewriter.replaceOpWithNewOp<relax::MaxOp>(
          op, outType, data,
          rewriter.getDenseI64ArrayAttr(
              {std::min(hDim, wDim), std::max(hDim, wDim)}),
          rewriter.getBoolAttr(true));
      return success();
    }
    if (inH % outH == 0 && inW % outW == 0) {
      SmallVector<int64_t> window = {inH / outH, inW / outW};
      replaceWithSameAttrs(
          rewriter, op, relax::MaxPool2DOp::getOperationName(), {data},
          {"output_size"},
          {rewriter.getNamedAttr("pool_size",
                                 rewriter.getDenseI64ArrayAttr(window)),
           rewriter.getNamedAttr("strides",
                                 rewriter.getDenseI64ArrayAttr(window))});
      return success();
    }
    Value value = data;
    InferredOps ops(rewriter);
    for (auto [dim, in, out] :
         {std::make_tuple(hDim, inH, outH), std::make_tuple(wDim, inW, outW)}) {
      if (in == out)
        continue;
      SmallVector<Value> bins;
      for (int64_t i = 0; i < out; ++i) {
        int64_t start = i * in / out, end = ((i + 1) * in + out - 1) / out;
        FailureOr<Value> bin = ops.create<relax::StridedSliceOp>(
            loc, value, rewriter.getDenseI64ArrayAttr({start}),
            rewriter.getDenseI64ArrayAttr({end}), /*strides=*/nullptr,
            rewriter.getDenseI64ArrayAttr({dim}));
        if (failed(bin))
          return failure();
        FailureOr<Value> binMax = ops.create<relax::MaxOp>(
            loc, *bin, rewriter.getDenseI64ArrayAttr({dim}),
            rewriter.getBoolAttr(true));
        if (failed(binMax))
          return failure();
        bins.push_back(*binMax);
      }
      if (bins.size() == 1) {
        value = bins.front();
        continue;
      }
      FailureOr<Value> concat = ops.create<relax::ConcatOp>(
          loc, bins, rewriter.getI64IntegerAttr(dim));
      if (failed(concat))
        return failure();
      value = *concat;
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// strided_slice with slice_mode="size": `end` holds sizes, turned into ends
/// as topi's ConvertToVec does (begin + size, or to the end for a negative
/// size) with unit strides.
struct ConvertStridedSliceSize : OpRewritePattern<relay::StridedSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::StridedSliceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSliceMode() != "size")
      return rewriter.notifyMatchFailure(op, "slice_mode is not 'size'");
    constexpr int64_t maxRange = std::numeric_limits<int64_t>::max();
    ArrayRef<int64_t> begin = op.getBegin(), size = op.getEnd();
    size_t count = std::max(begin.size(), size.size());
    SmallVector<int64_t> newBegin, newEnd;
    for (size_t i = 0; i < count; ++i) {
      int64_t b = i < begin.size() ? begin[i] : 0;
      int64_t s = i < size.size() ? size[i] : -1;
      newBegin.push_back(b);
      newEnd.push_back(s < 0 || (b > 0 && s > maxRange - b) ? maxRange : b + s);
    }
    rewriter.replaceOpWithNewOp<relax::StridedSliceOp>(
        op, op.getType(), op.getData(), rewriter.getDenseI64ArrayAttr(newBegin),
        rewriter.getDenseI64ArrayAttr(newEnd), /*strides=*/nullptr,
        op.getAxesAttr());
    return success();
  }
};

/// argmax/argmin over several (not all) axes: relay's index is the
/// row-major index within the reduced axes (topi CommReduceIdx), so the
/// reduced axes move last (in order), merge into one, and relax reduces that
/// one; keepdims reshapes back. Needs static shapes.
template <typename RelayOp, typename RelaxOp>
struct ConvertMultiAxisArgReduce : OpRewritePattern<RelayOp> {
  using OpRewritePattern<RelayOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSelectLastIndex())
      return rewriter.notifyMatchFailure(op, "select_last_index");
    auto type = cast<RankedTensorType>(op.getData().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    std::optional<ArrayRef<int64_t>> axes;
    if (DenseI64ArrayAttr axisAttr = op.getAxisAttr())
      axes = axisAttr.asArrayRef();
    SmallVector<int64_t> reduced;
    if (failed(inferReduceAxes(rank, axes, op.getExclude(), reduced, nullptr)))
      return rewriter.notifyMatchFailure(op, "invalid axes");
    if (reduced.size() < 2 || static_cast<int64_t>(reduced.size()) == rank)
      return rewriter.notifyMatchFailure(op, "not a multi-axis reduction");
    if (!type.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    SmallVector<int64_t> perm, shape;
    for (int64_t i = 0; i < rank; ++i)
      if (!llvm::is_contained(reduced, i)) {
        perm.push_back(i);
        shape.push_back(type.getDimSize(i));
      }
    int64_t merged = 1;
    for (int64_t i : reduced) {
      perm.push_back(i);
      merged *= type.getDimSize(i);
    }
    shape.push_back(merged);
    Location loc = op.getLoc();
    InferredOps ops(rewriter);
    FailureOr<Value> value = op.getData();
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, rank)))
      value = ops.create<relax::PermuteDimsOp>(
          loc, *value, rewriter.getDenseI64ArrayAttr(perm));
    if (succeeded(value))
      value = ops.create<relax::ReshapeOp>(
          loc, *value, rewriter.getDenseI64ArrayAttr(shape));
    if (succeeded(value))
      value = ops.create<RelaxOp>(loc, *value,
                                  rewriter.getI64IntegerAttr(shape.size() - 1),
                                  /*keepdims=*/false);
    if (succeeded(value) && op.getKeepdims())
      value = ops.create<relax::ReshapeOp>(
          loc, *value, rewriter.getDenseI64ArrayAttr(resultType.getShape()));
    if (failed(value))
      return failure();
    rewriter.replaceOpWithNewOp<relax::AstypeOp>(
        op, resultType, *value, TypeAttr::get(resultType.getElementType()));
    return success();
  }
};

/// nn.dropout whose mask is used: at inference nothing is dropped, so the
/// output is the input and the mask is all ones (a constant; static shapes
/// only).
struct ConvertDropoutWithMask : OpRewritePattern<relay::DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::DropoutOp op,
                                PatternRewriter &rewriter) const override {
    auto maskType = cast<RankedTensorType>(op.getMask().getType());
    if (op.getMask().use_empty() ||
        op.getOutput().getType() != op.getData().getType())
      return rewriter.notifyMatchFailure(op, "handled by ConvertDropout");
    if (!maskType.hasStaticShape() || !maskType.getElementType().isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "dynamic mask shape");
    Type element = maskType.getElementType();
    Attribute one = isa<FloatType>(element)
                        ? Attribute(rewriter.getFloatAttr(element, 1.0))
                        : Attribute(rewriter.getIntegerAttr(element, 1));
    FailureOr<Value> mask = InferredOps(rewriter).create<relax::ConstantOp>(
        op.getLoc(), DenseElementsAttr::get(maskType, one));
    if (failed(mask))
      return failure();
    rewriter.replaceOp(op, {op.getData(), *mask});
    return success();
  }
};

/// Why a relay op that no pattern converted has no relax equivalent, for
/// the forms known to be unsupported; empty otherwise.
static std::string getUnsupportedReason(Operation *op) {
  if (auto take = dyn_cast<relay::TakeOp>(op); take && take.getBatchDims())
    return "take with batch_dims=" +
           std::to_string(static_cast<int64_t>(take.getBatchDims())) +
           " has no relax equivalent (relax.take has no batch dimensions)";
  if (isa<relay::ArgmaxOp, relay::ArgminOp>(op)) {
    if (op->getAttrOfType<BoolAttr>("select_last_index") &&
        op->getAttrOfType<BoolAttr>("select_last_index").getValue())
      return "select_last_index=True has no relax equivalent";
    return "a reduction over several axes needs static shapes";
  }
  if (isa<relay::ReshapeOp, relay::BatchFlattenOp>(op))
    return "a reshape to a dynamic shape has no relax equivalent yet (relax "
           "reshapes take static shapes)";
  if (isa<relay::TupleOp, relay::TupleGetItemOp>(op))
    return "first-class tuples (tuple-typed values passed between functions) "
           "have no relax equivalent yet";
  if (isa<relay::DropoutOp>(op))
    return "a dropout mask of dynamic shape has no relax equivalent";
  if (isa<relay::UpSamplingOp, relay::AdaptiveMaxPool2DOp>(op))
    return "dynamic spatial sizes or the layout are not supported";
  return "";
}

bool containsRelayOps(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return isa_and_nonnull<relay::RelayDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

bool isRelayFunction(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, kRelayNameAttr))
      return true;
  return containsRelayOps(func);
}

struct RelayToRelaxPass : mlc::impl::RelayToRelaxBase<RelayToRelaxPass> {
  using RelayToRelaxBase::RelayToRelaxBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateRelayToRelaxPatterns(set);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!isRelayFunction(func))
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (Attribute name = func.getArgAttr(i, kRelayNameAttr)) {
          func.removeArgAttr(i, kRelayNameAttr);
          func.setArgAttr(i, relax::kParamNameAttr, name);
        }
      // A function of upstream ops that merely names its parameters (e.g.
      // linalg on tensors for mlc-run) keeps its body as it is.
      if (func.isExternal() || !containsRelayOps(func))
        continue;
      GreedyRewriteConfig config;
      config.enableFolding(false).setRegionSimplificationLevel(
          GreedySimplifyRegionLevel::Disabled);
      if (failed(applyPatternsGreedily(func.getBody(), patterns, config))) {
        func.emitError("relay-to-relax did not converge");
        return signalPassFailure();
      }
      if (!allowRelayOps) {
        WalkResult result = func.walk([&](Operation *op) {
          if (!isa_and_nonnull<relay::RelayDialect>(op->getDialect()))
            return WalkResult::advance();
          InFlightDiagnostic diag = op->emitError("relay-to-relax: '")
                                    << op->getName() << "' ";
          std::string reason = getUnsupportedReason(op);
          if (reason.empty())
            diag << "has no relax equivalent yet";
          else
            diag << "is not converted: " << reason;
          diag << " (set allow-relay-ops to keep it)";
          return WalkResult::interrupt();
        });
        if (result.wasInterrupted())
          return signalPassFailure();
      }
      relax::wrapInDataflow(func);
    }
  }

  FrozenRewritePatternSet patterns;
};

} // namespace

void mlc::populateRelayToRelaxPatterns(RewritePatternSet &patterns) {
  patterns.add<
      ConvertConstant, ConvertAdd,
      ConvertBinary<relay::SubtractOp, relax::SubtractOp>,
      ConvertBinary<relay::MultiplyOp, relax::MultiplyOp>,
      ConvertBinary<relay::DivideOp, relax::DivideOp>,
      ConvertBinary<relay::PowerOp, relax::PowerOp>,
      ConvertBinary<relay::MaximumOp, relax::MaximumOp>,
      ConvertBinary<relay::MinimumOp, relax::MinimumOp>,
      ConvertBinary<relay::LessOp, relax::LessOp>,
      ConvertBinary<relay::GreaterOp, relax::GreaterOp>,
      ConvertBinary<relay::LessEqualOp, relax::LessEqualOp>,
      ConvertBinary<relay::GreaterEqualOp, relax::GreaterEqualOp>,
      ConvertBinary<relay::EqualOp, relax::EqualOp>,
      ConvertBinary<relay::NotEqualOp, relax::NotEqualOp>, ConvertCast,
      ConvertClip, ConvertWhere,
      ConvertSameAttrs<relay::SqueezeOp, relax::SqueezeOp>,
      ConvertSameAttrs<relay::SplitOp, relax::SplitOp>,
      ConvertSameAttrs<relay::BroadcastToOp, relax::BroadcastToOp>,
      ConvertStridedSlice, ConvertTake,
      ConvertUnary<relay::ReluOp, relax::ReluOp>,
      ConvertUnary<relay::ExpOp, relax::ExpOp>,
      ConvertUnary<relay::LogOp, relax::LogOp>,
      ConvertUnary<relay::SqrtOp, relax::SqrtOp>,
      ConvertUnary<relay::RsqrtOp, relax::RsqrtOp>,
      ConvertUnary<relay::TanhOp, relax::TanhOp>,
      ConvertUnary<relay::SigmoidOp, relax::SigmoidOp>,
      ConvertUnary<relay::ErfOp, relax::ErfOp>,
      ConvertUnary<relay::AbsOp, relax::AbsOp>,
      ConvertUnary<relay::NegativeOp, relax::NegativeOp>,
      ConvertSoftmax<relay::SoftmaxOp, relax::SoftmaxOp>,
      ConvertSoftmax<relay::LogSoftmaxOp, relax::LogSoftmaxOp>,
      ConvertToStaticReshape<relay::ReshapeOp>, ConvertTranspose,
      ConvertMatmulLike<relay::MatmulOp>,
      ConvertMatmulLike<relay::BatchMatmulOp>, ConvertDense, ConvertBiasAdd,
      ConvertConv2D, ConvertSameAttrs<relay::MaxPool2DOp, relax::MaxPool2DOp>,
      ConvertSameAttrs<relay::AvgPool2DOp, relax::AvgPool2DOp>,
      ConvertGlobalAvgPool2D, ConvertReduce<relay::SumOp, relax::SumOp>,
      ConvertReduce<relay::MeanOp, relax::MeanOp>,
      ConvertReduce<relay::MaxOp, relax::MaxOp>, ConvertDropout,
      ConvertToStaticReshape<relay::BatchFlattenOp>, ConvertConv2DTranspose,
      ConvertExpandDims,
      ConvertSameAttrs<relay::AdaptiveAvgPool2DOp, relax::AdaptiveAvgPool2DOp>,
      ConvertChannelNorm<relay::InstanceNormOp, relax::InstanceNormOp>,
      ConvertChannelNorm<relay::GroupNormOp, relax::GroupNormOp>,
      ConvertSameAttrs<relay::LeakyReluOp, relax::LeakyReluOp>,
      ConvertSameAttrs<relay::PadOp, relax::PadOp>,
      ConvertReduce<relay::MinOp, relax::MinOp>,
      ConvertReduce<relay::ProdOp, relax::ProdOp>,
      ConvertArgReduce<relay::ArgmaxOp, relax::ArgmaxOp>,
      ConvertArgReduce<relay::ArgminOp, relax::ArgminOp>, ConvertConcatenate,
      ConvertBatchNorm, ConvertLayerNorm,
      ConvertGlobalMaxPool2D<relay::GlobalMaxPool2DOp>,
      ConvertGlobalMaxPool2D<relay::AdaptiveMaxPool2DOp>,
      ConvertSameAttrs<relay::PReluOp, relax::PReluOp>, ConvertUpSampling,
      ConvertAdaptiveMaxPool2D, ConvertStridedSliceSize,
      ConvertMultiAxisArgReduce<relay::ArgmaxOp, relax::ArgmaxOp>,
      ConvertMultiAxisArgReduce<relay::ArgminOp, relax::ArgminOp>,
      ConvertDropoutWithMask>(patterns.getContext());
}
