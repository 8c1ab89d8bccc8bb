//===- LegalizeNormalization.cpp - normalization relax op kernels ---------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Kernels of batch_norm (inference form, topi.nn.batch_norm with
// training=False), layer_norm, instance_norm and group_norm. The last three
// share TOPI's two-pass layer_norm structure (topi/nn/layer_norm.h): a sum
// stage, a mean stage, a sum of squared deviations (var = E[(x - mean)^2],
// more stable than E[x^2] - mean^2) and the normalizing stage with epsilon,
// gamma and beta. float16/bfloat16 inputs accumulate in float32 as TOPI.
// group_norm indexes channel c as (c / group_size, c % group_size) instead
// of TOPI's reshape to (G, C/G), which is the same computation without the
// reshape stages.
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

/// Fails with a diagnostic unless `buffer` holds floats.
static LogicalResult checkFloat(Operation *op, Value buffer) {
  Type type = getElementType(buffer);
  if (!isa<FloatType>(type))
    return op->emitOpError("cannot be legalized: needs a floating-point "
                           "tensor, got element type ")
           << type;
  return success();
}

/// Normalizes `axis` against `rank`, reporting an error at `op`.
static FailureOr<int64_t> normalizeAxis(Operation *op, int64_t axis,
                                        int64_t rank, StringRef name) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return op->emitOpError("cannot be legalized: ")
           << name << " " << axis << " is out of range for rank " << rank;
  return normalized;
}

namespace {
/// The statistics layout of a mean/variance normalization: which data axes
/// are reduced, and (group_norm) which axis is split into `numGroups` kept
/// groups of reduced channels.
struct NormSpec {
  SmallVector<bool> reduced;
  int64_t groupAxis = -1;
  int64_t numGroups = 1;
  double epsilon = 1e-5;
  bool center = true, scale = true;
  /// The block name of the normalizing stage.
  std::string name;
  /// The indices into gamma/beta of a data element.
  std::function<SmallVector<Value>(ValueRange dataIndices)> getParamIndices;
};
} // namespace

