//===- ToMixedPrecision.cpp - float16/bfloat16 compute for float32 models -===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's ToMixedPrecision on relax ops in SSA form. The ops of a function are
// visited in order, defs before uses, and rewritten in place: an op's
// operands are replaced by casts, its result types inferred again. A value
// whose type changed remembers its original type, so that ops that must see
// the original types (the *never* policy, terminators, non-relax ops) get a
// cast back.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/StringSet.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXTOMIXEDPRECISION
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

enum class Policy { Always, Follow, Never };

/// TVM's TMixedPrecisionPolicy of `op` (kNever for ops TVM leaves
/// unregistered: softmax, the reductions, and everything not a relax op).
Policy getPolicy(Operation *op) {
  if (isa<MatmulOp, Conv2DOp, Conv2DTransposeOp, AttentionOp>(op))
    return Policy::Always;
  if (isa<AddOp, SubtractOp, MultiplyOp, DivideOp, PowerOp, MaximumOp,
          MinimumOp, LessOp, GreaterOp, LessEqualOp, GreaterEqualOp, EqualOp,
          NotEqualOp, ReluOp, LeakyReluOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
          TanhOp, SigmoidOp, ErfOp, AbsOp, NegativeOp, AstypeOp, ClipOp,
          WhereOp, PermuteDimsOp, ReshapeOp, ExpandDimsOp, SqueezeOp, SplitOp,
          StridedSliceOp, TakeOp, BroadcastToOp, ConcatOp, MaxPool2DOp,
          AvgPool2DOp, AdaptiveAvgPool2DOp, PadOp, BatchNormOp, LayerNormOp,
          InstanceNormOp, GroupNormOp, PReluOp, Resize2DOp>(op))
    return Policy::Follow;
  return Policy::Never;
}

/// Whether `op` only rearranges the elements of its first operand, so that
/// a cast commutes with it.
bool isDataMovement(Operation *op) {
  return isa<ReshapeOp, PermuteDimsOp, ExpandDimsOp, SqueezeOp, SplitOp>(op);
}

/// The element type of a tensor type, null for other types.
Type getElementType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return {};
}
Type getElementType(Value value) { return getElementType(value.getType()); }

RankedTensorType withElementType(Type type, Type element) {
  return cast<RankedTensorType>(type).clone(element);
}

/// The float type a TVM dtype name denotes, or null.
FloatType parseFloatDType(MLIRContext *context, StringRef name) {
  if (name == "float32")
    return Float32Type::get(context);
  if (name == "float16")
    return Float16Type::get(context);
  if (name == "bfloat16")
    return BFloat16Type::get(context);
  return {};
}

