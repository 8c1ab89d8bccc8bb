//===- LegalizeElementwise.cpp - elementwise relax op kernels -------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Kernels of the elementwise and broadcasting ops (TVM's topi/elemwise.h and
// topi/broadcast.h): one spatial block over the output that loads the
// operands at their broadcast indices.
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

namespace {
/// A scalar function of one element.
using UnaryFn = std::function<Value(OpBuilder &, Location, Value)>;
/// A scalar function of two elements.
using BinaryFn = std::function<Value(OpBuilder &, Location, Value, Value)>;
} // namespace

/// out[i] = fn(in[i]) (shapes are equal).
static void buildUnary(StringRef name, PrimFuncBuilder &kernel, Value input,
                       Value output, const UnaryFn &fn) {
  kernel.compute(name, output,
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   return fn(b, loc, load(b, loc, input, indices));
                 });
}

/// out[i] = fn(lhs[bcast(i)], rhs[bcast(i)]).
static void buildBinary(StringRef name, PrimFuncBuilder &kernel, Value lhs,
                        Value rhs, Value output, const BinaryFn &fn) {
  ArrayRef<int64_t> shape = cast<MemRefType>(output.getType()).getShape();
  kernel.compute(
      name, output, [&](OpBuilder &b, Location loc, ValueRange indices) {
        Value x =
            load(b, loc, lhs, getBroadcastIndices(b, loc, lhs, indices, shape));
        Value y =
            load(b, loc, rhs, getBroadcastIndices(b, loc, rhs, indices, shape));
        return fn(b, loc, x, y);
      });
}

static void addUnary(LegalizationTable &table, StringRef opName,
                     StringRef blockName, UnaryFn fn) {
  table.add(opName, [blockName = blockName.str(), fn = std::move(fn)](
                        Operation *, PrimFuncBuilder &kernel, ValueRange inputs,
                        ValueRange outputs) {
    buildUnary(blockName, kernel, inputs[0], outputs[0], fn);
    return success();
  });
}

static void addBinary(LegalizationTable &table, StringRef opName,
                      StringRef blockName, BinaryFn fn) {
  table.add(opName, [blockName = blockName.str(), fn = std::move(fn)](
                        Operation *, PrimFuncBuilder &kernel, ValueRange inputs,
                        ValueRange outputs) {
    buildBinary(blockName, kernel, inputs[0], inputs[1], outputs[0], fn);
    return success();
  });
}

/// A unary math op from the `math` dialect (floats only, which the relax
/// verifier guarantees).
template <typename MathOp> static UnaryFn mathFn() {
  return [](OpBuilder &b, Location loc, Value x) -> Value {
    return MathOp::create(b, loc, x);
  };
}

static Value createPower(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return math::PowFOp::create(b, loc, x, y);
  return math::IPowIOp::create(b, loc, x, y);
}

/// The remainder of truncated division: C's fmod / %, the sign of x.
static Value createTruncMod(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::RemFOp::create(b, loc, x, y);
  if (x.getType().isInteger(1))
    return createScalarConstant(b, loc, x.getType(), 0);
  return arith::RemSIOp::create(b, loc, x, y);
}

/// The remainder of floor division: Python's %, the sign of y (TVM's
/// floormod; for floats x - floor(x / y) * y, as topi.floor_mod).
static Value createFloorMod(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  if (isa<FloatType>(type)) {
    Value quotient = math::FloorOp::create(b, loc, createDiv(b, loc, x, y));
    return createSub(b, loc, x, createMul(b, loc, quotient, y));
  }
  if (type.isInteger(1))
    return createScalarConstant(b, loc, type, 0);
  // A nonzero remainder whose sign differs from y's moves by one y.
  Value rem = arith::RemSIOp::create(b, loc, x, y);
  Value zero = createScalarConstant(b, loc, type, 0);
  Value nonzero = createCompare(b, loc, CompareKind::ne, rem, zero);
  Value signsDiffer =
      createCompare(b, loc, CompareKind::ne,
                    createCompare(b, loc, CompareKind::lt, rem, zero),
                    createCompare(b, loc, CompareKind::lt, y, zero));
  Value adjust = arith::AndIOp::create(b, loc, nonzero, signsDiffer);
  return arith::SelectOp::create(b, loc, adjust, createAdd(b, loc, rem, y),
                                 rem);
}

/// A float class test: NaN, infinite or finite.
static Value createFloatClassTest(OpBuilder &b, Location loc, Value x,
                                  arith::CmpFPredicate predicate) {
  if (predicate == arith::CmpFPredicate::UNO)
    return arith::CmpFOp::create(b, loc, predicate, x, x);
  Value infinity = createHighestValue(b, loc, x.getType());
  Value magnitude = math::AbsFOp::create(b, loc, x);
  return arith::CmpFOp::create(b, loc, predicate, magnitude, infinity);
}

