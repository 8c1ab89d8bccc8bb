//===- DecomposeOpsForInference.cpp - batch_norm as a scale and a shift ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's relax.transform.DecomposeOpsForInference (with relay's
// SimplifyInference's form of batch_norm): in inference, batch_norm is
// x * scale + shift with per-channel scale = gamma / sqrt(var + eps) and
// shift = beta - mean * scale. Written as relax ops, the scale and shift of
// bound parameters fold into constants (relax-fold-constant), and a fused
// convolution's epilogue is one multiply-add per element instead of a
// subtraction, a square root, a division and a multiply-add.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <numeric>

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXDECOMPOSEOPSFORINFERENCE
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

/// Builds relax ops at one place; after the first failed inference (which
/// has emitted its error) every later call returns null without building.
struct Builder {
  OpBuilder &b;
  Location loc;
  bool failed = false;

  Value op(StringRef name, ValueRange operands,
           ArrayRef<NamedAttribute> attrs = {}) {
    if (failed)
      return {};
    FailureOr<Operation *> created =
        mlc::createInferredOp(b, loc, name, operands, attrs);
    failed = mlir::failed(created);
    return failed ? Value() : (*created)->getResult(0);
  }
};

LogicalResult decompose(BatchNormOp norm) {
  auto type = dyn_cast<RankedTensorType>(norm.getData().getType());
  auto paramType = dyn_cast<RankedTensorType>(norm.getMovingVar().getType());
  if (!type || !paramType ||
      !llvm::all_of(norm.getOperands(),
                    [&](Value operand) {
                      return getElementTypeOrSelf(operand.getType()) ==
                             type.getElementType();
                    }) ||
      !isa<FloatType>(type.getElementType()))
    return success();
  int64_t rank = type.getRank();
  int64_t axis = norm.getAxis();
  if (axis < -rank || axis >= rank)
    return success();
  if (axis < 0)
    axis += rank;

  OpBuilder builder(norm);
  Builder b{builder, norm.getLoc()};
  auto floatType = cast<FloatType>(type.getElementType());
  auto epsType = RankedTensorType::get({}, floatType);
  APFloat eps(norm.getEpsilon());
  bool losesInfo = false;
  eps.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
  Value epsilon = ConstantOp::create(builder, norm.getLoc(),
                                     DenseElementsAttr::get(epsType, eps))
                      .getResult();
  Value shifted =
      b.op(AddOp::getOperationName(), {norm.getMovingVar(), epsilon});
  Value scale = b.op(RsqrtOp::getOperationName(), shifted);
  if (norm.getScale())
    scale = b.op(MultiplyOp::getOperationName(), {norm.getGamma(), scale});
  Value meanScaled =
      b.op(MultiplyOp::getOperationName(), {norm.getMovingMean(), scale});
  Value shift =
      norm.getCenter()
          ? b.op(SubtractOp::getOperationName(), {norm.getBeta(), meanScaled})
          : b.op(NegativeOp::getOperationName(), meanScaled);
  // Channel vectors broadcast along the axis: trailing unit dimensions.
  if (axis + 1 < rank) {
    SmallVector<int64_t> trailing(rank - 1 - axis);
    std::iota(trailing.begin(), trailing.end(), 1);
    NamedAttribute attr(builder.getStringAttr("axis"),
                        builder.getDenseI64ArrayAttr(trailing));
    scale = b.op(ExpandDimsOp::getOperationName(), scale, attr);
    shift = b.op(ExpandDimsOp::getOperationName(), shift, attr);
  }
  Value scaled = b.op(MultiplyOp::getOperationName(), {norm.getData(), scale});
  Value result = b.op(AddOp::getOperationName(), {scaled, shift});
  if (b.failed)
    return failure();
  // (The ops made so far are dead then; relax-dce removes them.)
  if (result.getType() != norm.getOutput().getType())
    return success();
  norm.getOutput().replaceAllUsesWith(result);
  // Inference: the moving statistics are the new ones (as the legalized
  // kernel returns them).
  norm.getNewMean().replaceAllUsesWith(norm.getMovingMean());
  norm.getNewVar().replaceAllUsesWith(norm.getMovingVar());
  norm.erase();
  return success();
}

struct DecomposeOpsForInferencePass
    : public mlc::relax::impl::RelaxDecomposeOpsForInferenceBase<
          DecomposeOpsForInferencePass> {
  void runOnOperation() override {
    SmallVector<BatchNormOp> norms;
    getOperation().walk([&](BatchNormOp norm) { norms.push_back(norm); });
    for (BatchNormOp norm : norms)
      if (failed(decompose(norm)))
        return signalPassFailure();
  }
};

} // namespace