/// The values of a float constant (dense, or a dense_resource blob whose
/// size matches its type); nullopt when they cannot be read.
std::optional<SmallVector<APFloat>> readFloats(ElementsAttr value) {
  DenseElementsAttr dense = getDenseElements(value);
  if (!dense || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  // A splat is one value, whatever its element count (a fuzzed
  // tensor<1x2147483648xf32> splat ran out of memory here).
  if (dense.isSplat())
    return SmallVector<APFloat>{dense.getSplatValue<APFloat>()};
  auto values = dense.getValues<APFloat>();
  return SmallVector<APFloat>(values.begin(), values.end());
}

class MixedPrecisionRewriter {
public:
  MixedPrecisionRewriter(FloatType computeType, FloatType outType)
      : computeType(computeType), outType(outType),
        f32(Float32Type::get(computeType.getContext())),
        f16(Float16Type::get(computeType.getContext())) {}

  /// Rewrites every relax op of `func`. `halfInputs` are the parameters
  /// whose type becomes the compute type.
  LogicalResult rewrite(func::FuncOp func, ArrayRef<BlockArgument> halfInputs);

private:
  Type getOriginalType(Value value) const {
    auto it = originalTypes.find(value);
    return it == originalTypes.end() ? value.getType() : it->second;
  }
  /// Whether `element` is float32, float16 or the compute type: the only
  /// element types that are cast (as TVM: float64 and integers stay).
  bool isCastable(Type element) const {
    return element == f32 || element == f16 || element == computeType;
  }
  /// Whether `op` is an always op this pass converts: a result and float
  /// operands of castable types.
  bool isConvertedAlwaysOp(Operation *op) const;
  /// Whether `user` will compute in the compute type if `value`, one of
  /// its operands, is in it: an always op, or a follow op whose other float
  /// operands are in it already or constants that fit.
  bool computesInComputeType(Operation *user, Value value);

  Value createCast(OpBuilder &builder, Location loc, Value value, Type element);
  /// `value` in the compute type (casts of constants are computed).
  Value toComputeType(OpBuilder &builder, Operation *user, Value value);
  /// `value` with its original type.
  Value toOriginalType(OpBuilder &builder, Operation *user, Value value);
  /// Replaces `constant` by one with `element`-typed values (cached).
  Value castConstant(ConstantOp constant, FloatType element);
  /// Whether `value` is a constant whose values all fit the compute type.
  bool fitsComputeType(Value value);
  /// Casts a float32 `value` used only by always ops to the compute type
  /// once, after its definition.
  void castOnceIfOnlyForAlwaysOps(OpBuilder &builder, Value value);
  LogicalResult inferResultTypes(Operation *op);

  /// Moves the casts to the compute type above the data movement ops that
  /// feed only them (see the pass description).
  LogicalResult hoistCasts(func::FuncOp func);

  LogicalResult rewriteAlways(Operation *op);
  LogicalResult rewriteFollow(Operation *op);
  void rewriteNever(Operation *op);

  FloatType computeType, outType, f32, f16;
  DenseMap<Value, Type> originalTypes;
  DenseMap<std::pair<Operation *, Type>, Value> castConstants;
  DenseMap<Operation *, bool> constantFits;
};

bool MixedPrecisionRewriter::isConvertedAlwaysOp(Operation *op) const {
  // A result already in 16 bits is converted too (TVM sets every always
  // op's out_dtype): a float16 model's GEMMs then accumulate in out-dtype.
  if (op->getNumResults() != 1 ||
      !isCastable(getElementType(getOriginalType(op->getResult(0)))))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    Type element = getElementType(getOriginalType(operand));
    return element && (!isa<FloatType>(element) || isCastable(element));
  });
}

bool MixedPrecisionRewriter::computesInComputeType(Operation *user,
                                                   Value value) {
  switch (getPolicy(user)) {
  case Policy::Always:
    return isConvertedAlwaysOp(user);
  case Policy::Never:
    return false;
  case Policy::Follow:
    break;
  }
  if (auto astype = dyn_cast<AstypeOp>(user))
    return astype.getDtype() == computeType;
  return llvm::all_of(user->getOperands(), [&](Value operand) {
    Type element = getElementType(operand);
    return operand == value || !element || !isa<FloatType>(element) ||
           element == computeType ||
           (isCastable(element) && fitsComputeType(operand));
  });
}

Value MixedPrecisionRewriter::createCast(OpBuilder &builder, Location loc,
                                         Value value, Type element) {
  FailureOr<AstypeOp> astype = mlc::createInferred<AstypeOp>(
      builder, loc, value, TypeAttr::get(element));
  // Inference of astype only fails on non-tensors, which are never cast.
  return succeeded(astype) ? astype->getResult() : value;
}

