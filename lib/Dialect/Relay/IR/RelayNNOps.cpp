//===- RelayNNOps.cpp - relay nn.* operations ------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Verifiers, type inference and folders of the nn.* operators. The op classes
// themselves are generated into RelayOps.cpp.
//
// Every nn op implements InferTypeOpInterface through `inferReturnTypes(...,
// Adaptor, ...)`, which runs Relay's type relation (the shape functions of
// mlc/Dialect/Utils/NNShapeFunctions.h) and reports violations at the op's
// location as `'relay.nn.<op>' op <message>`. The Relay_InferredResultTypes
// trait calls it when verifying, so these checks are the ops' verifiers too,
// and then compares the inferred types with the op's result types.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/Utils/NNShapeFunctions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::relay;

namespace {
/// Reports shape-function failures at the op location, prefixed like
/// `emitOpError` so that messages read the same whether they come from the
/// verifier or from a builder.
class NNErrorEmitter {
public:
  NNErrorEmitter(std::optional<Location> loc, StringRef opName)
      : loc(loc), opName(opName) {}

  void operator()(const Twine &message) const {
    if (loc)
      mlir::emitError(*loc) << "'" << opName << "' op " << message;
  }

  /// Reports `message` and returns failure, for use in `return err(...)`.
  LogicalResult fail(const Twine &message) const {
    (*this)(message);
    return failure();
  }

  nn::EmitErrorFn fn() const { return *this; }

private:
  std::optional<Location> loc;
  StringRef opName;
};
} // namespace

static std::string typeToString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Returns the ranked tensor type of `value` (operand `name`), or reports an
/// error.
static FailureOr<RankedTensorType> getRankedType(Value value, StringRef name,
                                                 const NNErrorEmitter &err) {
  auto type = value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr;
  if (!type) {
    err(Twine(name) + " must be a ranked tensor but has type " +
        (value ? typeToString(value.getType()) : std::string("<null>")));
    return failure();
  }
  return type;
}

/// The result element type: `outDtype` if present and non-empty, else
/// `fallback`.
static FailureOr<Type> getOutElementType(std::optional<Type> outDtype,
                                         Type fallback,
                                         const NNErrorEmitter &err) {
  if (!outDtype || !*outDtype)
    return fallback;
  if (!TensorType::isValidElementType(*outDtype) ||
      isa<ShapedType>(*outDtype)) {
    err("out_dtype must be a tensor element type but is " +
        typeToString(*outDtype));
    return failure();
  }
  return *outDtype;
}

/// Checks that the 1-D per-channel operand `param` (named `what`) matches
/// `data` along `axis` in shape and element type.
static LogicalResult checkChannelOperand(RankedTensorType data, int64_t axis,
                                         Value param, StringRef what,
                                         const NNErrorEmitter &err) {
  auto type = getRankedType(param, what, err);
  if (failed(type))
    return failure();
  if (failed(nn::checkChannelVector(data.getShape(), axis, type->getShape(),
                                    what, err.fn())))
    return failure();
  if (type->getElementType() != data.getElementType())
    return err.fail(
        what + " has element type " + typeToString(type->getElementType()) +
        " but data has element type " + typeToString(data.getElementType()));
  return success();
}

/// A 1-D tensor of `data`'s size along `axis` (taken from `fallback`'s type
/// when that size is unknown) with `data`'s element type.
static RankedTensorType getChannelVectorType(RankedTensorType data,
                                             int64_t axis, Value fallback) {
  int64_t size = data.getDimSize(axis);
  if (ShapedType::isDynamic(size))
    size = cast<RankedTensorType>(fallback.getType()).getDimSize(0);
  return RankedTensorType::get({size}, data.getElementType());
}

