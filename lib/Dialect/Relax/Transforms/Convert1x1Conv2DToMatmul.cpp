//===- Convert1x1Conv2DToMatmul.cpp - 1x1 NHWC convolutions as matmuls ----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A 1x1 convolution of stride 1 without padding in NHWC/HWIO is the GEMM
// (N*H*W, C) x (C, O) over the same bytes. Written as relax.matmul of
// reshapes, it takes the GEMM rules of the GPU schedule (the Hopper rule's
// TMA and wgmma need a GEMM over prim_func arguments, which an implicit
// GEMM's 4-D image is not), and the reshapes cost nothing: bound weights
// fold, and relax-rewrite-dataflow-reshape makes the others views. The
// elementwise ops after the convolution (bias, batch norm, residual add,
// relu, casts) move before the reshape back to NHWC, so that fusion keeps
// them in the GEMM's epilogue; a chain of 1x1 convolutions then stays 2-D.
// As IREE's convert-1x1-filter-conv2d-to-matmul.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXCONVERT1X1CONV2DTOMATMUL
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

bool isAll(ArrayRef<int64_t> values, int64_t value) {
  return llvm::all_of(values, [&](int64_t v) { return v == value; });
}

/// The static shape of `value`'s ranked tensor type, if it has one.
std::optional<SmallVector<int64_t>> getStaticShape(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getShape());
}

/// Elementwise ops the reshape back to NHWC moves past.
bool isElementwise(Operation *op) {
  return isa<AddOp, SubtractOp, MultiplyOp, DivideOp, MaximumOp, MinimumOp,
             ReluOp, LeakyReluOp, ClipOp, AstypeOp, SigmoidOp, TanhOp, ErfOp,
             NegativeOp>(op);
}

class Converter {
public:
  explicit Converter(MLIRContext *ctx) : builder(ctx) {}

  LogicalResult convert(Conv2DOp conv) {
    std::optional<SmallVector<int64_t>> image = getStaticShape(conv.getData());
    std::optional<SmallVector<int64_t>> filter =
        getStaticShape(conv.getWeight());
    std::optional<SmallVector<int64_t>> result =
        getStaticShape(conv.getResult());
    if (!image || !filter || !result || image->size() != 4 ||
        conv.getDataLayout() != "NHWC" || conv.getKernelLayout() != "HWIO" ||
        !(conv.getOutLayout().empty() || conv.getOutLayout() == "NHWC") ||
        conv.getGroups() != 1 || !isAll(conv.getStrides(), 1) ||
        !isAll(conv.getDilation(), 1) || !isAll(conv.getPadding(), 0) ||
        (*filter)[0] != 1 || (*filter)[1] != 1)
      return success();
    int64_t rows = (*image)[0] * (*image)[1] * (*image)[2];
    int64_t channels = (*image)[3], outChannels = (*filter)[3];
    builder.setInsertionPoint(conv);
    Location loc = conv.getLoc();
    FailureOr<Value> lhs = reshape(conv.getData(), {rows, channels}, loc);
    FailureOr<Value> rhs =
        reshape(conv.getWeight(), {channels, outChannels}, loc);
    if (failed(lhs) || failed(rhs))
      return failure();
    FailureOr<MatmulOp> matmul = mlc::createInferred<MatmulOp>(
        builder, loc, *lhs, *rhs, conv.getOutDtypeAttr());
    if (failed(matmul))
      return failure();
    Value flat = matmul->getResult();
    Operation *last = conv;
    maybeDead.push_back(conv);
    // The elementwise consumers, one at a time, on the 2-D value.
    while (last->getResult(0).hasOneUse()) {
      Operation *user = *last->getResult(0).getUsers().begin();
      if (!isElementwise(user) || user->getNumResults() != 1)
        break;
      SmallVector<Value> operands;
      bool ok = true;
      for (Value operand : user->getOperands()) {
        if (operand == last->getResult(0)) {
          operands.push_back(flat);
          continue;
        }
        FailureOr<Value> flatOperand =
            flattenOperand(operand, *result, rows, user);
        if (failed(flatOperand)) {
          ok = false;
          break;
        }
        operands.push_back(*flatOperand);
      }
      if (!ok)
        break;
      builder.setInsertionPoint(user);
      FailureOr<Value> clone = cloneWithOperands(user, operands);
      if (failed(clone))
        return failure();
      flat = *clone;
      last = user;
      maybeDead.push_back(user);
    }
    builder.setInsertionPointAfter(last);
    FailureOr<Value> back = reshape(flat, *result, last->getLoc());
    if (failed(back))
      return failure();
    last->getResult(0).replaceAllUsesWith(*back);
    return success();
  }

private:
public:
  /// Ops that the conversions may have left without users.
  SmallVector<Operation *> maybeDead;

private:
  /// A copy of the one-result `op` at the insertion point, on `operands`,
  /// its result type inferred again; its result.
  FailureOr<Value> cloneWithOperands(Operation *op, ValueRange operands) {
    Operation *clone = builder.clone(*op);
    clone->setOperands(operands);
    SmallVector<Type> types;
    if (failed(mlc::inferResultTypes(clone, types))) {
      clone->erase();
      return failure();
    }
    clone->getResult(0).setType(types.front());
    return clone->getResult(0);
  }

