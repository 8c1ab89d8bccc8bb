//===- LegalizeReduction.cpp - reduction relax op kernels -----------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Kernels of the reductions (TVM's topi/reduction.h: sum, mean, max, min,
// prod, argmax, argmin) and of softmax / log_softmax (topi/nn/softmax.h).
// A reduction is one block over the output's indices plus one reduce
// variable per reduced axis; mean divides the sum in a second stage, the
// arg-reductions keep an (index, value) pair in two buffers as TVM's tuple
// reducer does, and softmax is TOPI's numerically stable max, exp, sum and
// normalize stages.
//
//===----------------------------------------------------------------------===//

#include "Legalizations.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;
using namespace mlc::tensorir;

//===----------------------------------------------------------------------===//
// Shared helpers (declared in Legalizations.h)
//===----------------------------------------------------------------------===//

Value mlc::legalize::materializeIndex(OpBuilder &b, Location loc,
                                      OpFoldResult size) {
  if (auto value = dyn_cast<Value>(size))
    return value;
  return arith::ConstantIndexOp::create(
      b, loc, cast<IntegerAttr>(cast<Attribute>(size)).getInt());
}

Value mlc::legalize::createElementCount(OpBuilder &b, Location loc,
                                        ArrayRef<OpFoldResult> sizes,
                                        Type type) {
  int64_t staticCount = 1;
  Value dynamicCount;
  for (OpFoldResult size : sizes) {
    if (auto value = dyn_cast<Value>(size)) {
      dynamicCount = dynamicCount
                         ? arith::MulIOp::create(b, loc, dynamicCount, value)
                         : value;
      continue;
    }
    // Saturating: no tensor that exists holds more than INT64_MAX
    // elements, but a type may say so.
    staticCount =
        llvm::checkedMul(staticCount,
                         cast<IntegerAttr>(cast<Attribute>(size)).getInt())
            .value_or(std::numeric_limits<int64_t>::max());
  }
  if (!dynamicCount)
    return createScalarConstant(b, loc, type, static_cast<double>(staticCount));
  if (staticCount != 1)
    dynamicCount = arith::MulIOp::create(
        b, loc, dynamicCount,
        arith::ConstantIndexOp::create(b, loc, staticCount));
  Value count =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), dynamicCount);
  return createCast(b, loc, count, type);
}

Value mlc::legalize::allocTemp(PrimFuncBuilder &kernel,
                               ArrayRef<OpFoldResult> sizes, Type elementType,
                               StringRef name) {
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (OpFoldResult size : sizes) {
    if (auto value = dyn_cast<Value>(size)) {
      shape.push_back(ShapedType::kDynamic);
      dynamicSizes.push_back(value);
      continue;
    }
    shape.push_back(cast<IntegerAttr>(cast<Attribute>(size)).getInt());
  }
  return kernel.allocBuffer(MemRefType::get(shape, elementType), name,
                            dynamicSizes);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
/// Which axes of the input a reduction reduces, and whether the output keeps
/// them as size-1 dimensions.
struct ReduceShape {
  SmallVector<bool> reduced;
  bool keepdims = false;

  /// The input indices for output indices `spatial` and reduce variables
  /// `reduceVars` (one per reduced axis, in axis order).
  SmallVector<Value> getInputIndices(ValueRange spatial,
                                     ValueRange reduceVars) const {
    SmallVector<Value> indices;
    size_t nextSpatial = 0, nextReduce = 0;
    for (bool isReduced : reduced) {
      if (isReduced) {
        indices.push_back(reduceVars[nextReduce++]);
        if (keepdims)
          ++nextSpatial;
        continue;
      }
      indices.push_back(spatial[nextSpatial++]);
    }
    return indices;
  }

  /// The extents of the reduced axes of `input`.
  SmallVector<OpFoldResult> getReduceExtents(PrimFuncBuilder &kernel,
                                             Value input) const {
    SmallVector<OpFoldResult> sizes = kernel.getSizes(input);
    SmallVector<OpFoldResult> extents;
    for (auto [size, isReduced] : llvm::zip(sizes, reduced))
      if (isReduced)
        extents.push_back(size);
    return extents;
  }
};
} // namespace

/// The reduced axes of `axes` (absent or empty: all) over `input`, as TVM's
/// GetReduceAxes. The op verifier has checked the axes.
static FailureOr<ReduceShape>
getReduceShape(Operation *op, Value input,
               std::optional<ArrayRef<int64_t>> axes, bool keepdims) {
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  SmallVector<int64_t> reducedAxes;
  std::string message;
  if (failed(inferReduceAxes(rank, axes, /*exclude=*/false, reducedAxes,
                             [&](const Twine &text) { message = text.str(); })))
    return op->emitOpError("cannot be legalized: ") << message;
  ReduceShape shape;
  shape.reduced.assign(rank, false);
  for (int64_t axis : reducedAxes)
    shape.reduced[axis] = true;
  shape.keepdims = keepdims;
  return shape;
}