/// TOPI's layer_norm stages for the layout `spec`: A_sum, A_mean, A_var_sum
/// over the statistics buffers, then `spec.name` writes the output.
static void buildMeanVarNorm(PrimFuncBuilder &kernel, const NormSpec &spec,
                             Value data, Value gamma, Value beta,
                             Value output) {
  OpBuilder &builder = kernel.getBuilder();
  Location loc = kernel.getLoc();
  Type type = getElementType(data);
  // TOPI accumulates float16 in float32.
  Type accType = type;
  if (type.getIntOrFloatBitWidth() < 32)
    accType = builder.getF32Type();

  SmallVector<OpFoldResult> sizes = kernel.getSizes(data);
  int64_t rank = sizes.size();
  OpFoldResult groupSize;
  if (spec.groupAxis >= 0) {
    OpFoldResult channels = sizes[spec.groupAxis];
    if (auto value = dyn_cast<Value>(channels))
      groupSize = arith::DivUIOp::create(builder, loc, value,
                                         arith::ConstantIndexOp::create(
                                             builder, loc, spec.numGroups))
                      .getResult();
    else
      groupSize = builder.getIndexAttr(
          cast<IntegerAttr>(cast<Attribute>(channels)).getInt() /
          spec.numGroups);
  }
  SmallVector<OpFoldResult> statSizes, extents;
  for (int64_t i = 0; i < rank; ++i) {
    if (spec.reduced[i]) {
      extents.push_back(sizes[i]);
    } else if (i == spec.groupAxis) {
      statSizes.push_back(builder.getIndexAttr(spec.numGroups));
      extents.push_back(groupSize);
    } else {
      statSizes.push_back(sizes[i]);
    }
  }
  size_t numStat = statSizes.size();

  // Data indices of statistics element `stat` and reduce variables `red`.
  auto getDataIndices = [&](OpBuilder &b, Location l, ValueRange stat,
                            ValueRange red) {
    SmallVector<Value> indices;
    size_t nextStat = 0, nextRed = 0;
    for (int64_t i = 0; i < rank; ++i) {
      if (spec.reduced[i]) {
        indices.push_back(red[nextRed++]);
      } else if (i == spec.groupAxis) {
        Value base = arith::MulIOp::create(b, l, stat[nextStat++],
                                           materializeIndex(b, l, groupSize));
        indices.push_back(arith::AddIOp::create(b, l, base, red[nextRed++]));
      } else {
        indices.push_back(stat[nextStat++]);
      }
    }
    return indices;
  };
  // Statistics indices of a data element.
  auto getStatIndices = [&](OpBuilder &b, Location l, ValueRange indices) {
    SmallVector<Value> stat;
    for (int64_t i = 0; i < rank; ++i) {
      if (spec.reduced[i])
        continue;
      if (i == spec.groupAxis)
        stat.push_back(arith::DivUIOp::create(
            b, l, indices[i], materializeIndex(b, l, groupSize)));
      else
        stat.push_back(indices[i]);
    }
    return stat;
  };
  auto loadData = [&](OpBuilder &b, Location l, ValueRange indices) {
    return createCast(b, l, load(b, l, data, indices), accType);
  };
  auto zero = [&](OpBuilder &b, Location l) {
    return createScalarConstant(b, l, accType, 0);
  };
  // A sum over the reduced elements; a plain copy when nothing is reduced
  // (tensorir.init needs a reduce variable).
  auto sumStage = [&](StringRef name, Value out,
                      PrimFuncBuilder::ElementFn element) {
    if (extents.empty())
      kernel.compute(name, out, element);
    else
      kernel.reduce(name, out, extents, zero, element, createAdd);
  };

  Value sum = allocTemp(kernel, statSizes, accType, "A_sum");
  sumStage("A_sum", sum, [&](OpBuilder &b, Location l, ValueRange iterVars) {
    return loadData(b, l,
                    getDataIndices(b, l, iterVars.take_front(numStat),
                                   iterVars.drop_front(numStat)));
  });
  Value mean = allocTemp(kernel, statSizes, accType, "A_mean");
  kernel.compute("A_mean", mean,
                 [&](OpBuilder &b, Location l, ValueRange indices) {
                   return createDiv(b, l, load(b, l, sum, indices),
                                    createElementCount(b, l, extents, accType));
                 });
  Value varSum = allocTemp(kernel, statSizes, accType, "A_var_sum");
  sumStage(
      "A_var_sum", varSum, [&](OpBuilder &b, Location l, ValueRange iterVars) {
        ValueRange stat = iterVars.take_front(numStat);
        Value x = loadData(
            b, l, getDataIndices(b, l, stat, iterVars.drop_front(numStat)));
        Value diff = createSub(b, l, x, load(b, l, mean, stat));
        return createMul(b, l, diff, diff);
      });
  kernel.compute(
      spec.name, output, [&](OpBuilder &b, Location l, ValueRange indices) {
        SmallVector<Value> stat = getStatIndices(b, l, indices);
        Value var = createDiv(b, l, load(b, l, varSum, stat),
                              createElementCount(b, l, extents, accType));
        Value denominator = math::RsqrtOp::create(
            b, l,
            createAdd(b, l, var,
                      createScalarConstant(b, l, accType, spec.epsilon)));
        Value result = createMul(
            b, l,
            createSub(b, l, loadData(b, l, indices), load(b, l, mean, stat)),
            denominator);
        result = createCast(b, l, result, type);
        SmallVector<Value> paramIndices = spec.getParamIndices(indices);
        if (spec.scale)
          result = createMul(b, l, result, load(b, l, gamma, paramIndices));
        if (spec.center)
          result = createAdd(b, l, result, load(b, l, beta, paramIndices));
        return result;
      });
}

/// instance_norm / group_norm: statistics over every axis but 0 and the
/// channel axis (per channel, or per group of channels).
template <typename OpTy>
static LogicalResult buildChannelNorm(OpTy op, PrimFuncBuilder &kernel,
                                      ValueRange inputs, Value output,
                                      StringRef name,
                                      std::optional<int64_t> numGroups) {
  if (failed(checkFloat(op, inputs[0])))
    return failure();
  int64_t rank = cast<MemRefType>(inputs[0].getType()).getRank();
  FailureOr<int64_t> channelAxis =
      normalizeAxis(op, op.getChannelAxis(), rank, "channel_axis");
  if (failed(channelAxis))
    return failure();
  NormSpec spec;
  spec.reduced.assign(rank, true);
  spec.reduced[0] = false;
  spec.reduced[*channelAxis] = false;
  if (numGroups) {
    if (*numGroups < 1)
      return op.emitOpError("cannot be legalized: num_groups must be >= 1, "
                            "got ")
             << *numGroups;
    spec.groupAxis = *channelAxis;
    spec.numGroups = *numGroups;
    spec.reduced[*channelAxis] = false;
  }
  spec.epsilon = op.getEpsilon().convertToDouble();
  spec.center = op.getCenter();
  spec.scale = op.getScale();
  spec.name = name.str();
  int64_t axis = *channelAxis;
  spec.getParamIndices = [axis](ValueRange indices) {
    return SmallVector<Value>{indices[axis]};
  };
  buildMeanVarNorm(kernel, spec, inputs[0], inputs[1], inputs[2], output);
  return success();
}