//===----------------------------------------------------------------------===//
// Convolution and dense
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::inferNNReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  auto weight = getRankedType(adaptor.getWeight(), "weight", err);
  if (failed(data) || failed(weight))
    return failure();

  nn::Conv2DAttrs attrs;
  attrs.strides = adaptor.getStrides();
  attrs.padding = adaptor.getPadding();
  attrs.dilation = adaptor.getDilation();
  attrs.groups = static_cast<int64_t>(adaptor.getGroups());
  if (auto channels = adaptor.getChannels())
    attrs.channels = static_cast<int64_t>(*channels);
  if (auto kernelSize = adaptor.getKernelSize())
    attrs.kernelSize = *kernelSize;
  attrs.dataLayout = adaptor.getDataLayout();
  attrs.kernelLayout = adaptor.getKernelLayout();
  attrs.outLayout = adaptor.getOutLayout();

  auto shape = nn::inferConv2DShape(data->getShape(), weight->getShape(), attrs,
                                    err.fn());
  if (failed(shape))
    return failure();
  auto elementType =
      getOutElementType(adaptor.getOutDtype(), data->getElementType(), err);
  if (failed(elementType))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elementType));
  return success();
}

LogicalResult Conv2DTransposeOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  auto weight = getRankedType(adaptor.getWeight(), "weight", err);
  if (failed(data) || failed(weight))
    return failure();

  nn::Conv2DTransposeAttrs attrs;
  attrs.strides = adaptor.getStrides();
  attrs.padding = adaptor.getPadding();
  attrs.dilation = adaptor.getDilation();
  attrs.outputPadding = adaptor.getOutputPadding();
  attrs.groups = static_cast<int64_t>(adaptor.getGroups());
  if (auto channels = adaptor.getChannels())
    attrs.channels = static_cast<int64_t>(*channels);
  if (auto kernelSize = adaptor.getKernelSize())
    attrs.kernelSize = *kernelSize;
  attrs.dataLayout = adaptor.getDataLayout();
  attrs.kernelLayout = adaptor.getKernelLayout();
  attrs.outLayout = adaptor.getOutLayout();

  auto shape = nn::inferConv2DTransposeShape(
      data->getShape(), weight->getShape(), attrs, err.fn());
  if (failed(shape))
    return failure();
  auto elementType =
      getOutElementType(adaptor.getOutDtype(), data->getElementType(), err);
  if (failed(elementType))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elementType));
  return success();
}

LogicalResult DenseOp::inferNNReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  auto weight = getRankedType(adaptor.getWeight(), "weight", err);
  if (failed(data) || failed(weight))
    return failure();
  std::optional<int64_t> units;
  if (auto u = adaptor.getUnits())
    units = static_cast<int64_t>(*u);
  auto shape = nn::inferDenseShape(data->getShape(), weight->getShape(), units,
                                   err.fn());
  if (failed(shape))
    return failure();
  auto elementType =
      getOutElementType(adaptor.getOutDtype(), data->getElementType(), err);
  if (failed(elementType))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elementType));
  return success();
}

LogicalResult MatmulOp::inferNNReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto a = getRankedType(adaptor.getTensorA(), "tensor_a", err);
  auto b = getRankedType(adaptor.getTensorB(), "tensor_b", err);
  if (failed(a) || failed(b))
    return failure();
  std::optional<int64_t> units;
  if (auto u = adaptor.getUnits())
    units = static_cast<int64_t>(*u);
  auto shape = nn::inferMatmulShape(a->getShape(), b->getShape(), units,
                                    adaptor.getTransposeA(),
                                    adaptor.getTransposeB(), err.fn());
  if (failed(shape))
    return failure();
  auto elementType =
      getOutElementType(adaptor.getOutDtype(), a->getElementType(), err);
  if (failed(elementType))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elementType));
  return success();
}

LogicalResult BatchMatmulOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto x = getRankedType(adaptor.getX(), "x", err);
  auto y = getRankedType(adaptor.getY(), "y", err);
  if (failed(x) || failed(y))
    return failure();
  auto shape = nn::inferBatchMatmulShape(x->getShape(), y->getShape(),
                                         adaptor.getTransposeA(),
                                         adaptor.getTransposeB(), err.fn());
  if (failed(shape))
    return failure();
  auto elementType =
      getOutElementType(adaptor.getOutDtype(), x->getElementType(), err);
  if (failed(elementType))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elementType));
  return success();
}

LogicalResult BiasAddOp::inferNNReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto axis = nn::normalizeAxis(static_cast<int64_t>(adaptor.getAxis()),
                                data->getRank(), "axis", err.fn());
  if (failed(axis) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getBias(), "bias", err)))
    return failure();
  types.push_back(*data);
  return success();
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