/// out = combine over the reduced axes of input, starting from init (TVM's
/// `A_red` CommReduce stage). Without reduced axes (a rank-0 input) the
/// output is the input.
static void buildReduceStage(PrimFuncBuilder &kernel, StringRef name,
                             Value input, Value output,
                             const ReduceShape &shape,
                             PrimFuncBuilder::ScalarFn init,
                             PrimFuncBuilder::CombineFn combine) {
  SmallVector<OpFoldResult> extents = shape.getReduceExtents(kernel, input);
  size_t numSpatial = cast<MemRefType>(output.getType()).getRank();
  auto element = [&](OpBuilder &b, Location loc, ValueRange iterVars) {
    return load(b, loc, input,
                shape.getInputIndices(iterVars.take_front(numSpatial),
                                      iterVars.drop_front(numSpatial)));
  };
  if (extents.empty()) {
    kernel.compute(name, output, element);
    return;
  }
  kernel.reduce(name, output, extents, init, element, combine);
}

template <typename OpTy>
static FailureOr<ReduceShape> getReduceShape(OpTy op, Value input) {
  std::optional<ArrayRef<int64_t>> axes;
  if (DenseI64ArrayAttr axis = op.getAxisAttr())
    axes = axis.asArrayRef();
  return getReduceShape(op, input, axes, op.getKeepdims());
}

/// Registers a plain reduction (sum, max, min, prod) with its identity.
template <typename OpTy>
static void addReduction(
    LegalizationTable &table,
    std::function<Value(OpBuilder &, Location, Type)> init,
    std::function<Value(OpBuilder &, Location, Value, Value)> combine) {
  table.add<OpTy>([init, combine](OpTy op, PrimFuncBuilder &kernel,
                                  ValueRange inputs, ValueRange outputs) {
    FailureOr<ReduceShape> shape = getReduceShape(op, inputs[0]);
    if (failed(shape))
      return failure();
    Type type = getElementType(outputs[0]);
    buildReduceStage(
        kernel, "A_red", inputs[0], outputs[0], *shape,
        [&](OpBuilder &b, Location loc) { return init(b, loc, type); },
        [&](OpBuilder &b, Location loc, Value acc, Value value) {
          return combine(b, loc, acc, value);
        });
    return success();
  });
}

