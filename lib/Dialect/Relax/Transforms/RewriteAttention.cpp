//===- RewriteAttention.cpp - matmul-softmax-matmul to nn.attention -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Frontends spell attention out: `softmax(Q Kᵀ * c + bias) V` over
// (batch, heads, seq, dim) tensors from torch and ONNX, over
// (batch * heads, seq, dim) from Relay's batch_matmul. This pass finds those
// chains and replaces each by one `relax.nn.attention`, which the GPU
// schedule turns into a single flash-attention kernel instead of three
// kernels with the (S x S_kv) scores written to memory between them.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <optional>

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXREWRITEATTENTION
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

namespace {

/// The value of a float constant holding one value (rank 0, or every
/// element equal).
std::optional<double> getScalarFloat(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  DenseElementsAttr dense = getDenseElements(constant.getValue());
  if (!dense || !isa<FloatType>(dense.getElementType()) || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

/// Whether adding `value` to a finite score gives `value` back and removes
/// that score from the softmax: -inf, or the lowest finite value of its type
/// (torch.finfo(dtype).min, what HF-style masks fill in).
bool isMaskingValue(const APFloat &value) {
  if (value.isInfinity())
    return value.isNegative();
  return value.isNegative() && value.bitwiseIsEqual(APFloat::getLargest(
                                   value.getSemantics(), /*Negative=*/true));
}

/// Pieces of one matched attention chain.
struct AttentionChain {
  MatmulOp output;    // softmax(...) V
  Value query, keyT;  // the operands of Q Kᵀ, scale factors peeled off
  double scale = 1.0; // the product of the scale factors
  // Additive terms of the scores (each broadcasting to them) and masks: a
  // `where(cond, fill, scores)` with a masking fill contributes
  // `where(cond, fill, 0)`.
  SmallVector<Value> biases;
  struct Mask {
    Value condition, fill;
    bool fillWhereTrue;
  };
  SmallVector<Mask> masks;
  SmallVector<Operation *> ops; // everything matched, root last
};

/// Peels `x * c`, `c * x` and `x / c` with a scalar float constant `c` off
/// `value`, multiplying `chain.scale`.
Value peelScale(Value value, AttentionChain &chain) {
  while (Operation *op = value.getDefiningOp()) {
    if (!op->hasOneUse())
      break;
    std::optional<double> factor;
    Value rest;
    if (auto mul = dyn_cast<MultiplyOp>(op)) {
      if ((factor = getScalarFloat(mul.getRhs())))
        rest = mul.getLhs();
      else if ((factor = getScalarFloat(mul.getLhs())))
        rest = mul.getRhs();
    } else if (auto div = dyn_cast<DivideOp>(op)) {
      if ((factor = getScalarFloat(div.getRhs())) && *factor != 0.0) {
        factor = 1.0 / *factor;
        rest = div.getLhs();
      } else {
        factor.reset();
      }
    }
    // The factor must not broadcast the operand to a larger shape.
    if (!factor || rest.getType() != value.getType())
      break;
    chain.scale *= *factor;
    chain.ops.push_back(op);
    value = rest;
  }
  return value;
}

/// Whether `fill` is a constant masking value (see isMaskingValue).
bool isMaskingFill(Value fill) {
  auto constant = fill.getDefiningOp<ConstantOp>();
  DenseElementsAttr dense =
      constant ? getDenseElements(constant.getValue()) : nullptr;
  return dense && dense.isSplat() && isa<FloatType>(dense.getElementType()) &&
         isMaskingValue(dense.getSplatValue<APFloat>());
}

/// Matches the softmax operand `value` back to the Q Kᵀ matmul: additive
/// biases and masks outermost, then scale factors, as the frontends emit
/// them (a scale outside a bias would scale the bias too).
bool matchScores(Value value, AttentionChain &chain) {
  Operation *op = value.getDefiningOp();
  if (op && !op->hasOneUse())
    return false;
  Type type = value.getType();
  if (auto add = dyn_cast_or_null<AddOp>(op)) {
    // Either operand may be the scores, the other broadcasting to them.
    for (auto [scores, bias] : {std::pair(add.getLhs(), add.getRhs()),
                                std::pair(add.getRhs(), add.getLhs())}) {
      if (scores.getType() != type)
        continue;
      AttentionChain trial = chain;
      trial.ops.push_back(op);
      trial.biases.push_back(bias);
      if (matchScores(scores, trial)) {
        chain = std::move(trial);
        return true;
      }
    }
    return false;
  }
  if (auto where = dyn_cast_or_null<WhereOp>(op)) {
    Value x = where.getX(), y = where.getY();
    bool fillWhereTrue = isMaskingFill(x) && y.getType() == type;
    if (!fillWhereTrue && !(isMaskingFill(y) && x.getType() == type))
      return false;
    chain.ops.push_back(op);
    chain.masks.push_back(
        {where.getCondition(), fillWhereTrue ? x : y, fillWhereTrue});
    return matchScores(fillWhereTrue ? y : x, chain);
  }
  value = peelScale(value, chain);
  auto matmul = value.getDefiningOp<MatmulOp>();
  if (!matmul || !matmul->hasOneUse() || matmul.getOutDtype())
    return false;
  chain.ops.push_back(matmul);
  chain.query = peelScale(matmul.getLhs(), chain);
  chain.keyT = peelScale(matmul.getRhs(), chain);
  return true;
}

/// Whether the dimensions `dims` of `a` and `b` are provably equal.
bool sameDims(RankedTensorType a, RankedTensorType b, ArrayRef<unsigned> dims) {
  SymbolScope scope(a.getContext());
  SymShape sa = getSymbolicShape(a, scope), sb = getSymbolicShape(b, scope);
  return llvm::all_of(dims, [&](unsigned d) {
    return d < sa.size() && d < sb.size() && sa[d] && sa[d] == sb[d];
  });
}

/// Matches `root` as the `softmax(scores) V` matmul of an attention chain.
std::optional<AttentionChain> matchAttention(MatmulOp root) {
  AttentionChain chain;
  chain.output = root;
  auto softmax = root.getLhs().getDefiningOp<SoftmaxOp>();
  if (!softmax || !softmax->hasOneUse() || root.getOutDtype())
    return std::nullopt;
  auto probs = cast<RankedTensorType>(softmax.getType());
  int64_t rank = probs.getRank();
  auto axis = static_cast<int64_t>(softmax.getAxis());
  if ((rank != 3 && rank != 4) || (axis != -1 && axis != rank - 1))
    return std::nullopt;
  chain.ops.push_back(softmax);
  // attention takes a finite scale (NaN or infinite factors, or a product
  // that overflows, stay as they are).
  if (!matchScores(softmax.getData(), chain) || !std::isfinite(chain.scale))
    return std::nullopt;
  // Q (.., S, H), Kᵀ (.., H, S_kv), V (.., S_kv, H_v), batch dimensions
  // equal (attention does not broadcast them), one float type.
  auto q = cast<RankedTensorType>(chain.query.getType());
  auto kT = cast<RankedTensorType>(chain.keyT.getType());
  auto v = cast<RankedTensorType>(root.getRhs().getType());
  Type element = q.getElementType();
  if (q.getRank() != rank || kT.getRank() != rank || v.getRank() != rank ||
      kT.getElementType() != element || v.getElementType() != element ||
      probs.getElementType() != element ||
      !(element.isF16() || element.isBF16() || element.isF32()))
    return std::nullopt;
  SmallVector<unsigned> batch =
      rank == 4 ? SmallVector<unsigned>{0, 1} : SmallVector<unsigned>{0};
  if (!sameDims(q, kT, batch) || !sameDims(q, v, batch))
    return std::nullopt;
  for (Value bias : chain.biases) {
    auto type = cast<RankedTensorType>(bias.getType());
    if (type.getElementType() != element || type.getRank() > rank)
      return std::nullopt;
  }
  for (const AttentionChain::Mask &mask : chain.masks) {
    auto type = cast<RankedTensorType>(mask.condition.getType());
    if (type.getRank() > rank ||
        cast<RankedTensorType>(mask.fill.getType()).getElementType() != element)
      return std::nullopt;
  }
  chain.ops.push_back(root);
  return chain;
}

/// Whether `masked(i, j)` over the static (S, S_kv) is exactly the causal
/// mask j > i + S_kv - S (attention's "BottomRight"; "TopLeft" when S ==
/// S_kv).
template <typename Pred> bool isCausal(int64_t s, int64_t sKv, Pred masked) {
  for (int64_t i = 0; i < s; ++i)
    for (int64_t j = 0; j < sKv; ++j)
      if (masked(i, j) != (j > i + sKv - s))
        return false;
  return true;
}

/// Largest constant mask examined for the causal pattern.
constexpr int64_t kMaxMaskElements = int64_t(1) << 24;

/// Whether `dense` is (.., S, S_kv) with unit leading dimensions, one
/// (S x S_kv) mask for every batch and head, and small enough to examine.
bool isOneMask(DenseElementsAttr dense, int64_t s, int64_t sKv) {
  ArrayRef<int64_t> shape = dense.getType().getShape();
  return shape.size() >= 2 && shape.end()[-2] == s && shape.back() == sKv &&
         dense.getNumElements() <= kMaxMaskElements &&
         llvm::all_of(shape.drop_back(2), [](int64_t d) { return d == 1; });
}

/// Whether `bias` is a constant of 0 and masking values in the causal
/// pattern over the scores (.., S, S_kv).
bool isCausalBias(Value bias, int64_t s, int64_t sKv) {
  auto constant = bias.getDefiningOp<ConstantOp>();
  DenseElementsAttr dense =
      constant ? getDenseElements(constant.getValue()) : nullptr;
  if (!dense || !isa<FloatType>(dense.getElementType()) ||
      !isOneMask(dense, s, sKv))
    return false;
  auto values = llvm::to_vector(dense.getValues<APFloat>());
  if (!llvm::all_of(values, [](const APFloat &x) {
        return x.isZero() || isMaskingValue(x);
      }))
    return false;
  return isCausal(s, sKv, [&](int64_t i, int64_t j) {
    return isMaskingValue(values[i * sKv + j]);
  });
}

/// Whether `mask` masks the causal pattern over the scores (.., S, S_kv).
bool isCausalMask(const AttentionChain::Mask &mask, int64_t s, int64_t sKv) {
  auto constant = mask.condition.getDefiningOp<ConstantOp>();
  auto dense =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!dense || !isOneMask(dense, s, sKv))
    return false;
  auto values = llvm::to_vector(dense.getValues<bool>());
  return isCausal(s, sKv, [&](int64_t i, int64_t j) {
    return values[i * sKv + j] == mask.fillWhereTrue;
  });
}

/// Folds `op` as far as it goes (each fold composes it with one more
/// permutation above it); the value replacing it when it becomes the
/// identity, else `op` itself.
Value foldPermute(PermuteDimsOp op) {
  SmallVector<OpFoldResult> folded;
  while (succeeded(op->fold(folded))) {
    // An in-place fold succeeds with no results.
    if (folded.empty())
      continue;
    auto result = dyn_cast<Value>(folded.front());
    if (!result)
      break;
    op.getResult().replaceAllUsesWith(result);
    op->erase();
    return result;
  }
  return op;
}

/// `permute_dims(value, axes)`, composed with the permutations producing
/// `value` (the heads' transposes of the frontends cancel out); `value`
/// itself when that is the identity.
Value createPermute(OpBuilder &builder, Location loc, Value value,
                    ArrayRef<int64_t> axes) {
  return foldPermute(PermuteDimsOp::create(builder, loc, value,
                                           builder.getDenseI64ArrayAttr(axes)));
}

/// Builds the attention op for `chain` before its root and replaces the
/// root's uses.
void rewrite(AttentionChain &chain) {
  MatmulOp root = chain.output;
  OpBuilder builder(root);
  Location loc = root.getLoc();
  auto probs = cast<RankedTensorType>(root.getLhs().getType());
  int64_t rank = probs.getRank();
  bool heads = rank == 4;
  // To the (B, S, N, H) layout: (B, N, S, H) transposed, (B·N, S, H) with a
  // unit head dimension.
  auto toBSNH = [&](Value x) -> Value {
    if (heads)
      return createPermute(builder, loc, x, {0, 2, 1, 3});
    return ExpandDimsOp::create(builder, loc, x,
                                builder.getDenseI64ArrayAttr({2}));
  };
  Value key = createPermute(builder, loc, chain.keyT,
                            heads ? ArrayRef<int64_t>{0, 1, 3, 2}
                                  : ArrayRef<int64_t>{0, 2, 1});
  Value q = toBSNH(chain.query), k = toBSNH(key), v = toBSNH(root.getRhs());

  int64_t s = probs.getDimSize(rank - 2), sKv = probs.getDimSize(rank - 1);
  bool staticScores = !ShapedType::isDynamic(s) && !ShapedType::isDynamic(sKv);
  StringAttr causal;
  auto causalName = [&] {
    return builder.getStringAttr(s == sKv ? "TopLeft" : "BottomRight");
  };
  // The terms of the bias, the causal one dropped for the causal mask.
  SmallVector<Value> terms;
  for (Value bias : chain.biases) {
    if (!causal && staticScores && isCausalBias(bias, s, sKv))
      causal = causalName();
    else
      terms.push_back(bias);
  }
  Type element = probs.getElementType();
  for (const AttentionChain::Mask &mask : chain.masks) {
    if (!causal && staticScores && isCausalMask(mask, s, sKv)) {
      causal = causalName();
      continue;
    }
    auto zeroType = RankedTensorType::get({}, element);
    Value zero = ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(zeroType, builder.getZeroAttr(element)));
    terms.push_back(
        mask.fillWhereTrue
            ? WhereOp::create(builder, loc, mask.condition, mask.fill, zero)
                  .getResult()
            : WhereOp::create(builder, loc, mask.condition, zero, mask.fill)
                  .getResult());
  }
  Value bias;
  for (Value term : terms)
    bias = bias ? AddOp::create(builder, loc, bias, term).getResult() : term;
  // attention's bias is (B, N, S, S_kv); Relay's (B·N, S, S_kv) gains the
  // unit head dimension.
  if (bias && !heads && cast<RankedTensorType>(bias.getType()).getRank() == 3)
    bias = ExpandDimsOp::create(builder, loc, bias,
                                builder.getDenseI64ArrayAttr({1}));

  FloatAttr scale = builder.getF64FloatAttr(chain.scale);
  Value attention =
      AttentionOp::create(builder, loc, q, k, v, bias, scale, causal);
  Value result = heads ? createPermute(builder, loc, attention, {0, 2, 1, 3})
                       : SqueezeOp::create(builder, loc, attention,
                                           builder.getDenseI64ArrayAttr({2}))
                             .getResult();
  root.getResult().replaceAllUsesWith(result);
  // The frontends transpose the heads back: that permutation now cancels.
  for (Operation *user : llvm::make_early_inc_range(result.getUsers()))
    if (auto permute = dyn_cast<PermuteDimsOp>(user))
      foldPermute(permute);
  if (result.use_empty() && result != attention)
    result.getDefiningOp()->erase();
}

/// Erases `ops` (root last) and whatever became dead above them.
void eraseChain(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> worklist(ops.rbegin(), ops.rend());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
    op->dropAllUses();
    op->erase();
    // A producer may be queued twice: drop the stale copies.
    llvm::erase(worklist, op);
  }
}

struct RewriteAttentionPass
    : public mlc::relax::impl::RelaxRewriteAttentionBase<RewriteAttentionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    for (const std::string &name : elementTypes) {
      Type type = llvm::StringSwitch<Type>(name)
                      .Case("f16", Float16Type::get(context))
                      .Case("bf16", BFloat16Type::get(context))
                      .Case("f32", Float32Type::get(context))
                      .Default(nullptr);
      if (!type)
        return emitError(UnknownLoc::get(context))
               << "relax-rewrite-attention: unknown element type '" << name
               << "' in element-types (expected f16, bf16 or f32)";
      allowedTypes.push_back(type);
    }
    return success();
  }

  void runOnOperation() override {
    SmallVector<MatmulOp> roots;
    getOperation()->walk([&](MatmulOp op) { roots.push_back(op); });
    for (MatmulOp root : roots) {
      std::optional<AttentionChain> chain = matchAttention(root);
      if (!chain || (!allowedTypes.empty() &&
                     !llvm::is_contained(allowedTypes,
                                         getElementTypeOrSelf(root.getType()))))
        continue;
      rewrite(*chain);
      eraseChain(chain->ops);
    }
  }

  SmallVector<Type> allowedTypes;
};

} // namespace
