//===- ConvertElementwise.cpp - ONNX elementwise ops to relax ---*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Unary and binary math, comparisons, logic, activations (those relax lacks
// are composed from relax ops, as TVM's from_onnx does), Cast, Clip, Where.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::onnx_import;

namespace {

template <const char *RelaxName> LogicalResult convertUnary(NodeContext &node) {
  return define(node, node.op(RelaxName, {node.input(0)}));
}

/// Binary ops broadcast multidirectionally, as relax's do.
template <const char *RelaxName>
LogicalResult convertBinary(NodeContext &node) {
  return define(node, node.op(RelaxName, {node.input(0), node.input(1)}));
}

/// Max, Min, Sum (and Mean): a chain over all inputs.
template <const char *RelaxName, bool IsMean = false>
LogicalResult convertVariadic(NodeContext &node) {
  if (node.getNumInputs() == 0)
    return node.error() << "needs at least one input";
  Value acc = node.input(0);
  for (unsigned i = 1; i < node.getNumInputs(); ++i) {
    FailureOr<Value> next = node.op(RelaxName, {acc, node.input(i)});
    if (failed(next))
      return failure();
    acc = *next;
  }
  if (IsMean && node.getNumInputs() > 1) {
    Type elementType = node.inputType(0).getElementType();
    FailureOr<Value> mean =
        node.op("divide", {acc, node.scalar(node.getNumInputs(), elementType)});
    if (failed(mean))
      return failure();
    acc = *mean;
  }
  node.setOutput(0, acc);
  return success();
}

Type getElementType(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

LogicalResult convertPow(NodeContext &node) {
  Value base = node.input(0), exponent = node.input(1);
  // Opset 12+ allows an exponent of another type.
  if (getElementType(exponent) != getElementType(base)) {
    FailureOr<Value> cast =
        node.op("astype", {exponent},
                {node.attr("dtype", TypeAttr::get(getElementType(base)))});
    if (failed(cast))
      return failure();
    exponent = *cast;
  }
  return define(node, node.op("power", {base, exponent}));
}

/// Mod: fmod = 0 is the integer remainder with the divisor's sign (Python's
/// %), fmod = 1 C's fmod with the dividend's sign (required for floats).
LogicalResult convertMod(NodeContext &node) {
  FailureOr<int64_t> fmod = node.getInt("fmod", 0);
  if (failed(fmod))
    return failure();
  if (*fmod != 0 && *fmod != 1)
    return node.error() << "attribute 'fmod' must be 0 or 1, got " << *fmod;
  Type t = getElementType(node.input(0));
  if (*fmod == 0 && isa<FloatType>(t))
    return node.error() << "attribute 'fmod' must be 1 for floating-point "
                           "inputs, got 0 with "
                        << t;
  return define(node, node.op(*fmod ? "mod" : "floor_mod",
                              {node.input(0), node.input(1)}));
}

/// IsInf: isinf(x), restricted to one sign when detect_negative or
/// detect_positive is 0 (and(a, b) as where(a, b, a), see convertAnd).
LogicalResult convertIsInf(NodeContext &node) {
  FailureOr<int64_t> negative = node.getInt("detect_negative", 1);
  FailureOr<int64_t> positive = node.getInt("detect_positive", 1);
  if (failed(negative) || failed(positive))
    return failure();
  Value x = node.input(0);
  Value zero = node.scalar(0, getElementType(x));
  if (!*negative && !*positive)
    return define(node, node.op("less", {x, x})); // All false, NaN included.
  FailureOr<Value> inf = node.op("isinf", {x});
  if (failed(inf) || (*negative && *positive))
    return define(node, inf);
  FailureOr<Value> sign = node.op(*positive ? "greater" : "less", {x, zero});
  if (failed(sign))
    return failure();
  return define(node, node.op("where", {*inf, *sign, *inf}));
}

LogicalResult convertDiv(NodeContext &node) {
  return convertBinary<kDivide>(node);
}

// Logic on i1 tensors through where / comparisons (relax has no logical
// ops): and(a, b) = where(a, b, a), or(a, b) = where(a, a, b),
// xor = not_equal, not(a) = equal(a, false).
LogicalResult convertAnd(NodeContext &node) {
  return define(
      node, node.op("where", {node.input(0), node.input(1), node.input(0)}));
}

LogicalResult convertOr(NodeContext &node) {
  return define(
      node, node.op("where", {node.input(0), node.input(0), node.input(1)}));
}

LogicalResult convertXor(NodeContext &node) {
  return convertBinary<kNotEqual>(node);
}

LogicalResult convertNot(NodeContext &node) {
  Value x = node.input(0);
  return define(node, node.op("equal", {x, node.scalar(0, getElementType(x))}));
}

/// where(x > 0 or the like, a, b) helper: `select(cond, a, b)`.
FailureOr<Value> select(NodeContext &node, Value cond, Value a, Value b) {
  return node.op("where", {cond, a, b});
}

LogicalResult convertReciprocal(NodeContext &node) {
  Value x = node.input(0);
  return define(node,
                node.op("divide", {node.scalar(1, getElementType(x)), x}));
}

LogicalResult convertLeakyRelu(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 0.01);
  if (failed(alpha))
    return failure();
  return define(node, node.op("nn.leaky_relu", {node.input(0)},
                              {node.f64("alpha", *alpha)}));
}

/// x * scale + offset as relax ops (skipping identities).
FailureOr<Value> affine(NodeContext &node, Value x, double scale,
                        double offset) {
  Type t = getElementType(x);
  if (scale != 1.0) {
    FailureOr<Value> scaled = node.op("multiply", {x, node.scalar(scale, t)});
    if (failed(scaled))
      return failure();
    x = *scaled;
  }
  if (offset != 0.0) {
    FailureOr<Value> shifted = node.op("add", {x, node.scalar(offset, t)});
    if (failed(shifted))
      return failure();
    x = *shifted;
  }
  return x;
}

/// Elu / Selu / Celu: where(x > 0, gamma * x, gamma * alpha * (exp(x / a) -
/// 1)) with the constants of each.
LogicalResult convertExponentialUnit(NodeContext &node, double alpha,
                                     double gamma, double divisor) {
  Value x = node.input(0);
  Type t = getElementType(x);
  FailureOr<Value> positive = node.op("greater", {x, node.scalar(0, t)});
  FailureOr<Value> scaledX = affine(node, x, 1.0 / divisor, 0);
  if (failed(positive) || failed(scaledX))
    return failure();
  FailureOr<Value> exp = node.op("exp", {*scaledX});
  if (failed(exp))
    return failure();
  FailureOr<Value> negative = affine(node, *exp, gamma * alpha, -gamma * alpha);
  FailureOr<Value> linear = affine(node, x, gamma, 0);
  if (failed(negative) || failed(linear))
    return failure();
  return define(node, select(node, *positive, *linear, *negative));
}

LogicalResult convertElu(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 1.0);
  if (failed(alpha))
    return failure();
  return convertExponentialUnit(node, *alpha, 1.0, 1.0);
}