/// argmax / argmin (topi.argmax): an (index, value) reducer over `A_red_temp`
/// buffers, then `A_red` copies the index out. Ties keep the smallest index;
/// over all axes the index is into the flattened tensor.
template <typename OpTy>
static LogicalResult buildArgReduce(OpTy op, PrimFuncBuilder &kernel,
                                    Value input, Value output, bool isMax) {
  std::optional<ArrayRef<int64_t>> axes;
  int64_t axis = 0;
  if (IntegerAttr axisAttr = op.getAxisAttr()) {
    axis = axisAttr.getInt();
    axes = ArrayRef<int64_t>(axis);
  }
  FailureOr<ReduceShape> shape =
      getReduceShape(op, input, axes, op.getKeepdims());
  if (failed(shape))
    return failure();
  Type indexType = getElementType(output);
  Type valueType = getElementType(input);
  SmallVector<OpFoldResult> extents = shape->getReduceExtents(kernel, input);
  if (extents.empty()) {
    // A rank-0 input: its only element is at index 0.
    kernel.compute("A_red", output,
                   [&](OpBuilder &b, Location loc, ValueRange) {
                     return createScalarConstant(b, loc, indexType, 0);
                   });
    return success();
  }

  SmallVector<OpFoldResult> outSizes = kernel.getSizes(output);
  Value indexTemp = allocTemp(kernel, outSizes, indexType, "A_red_temp_v0");
  Value valueTemp = allocTemp(kernel, outSizes, valueType, "A_red_temp_v1");
  size_t numSpatial = outSizes.size();
  Value temps[] = {indexTemp, valueTemp};
  kernel.reduceMulti(
      "A_red_temp", temps, extents,
      [&](OpBuilder &b, Location loc) {
        return SmallVector<Value>{createScalarConstant(b, loc, indexType, -1),
                                  isMax
                                      ? createLowestValue(b, loc, valueType)
                                      : createHighestValue(b, loc, valueType)};
      },
      [&](OpBuilder &b, Location loc, ValueRange iterVars) {
        ValueRange reduceVars = iterVars.drop_front(numSpatial);
        // The row-major index over the reduced axes (RavelIndex).
        Value flat = reduceVars[0];
        for (auto [extent, var] :
             llvm::zip(ArrayRef(extents).drop_front(), reduceVars.drop_front()))
          flat = arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(b, loc, flat,
                                    materializeIndex(b, loc, extent)),
              var);
        Value value = load(b, loc, input,
                           shape->getInputIndices(
                               iterVars.take_front(numSpatial), reduceVars));
        return SmallVector<Value>{
            arith::IndexCastOp::create(b, loc, indexType, flat), value};
      },
      [&](OpBuilder &b, Location loc, ValueRange accs, ValueRange values) {
        // TVM's argmax combiner: keep the accumulator when its value is
        // better, or equal with a smaller index. The index compares
        // unsigned so that the initial -1 never wins a tie (TVM's signed
        // compare would keep -1 when every element is the identity).
        Value better =
            createCompare(b, loc, isMax ? CompareKind::gt : CompareKind::lt,
                          accs[1], values[1]);
        Value same = createCompare(b, loc, CompareKind::eq, accs[1], values[1]);
        Value smallerIndex = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, accs[0], values[0]);
        Value keepIndex = arith::OrIOp::create(
            b, loc, better, arith::AndIOp::create(b, loc, same, smallerIndex));
        return SmallVector<Value>{
            arith::SelectOp::create(b, loc, keepIndex, accs[0], values[0]),
            arith::SelectOp::create(b, loc, better, accs[1], values[1])};
      });
  kernel.compute("A_red", output,
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   return load(b, loc, indexTemp, indices);
                 });
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// Checks that a softmax input is floating point (exp and log need it).
static LogicalResult checkFloat(Operation *op, Value input) {
  Type type = getElementType(input);
  if (!isa<FloatType>(type))
    return op->emitOpError("cannot be legalized: needs a floating-point "
                           "tensor, got element type ")
           << type;
  return success();
}

/// The indices of `indices` without position `axis`.
static SmallVector<Value> dropAxis(ValueRange indices, int64_t axis) {
  SmallVector<Value> result(indices.begin(), indices.end());
  result.erase(result.begin() + axis);
  return result;
}

/// `indices` with `value` inserted at position `axis`.
static SmallVector<Value> insertAxis(ValueRange indices, int64_t axis,
                                     Value value) {
  SmallVector<Value> result(indices.begin(), indices.end());
  result.insert(result.begin() + axis, value);
  return result;
}

/// TOPI's softmax (exp(x - max) / sum(exp(x - max)) in the stages
/// T_softmax_maxelem, T_softmax_exp, T_softmax_expsum, T_softmax_norm) or
/// log_softmax (x - max - log(sum(exp(x - max))), without the exp buffer).
static LogicalResult buildSoftmax(Operation *op, int64_t axis,
                                  PrimFuncBuilder &kernel, Value input,
                                  Value output, bool isLog) {
  if (failed(checkFloat(op, input)))
    return failure();
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return op->emitOpError("cannot be legalized: axis ")
           << axis << " is out of range for rank " << rank;
  Type type = getElementType(input);
  SmallVector<OpFoldResult> sizes = kernel.getSizes(input);
  OpFoldResult axisExtent = sizes[axis];
  SmallVector<OpFoldResult> reducedSizes = sizes;
  reducedSizes.erase(reducedSizes.begin() + axis);

  StringRef prefix = isLog ? "T_log_softmax" : "T_softmax";
  Value maxElem =
      allocTemp(kernel, reducedSizes, type, (prefix + "_maxelem").str());
  size_t numSpatial = reducedSizes.size();
  kernel.reduce((prefix + "_maxelem").str(), maxElem, {axisExtent},
                [&](OpBuilder &b, Location loc) {
                  return createLowestValue(b, loc, type);
                },
                [&](OpBuilder &b, Location loc, ValueRange iterVars) {
                  return load(b, loc, input,
                              insertAxis(iterVars.take_front(numSpatial), axis,
                                         iterVars[numSpatial]));
                },
                createMax);

  auto shiftedExp = [&](OpBuilder &b, Location loc, ValueRange indices) {
    Value x = load(b, loc, input, indices);
    Value max = load(b, loc, maxElem, dropAxis(indices, axis));
    return math::ExpOp::create(b, loc, createSub(b, loc, x, max));
  };
  auto zero = [&](OpBuilder &b, Location loc) {
    return createScalarConstant(b, loc, type, 0);
  };
  Value expSum =
      allocTemp(kernel, reducedSizes, type, (prefix + "_expsum").str());
  if (isLog) {
    kernel.reduce((prefix + "_expsum").str(), expSum, {axisExtent}, zero,
                  [&](OpBuilder &b, Location loc, ValueRange iterVars) {
                    return shiftedExp(
                        b, loc,
                        insertAxis(iterVars.take_front(numSpatial), axis,
                                   iterVars[numSpatial]));
                  },
                  createAdd);
    kernel.compute(
        (prefix + "_norm").str(), output,
        [&](OpBuilder &b, Location loc, ValueRange indices) {
          SmallVector<Value> rowIndices = dropAxis(indices, axis);
          Value x = load(b, loc, input, indices);
          Value max = load(b, loc, maxElem, rowIndices);
          Value logSum =
              math::LogOp::create(b, loc, load(b, loc, expSum, rowIndices));
          return createSub(b, loc, createSub(b, loc, x, max), logSum);
        });
    return success();
  }

  Value exp = allocTemp(kernel, sizes, type, "T_softmax_exp");
  kernel.compute("T_softmax_exp", exp, shiftedExp);
  kernel.reduce(
      "T_softmax_expsum", expSum, {axisExtent}, zero,
      [&](OpBuilder &b, Location loc, ValueRange iterVars) {
        return load(b, loc, exp,
                    insertAxis(iterVars.take_front(numSpatial), axis,
                               iterVars[numSpatial]));
      },
      createAdd);
  kernel.compute("T_softmax_norm", output,
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   return createDiv(
                       b, loc, load(b, loc, exp, indices),
                       load(b, loc, expSum, dropAxis(indices, axis)));
                 });
  return success();
}

