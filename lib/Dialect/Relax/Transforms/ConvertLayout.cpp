//===- ConvertLayout.cpp - convolutions and their neighbours to a layout --===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's relax.transform.ConvertLayout for conv2d, in SSA form. The ops of a
// function are visited in order, defs before uses, and rewritten in place:
// a convolution takes the desired data and kernel layouts (its operands
// permuted by `relax.permute_dims`, which relax-fold-constant folds into
// bound weights), and a value whose layout changed remembers the
// permutation from its original layout. Ops that work in any layout
// (elementwise ops, broadcasts, pooling, batch_norm, concat, reductions)
// follow their operands' layout with their attributes remapped; every other
// use gets the value permuted back, once, after its definition.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"
#include "mlc/Dialect/Utils/NNShapeFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <numeric>

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXCONVERTLAYOUT
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

using Permutation = SmallVector<int64_t, 4>;

bool isIdentity(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != p)
      return false;
  return true;
}

/// The permute_dims axes that turn a tensor in layout `from` into layout `to`
/// (both permutations of the same letters).
Permutation axesBetween(StringRef from, StringRef to) {
  Permutation axes;
  for (char letter : to)
    axes.push_back(from.find(letter));
  return axes;
}

/// The position of `axis` of the logical tensor in a physical tensor that
/// holds logical dimension perm[i] at position i.
int64_t physicalAxis(ArrayRef<int64_t> perm, int64_t axis) {
  return llvm::find(perm, axis) - perm.begin();
}

/// Elementwise ops of one tensor operand whose result has its shape.
bool isElementwiseUnary(Operation *op) {
  return isa<ReluOp, LeakyReluOp, ClipOp, AstypeOp, AbsOp, NegativeOp, ExpOp,
             LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp, ErfOp, FloorOp, CeilOp,
             TruncOp>(op);
}

/// Elementwise ops whose operands broadcast NumPy-style (trailing dims).
bool isBroadcastElementwise(Operation *op) {
  return isa<AddOp, SubtractOp, MultiplyOp, DivideOp, PowerOp, MaximumOp,
             MinimumOp, FloorModOp, ModOp, LessOp, GreaterOp, LessEqualOp,
             GreaterEqualOp, EqualOp, NotEqualOp, WhereOp>(op);
}

int64_t getRank(Value value) {
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    return type.getRank();
  return -1;
}

class LayoutConverter {
public:
  LayoutConverter(StringRef dataLayout, StringRef kernelLayout)
      : dataLayout(dataLayout), kernelLayout(kernelLayout) {}

  LogicalResult rewrite(func::FuncOp func);

private:
  LogicalResult visit(Operation *op);
  LogicalResult convertConv(Conv2DOp conv);
  LogicalResult convertBroadcast(Operation *op);
  LogicalResult convertConcat(ConcatOp concat);
  LogicalResult convertReduction(Operation *op, DenseI64ArrayAttr axes,
                                 bool keepdims);
  /// Gives every converted operand of `op` back in its original layout.
  void restoreOperands(Operation *op);
  /// `value` in its original layout permuted by `axes`, as an operand of
  /// `user`: the converted value itself when that is it, else a
  /// permute_dims (shared by the users it dominates).
  FailureOr<Value> getPermuted(Value value, ArrayRef<int64_t> axes,
                               Operation *user);
  LogicalResult inferResultTypes(Operation *op);

  std::string dataLayout, kernelLayout;
  /// Converted values: dimension i holds original dimension perm[i].
  DenseMap<Value, Permutation> perms;
  /// permute_dims created for (value, axes), reused where they dominate.
  DenseMap<Value, SmallVector<std::pair<Permutation, Operation *>, 1>> copies;
};

/// The relax op `name` on `value` with the i64 array attribute `attrName`
/// (permute_dims' axes, expand_dims' axis), its result type inferred.
static FailureOr<Operation *> createUnary(OpBuilder &builder, Location loc,
                                          StringRef name, Value value,
                                          StringRef attrName,
                                          ArrayRef<int64_t> values) {
  NamedAttribute attr(builder.getStringAttr(attrName),
                      builder.getDenseI64ArrayAttr(values));
  return mlc::createInferredOp(builder, loc, name, value, attr);
}

LogicalResult LayoutConverter::inferResultTypes(Operation *op) {
  SmallVector<Type> types;
  if (failed(mlc::inferResultTypes(op, types)))
    return failure();
  for (auto [result, type] : llvm::zip_equal(op->getResults(), types))
    result.setType(type);
  return success();
}

