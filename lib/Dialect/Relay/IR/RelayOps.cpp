//===- RelayOps.cpp - relay dialect operations ------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Type inference (through the shared shape functions), verifiers and folders
// of the core relay ops. Diagnostics name the op, the operand and the
// expected and actual types or attribute values.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::relay;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Emits "'<op>' op <args...>" at `location` (if set) and returns failure.
template <typename... Args>
static LogicalResult opError(std::optional<Location> location, StringRef opName,
                             Args &&...args) {
  return emitOptionalError(location, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

/// A ShapeErrorFn that reports shape-function errors as op errors, prefixed
/// by `context` (e.g. "invalid newshape: ").
namespace {
struct ShapeErrorReporter {
  std::optional<Location> location;
  StringRef opName;
  std::string context;
  void operator()(const Twine &message) const {
    (void)opError(location, opName, context, message.str());
  }
};
} // namespace

/// Prints a type to a string, quoted like types in diagnostics, for
/// messages built before the diagnostic.
static std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << type << "'";
  return s;
}

/// Returns `type` as a ranked tensor or reports that operand `name` must be
/// one.
static RankedTensorType getRankedTensor(std::optional<Location> location,
                                        StringRef opName, StringRef name,
                                        Type type) {
  auto tensor = dyn_cast_or_null<RankedTensorType>(type);
  if (!tensor)
    (void)opError(location, opName, "operand '", name,
                  "' must be a ranked tensor, got ", type);
  return tensor;
}

LogicalResult mlc::relay::detail::verifyInferredResultTypes(Operation *op) {
  auto iface = dyn_cast<InferTypeOpInterface>(op);
  if (!iface)
    return op->emitOpError("does not implement InferTypeOpInterface");
  SmallVector<Type> inferred;
  if (failed(iface.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), inferred)))
    return failure();
  if (inferred.size() != op->getNumResults())
    return op->emitOpError()
           << "has " << op->getNumResults()
           << " results, but the operands and attributes give "
           << inferred.size();
  for (auto [i, result, expected] :
       llvm::enumerate(op->getResultTypes(), inferred)) {
    if (result != expected)
      return op->emitOpError()
             << "result #" << i << " has type " << result
             << ", but the operands and attributes give " << expected;
  }
  return success();
}

LogicalResult mlc::relay::detail::inferBroadcastBinaryType(
    StringRef opName, std::optional<Location> location, Type lhsType,
    Type rhsType, bool isComparison, SmallVectorImpl<Type> &inferred) {
  RankedTensorType lhs = getRankedTensor(location, opName, "lhs", lhsType);
  if (!lhs)
    return failure();
  RankedTensorType rhs = getRankedTensor(location, opName, "rhs", rhsType);
  if (!rhs)
    return failure();
  if (lhs.getElementType() != rhs.getElementType())
    return opError(location, opName,
                   "operands must have the same element type: lhs ", lhs,
                   ", rhs ", rhs);
  SmallVector<int64_t> shape;
  std::string detail;
  if (failed(broadcastShapes(lhs.getShape(), rhs.getShape(), shape,
                             [&](const Twine &m) { detail = m.str(); })))
    return opError(location, opName,
                   "operands are not broadcast-compatible: lhs ", lhs, ", rhs ",
                   rhs, " (", detail, ")");
  Type elementType = isComparison ? IntegerType::get(lhs.getContext(), 1)
                                  : lhs.getElementType();
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

LogicalResult mlc::relay::detail::inferSameAsOperandType(
    StringRef opName, std::optional<Location> location, Type operand,
    SmallVectorImpl<Type> &inferred) {
  RankedTensorType tensor = getRankedTensor(location, opName, "data", operand);
  if (!tensor)
    return failure();
  inferred.push_back(tensor);
  return success();
}

LogicalResult mlc::relay::detail::inferReduceType(
    StringRef opName, std::optional<Location> location, Type dataType,
    std::optional<ArrayRef<int64_t>> axis, bool keepdims, bool exclude,
    Type resultElementType, SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, opName, "data", dataType);
  if (!data)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(inferReduceShape(data.getShape(), axis, keepdims, exclude, shape,
                              ShapeErrorReporter{location, opName,
                                                 "invalid 'axis' for data " +
                                                     typeString(data) + ": "})))
    return failure();
  inferred.push_back(RankedTensorType::get(
      shape, resultElementType ? resultElementType : data.getElementType()));
  return success();
}