  /// `value` reshaped to `shape`: the source of a reshape that made `value`
  /// from that shape, else a new relax.reshape.
  FailureOr<Value> reshape(Value value, ArrayRef<int64_t> shape, Location loc) {
    if (getStaticShape(value) == SmallVector<int64_t>(shape))
      return value;
    if (auto previous = value.getDefiningOp<ReshapeOp>()) {
      if (getStaticShape(previous.getData()) == SmallVector<int64_t>(shape)) {
        maybeDead.push_back(previous);
        return previous.getData();
      }
    }
    // A unary elementwise op between the two reshapes (mixed precision's
    // cast of a residual's float32 result for the next 1x1 convolution,
    // left in NHWC because the residual's other user keeps the reshape
    // back): applied to the 2-D value instead, which is a GEMM's result.
    Operation *unary = value.getDefiningOp();
    if (unary && value.hasOneUse() && isElementwise(unary) &&
        unary->getNumOperands() == 1 && unary->getNumResults() == 1) {
      auto previous = unary->getOperand(0).getDefiningOp<ReshapeOp>();
      if (previous &&
          getStaticShape(previous.getData()) == SmallVector<int64_t>(shape)) {
        maybeDead.push_back(unary);
        maybeDead.push_back(previous);
        return cloneWithOperands(unary, previous.getData());
      }
    }
    FailureOr<ReshapeOp> op = mlc::createInferred<ReshapeOp>(
        builder, loc, value, builder.getDenseI64ArrayAttr(shape));
    if (failed(op))
      return failure();
    return op->getResult();
  }

  /// The operand `value` of an elementwise op on the NHWC result (of static
  /// shape `nhwc`) as an operand of the op on the (rows, O) matrix: a
  /// tensor of the result's shape reshaped, or one that broadcasts along
  /// the channels only (rank 0, (O), (1, .., 1, O), (1, .., 1)) with its
  /// leading 1s dropped.
  FailureOr<Value> flattenOperand(Value value, ArrayRef<int64_t> nhwc,
                                  int64_t rows, Operation *user) {
    std::optional<SmallVector<int64_t>> shape = getStaticShape(value);
    if (!shape)
      return failure();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(user);
    if (*shape == SmallVector<int64_t>(nhwc))
      return reshape(value, {rows, nhwc.back()}, user->getLoc());
    if (shape->size() <= 1)
      return value;
    if (shape->size() > nhwc.size() ||
        !isAll(ArrayRef<int64_t>(*shape).drop_back(), 1))
      return failure();
    return reshape(value, {shape->back()}, user->getLoc());
  }

  OpBuilder builder;
};

struct Convert1x1Conv2DToMatmulPass
    : public mlc::relax::impl::RelaxConvert1x1Conv2DToMatmulBase<
          Convert1x1Conv2DToMatmulPass> {
  void runOnOperation() override {
    SmallVector<Conv2DOp> convs;
    getOperation()->walk([&](Conv2DOp conv) { convs.push_back(conv); });
    Converter converter(&getContext());
    for (Conv2DOp conv : convs)
      if (failed(converter.convert(conv)))
        return signalPassFailure();
    // The convolutions and elementwise ops replaced, and the reshapes that
    // chained convolutions no longer read; users go first.
    llvm::SetVector<Operation *> candidates(converter.maybeDead.begin(),
                                            converter.maybeDead.end());
    for (bool changed = true; changed;) {
      changed = false;
      SmallVector<Operation *> pending = candidates.takeVector();
      for (Operation *op : llvm::reverse(pending)) {
        if (isOpTriviallyDead(op)) {
          op->erase();
          changed = true;
        } else {
          candidates.insert(op);
        }
      }
    }
  }
};

} // namespace