/// Result type of an op whose result has the type of its `data` operand.
static LogicalResult inferSameAsData(Value dataValue, const NNErrorEmitter &err,
                                     SmallVectorImpl<Type> &types) {
  auto data = getRankedType(dataValue, "data", err);
  if (failed(data))
    return failure();
  types.push_back(*data);
  return success();
}

/// Like inferSameAsData, also checking that `axis` is in range.
static LogicalResult inferSameAsDataWithAxis(Value dataValue, int64_t axis,
                                             const NNErrorEmitter &err,
                                             SmallVectorImpl<Type> &types) {
  auto data = getRankedType(dataValue, "data", err);
  if (failed(data) ||
      failed(nn::normalizeAxis(axis, data->getRank(), "axis", err.fn())))
    return failure();
  types.push_back(*data);
  return success();
}

LogicalResult ReluOp::inferNNReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferSameAsData(adaptor.getData(),
                         NNErrorEmitter(location, getOperationName()), types);
}

LogicalResult LeakyReluOp::inferNNReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  return inferSameAsData(adaptor.getData(),
                         NNErrorEmitter(location, getOperationName()), types);
}

LogicalResult PReluOp::inferNNReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto axis = nn::normalizeAxis(static_cast<int64_t>(adaptor.getAxis()),
                                data->getRank(), "axis", err.fn());
  if (failed(axis) || failed(checkChannelOperand(
                          *data, *axis, adaptor.getAlpha(), "alpha", err)))
    return failure();
  types.push_back(*data);
  return success();
}

LogicalResult SoftmaxOp::inferNNReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferSameAsDataWithAxis(
      adaptor.getData(), static_cast<int64_t>(adaptor.getAxis()),
      NNErrorEmitter(location, getOperationName()), types);
}

LogicalResult LogSoftmaxOp::inferNNReturnTypes(MLIRContext *context,
                                               std::optional<Location> location,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  return inferSameAsDataWithAxis(
      adaptor.getData(), static_cast<int64_t>(adaptor.getAxis()),
      NNErrorEmitter(location, getOperationName()), types);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

template <typename AdaptorT>
static LogicalResult inferPool2D(AdaptorT adaptor, const NNErrorEmitter &err,
                                 SmallVectorImpl<Type> &types) {
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  // Required attributes may still be missing when a builder infers types.
  if (!adaptor.getPoolSizeAttr())
    return err.fail("requires attribute 'pool_size'");
  nn::Pool2DAttrs attrs;
  attrs.poolSize = adaptor.getPoolSize();
  attrs.strides = adaptor.getStrides();
  attrs.dilation = adaptor.getDilation();
  attrs.padding = adaptor.getPadding();
  attrs.layout = adaptor.getLayout();
  attrs.outLayout = adaptor.getOutLayout();
  attrs.ceilMode = adaptor.getCeilMode();
  auto shape = nn::inferPool2DShape(data->getShape(), attrs, err.fn());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

LogicalResult MaxPool2DOp::inferNNReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  return inferPool2D(adaptor, NNErrorEmitter(location, getOperationName()),
                     types);
}

LogicalResult AvgPool2DOp::inferNNReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  return inferPool2D(adaptor, NNErrorEmitter(location, getOperationName()),
                     types);
}

template <typename AdaptorT>
static LogicalResult inferGlobalPool2D(AdaptorT adaptor,
                                       const NNErrorEmitter &err,
                                       SmallVectorImpl<Type> &types) {
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto shape = nn::inferGlobalPool2DShape(data->getShape(), adaptor.getLayout(),
                                          adaptor.getOutLayout(), err.fn());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

template <typename AdaptorT>
static LogicalResult inferAdaptivePool2D(AdaptorT adaptor,
                                         const NNErrorEmitter &err,
                                         SmallVectorImpl<Type> &types) {
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  ArrayRef<int64_t> outputSize;
  if (auto size = adaptor.getOutputSize())
    outputSize = *size;
  auto shape = nn::inferAdaptivePool2DShape(data->getShape(), outputSize,
                                            adaptor.getLayout(),
                                            adaptor.getOutLayout(), err.fn());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

LogicalResult GlobalAvgPool2DOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return inferGlobalPool2D(adaptor,
                           NNErrorEmitter(location, getOperationName()), types);
}

LogicalResult GlobalMaxPool2DOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return inferGlobalPool2D(adaptor,
                           NNErrorEmitter(location, getOperationName()), types);
}