Value MixedPrecisionRewriter::castConstant(ConstantOp constant,
                                           FloatType element) {
  auto key = std::make_pair(constant.getOperation(), Type(element));
  if (Value cached = castConstants.lookup(key))
    return cached;
  std::optional<SmallVector<APFloat>> values = readFloats(constant.getValue());
  if (!values)
    return {};
  for (APFloat &value : *values) {
    bool losesInfo = false;
    value.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  }
  auto type = withElementType(constant.getType(), element);
  ElementsAttr attr;
  if (values->size() == 1) {
    attr = DenseElementsAttr::get(type, values->front());
  } else if (auto resource =
                 dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    // Half-precision bits, little-endian like every blob mlc writes.
    unsigned bytes = element.getWidth() / 8;
    SmallVector<char> raw(values->size() * bytes);
    for (auto [i, value] : llvm::enumerate(*values)) {
      uint64_t bits = value.bitcastToAPInt().getZExtValue();
      for (unsigned b = 0; b < bytes; ++b)
        raw[i * bytes + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
    }
    std::string name = (resource.getRawHandle().getKey() + "_" +
                        (element.isF16() ? "f16" : "bf16"))
                           .str();
    attr = DenseResourceElementsAttr::get(
        type, name, HeapAsmResourceBlob::allocateAndCopyWithAlign(raw, bytes));
  } else {
    attr = DenseElementsAttr::get(type, *values);
  }
  OpBuilder builder(constant->getContext());
  builder.setInsertionPointAfter(constant);
  Value result = ConstantOp::create(builder, constant.getLoc(), attr);
  castConstants[key] = result;
  return result;
}

bool MixedPrecisionRewriter::fitsComputeType(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return false;
  auto [it, inserted] = constantFits.try_emplace(constant, false);
  if (!inserted)
    return it->second;
  std::optional<SmallVector<APFloat>> values = readFloats(constant.getValue());
  if (!values)
    return false;
  // TVM's rule for float16: every |x| <= 65504. bfloat16 has float32's
  // range.
  APFloat max = APFloat::getLargest(computeType.getFloatSemantics());
  bool losesInfo = false;
  max.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  it->second = llvm::all_of(*values, [&](APFloat v) {
    v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
    return !(std::abs(v.convertToDouble()) > max.convertToDouble());
  });
  return it->second;
}

Value MixedPrecisionRewriter::toComputeType(OpBuilder &builder, Operation *user,
                                            Value value) {
  Type element = getElementType(value);
  if (!element || element == computeType || !isCastable(element))
    return value;
  if (auto constant = value.getDefiningOp<ConstantOp>())
    if (Value cast = castConstant(constant, computeType))
      return cast;
  builder.setInsertionPoint(user);
  return createCast(builder, user->getLoc(), value, computeType);
}

Value MixedPrecisionRewriter::toOriginalType(OpBuilder &builder,
                                             Operation *user, Value value) {
  Type original = getOriginalType(value);
  if (original == value.getType())
    return value;
  builder.setInsertionPoint(user);
  return createCast(builder, user->getLoc(), value,
                    cast<RankedTensorType>(original).getElementType());
}

void MixedPrecisionRewriter::castOnceIfOnlyForAlwaysOps(OpBuilder &builder,
                                                        Value value) {
  if (getElementType(value) != f32 || value.use_empty() ||
      !llvm::all_of(value.getUsers(), [&](Operation *user) {
        return getPolicy(user) == Policy::Always && isConvertedAlwaysOp(user);
      }))
    return;
  if (auto arg = dyn_cast<BlockArgument>(value))
    builder.setInsertionPointToStart(arg.getOwner());
  else
    builder.setInsertionPointAfterValue(value);
  Value half = createCast(builder, value.getLoc(), value, computeType);
  value.replaceAllUsesExcept(half, half.getDefiningOp());
  originalTypes[half] = value.getType();
}

LogicalResult MixedPrecisionRewriter::inferResultTypes(Operation *op) {
  SmallVector<Type> types;
  if (failed(mlc::inferResultTypes(op, types)))
    return failure();
  for (auto [result, type] : llvm::zip_equal(op->getResults(), types)) {
    if (result.getType() == type)
      continue;
    originalTypes.try_emplace(result, result.getType());
    result.setType(type);
  }
  return success();
}

LogicalResult MixedPrecisionRewriter::rewriteAlways(Operation *op) {
  OpBuilder builder(op->getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    operand.set(toComputeType(builder, op, operand.get()));
  }
  // attention has no out_dtype: it accumulates 16-bit inputs in float32
  // and returns the input type (TVM's kAlways without an out_dtype).
  if (!isa<AttentionOp>(op))
    op->setAttr("out_dtype", TypeAttr::get(outType));
  if (failed(inferResultTypes(op)))
    return failure();
  Value result = op->getResult(0);
  if (getElementType(result) == computeType ||
      !llvm::any_of(result.getUsers(), [&](Operation *user) {
        return computesInComputeType(user, result);
      }))
    return success();
  // Stored in the compute type, as TVM does, for the ops that compute in it
  // (TVM stores it so even when no use does, which only loses precision).
  builder.setInsertionPointAfter(op);
  Value half = createCast(builder, op->getLoc(), result, computeType);
  result.replaceAllUsesExcept(half, half.getDefiningOp());
  originalTypes[half] = getOriginalType(result);
  return success();
}

LogicalResult MixedPrecisionRewriter::rewriteFollow(Operation *op) {
  OpBuilder builder(op->getContext());
  if (isa<AstypeOp>(op)) {
    // The result type is the op's dtype whatever the operand's.
    return success();
  }
  bool anyHalf = false, allHalf = true;
  for (Value operand : op->getOperands()) {
    Type element = getElementType(operand);
    if (!element || !isa<FloatType>(element))
      continue;
    if (element == computeType && !operand.getDefiningOp<ConstantOp>())
      anyHalf = true;
    else if (!(isCastable(element) && fitsComputeType(operand)))
      allHalf = false;
  }
  for (OpOperand &operand : op->getOpOperands())
    operand.set(anyHalf && allHalf
                    ? toComputeType(builder, op, operand.get())
                    : toOriginalType(builder, op, operand.get()));
  if (failed(inferResultTypes(op)))
    return failure();
  for (Value result : op->getResults())
    castOnceIfOnlyForAlwaysOps(builder, result);
  return success();
}

void MixedPrecisionRewriter::rewriteNever(Operation *op) {
  OpBuilder builder(op->getContext());
  for (OpOperand &operand : op->getOpOperands())
    operand.set(toOriginalType(builder, op, operand.get()));
  if (!isa<ConstantOp>(op) && op->getDialect() &&
      isa<RelaxDialect>(op->getDialect()))
    for (Value result : op->getResults())
      castOnceIfOnlyForAlwaysOps(builder, result);
}

LogicalResult
MixedPrecisionRewriter::rewrite(func::FuncOp func,
                                ArrayRef<BlockArgument> halfInputs) {
  OpBuilder builder(func.getContext());
  for (BlockArgument arg : halfInputs) {
    originalTypes[arg] = arg.getType();
    arg.setType(withElementType(arg.getType(), computeType));
  }
  // In reverse, so that the casts inserted at the start are in order.
  for (BlockArgument arg : llvm::reverse(func.getArguments()))
    castOnceIfOnlyForAlwaysOps(builder, arg);

  // Defs before uses; the casts created on the way are not visited.
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != func.getOperation())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (isa<DataflowOp>(op))
      continue;
    switch (getPolicy(op)) {
    case Policy::Always:
      if (isConvertedAlwaysOp(op)) {
        if (failed(rewriteAlways(op)))
          return failure();
        break;
      }
      rewriteNever(op);
      break;
    case Policy::Follow:
      if (failed(rewriteFollow(op)))
        return failure();
      break;
    case Policy::Never:
      rewriteNever(op);
      break;
    }
  }
  if (failed(hoistCasts(func)))
    return failure();
  // Constants whose every use now takes their cast copy.
  for (auto &[key, cast] : castConstants)
    if (key.first->use_empty())
      key.first->erase();
  castConstants.clear();
  if (!halfInputs.empty())
    func.setFunctionType(FunctionType::get(func.getContext(),
                                           func.getBody().getArgumentTypes(),
                                           func.getResultTypes()));
  return success();
}