LogicalResult convertSelu(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 1.67326319217681884765625);
  FailureOr<double> gamma = node.getFloat("gamma", 1.05070102214813232421875);
  if (failed(alpha) || failed(gamma))
    return failure();
  return convertExponentialUnit(node, *alpha, *gamma, 1.0);
}

LogicalResult convertCelu(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 1.0);
  if (failed(alpha))
    return failure();
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) is the same as Elu's
  // form with the exponent divided by alpha.
  return convertExponentialUnit(node, *alpha, 1.0, *alpha);
}

LogicalResult convertThresholdedRelu(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 1.0);
  if (failed(alpha))
    return failure();
  Value x = node.input(0);
  Type t = getElementType(x);
  FailureOr<Value> above = node.op("greater", {x, node.scalar(*alpha, t)});
  if (failed(above))
    return failure();
  return define(node, select(node, *above, x, node.scalar(0, t)));
}

/// HardSigmoid: clip(alpha * x + beta, 0, 1); HardSwish: x * HardSigmoid
/// with alpha = 1/6, beta = 1/2.
FailureOr<Value> hardSigmoid(NodeContext &node, Value x, double alpha,
                             double beta) {
  FailureOr<Value> linear = affine(node, x, alpha, beta);
  if (failed(linear))
    return failure();
  return node.op("clip", {*linear},
                 {node.f64("min", 0.0), node.f64("max", 1.0)});
}