LogicalResult AdaptiveAvgPool2DOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return inferAdaptivePool2D(
      adaptor, NNErrorEmitter(location, getOperationName()), types);
}

LogicalResult AdaptiveMaxPool2DOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return inferAdaptivePool2D(
      adaptor, NNErrorEmitter(location, getOperationName()), types);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

LogicalResult BatchNormOp::inferNNReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto axis = nn::normalizeAxis(static_cast<int64_t>(adaptor.getAxis()),
                                data->getRank(), "axis", err.fn());
  if (failed(axis))
    return failure();
  if (failed(checkChannelOperand(*data, *axis, adaptor.getGamma(), "gamma",
                                 err)) ||
      failed(
          checkChannelOperand(*data, *axis, adaptor.getBeta(), "beta", err)) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getMovingMean(),
                                 "moving_mean", err)) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getMovingVar(),
                                 "moving_var", err)))
    return failure();
  if (adaptor.getEpsilon().isNegative())
    return err.fail("epsilon must be >= 0");
  RankedTensorType vec =
      getChannelVectorType(*data, *axis, adaptor.getMovingMean());
  types.push_back(*data);
  types.push_back(vec);
  types.push_back(vec);
  return success();
}

LogicalResult LayerNormOp::inferNNReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto axis = nn::normalizeAxis(static_cast<int64_t>(adaptor.getAxis()),
                                data->getRank(), "axis", err.fn());
  if (failed(axis) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getGamma(), "gamma",
                                 err)) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getBeta(), "beta", err)))
    return failure();
  if (adaptor.getEpsilon().isNegative())
    return err.fail("epsilon must be >= 0");
  types.push_back(*data);
  return success();
}

LogicalResult InstanceNormOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto axis = nn::normalizeAxis(static_cast<int64_t>(adaptor.getAxis()),
                                data->getRank(), "axis", err.fn());
  if (failed(axis) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getGamma(), "gamma",
                                 err)) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getBeta(), "beta", err)))
    return failure();
  if (adaptor.getEpsilon().isNegative())
    return err.fail("epsilon must be >= 0");
  types.push_back(*data);
  return success();
}

LogicalResult GroupNormOp::inferNNReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto axis = nn::normalizeAxis(static_cast<int64_t>(adaptor.getAxis()),
                                data->getRank(), "axis", err.fn());
  if (failed(axis) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getGamma(), "gamma",
                                 err)) ||
      failed(checkChannelOperand(*data, *axis, adaptor.getBeta(), "beta", err)))
    return failure();
  if (!adaptor.getNumGroupsAttr())
    return err.fail("requires attribute 'num_groups'");
  int64_t groups = static_cast<int64_t>(adaptor.getNumGroups());
  int64_t channels = data->getDimSize(*axis);
  if (groups < 1)
    return err.fail("num_groups must be >= 1 but got " + Twine(groups));
  if (!ShapedType::isDynamic(channels) && channels % groups != 0)
    return err.fail("data has " + Twine(channels) + " channels (dimension " +
                    Twine(*axis) +
                    "), which is not divisible by num_groups=" + Twine(groups));
  if (adaptor.getEpsilon().isNegative())
    return err.fail("epsilon must be >= 0");
  types.push_back(*data);
  return success();
}