LogicalResult mlc::relay::detail::inferArgReduceType(
    StringRef opName, std::optional<Location> location, Type dataType,
    std::optional<ArrayRef<int64_t>> axis, bool keepdims, bool exclude,
    SmallVectorImpl<Type> &inferred) {
  if (failed(inferReduceType(
          opName, location, dataType, axis, keepdims, exclude,
          IntegerType::get(dataType.getContext(), 32), inferred)))
    return failure();
  auto data = cast<RankedTensorType>(dataType);
  SmallVector<int64_t> reduced;
  if (failed(inferReduceAxes(data.getRank(), axis, exclude, reduced, nullptr)))
    return failure();
  for (int64_t i : reduced)
    if (data.getDimSize(i) == 0)
      return emitOptionalError(location, "'", opName, "' op reduces axis ", i,
                               " of data ", typeString(data),
                               ", which has no elements: no index to return");
  return success();
}

/// True if `attr` is a splat integer or float constant equal to `value`.
static bool isSplatOf(Attribute attr, int64_t value) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return false;
  Type elementType = dense.getElementType();
  if (isa<FloatType>(elementType))
    return dense.getSplatValue<APFloat>().convertToDouble() ==
           static_cast<double>(value);
  if (isa<IntegerType>(elementType)) {
    APInt v = dense.getSplatValue<APInt>();
    if (elementType.isInteger(1))
      return v.getZExtValue() == static_cast<uint64_t>(value);
    return v.getSExtValue() == value;
  }
  return false;
}

/// Folds `x op c` to `x` when `c` is a splat `identity` constant at operand
/// `constIdx` and the result type equals x's type (no broadcasting effect).
static OpFoldResult foldIdentityOperand(Operation *op,
                                        ArrayRef<Attribute> attrs,
                                        unsigned constIdx, int64_t identity) {
  unsigned otherIdx = 1 - constIdx;
  if (!isSplatOf(attrs[constIdx], identity))
    return {};
  Value other = op->getOperand(otherIdx);
  if (other.getType() != op->getResult(0).getType())
    return {};
  return other;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  auto value = dyn_cast_or_null<ElementsAttr>(adaptor.getValueAttr());
  if (!value)
    return opError(location, getOperationName(),
                   "requires an ElementsAttr 'value'");
  if (!isa<RankedTensorType>(value.getType()))
    return opError(location, getOperationName(),
                   "value must have a ranked tensor type, got ",
                   value.getType());
  inferred.push_back(value.getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// TupleOp / TupleGetItemOp
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  inferred.push_back(
      TupleType::get(context, TypeRange(adaptor.getFields().getTypes())));
  return success();
}

LogicalResult TupleGetItemOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  auto tuple = dyn_cast<TupleType>(adaptor.getTuple().getType());
  if (!tuple)
    return opError(location, getOperationName(),
                   "operand 'tuple' must be a tuple, got ",
                   adaptor.getTuple().getType());
  int64_t index = adaptor.getIndex();
  if (index < 0 || index >= static_cast<int64_t>(tuple.size()))
    return opError(location, getOperationName(), "index ", index,
                   " is out of range for ", tuple, " with ", tuple.size(),
                   " fields");
  inferred.push_back(tuple.getType(index));
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise binary folders
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentityOperand(*this, adaptor.getOperands(), 1, 0))
    return r;
  return foldIdentityOperand(*this, adaptor.getOperands(), 0, 0);
}

OpFoldResult SubtractOp::fold(FoldAdaptor adaptor) {
  return foldIdentityOperand(*this, adaptor.getOperands(), 1, 0);
}

OpFoldResult MultiplyOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentityOperand(*this, adaptor.getOperands(), 1, 1))
    return r;
  return foldIdentityOperand(*this, adaptor.getOperands(), 0, 1);
}