LogicalResult convertHardSigmoid(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 0.2);
  FailureOr<double> beta = node.getFloat("beta", 0.5);
  if (failed(alpha) || failed(beta))
    return failure();
  return define(node, hardSigmoid(node, node.input(0), *alpha, *beta));
}

LogicalResult convertHardSwish(NodeContext &node) {
  Value x = node.input(0);
  FailureOr<Value> gate = hardSigmoid(node, x, 1.0 / 6.0, 0.5);
  if (failed(gate))
    return failure();
  return define(node, node.op("multiply", {x, *gate}));
}

/// Softplus: log(exp(x) + 1); Softsign: x / (1 + |x|).
LogicalResult convertSoftplus(NodeContext &node) {
  Value x = node.input(0);
  FailureOr<Value> exp = node.op("exp", {x});
  if (failed(exp))
    return failure();
  FailureOr<Value> shifted = affine(node, *exp, 1.0, 1.0);
  if (failed(shifted))
    return failure();
  return define(node, node.op("log", {*shifted}));
}

LogicalResult convertSoftsign(NodeContext &node) {
  Value x = node.input(0);
  FailureOr<Value> abs = node.op("abs", {x});
  if (failed(abs))
    return failure();
  FailureOr<Value> denominator = affine(node, *abs, 1.0, 1.0);
  if (failed(denominator))
    return failure();
  return define(node, node.op("divide", {x, *denominator}));
}

/// PRelu: where(x < 0, slope * x, x); the slope broadcasts to x
/// (unidirectionally).
LogicalResult convertPRelu(NodeContext &node) {
  Value x = node.input(0), slope = node.input(1);
  Type t = getElementType(x);
  // A per-channel slope [C] of NC... data (PyTorch's exports before opset
  // 7 broadcast it along axis 1): shaped [C, 1, ...].
  RankedTensorType xType = node.inputType(0), slopeType = node.inputType(1);
  if (slopeType.getRank() == 1 && xType.getRank() > 2 &&
      slopeType.getDimSize(0) == xType.getDimSize(1) &&
      slopeType.getDimSize(0) != xType.getDimSize(xType.getRank() - 1)) {
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < xType.getRank(); ++i)
      axes.push_back(i - 1);
    FailureOr<Value> shaped =
        node.op("expand_dims", {slope}, {node.i64s("axis", axes)});
    if (failed(shaped))
      return failure();
    slope = *shaped;
  }
  FailureOr<Value> negative = node.op("less", {x, node.scalar(0, t)});
  FailureOr<Value> scaled = node.op("multiply", {x, slope});
  if (failed(negative) || failed(scaled))
    return failure();
  return define(node, select(node, *negative, *scaled, x));
}

/// Sign: where(x > 0, 1, where(x < 0, -1, 0)).
LogicalResult convertSign(NodeContext &node) {
  Value x = node.input(0);
  Type t = getElementType(x);
  FailureOr<Value> positive = node.op("greater", {x, node.scalar(0, t)});
  FailureOr<Value> negative = node.op("less", {x, node.scalar(0, t)});
  if (failed(positive) || failed(negative))
    return failure();
  FailureOr<Value> inner =
      select(node, *negative, node.scalar(-1, t), node.scalar(0, t));
  if (failed(inner))
    return failure();
  FailureOr<Value> zeroLike = node.op("multiply", {x, node.scalar(0, t)});
  if (failed(zeroLike))
    return failure();
  // where(...) of scalars is 0-d: add x * 0 for x's shape.
  FailureOr<Value> result = select(node, *positive, node.scalar(1, t), *inner);
  if (failed(result))
    return failure();
  FailureOr<Value> shaped = node.op("add", {*result, *zeroLike});
  if (failed(shaped))
    return failure();
  node.setOutput(0, *shaped);
  return success();
}