FailureOr<Value> LayoutConverter::getPermuted(Value value,
                                              ArrayRef<int64_t> axes,
                                              Operation *user) {
  // What to apply to the value as it is now.
  Permutation needed(axes);
  auto it = perms.find(value);
  if (it != perms.end())
    for (int64_t &axis : needed)
      axis = physicalAxis(it->second, axis);
  if (isIdentity(needed))
    return value;
  for (auto &[copyAxes, copy] : copies[value])
    if (copyAxes == needed && copy->getBlock()->findAncestorOpInBlock(*user))
      return copy->getResult(0);

  OpBuilder builder(user->getContext());
  // Converted values are permuted back right after their definition, so the
  // copy serves every use; others next to the use that needs them.
  if (it != perms.end() && value.getDefiningOp())
    builder.setInsertionPointAfter(value.getDefiningOp());
  else
    builder.setInsertionPoint(user);
  FailureOr<Operation *> copy =
      createUnary(builder, user->getLoc(), PermuteDimsOp::getOperationName(),
                  value, "axes", needed);
  if (failed(copy))
    return failure();
  copies[value].emplace_back(needed, *copy);
  return (*copy)->getResult(0);
}

void LayoutConverter::restoreOperands(Operation *op) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto it = perms.find(operand.get());
    if (it == perms.end())
      continue;
    Permutation identity(it->second.size());
    std::iota(identity.begin(), identity.end(), 0);
    // Permuting a ranked tensor cannot fail to infer.
    operand.set(*getPermuted(operand.get(), identity, op));
  }
}

LogicalResult LayoutConverter::convertConv(Conv2DOp conv) {
  StringRef outLayout =
      conv.getOutLayout().empty() ? conv.getDataLayout() : conv.getOutLayout();
  auto ignore = [](const Twine &) {};
  // Only layouts that the op's verifier accepted and that differ.
  if (outLayout != conv.getDataLayout() ||
      failed(mlc::nn::getLayoutPermutation(conv.getDataLayout(), dataLayout, "",
                                           ignore)) ||
      failed(mlc::nn::getLayoutPermutation(conv.getKernelLayout(), kernelLayout,
                                           "", ignore)) ||
      (conv.getDataLayout() == dataLayout &&
       conv.getKernelLayout() == kernelLayout)) {
    restoreOperands(conv);
    return success();
  }
  FailureOr<Value> data = getPermuted(
      conv.getData(), axesBetween(conv.getDataLayout(), dataLayout), conv);
  FailureOr<Value> weight =
      getPermuted(conv.getWeight(),
                  axesBetween(conv.getKernelLayout(), kernelLayout), conv);
  if (failed(data) || failed(weight))
    return failure();
  Permutation resultPerm = axesBetween(conv.getDataLayout(), dataLayout);
  conv.getDataMutable().set(*data);
  conv.getWeightMutable().set(*weight);
  conv.setDataLayout(dataLayout);
  conv.setKernelLayout(kernelLayout);
  conv.setOutLayout(dataLayout);
  if (failed(inferResultTypes(conv)))
    return failure();
  perms[conv.getResult()] = resultPerm;
  return success();
}

LogicalResult LayoutConverter::convertBroadcast(Operation *op) {
  Value result = op->getResult(0);
  int64_t rank = getRank(result);
  const Permutation *perm = nullptr;
  for (Value operand : op->getOperands()) {
    auto it = perms.find(operand);
    if (it != perms.end() && getRank(operand) == rank) {
      perm = &it->second;
      break;
    }
  }
  if (!perm) {
    restoreOperands(op);
    return success();
  }
  Permutation resultPerm = *perm;
  OpBuilder builder(op->getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    int64_t operandRank = getRank(value);
    if (operandRank == 0)
      continue;
    if (operandRank < rank) {
      // Broadcasting aligns trailing dimensions: leading ones first, then
      // the permutation.
      builder.setInsertionPoint(op);
      SmallVector<int64_t> leading(rank - operandRank);
      std::iota(leading.begin(), leading.end(), 0);
      FailureOr<Operation *> expanded =
          createUnary(builder, op->getLoc(), ExpandDimsOp::getOperationName(),
                      value, "axis", leading);
      if (failed(expanded))
        return failure();
      value = (*expanded)->getResult(0);
    }
    FailureOr<Value> permuted = getPermuted(value, resultPerm, op);
    if (failed(permuted))
      return failure();
    operand.set(*permuted);
  }
  if (failed(inferResultTypes(op)))
    return failure();
  perms[result] = resultPerm;
  return success();
}

LogicalResult LayoutConverter::convertConcat(ConcatOp concat) {
  // The operands have one rank (verified); the first converted one decides.
  Permutation perm;
  for (Value operand : concat.getInputs())
    if (auto it = perms.find(operand); it != perms.end()) {
      perm = it->second;
      break;
    }
  int64_t rank = perm.size();
  int64_t axis = concat.getAxis();
  if (axis < -rank || axis >= rank) {
    restoreOperands(concat);
    return success();
  }
  for (OpOperand &operand : concat.getInputsMutable()) {
    FailureOr<Value> permuted = getPermuted(operand.get(), perm, concat);
    if (failed(permuted))
      return failure();
    operand.set(*permuted);
  }
  concat.setAxis(physicalAxis(perm, axis < 0 ? axis + rank : axis));
  if (failed(inferResultTypes(concat)))
    return failure();
  perms[concat.getResult()] = perm;
  return success();
}