OpFoldResult DivideOp::fold(FoldAdaptor adaptor) {
  return foldIdentityOperand(*this, adaptor.getOperands(), 1, 1);
}

//===----------------------------------------------------------------------===//
// ClipOp / CastOp / WhereOp
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return detail::inferSameAsOperandType(getOperationName(), location,
                                        adaptor.getData().getType(), inferred);
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  Type dtype = adaptor.getDtype();
  if (!dtype || !(isa<FloatType>(dtype) || isa<IntegerType>(dtype)))
    return opError(location, getOperationName(),
                   "'dtype' must be an integer or floating-point type, got ",
                   dtype);
  inferred.push_back(data.clone(dtype));
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getData().getType() == getType())
    return getData();
  return {};
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType cond = getRankedTensor(location, name, "condition",
                                          adaptor.getCondition().getType());
  RankedTensorType x =
      cond ? getRankedTensor(location, name, "x", adaptor.getX().getType())
           : nullptr;
  RankedTensorType y =
      x ? getRankedTensor(location, name, "y", adaptor.getY().getType())
        : nullptr;
  if (!y)
    return failure();
  if (x.getElementType() != y.getElementType())
    return opError(location, name,
                   "x and y must have the same element type: x ", x, ", y ", y);
  SmallVector<int64_t> xy, shape;
  std::string detail;
  auto capture = [&](const Twine &m) { detail = m.str(); };
  if (failed(broadcastShapes(x.getShape(), y.getShape(), xy, capture)))
    return opError(location, name, "operands are not broadcast-compatible: x ",
                   x, ", y ", y, " (", detail, ")");
  if (failed(broadcastShapes(cond.getShape(), xy, shape, capture)))
    return opError(
        location, name, "operands are not broadcast-compatible: condition ",
        cond, ", x and y broadcast to ", formatShape(xy), " (", detail, ")");
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(inferReshapeShape(
          data.getShape(), adaptor.getNewshape(), shape,
          ShapeErrorReporter{location, getOperationName(), ""},
          adaptor.getAllowzero())))
    return failure();
  inferred.push_back(data.clone(shape));
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getData().getType() == getType())
    return getData();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getData()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  return {};
}