void mlc::legalize::populateReductionLegalizations(LegalizationTable &table) {
  addReduction<relax::SumOp>(
      table,
      [](OpBuilder &b, Location loc, Type type) {
        return createScalarConstant(b, loc, type, 0);
      },
      createAdd);
  addReduction<relax::ProdOp>(
      table,
      [](OpBuilder &b, Location loc, Type type) {
        return createScalarConstant(b, loc, type, 1);
      },
      createMul);
  addReduction<relax::MaxOp>(table, createLowestValue, createMax);
  addReduction<relax::MinOp>(table, createHighestValue, createMin);

  // mean = sum / count in two stages, as relax's legalization (topi.sum then
  // topi.divide); integer means truncate like topi.divide.
  table.add<relax::MeanOp>([](relax::MeanOp op, PrimFuncBuilder &kernel,
                              ValueRange inputs, ValueRange outputs) {
    FailureOr<ReduceShape> shape = getReduceShape(op, inputs[0]);
    if (failed(shape))
      return failure();
    Value output = outputs[0];
    Type type = getElementType(output);
    Value sum = allocTemp(kernel, kernel.getSizes(output), type, "A_red");
    buildReduceStage(
        kernel, "A_red", inputs[0], sum, *shape,
        [&](OpBuilder &b, Location loc) {
          return createScalarConstant(b, loc, type, 0);
        },
        createAdd);
    SmallVector<OpFoldResult> extents =
        shape->getReduceExtents(kernel, inputs[0]);
    kernel.compute("T_divide", output,
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     Value count = createElementCount(b, loc, extents, type);
                     return createDiv(b, loc, load(b, loc, sum, indices),
                                      count);
                   });
    return success();
  });

  table.add<relax::ArgmaxOp>([](relax::ArgmaxOp op, PrimFuncBuilder &kernel,
                                ValueRange inputs, ValueRange outputs) {
    return buildArgReduce(op, kernel, inputs[0], outputs[0], /*isMax=*/true);
  });
  table.add<relax::ArgminOp>([](relax::ArgminOp op, PrimFuncBuilder &kernel,
                                ValueRange inputs, ValueRange outputs) {
    return buildArgReduce(op, kernel, inputs[0], outputs[0], /*isMax=*/false);
  });

  table.add<relax::SoftmaxOp>([](relax::SoftmaxOp op, PrimFuncBuilder &kernel,
                                 ValueRange inputs, ValueRange outputs) {
    return buildSoftmax(op, op.getAxis(), kernel, inputs[0], outputs[0],
                        /*isLog=*/false);
  });
  table.add<relax::LogSoftmaxOp>([](relax::LogSoftmaxOp op,
                                    PrimFuncBuilder &kernel, ValueRange inputs,
                                    ValueRange outputs) {
    return buildSoftmax(op, op.getAxis(), kernel, inputs[0], outputs[0],
                        /*isLog=*/true);
  });
}
