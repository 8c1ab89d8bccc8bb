//===- LegalizeAttention.cpp - relax.nn.attention kernel ------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The kernel of relax.nn.attention, in the stages of TVM's legalization
// (relax/transform/legalize_ops/nn.py, _te_attention): the scores
// Q Kᵀ per batch and head, scaled, biased and masked, a numerically stable
// softmax (max, exp, sum) and the product with V, normalized at the end
// (one division per output element instead of one per score). The layout
// transposes of TVM's version are folded into the indices. 16-bit inputs
// accumulate in float32. The GPU default schedule recognizes these stages
// and replaces them by one fused (flash-attention) kernel.
//
//===----------------------------------------------------------------------===//

#include "Legalizations.h"

#include "mlc/Dialect/Relax/IR/Relax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;
using namespace mlc::tensorir;

static LogicalResult buildAttention(relax::AttentionOp op,
                                    PrimFuncBuilder &kernel, ValueRange inputs,
                                    ValueRange outputs) {
  Value q = inputs[0], k = inputs[1], v = inputs[2], out = outputs[0];
  Value bias = op.getBias() ? inputs[3] : Value();
  OpBuilder &builder = kernel.getBuilder();
  Type type = getElementType(q);
  Type accType =
      type.getIntOrFloatBitWidth() < 32 ? builder.getF32Type() : type;
  SmallVector<OpFoldResult> qSizes = kernel.getSizes(q);
  SmallVector<OpFoldResult> kSizes = kernel.getSizes(k);
  SmallVector<OpFoldResult> vSizes = kernel.getSizes(v);
  // (B, N, S, S_kv), (B, N, S) and (B, N, S, H_v).
  SmallVector<OpFoldResult> scoreSizes{qSizes[0], qSizes[2], qSizes[1],
                                       kSizes[1]};
  SmallVector<OpFoldResult> rowSizes{qSizes[0], qSizes[2], qSizes[1]};
  SmallVector<OpFoldResult> outSizes{qSizes[0], qSizes[2], qSizes[1],
                                     vSizes[3]};
  auto extend = [&](OpBuilder &b, Location loc, Value x) {
    return x.getType() == accType ? x
                                  : arith::ExtFOp::create(b, loc, accType, x);
  };

  auto zero = [&](OpBuilder &b, Location loc) {
    return createScalarConstant(b, loc, accType, 0);
  };

  // S[b, n, i, j] = sum_d Q[b, i, n, d] K[b, j, n, d].
  Value qk = allocTemp(kernel, scoreSizes, accType, "T_attention_qk");
  kernel.reduce(
      "T_attention_qk", qk, {qSizes[3]}, zero,
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        Value x = load(b, loc, q, {iv[0], iv[2], iv[1], iv[4]});
        Value y = load(b, loc, k, {iv[0], iv[3], iv[1], iv[4]});
        return createMul(b, loc, extend(b, loc, x), extend(b, loc, y));
      },
      createAdd);

  // T = S * scale (+ bias); masked scores are -inf.
  std::optional<double> scale;
  if (FloatAttr attr = op.getScaleAttr())
    scale = attr.getValueAsDouble();
  StringRef mask = op.getCausalMask().value_or("");
  Value scores = allocTemp(kernel, scoreSizes, accType, "T_attention_scores");
  kernel.compute(
      "T_attention_scores", scores,
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        Value factor;
        if (scale) {
          factor = createScalarConstant(b, loc, accType, *scale);
        } else {
          // 1 / sqrt(H), H possibly dynamic.
          Value h = arith::IndexCastUIOp::create(
              b, loc, b.getI64Type(), materializeIndex(b, loc, qSizes[3]));
          Value hf = arith::UIToFPOp::create(b, loc, accType, h);
          factor = math::RsqrtOp::create(b, loc, hf);
        }
        Value score = createMul(b, loc, load(b, loc, qk, iv), factor);
        if (bias)
          score =
              createAdd(b, loc, score,
                        extend(b, loc,
                               load(b, loc, bias,
                                    getBroadcastIndices(b, loc, bias, iv))));
        if (mask.empty())
          return score;
        // Key j is visible from query i when j <= i + offset.
        Value limit = iv[2];
        if (mask == "BottomRight") {
          Value offset =
              arith::SubIOp::create(b, loc, materializeIndex(b, loc, kSizes[1]),
                                    materializeIndex(b, loc, qSizes[1]));
          limit = arith::AddIOp::create(b, loc, limit, offset);
        }
        Value visible = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                              iv[3], limit);
        return arith::SelectOp::create(b, loc, visible, score,
                                       createLowestValue(b, loc, accType))
            .getResult();
      });

  Value rowMax = allocTemp(kernel, rowSizes, accType, "T_attention_max");
  kernel.reduce(
      "T_attention_max", rowMax, {kSizes[1]},
      [&](OpBuilder &b, Location loc) {
        return createLowestValue(b, loc, accType);
      },
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        return load(b, loc, scores, iv);
      },
      createMax);
  Value exp = allocTemp(kernel, scoreSizes, accType, "T_attention_exp");
  kernel.compute("T_attention_exp", exp,
                 [&](OpBuilder &b, Location loc, ValueRange iv) {
                   Value x = load(b, loc, scores, iv);
                   Value max = load(b, loc, rowMax, iv.take_front(3));
                   return math::ExpOp::create(b, loc, createSub(b, loc, x, max))
                       .getResult();
                 });
  Value rowSum = allocTemp(kernel, rowSizes, accType, "T_attention_sum");
  kernel.reduce(
      "T_attention_sum", rowSum, {kSizes[1]}, zero,
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        return load(b, loc, exp, iv);
      },
      createAdd);

  // O[b, n, i, e] = sum_j E[b, n, i, j] V[b, j, n, e], then divided by the
  // row sum into the output's layout.
  Value pv = allocTemp(kernel, outSizes, accType, "T_attention_pv");
  kernel.reduce(
      "T_attention_pv", pv, {kSizes[1]}, zero,
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        Value p = load(b, loc, exp, {iv[0], iv[1], iv[2], iv[4]});
        Value y = load(b, loc, v, {iv[0], iv[4], iv[1], iv[3]});
        return createMul(b, loc, p, extend(b, loc, y));
      },
      createAdd);
  kernel.compute(
      "T_attention", out, [&](OpBuilder &b, Location loc, ValueRange iv) {
        Value o = load(b, loc, pv, {iv[0], iv[2], iv[1], iv[3]});
        Value sum = load(b, loc, rowSum, {iv[0], iv[2], iv[1]});
        Value result = createDiv(b, loc, o, sum);
        return result.getType() == type
                   ? result
                   : arith::TruncFOp::create(b, loc, type, result).getResult();
      });
  return success();
}

void mlc::legalize::populateAttentionLegalizations(LegalizationTable &table) {
  table.add<relax::AttentionOp>(buildAttention);
}