/// reshape(reshape(x)) -> reshape(x) with the (static) final shape as
/// newshape: Relay's special values refer to the intermediate shape, so the
/// outer newshape cannot be reused as is.
LogicalResult ReshapeOp::canonicalize(ReshapeOp op, PatternRewriter &rewriter) {
  auto inner = op.getData().getDefiningOp<ReshapeOp>();
  if (!inner)
    return failure();
  RankedTensorType type = op.getType();
  if (!type.hasStaticShape())
    return rewriter.notifyMatchFailure(op, "result shape is not static");
  // A static shape only needs allowzero when it has a 0-sized dimension.
  rewriter.replaceOpWithNewOp<ReshapeOp>(
      op, type, inner.getData(), type.getShape(),
      /*allowzero=*/llvm::is_contained(type.getShape(), 0));
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp / ExpandDimsOp / SqueezeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<int64_t> perm;
  if (failed(inferTransposePermutation(
          data.getRank(), adaptor.getAxes(), perm,
          ShapeErrorReporter{location, getOperationName(),
                             "invalid 'axes' for data " + typeString(data) +
                                 ": "})))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(data.getDimSize(p));
  inferred.push_back(data.clone(shape));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  SmallVector<int64_t> perm;
  if (failed(inferTransposePermutation(getData().getType().getRank(), getAxes(),
                                       perm, nullptr)))
    return {};
  for (auto [i, p] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != p)
      return {};
  if (getData().getType() != getType())
    return {};
  return getData();
}

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(inferExpandDimsShape(
          data.getShape(), adaptor.getAxis(), adaptor.getNumNewaxis(), shape,
          ShapeErrorReporter{location, getOperationName(),
                             "invalid attributes for data " + typeString(data) +
                                 ": "})))
    return failure();
  inferred.push_back(data.clone(shape));
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(
          inferSqueezeShape(data.getShape(), adaptor.getAxis(), shape,
                            ShapeErrorReporter{location, getOperationName(),
                                               "invalid 'axis' for data " +
                                                   typeString(data) + ": "})))
    return failure();
  inferred.push_back(data.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// ConcatenateOp / SplitOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatenateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  SmallVector<RankedTensorType> inputs;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (auto [i, v] : llvm::enumerate(adaptor.getInputs())) {
    RankedTensorType t = getRankedTensor(
        location, name, "inputs#" + std::to_string(i), v.getType());
    if (!t)
      return failure();
    if (!inputs.empty() && t.getElementType() != inputs[0].getElementType())
      return opError(location, name,
                     "inputs must have the same element type: input 0 is ",
                     inputs[0], ", input ", i, " is ", t);
    inputs.push_back(t);
    shapes.push_back(t.getShape());
  }
  if (inputs.empty())
    return opError(location, name, "needs at least one input");
  SmallVector<int64_t> shape;
  if (failed(inferConcatenateShape(
          shapes, adaptor.getAxis(), shape,
          ShapeErrorReporter{location, name, "cannot concatenate: "})))
    return failure();
  inferred.push_back(inputs[0].clone(shape));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType data =
      getRankedTensor(location, name, "data", adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<SmallVector<int64_t>> shapes;
  ShapeErrorReporter report{location, name,
                            "invalid split of data " + typeString(data) + ": "};
  Attribute ios = adaptor.getIndicesOrSections();
  if (auto sections = dyn_cast_or_null<IntegerAttr>(ios)) {
    if (failed(inferSplitShapes(data.getShape(), sections.getInt(),
                                adaptor.getAxis(), shapes, report)))
      return failure();
  } else if (auto indices = dyn_cast_or_null<DenseI64ArrayAttr>(ios)) {
    if (failed(inferSplitShapes(data.getShape(), indices.asArrayRef(),
                                adaptor.getAxis(), shapes, report)))
      return failure();
  } else {
    return opError(location, name,
                   "'indices_or_sections' must be an i64 integer or a "
                   "DenseI64ArrayAttr, got ",
                   ios);
  }
  for (const SmallVector<int64_t> &shape : shapes)
    inferred.push_back(data.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// StridedSliceOp / TakeOp / BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult StridedSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(inferStridedSliceShape(
          data.getShape(), adaptor.getBegin(), adaptor.getEnd(),
          adaptor.getStrides(), adaptor.getAxes(), adaptor.getSliceMode(),
          shape,
          ShapeErrorReporter{location, getOperationName(),
                             "invalid slice of data " + typeString(data) +
                                 ": "})))
    return failure();
  inferred.push_back(data.clone(shape));
  return success();
}

LogicalResult TakeOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType data =
      getRankedTensor(location, name, "data", adaptor.getData().getType());
  if (!data)
    return failure();
  RankedTensorType indices = getRankedTensor(location, name, "indices",
                                             adaptor.getIndices().getType());
  if (!indices)
    return failure();
  StringRef mode = adaptor.getMode();
  if (mode != "clip" && mode != "wrap" && mode != "fast")
    return opError(location, name,
                   "'mode' must be \"clip\", \"wrap\" or \"fast\", got \"",
                   mode, "\"");
  SmallVector<int64_t> shape;
  std::optional<int64_t> axis;
  if (adaptor.getAxisAttr())
    axis = adaptor.getAxisAttr().getInt();
  if (failed(inferTakeShape(
          data.getShape(), indices.getShape(), axis, adaptor.getBatchDims(),
          shape,
          ShapeErrorReporter{location, name,
                             "invalid take from data " + typeString(data) +
                                 " with indices " + typeString(indices) +
                                 ": "})))
    return failure();
  inferred.push_back(data.clone(shape));
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = getRankedTensor(location, getOperationName(), "data",
                                          adaptor.getData().getType());
  if (!data)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(inferBroadcastToShape(
          data.getShape(), adaptor.getShape(), shape,
          ShapeErrorReporter{location, getOperationName(), ""})))
    return failure();
  inferred.push_back(data.clone(shape));
  return success();
}

#define GET_OP_CLASSES
#include "mlc/Dialect/Relay/IR/RelayOps.cpp.inc"