LogicalResult UpSamplingOp::inferNNReturnTypes(MLIRContext *context,
                                               std::optional<Location> location,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  StringRef method = adaptor.getMethod();
  if (method != "nearest_neighbor" && method != "bilinear" &&
      method != "bicubic")
    return err.fail("method must be \"nearest_neighbor\", \"bilinear\" or "
                    "\"bicubic\" but is \"" +
                    method + "\"");
  auto shape = nn::inferUpSamplingShape(
      data->getShape(), adaptor.getScaleH().convertToDouble(),
      adaptor.getScaleW().convertToDouble(), adaptor.getLayout(), err.fn());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Padding, dropout, flatten
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferNNReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  auto padValue = getRankedType(adaptor.getPadValue(), "pad_value", err);
  if (failed(data) || failed(padValue))
    return failure();
  if (padValue->getRank() != 0)
    return err.fail("pad_value must be a 0-d tensor but has type " +
                    typeToString(*padValue));
  if (!adaptor.getPadWidthAttr())
    return err.fail("requires attribute 'pad_width'");
  StringRef mode = adaptor.getPadMode();
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return err.fail("pad_mode must be \"constant\", \"edge\" or \"reflect\" "
                    "but is \"" +
                    mode + "\"");
  auto shape =
      nn::inferPadShape(data->getShape(), adaptor.getPadWidth(), err.fn());
  if (failed(shape))
    return failure();
  // "edge" and "reflect" read the data at the border: they cannot crop, and
  // "reflect" (which skips the edge) needs more elements than it pads.
  if (mode != "constant") {
    ArrayRef<int64_t> widths = adaptor.getPadWidth();
    for (auto [dim, size] : llvm::enumerate(data->getShape())) {
      int64_t before = widths[2 * dim], after = widths[2 * dim + 1];
      if (before < 0 || after < 0)
        return err.fail("pad_mode \"" + mode + "\" cannot crop: pad_width [" +
                        Twine(before) + ", " + Twine(after) +
                        "] of dimension " + Twine(dim) + " is negative");
      if (ShapedType::isDynamic(size) || (before == 0 && after == 0))
        continue;
      if (mode == "edge" && size == 0)
        return err.fail("pad_mode \"edge\" needs a non-empty dimension " +
                        Twine(dim) + " to pad");
      if (mode == "reflect" && (before >= size || after >= size))
        return err.fail("pad_mode \"reflect\" needs pad_width [" +
                        Twine(before) + ", " + Twine(after) +
                        "] of dimension " + Twine(dim) +
                        " to be smaller than its size " + Twine(size));
    }
  }
  types.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

OpFoldResult PadOp::fold(FoldAdaptor adaptor) {
  // Padding by nothing is the identity.
  if (llvm::all_of(getPadWidth(), [](int64_t w) { return w == 0; }) &&
      getData().getType() == getType())
    return getData();
  return {};
}

LogicalResult DropoutOp::inferNNReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  APFloat rate = adaptor.getRate();
  double value = rate.convertToDouble();
  if (!(value >= 0.0 && value <= 1.0)) {
    SmallString<16> text;
    rate.toString(text);
    return err.fail("rate must be in [0, 1] but is " + text);
  }
  types.push_back(*data);
  types.push_back(*data);
  return success();
}

namespace {
/// mlc compiles for inference, where dropout passes its input through:
/// replace uses of the output by the input, and erase the op once its mask is
/// unused too.
struct RemoveInferenceDropout : OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DropoutOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    if (!op.getOutput().use_empty()) {
      rewriter.replaceAllUsesWith(op.getOutput(), op.getData());
      changed = true;
    }
    if (op.getMask().use_empty()) {
      rewriter.eraseOp(op);
      return success();
    }
    return success(changed);
  }
};
} // namespace

void DropoutOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<RemoveInferenceDropout>(context);
}

LogicalResult BatchFlattenOp::inferNNReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  NNErrorEmitter err(location, getOperationName());
  auto data = getRankedType(adaptor.getData(), "data", err);
  if (failed(data))
    return failure();
  auto shape = nn::inferBatchFlattenShape(data->getShape(), err.fn());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

OpFoldResult BatchFlattenOp::fold(FoldAdaptor adaptor) {
  // A 2-D tensor is already flat.
  if (getData().getType() == getType())
    return getData();
  return {};
}

//===----------------------------------------------------------------------===//
// Type inference entry point
//===----------------------------------------------------------------------===//

/// The fixed operand count of nn op `OpT` (all nn ops have 1 to 5 operands).
template <typename OpT> static unsigned numOperandsOf() {
  if (OpT::template hasTrait<mlir::OpTrait::OneOperand>())
    return 1;
  if (OpT::template hasTrait<mlir::OpTrait::NOperands<2>::Impl>())
    return 2;
  if (OpT::template hasTrait<mlir::OpTrait::NOperands<3>::Impl>())
    return 3;
  if (OpT::template hasTrait<mlir::OpTrait::NOperands<4>::Impl>())
    return 4;
  if (OpT::template hasTrait<mlir::OpTrait::NOperands<5>::Impl>())
    return 5;
  llvm_unreachable("nn op with an unexpected number of operands");
}