void mlc::legalize::populateElementwiseLegalizations(LegalizationTable &table) {
  // Binary arithmetic with broadcasting (topi.add, ...).
  addBinary(table, relax::AddOp::getOperationName(), "T_add", createAdd);
  addBinary(table, relax::SubtractOp::getOperationName(), "T_subtract",
            createSub);
  addBinary(table, relax::MultiplyOp::getOperationName(), "T_multiply",
            createMul);
  addBinary(table, relax::DivideOp::getOperationName(), "T_divide", createDiv);
  addBinary(table, relax::PowerOp::getOperationName(), "T_power", createPower);
  addBinary(table, relax::MaximumOp::getOperationName(), "T_maximum",
            createMax);
  addBinary(table, relax::MinimumOp::getOperationName(), "T_minimum",
            createMin);
  addBinary(table, relax::FloorModOp::getOperationName(), "T_floor_mod",
            createFloorMod);
  addBinary(table, relax::ModOp::getOperationName(), "T_mod", createTruncMod);

  // Comparisons produce i1.
  auto compare = [](CompareKind kind) -> BinaryFn {
    return [kind](OpBuilder &b, Location loc, Value x, Value y) {
      return createCompare(b, loc, kind, x, y);
    };
  };
  addBinary(table, relax::LessOp::getOperationName(), "T_less",
            compare(CompareKind::lt));
  addBinary(table, relax::GreaterOp::getOperationName(), "T_greater",
            compare(CompareKind::gt));
  addBinary(table, relax::LessEqualOp::getOperationName(), "T_less_equal",
            compare(CompareKind::le));
  addBinary(table, relax::GreaterEqualOp::getOperationName(), "T_greater_equal",
            compare(CompareKind::ge));
  addBinary(table, relax::EqualOp::getOperationName(), "T_equal",
            compare(CompareKind::eq));
  addBinary(table, relax::NotEqualOp::getOperationName(), "T_not_equal",
            compare(CompareKind::ne));

  // Unary math.
  addUnary(table, relax::ExpOp::getOperationName(), "compute",
           mathFn<math::ExpOp>());
  addUnary(table, relax::LogOp::getOperationName(), "compute",
           mathFn<math::LogOp>());
  addUnary(table, relax::SqrtOp::getOperationName(), "compute",
           mathFn<math::SqrtOp>());
  addUnary(table, relax::RsqrtOp::getOperationName(), "compute",
           mathFn<math::RsqrtOp>());
  addUnary(table, relax::TanhOp::getOperationName(), "compute",
           mathFn<math::TanhOp>());
  addUnary(table, relax::ErfOp::getOperationName(), "compute",
           mathFn<math::ErfOp>());
  addUnary(table, relax::FloorOp::getOperationName(), "compute",
           mathFn<math::FloorOp>());
  addUnary(table, relax::CeilOp::getOperationName(), "compute",
           mathFn<math::CeilOp>());
  addUnary(table, relax::RoundOp::getOperationName(), "compute",
           mathFn<math::RoundEvenOp>());
  addUnary(table, relax::TruncOp::getOperationName(), "compute",
           mathFn<math::TruncOp>());
  addUnary(table, relax::SinOp::getOperationName(), "compute",
           mathFn<math::SinOp>());
  addUnary(table, relax::CosOp::getOperationName(), "compute",
           mathFn<math::CosOp>());
  addUnary(table, relax::TanOp::getOperationName(), "compute",
           mathFn<math::TanOp>());
  addUnary(table, relax::AsinOp::getOperationName(), "compute",
           mathFn<math::AsinOp>());
  addUnary(table, relax::AcosOp::getOperationName(), "compute",
           mathFn<math::AcosOp>());
  addUnary(table, relax::AtanOp::getOperationName(), "compute",
           mathFn<math::AtanOp>());
  addUnary(table, relax::SinhOp::getOperationName(), "compute",
           mathFn<math::SinhOp>());
  addUnary(table, relax::CoshOp::getOperationName(), "compute",
           mathFn<math::CoshOp>());
  addUnary(table, relax::AsinhOp::getOperationName(), "compute",
           mathFn<math::AsinhOp>());
  addUnary(table, relax::AcoshOp::getOperationName(), "compute",
           mathFn<math::AcoshOp>());
  addUnary(table, relax::AtanhOp::getOperationName(), "compute",
           mathFn<math::AtanhOp>());
  // isnan: x != x; isinf: |x| == inf; isfinite: |x| < inf (false for NaN).
  addUnary(table, relax::IsNaNOp::getOperationName(), "compute",
           [](OpBuilder &b, Location loc, Value x) {
             return createFloatClassTest(b, loc, x, arith::CmpFPredicate::UNO);
           });
  addUnary(table, relax::IsInfOp::getOperationName(), "compute",
           [](OpBuilder &b, Location loc, Value x) {
             return createFloatClassTest(b, loc, x, arith::CmpFPredicate::OEQ);
           });
  addUnary(table, relax::IsFiniteOp::getOperationName(), "compute",
           [](OpBuilder &b, Location loc, Value x) {
             return createFloatClassTest(b, loc, x, arith::CmpFPredicate::OLT);
           });
  addUnary(table, relax::SigmoidOp::getOperationName(), "compute",
           [](OpBuilder &b, Location loc, Value x) -> Value {
             // 1 / (1 + exp(-x)), as topi.sigmoid (tir.sigmoid).
             Value one = createScalarConstant(b, loc, x.getType(), 1.0);
             Value negX = arith::NegFOp::create(b, loc, x);
             Value denominator = arith::AddFOp::create(
                 b, loc, one, math::ExpOp::create(b, loc, negX));
             return arith::DivFOp::create(b, loc, one, denominator);
           });
  addUnary(table, relax::AbsOp::getOperationName(), "T_abs",
           [](OpBuilder &b, Location loc, Value x) -> Value {
             if (isa<FloatType>(x.getType()))
               return math::AbsFOp::create(b, loc, x);
             return math::AbsIOp::create(b, loc, x);
           });
  addUnary(table, relax::NegativeOp::getOperationName(), "T_negative",
           [](OpBuilder &b, Location loc, Value x) -> Value {
             if (isa<FloatType>(x.getType()))
               return arith::NegFOp::create(b, loc, x);
             return createSub(b, loc,
                              createScalarConstant(b, loc, x.getType(), 0), x);
           });
  addUnary(table, relax::ReluOp::getOperationName(), "compute",
           [](OpBuilder &b, Location loc, Value x) {
             return createMax(b, loc, x,
                              createScalarConstant(b, loc, x.getType(), 0));
           });

  table.add<relax::LeakyReluOp>([](relax::LeakyReluOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) {
    double alpha = op.getAlpha().convertToDouble();
    buildUnary("compute", kernel, inputs[0], outputs[0],
               [alpha](OpBuilder &b, Location loc, Value x) -> Value {
                 // select(x > 0, x, x * alpha), as topi.nn.leaky_relu.
                 Type type = x.getType();
                 Value zero = createScalarConstant(b, loc, type, 0);
                 Value scaled = createMul(
                     b, loc, x, createScalarConstant(b, loc, type, alpha));
                 Value positive =
                     createCompare(b, loc, CompareKind::gt, x, zero);
                 return arith::SelectOp::create(b, loc, positive, x, scaled);
               });
    return success();
  });

  table.add<relax::AstypeOp>([](relax::AstypeOp, PrimFuncBuilder &kernel,
                                ValueRange inputs, ValueRange outputs) {
    Type to = getElementType(outputs[0]);
    buildUnary("compute", kernel, inputs[0], outputs[0],
               [to](OpBuilder &b, Location loc, Value x) {
                 return createCast(b, loc, x, to);
               });
    return success();
  });

  table.add<relax::ClipOp>([](relax::ClipOp op, PrimFuncBuilder &kernel,
                              ValueRange inputs, ValueRange outputs) {
    double lo = op.getMin().convertToDouble();
    double hi = op.getMax().convertToDouble();
    // max(min(x, a_max), a_min), as topi.clip.
    buildUnary("compute", kernel, inputs[0], outputs[0],
               [lo, hi](OpBuilder &b, Location loc, Value x) {
                 Type type = x.getType();
                 Value clipped = createMin(
                     b, loc, x, createScalarConstant(b, loc, type, hi));
                 return createMax(b, loc, clipped,
                                  createScalarConstant(b, loc, type, lo));
               });
    return success();
  });

  table.add<relax::WhereOp>([](relax::WhereOp, PrimFuncBuilder &kernel,
                               ValueRange inputs, ValueRange outputs) {
    Value condition = inputs[0], x = inputs[1], y = inputs[2];
    ArrayRef<int64_t> shape = cast<MemRefType>(outputs[0].getType()).getShape();
    kernel.compute(
        "T_where", outputs[0],
        [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
          auto at = [&](Value buffer) {
            return load(b, loc, buffer,
                        getBroadcastIndices(b, loc, buffer, indices, shape));
          };
          return arith::SelectOp::create(b, loc, at(condition), at(x), at(y));
        });
    return success();
  });

  table.add<relax::PReluOp>([](relax::PReluOp op, PrimFuncBuilder &kernel,
                               ValueRange inputs, ValueRange outputs) {
    Value data = inputs[0], alpha = inputs[1];
    int64_t rank = cast<MemRefType>(data.getType()).getRank();
    // getAxis() is unsigned (I64Attr).
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    // select(x > 0, x, x * alpha[i_axis]), as topi.nn.prelu.
    kernel.compute("compute", outputs[0],
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     Value x = load(b, loc, data, indices);
                     Value channel = indices[axis];
                     Value slope = load(b, loc, alpha, channel);
                     Value zero = createScalarConstant(b, loc, x.getType(), 0);
                     Value positive =
                         createCompare(b, loc, CompareKind::gt, x, zero);
                     return arith::SelectOp::create(
                         b, loc, positive, x, createMul(b, loc, x, slope));
                   });
    return success();
  });
}