void mlc::legalize::populateNormalizationLegalizations(
    LegalizationTable &table) {
  // Inference batch_norm: (x - moving_mean) / sqrt(moving_var + epsilon) *
  // gamma + beta per channel; the moving statistics pass through unchanged.
  table.add<relax::BatchNormOp>([](relax::BatchNormOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) -> LogicalResult {
    Value data = inputs[0], gamma = inputs[1], beta = inputs[2],
          movingMean = inputs[3], movingVar = inputs[4];
    if (failed(checkFloat(op, data)))
      return failure();
    int64_t rank = cast<MemRefType>(data.getType()).getRank();
    FailureOr<int64_t> axis = normalizeAxis(op, op.getAxis(), rank, "axis");
    if (failed(axis))
      return failure();
    double epsilon = op.getEpsilon().convertToDouble();
    bool center = op.getCenter(), scale = op.getScale();
    kernel.compute(
        "T_batch_norm", outputs[0],
        [&](OpBuilder &b, Location loc, ValueRange indices) {
          Value channel = indices[*axis];
          Type type = getElementType(data);
          Value x = load(b, loc, data, indices);
          Value var = load(b, loc, movingVar, channel);
          Value denominator = math::SqrtOp::create(
              b, loc,
              createAdd(b, loc, var,
                        createScalarConstant(b, loc, type, epsilon)));
          Value result = createDiv(
              b, loc, createSub(b, loc, x, load(b, loc, movingMean, channel)),
              denominator);
          if (scale)
            result = createMul(b, loc, result, load(b, loc, gamma, channel));
          if (center)
            result = createAdd(b, loc, result, load(b, loc, beta, channel));
          return result;
        });
    kernel.compute("T_batch_norm_mean", outputs[1],
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     return load(b, loc, movingMean, indices);
                   });
    kernel.compute("T_batch_norm_var", outputs[2],
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     return load(b, loc, movingVar, indices);
                   });
    return success();
  });

  table.add<relax::LayerNormOp>([](relax::LayerNormOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) -> LogicalResult {
    if (failed(checkFloat(op, inputs[0])))
      return failure();
    int64_t rank = cast<MemRefType>(inputs[0].getType()).getRank();
    NormSpec spec;
    spec.reduced.assign(rank, false);
    // gamma and beta are indexed by the data indices at `axes`, in the
    // listed order (the op verifier's shape rule).
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes()) {
      FailureOr<int64_t> axis = normalizeAxis(op, a, rank, "axis");
      if (failed(axis))
        return failure();
      if (spec.reduced[*axis])
        return op.emitOpError("cannot be legalized: axis ")
               << a << " is repeated";
      spec.reduced[*axis] = true;
      axes.push_back(*axis);
    }
    spec.epsilon = op.getEpsilon().convertToDouble();
    spec.center = op.getCenter();
    spec.scale = op.getScale();
    spec.name = "T_layer_norm";
    spec.getParamIndices = [axes](ValueRange indices) {
      SmallVector<Value> result;
      for (int64_t axis : axes)
        result.push_back(indices[axis]);
      return result;
    };
    buildMeanVarNorm(kernel, spec, inputs[0], inputs[1], inputs[2], outputs[0]);
    return success();
  });

  table.add<relax::InstanceNormOp>([](relax::InstanceNormOp op,
                                      PrimFuncBuilder &kernel,
                                      ValueRange inputs, ValueRange outputs) {
    return buildChannelNorm(op, kernel, inputs, outputs[0], "T_instance_norm",
                            std::nullopt);
  });
  table.add<relax::GroupNormOp>([](relax::GroupNormOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) {
    return buildChannelNorm(op, kernel, inputs, outputs[0], "T_group_norm",
                            op.getNumGroups());
  });
}