/// InferTypeOpInterface's `inferReturnTypes` for nn op `OpT`: gathers the
/// inherent attributes from `properties` and from the `attributes`
/// dictionary (custom parsers and OperationState-based builders pass them
/// there), fills in TVM's defaults for unset ones, and runs the op's
/// `inferNNReturnTypes` on the resulting adaptor.
template <typename OpT>
static LogicalResult
inferWithDefaults(MLIRContext *context, std::optional<Location> location,
                  ValueRange operands, DictionaryAttr attributes,
                  OpaqueProperties properties, RegionRange regions,
                  SmallVectorImpl<Type> &types) {
  using Props = typename OpT::Properties;
  Props props;
  if (properties)
    props = *properties.as<Props *>();
  if constexpr (!std::is_empty_v<Props>) {
    if (attributes)
      for (NamedAttribute attr : attributes)
        OpT::setInherentAttr(props, attr.getName().getValue(), attr.getValue());
    OpT::populateDefaultProperties(
        OperationName(OpT::getOperationName(), context), props);
  }
  // Builders may pass any number of operands; the adaptor indexes them
  // unchecked.
  unsigned expected = numOperandsOf<OpT>();
  if (operands.size() != expected)
    return emitOptionalError(location, "'", OpT::getOperationName(),
                             "' op expects ", expected, " operands but got ",
                             operands.size());
  typename OpT::Adaptor adaptor(operands, attributes, props, regions);
  return OpT::inferNNReturnTypes(context, location, adaptor, types);
}

#define MLC_NN_INFER_RETURN_TYPES(OP)                                          \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> location,                  \
      ValueRange operands, DictionaryAttr attributes,                          \
      OpaqueProperties properties, RegionRange regions,                        \
      SmallVectorImpl<Type> &types) {                                          \
    return inferWithDefaults<OP>(context, location, operands, attributes,      \
                                 properties, regions, types);                  \
  }

MLC_NN_INFER_RETURN_TYPES(Conv2DOp)
MLC_NN_INFER_RETURN_TYPES(DenseOp)
MLC_NN_INFER_RETURN_TYPES(InstanceNormOp)
MLC_NN_INFER_RETURN_TYPES(GroupNormOp)
MLC_NN_INFER_RETURN_TYPES(UpSamplingOp)
MLC_NN_INFER_RETURN_TYPES(Conv2DTransposeOp)
MLC_NN_INFER_RETURN_TYPES(MatmulOp)
MLC_NN_INFER_RETURN_TYPES(PReluOp)
MLC_NN_INFER_RETURN_TYPES(GlobalMaxPool2DOp)
MLC_NN_INFER_RETURN_TYPES(AdaptiveMaxPool2DOp)
MLC_NN_INFER_RETURN_TYPES(BatchMatmulOp)
MLC_NN_INFER_RETURN_TYPES(BiasAddOp)
MLC_NN_INFER_RETURN_TYPES(ReluOp)
MLC_NN_INFER_RETURN_TYPES(LeakyReluOp)
MLC_NN_INFER_RETURN_TYPES(SoftmaxOp)
MLC_NN_INFER_RETURN_TYPES(LogSoftmaxOp)
MLC_NN_INFER_RETURN_TYPES(MaxPool2DOp)
MLC_NN_INFER_RETURN_TYPES(AvgPool2DOp)
MLC_NN_INFER_RETURN_TYPES(GlobalAvgPool2DOp)
MLC_NN_INFER_RETURN_TYPES(AdaptiveAvgPool2DOp)
MLC_NN_INFER_RETURN_TYPES(BatchNormOp)
MLC_NN_INFER_RETURN_TYPES(LayerNormOp)
MLC_NN_INFER_RETURN_TYPES(PadOp)
MLC_NN_INFER_RETURN_TYPES(DropoutOp)
MLC_NN_INFER_RETURN_TYPES(BatchFlattenOp)
#undef MLC_NN_INFER_RETURN_TYPES