LogicalResult convertCast(NodeContext &node) {
  FailureOr<int64_t> to = node.getInt("to", 0);
  if (failed(to))
    return failure();
  Type elementType = onnx_import::getElementType(node.getContext(), *to);
  if (!elementType)
    return node.error() << "unsupported target element type (ONNX data type "
                        << *to << ")";
  return define(node,
                node.op("astype", {node.input(0)},
                        {node.attr("dtype", TypeAttr::get(elementType))}));
}

LogicalResult convertCastLike(NodeContext &node) {
  return define(node, node.op("astype", {node.input(0)},
                              {node.attr("dtype", TypeAttr::get(getElementType(
                                                      node.input(1))))}));
}

LogicalResult emitClip(NodeContext &node, std::optional<double> min,
                       std::optional<double> max) {
  Value x = node.input(0);
  Type t = getElementType(x);
  auto lowest = isa<FloatType>(t) ? -std::numeric_limits<double>::infinity()
                                  : double(std::numeric_limits<int64_t>::min());
  auto highest = isa<FloatType>(t)
                     ? std::numeric_limits<double>::infinity()
                     : double(std::numeric_limits<int64_t>::max());
  return define(node, node.op("clip", {x},
                              {node.f64("min", min.value_or(lowest)),
                               node.f64("max", max.value_or(highest))}));
}

/// Clip before opset 11: bounds are attributes.
LogicalResult convertClip1(NodeContext &node) {
  std::optional<double> min, max;
  if (node.hasAttr("min")) {
    FailureOr<double> v = node.getFloat("min", 0);
    if (failed(v))
      return failure();
    min = *v;
  }
  if (node.hasAttr("max")) {
    FailureOr<double> v = node.getFloat("max", 0);
    if (failed(v))
      return failure();
    max = *v;
  }
  return emitClip(node, min, max);
}

/// Clip from opset 11: bounds are optional inputs. Constant bounds become
/// relax.clip; others maximum / minimum.
LogicalResult convertClip11(NodeContext &node) {
  Value x = node.input(0);
  std::optional<double> min, max;
  for (unsigned i : {1u, 2u}) {
    if (!node.hasInput(i))
      continue;
    if (node.constantInput(i)) {
      FailureOr<double> bound = node.floatInput(i, i == 1 ? "min" : "max");
      if (failed(bound))
        return failure();
      (i == 1 ? min : max) = *bound;
      continue;
    }
    FailureOr<Value> bounded =
        node.op(i == 1 ? "maximum" : "minimum", {x, node.input(i)});
    if (failed(bounded))
      return failure();
    x = *bounded;
  }
  if (!min && !max) {
    node.setOutput(0, x);
    return success();
  }
  return define(
      node,
      node.op("clip", {x},
              {node.f64("min",
                        min.value_or(-std::numeric_limits<double>::infinity())),
               node.f64("max", max.value_or(
                                   std::numeric_limits<double>::infinity()))}));
}

LogicalResult convertWhere(NodeContext &node) {
  return define(
      node, node.op("where", {node.input(0), node.input(1), node.input(2)}));
}

/// Identity, and Dropout at inference (its mask output is all true).
LogicalResult convertIdentity(NodeContext &node) {
  node.setOutput(0, node.input(0));
  return success();
}

LogicalResult convertDropout(NodeContext &node) {
  // Opset 12+: an optional training_mode input, which must be false.
  if (node.getOpset() >= 12 && node.hasInput(2)) {
    FailureOr<SmallVector<int64_t>> training =
        node.intInput(2, "training_mode");
    if (failed(training))
      return failure();
    // Training with a ratio of 0 keeps every element; other ratios draw a
    // random mask, which a compiled graph cannot reproduce.
    double ratio = 0.5;
    if (node.hasInput(1)) {
      FailureOr<double> given = node.floatInput(1, "ratio");
      if (failed(given))
        return failure();
      ratio = *given;
    }
    if (llvm::any_of(*training, [](int64_t v) { return v != 0; }) &&
        ratio != 0.0)
      return node.error() << "training_mode = true with ratio "
                          << llvm::formatv("{0}", ratio)
                          << " (a random mask) is not supported";
  }
  node.setOutput(0, node.input(0));
  if (node.getNumOutputs() > 1) {
    auto type = node.inputType(0);
    if (!type.hasStaticShape())
      return node.rejectOutput(1, "the mask of a dynamically shaped input");
    auto maskType =
        RankedTensorType::get(type.getShape(), node.getBuilder().getI1Type());
    node.setOutput(1, node.constant(DenseElementsAttr::get(maskType, true)));
  }
  return success();
}

} // namespace