LogicalResult MixedPrecisionRewriter::hoistCasts(func::FuncOp func) {
  // One level per round: a cast that moved up may move again.
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<Operation *> candidates;
    func.walk([&](Operation *op) {
      if (isDataMovement(op))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      Value data = op->getOperand(0);
      bool onlyCast = llvm::all_of(op->getResults(), [&](Value result) {
        return !result.use_empty() &&
               llvm::all_of(result.getUsers(), [&](Operation *user) {
                 auto astype = dyn_cast<AstypeOp>(user);
                 return astype && astype.getDtype() == computeType;
               });
      });
      if (!onlyCast || !data.hasOneUse() || getElementType(data) != f32)
        continue;
      OpBuilder builder(op);
      op->setOperand(0, createCast(builder, op->getLoc(), data, computeType));
      SmallVector<Type> types;
      if (failed(mlc::inferResultTypes(op, types)))
        return failure();
      for (auto [result, type] : llvm::zip_equal(op->getResults(), types)) {
        result.setType(type);
        for (Operation *cast : llvm::make_early_inc_range(result.getUsers())) {
          cast->getResult(0).replaceAllUsesWith(result);
          cast->erase();
        }
      }
      changed = true;
    }
  }
  return success();
}

struct ToMixedPrecisionPass
    : public mlc::relax::impl::RelaxToMixedPrecisionBase<ToMixedPrecisionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    FloatType computeType = parseFloatDType(context, computeDtype);
    if (!computeType || computeType.isF32()) {
      module.emitError() << "relax-to-mixed-precision: compute-dtype '"
                         << computeDtype << "' is not float16 or bfloat16";
      return signalPassFailure();
    }
    FloatType outType = parseFloatDType(context, outDtype);
    if (!outType || (!outType.isF32() && outType != computeType)) {
      module.emitError() << "relax-to-mixed-precision: out-dtype '" << outDtype
                         << "' is not float32 or the compute-dtype '"
                         << computeDtype << "'";
      return signalPassFailure();
    }

    // Parameters renamed to half precision, checked before anything changes.
    llvm::StringSet<> names;
    names.insert(fp16InputNames.begin(), fp16InputNames.end());
    llvm::StringSet<> found;
    SmallVector<std::pair<func::FuncOp, SmallVector<BlockArgument>>> funcs;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<BlockArgument> halfInputs;
      for (BlockArgument arg : func.getArguments()) {
        auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kParamNameAttr);
        if (!name || !names.contains(name.getValue()))
          continue;
        found.insert(name.getValue());
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || !type.getElementType().isF32()) {
          func.emitError() << "relax-to-mixed-precision: parameter '"
                           << name.getValue() << "' of @" << func.getSymName()
                           << " has type " << arg.getType()
                           << ", not a float32 tensor";
          return signalPassFailure();
        }
        halfInputs.push_back(arg);
      }
      if (!halfInputs.empty() &&
          !SymbolTable::symbolKnownUseEmpty(func.getSymNameAttr(), module)) {
        func.emitError() << "relax-to-mixed-precision: cannot change the "
                            "signature of @"
                         << func.getSymName()
                         << " (fp16-input-names), it is used in the module";
        return signalPassFailure();
      }
      funcs.emplace_back(func, std::move(halfInputs));
    }
    for (const std::string &name : fp16InputNames)
      if (!found.contains(name)) {
        module.emitError() << "relax-to-mixed-precision: fp16-input-names: "
                              "no function parameter is named '"
                           << name << "'";
        return signalPassFailure();
      }

    for (auto &[func, halfInputs] : funcs) {
      MixedPrecisionRewriter rewriter(computeType, outType);
      if (failed(rewriter.rewrite(func, halfInputs)))
        return signalPassFailure();
    }
  }
};

} // namespace