LogicalResult LayoutConverter::convertReduction(Operation *op,
                                                DenseI64ArrayAttr axes,
                                                bool keepdims) {
  // A copy: the map may grow below.
  Permutation perm = perms.find(op->getOperand(0))->second;
  int64_t rank = perm.size();
  SmallVector<bool> reduced(rank, !axes);
  if (axes)
    for (int64_t axis : axes.asArrayRef()) {
      if (axis < -rank || axis >= rank) {
        restoreOperands(op);
        return success();
      }
      reduced[axis < 0 ? axis + rank : axis] = true;
    }
  // Without keepdims the result is in the original order only when the
  // dimensions that stay are in it.
  SmallVector<int64_t> newAxes;
  int64_t last = -1;
  bool inOrder = true;
  for (auto [i, logical] : llvm::enumerate(perm)) {
    if (reduced[logical]) {
      newAxes.push_back(i);
      continue;
    }
    inOrder &= logical > last;
    last = logical;
  }
  if (!keepdims && !inOrder) {
    restoreOperands(op);
    return success();
  }
  if (axes)
    op->setAttr("axis", DenseI64ArrayAttr::get(op->getContext(), newAxes));
  if (failed(inferResultTypes(op)))
    return failure();
  if (keepdims)
    perms[op->getResult(0)] = perm;
  return success();
}

LogicalResult LayoutConverter::visit(Operation *op) {
  if (auto conv = dyn_cast<Conv2DOp>(op))
    return convertConv(conv);
  if (llvm::none_of(op->getOperands(),
                    [&](Value value) { return perms.contains(value); }))
    return success();
  if (isElementwiseUnary(op)) {
    Permutation perm = perms.find(op->getOperand(0))->second;
    if (failed(inferResultTypes(op)))
      return failure();
    perms[op->getResult(0)] = perm;
    return success();
  }
  if (isBroadcastElementwise(op))
    return convertBroadcast(op);
  if (auto concat = dyn_cast<ConcatOp>(op))
    return convertConcat(concat);

  // Ops with a layout attribute or axes, when their data is converted.
  Value data = op->getOperand(0);
  auto it = perms.find(data);
  unsigned numOperands = isa<BatchNormOp>(op) ? 5 : 1;
  if (it == perms.end() || op->getNumOperands() != numOperands) {
    restoreOperands(op);
    return success();
  }
  Permutation perm = it->second;
  MLIRContext *context = op->getContext();
  if (isa<MaxPool2DOp, AvgPool2DOp, AdaptiveAvgPool2DOp>(op)) {
    auto layout = op->getAttrOfType<StringAttr>("layout");
    auto outLayout = op->getAttrOfType<StringAttr>("out_layout");
    StringRef original = layout ? layout.getValue() : "NCHW";
    if ((outLayout && !outLayout.getValue().empty() &&
         outLayout.getValue() != original) ||
        original.size() != perm.size()) {
      restoreOperands(op);
      return success();
    }
    std::string physical;
    for (int64_t logical : perm)
      physical.push_back(original[logical]);
    op->setAttr("layout", StringAttr::get(context, physical));
    op->setAttr("out_layout", StringAttr::get(context, physical));
  } else if (auto norm = dyn_cast<BatchNormOp>(op)) {
    int64_t rank = perm.size();
    int64_t axis = norm.getAxis();
    if (axis < -rank || axis >= rank) {
      restoreOperands(op);
      return success();
    }
    norm.setAxis(physicalAxis(perm, axis < 0 ? axis + rank : axis));
  } else if (auto sum = dyn_cast<SumOp>(op)) {
    return convertReduction(op, sum.getAxisAttr(), sum.getKeepdims());
  } else if (auto mean = dyn_cast<MeanOp>(op)) {
    return convertReduction(op, mean.getAxisAttr(), mean.getKeepdims());
  } else if (auto max = dyn_cast<MaxOp>(op)) {
    return convertReduction(op, max.getAxisAttr(), max.getKeepdims());
  } else if (auto min = dyn_cast<MinOp>(op)) {
    return convertReduction(op, min.getAxisAttr(), min.getKeepdims());
  } else {
    restoreOperands(op);
    return success();
  }
  if (failed(inferResultTypes(op)))
    return failure();
  perms[op->getResult(0)] = perm;
  return success();
}

LogicalResult LayoutConverter::rewrite(func::FuncOp func) {
  // Defs before uses; the permute_dims created on the way are not visited.
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != func.getOperation() && !isa<DataflowOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    if (failed(visit(op)))
      return failure();
  return success();
}

struct ConvertLayoutPass
    : public mlc::relax::impl::RelaxConvertLayoutBase<ConvertLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto check = [&](StringRef layout, StringRef primal, StringRef what) {
      return mlc::nn::getLayoutPermutation(
          layout, primal, what, [&](const Twine &message) {
            module.emitError() << "relax-convert-layout: " << message;
          });
    };
    if (failed(check(dataLayout, "NCHW", "data-layout")) ||
        failed(check(kernelLayout, "OIHW", "kernel-layout")))
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      LayoutConverter converter(dataLayout, kernelLayout);
      if (failed(converter.rewrite(func)))
        return signalPassFailure();
    }
  }
};

} // namespace