static const ConverterEntry kElementwiseConverters[] = {
    {"Abs", 1, convertUnary<kAbs>},
    {"Neg", 1, convertUnary<kNegative>},
    {"Exp", 1, convertUnary<kExp>},
    {"Log", 1, convertUnary<kLog>},
    {"Sqrt", 1, convertUnary<kSqrt>},
    {"Tanh", 1, convertUnary<kTanh>},
    {"Sigmoid", 1, convertUnary<kSigmoid>},
    {"Erf", 9, convertUnary<kErf>},
    {"Floor", 1, convertUnary<kFloor>},
    {"Ceil", 1, convertUnary<kCeil>},
    {"Round", 11, convertUnary<kRound>},
    {"Sin", 7, convertUnary<kSin>},
    {"Cos", 7, convertUnary<kCos>},
    {"Tan", 7, convertUnary<kTan>},
    {"Asin", 7, convertUnary<kAsin>},
    {"Acos", 7, convertUnary<kAcos>},
    {"Atan", 7, convertUnary<kAtan>},
    {"Sinh", 9, convertUnary<kSinh>},
    {"Cosh", 9, convertUnary<kCosh>},
    {"Asinh", 9, convertUnary<kAsinh>},
    {"Acosh", 9, convertUnary<kAcosh>},
    {"Atanh", 9, convertUnary<kAtanh>},
    {"IsNaN", 9, convertUnary<kIsNaN>},
    {"IsInf", 10, convertIsInf},
    {"Relu", 1, convertUnary<kRelu>},
    {"Reciprocal", 1, convertReciprocal},
    {"LeakyRelu", 1, convertLeakyRelu},
    {"Elu", 1, convertElu},
    {"Selu", 1, convertSelu},
    {"Celu", 12, convertCelu},
    {"ThresholdedRelu", 10, convertThresholdedRelu},
    {"HardSigmoid", 1, convertHardSigmoid},
    {"HardSwish", 14, convertHardSwish},
    {"Softplus", 1, convertSoftplus},
    {"Softsign", 1, convertSoftsign},
    {"PRelu", 1, convertPRelu},
    {"Sign", 9, convertSign},
    {"Add", 1, convertBinary<kAdd>},
    {"Sub", 1, convertBinary<kSubtract>},
    {"Mul", 1, convertBinary<kMultiply>},
    {"Div", 1, convertDiv},
    {"Pow", 1, convertPow},
    {"Mod", 10, convertMod},
    {"Equal", 1, convertBinary<kEqual>},
    {"Less", 1, convertBinary<kLess>},
    {"Greater", 1, convertBinary<kGreater>},
    {"LessOrEqual", 12, convertBinary<kLessEqual>},
    {"GreaterOrEqual", 12, convertBinary<kGreaterEqual>},
    {"And", 1, convertAnd},
    {"Or", 1, convertOr},
    {"Xor", 1, convertXor},
    {"Not", 1, convertNot},
    {"Max", 1, convertVariadic<kMaximum>},
    {"Min", 1, convertVariadic<kMinimum>},
    {"Sum", 1, convertVariadic<kAdd>},
    {"Mean", 1, convertVariadic<kAdd, true>},
    {"Cast", 1, convertCast},
    {"CastLike", 15, convertCastLike},
    {"Clip", 1, convertClip1},
    {"Clip", 11, convertClip11},
    {"Where", 9, convertWhere},
    {"Identity", 1, convertIdentity},
    {"Dropout", 1, convertDropout},
};

ArrayRef<ConverterEntry> onnx_import::getElementwiseConverters() {
  return kElementwiseConverters;
}
