//===- ConvertShapeValues.cpp - ONNX shape computations on symbols -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Exporters spell `x.view(b, t, h, d)` as Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape. With static input shapes those fold to constants (the
// importer evaluates constant sub-graphs); with a symbolic dimension (a
// dynamic batch) the Shape is a ShapeValue, a vector of symbolic dimension
// expressions, and the nodes here compute on the expressions instead of on
// tensors. Relax has no runtime shape tensors; a Reshape that consumes a
// ShapeValue becomes a relax.reshape whose result type carries the symbolic
// shape. Every other consumer is an error that names the shape.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlc/Dialect/Relax/IR/Relax.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::onnx_import;

namespace {

/// Inputs as ShapeValues; an error naming the input when one is a tensor
/// that is neither a symbolic shape nor an integer constant of rank <= 1.
FailureOr<SmallVector<ShapeValue>> getShapeInputs(NodeContext &node,
                                                  unsigned count) {
  SmallVector<ShapeValue> inputs;
  for (unsigned i = 0; i < count; ++i) {
    std::optional<ShapeValue> value = node.shapeInput(i);
    if (!value)
      return node.error() << "input " << i
                          << " must be a shape or an integer constant of rank "
                             "0 or 1 where another input is a shape computed "
                             "from symbolic dimensions";
    inputs.push_back(std::move(*value));
  }
  return inputs;
}

/// Constant integers of a ShapeValue input (indices, axes, bounds).
FailureOr<SmallVector<int64_t>>
getConstants(NodeContext &node, const ShapeValue &value, StringRef what) {
  SmallVector<int64_t> result;
  for (SymDim dim : value.elements) {
    std::optional<int64_t> c = getConstantSize(dim);
    if (!c)
      return node.error() << what << " must be constants, not ["
                          << node.getScope().print(value.elements) << "]";
    result.push_back(*c);
  }
  return result;
}

LogicalResult convertGather(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", 0);
  FailureOr<SmallVector<ShapeValue>> in = getShapeInputs(node, 2);
  if (failed(axis) || failed(in))
    return failure();
  ShapeValue &data = (*in)[0], &indices = (*in)[1];
  if (data.isScalar || (*axis != 0 && *axis != -1))
    return node.error() << "a shape can only be gathered along its axis 0";
  FailureOr<SmallVector<int64_t>> picks =
      getConstants(node, indices, "indices into a shape");
  if (failed(picks))
    return failure();
  int64_t size = data.elements.size();
  ShapeValue result{{}, indices.isScalar, data.elementType};
  for (int64_t i : *picks) {
    if (i < -size || i >= size)
      return node.error() << "index " << i << " is out of range for a shape of "
                          << size << " dimensions";
    result.elements.push_back(data.elements[i < 0 ? i + size : i]);
  }
  node.setShapeOutput(0, result);
  return success();
}

/// Unsqueeze of a scalar to a 1-element vector, Squeeze the other way.
LogicalResult convertUnsqueezeOrSqueeze(NodeContext &node, bool unsqueeze) {
  FailureOr<SmallVector<ShapeValue>> in = getShapeInputs(node, 1);
  if (failed(in))
    return failure();
  std::optional<ShapeValue> data = (*in)[0];
  SmallVector<int64_t> axes;
  if (node.getOpset() < 13) {
    FailureOr<SmallVector<int64_t>> attr = node.getInts("axes");
    if (failed(attr))
      return failure();
    axes = *attr;
  } else if (node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> input = node.intInput(1, "axes");
    if (failed(input))
      return failure();
    axes = *input;
  }
  bool ok = unsqueeze ? data->isScalar && axes.size() == 1 &&
                            (axes[0] == 0 || axes[0] == -1)
                      : !data->isScalar && data->elements.size() == 1 &&
                            (axes.empty() || (axes.size() == 1 &&
                                              (axes[0] == 0 || axes[0] == -1)));
  if (!ok)
    return node.error() << "only a scalar shape element becomes a vector of "
                           "one (Unsqueeze, axes [0]) and back (Squeeze)";
  data->isScalar = !unsqueeze;
  node.setShapeOutput(0, *data);
  return success();
}

LogicalResult convertConcat(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", 0);
  FailureOr<SmallVector<ShapeValue>> in =
      getShapeInputs(node, node.getNumInputs());
  if (failed(axis) || failed(in))
    return failure();
  if (*axis != 0 && *axis != -1)
    return node.error() << "shapes are concatenated along axis 0, not "
                        << *axis;
  ShapeValue result{{}, false, (*in)[0].elementType};
  for (const ShapeValue &part : *in) {
    if (part.isScalar)
      return node.error() << "cannot concatenate a scalar";
    llvm::append_range(result.elements, part.elements);
  }
  node.setShapeOutput(0, result);
  return success();
}

LogicalResult convertSlice(NodeContext &node) {
  if (node.getOpset() < 10)
    return node.error() << "slices of shapes need opset 10 or later";
  FailureOr<SmallVector<ShapeValue>> in =
      getShapeInputs(node, node.getNumInputs());
  if (failed(in))
    return failure();
  const ShapeValue &data = (*in)[0];
  if (data.isScalar)
    return node.error() << "cannot slice a scalar";
  SmallVector<SmallVector<int64_t>> bounds;
  for (unsigned i = 1; i < in->size(); ++i) {
    if (!node.hasInput(i)) {
      bounds.emplace_back();
      continue;
    }
    FailureOr<SmallVector<int64_t>> c =
        getConstants(node, (*in)[i], "slice bounds");
    if (failed(c))
      return failure();
    bounds.push_back(*c);
  }
  bounds.resize(4);
  auto one = [&](unsigned i, int64_t def) {
    return bounds[i].empty() ? def : bounds[i][0];
  };
  if (bounds[0].size() != 1 || bounds[1].size() != 1 || bounds[2].size() > 1 ||
      bounds[3].size() > 1 || (one(2, 0) != 0 && one(2, 0) != -1))
    return node.error() << "a shape is sliced along axis 0 only";
  int64_t size = data.elements.size(), step = one(3, 1);
  if (step == 0)
    return node.error() << "slice step 0";
  // Python's slice rule, clamped to the vector.
  auto clamp = [&](int64_t i, int64_t lo, int64_t hi) {
    if (i < 0)
      i += size;
    return std::clamp(i, lo, hi);
  };
  int64_t start = step > 0 ? clamp(bounds[0][0], 0, size)
                           : clamp(bounds[0][0], -1, size - 1);
  int64_t end = step > 0 ? clamp(bounds[1][0], 0, size)
                         : clamp(bounds[1][0], -1, size - 1);
  ShapeValue result{{}, false, data.elementType};
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step)
    result.elements.push_back(data.elements[i]);
  node.setShapeOutput(0, result);
  return success();
}

LogicalResult convertCast(NodeContext &node) {
  FailureOr<int64_t> to = node.getInt("to", 0);
  if (failed(to))
    return failure();
  std::optional<ShapeValue> data = node.shapeInput(0);
  Type type = getElementType(node.getContext(), *to);
  if (!data || !type || !isa<IntegerType>(type) ||
      type.getIntOrFloatBitWidth() < 32)
    return node.error() << "a shape computed from symbolic dimensions can "
                           "only be cast to int32 or int64";
  data->elementType = type;
  node.setShapeOutput(0, *data);
  return success();
}

LogicalResult convertIdentity(NodeContext &node) {
  FailureOr<SmallVector<ShapeValue>> in = getShapeInputs(node, 1);
  if (failed(in))
    return failure();
  node.setShapeOutput(0, (*in)[0]);
  return success();
}

/// Add, Sub, Mul, Div on shape elements, with broadcasting of a scalar or a
/// vector of one. Shape elements are sizes (non-negative), so ONNX's
/// truncating integer division is floor division here.
LogicalResult convertArithmetic(NodeContext &node) {
  FailureOr<SmallVector<ShapeValue>> in = getShapeInputs(node, 2);
  if (failed(in))
    return failure();
  const ShapeValue &lhs = (*in)[0], &rhs = (*in)[1];
  size_t n = std::max(lhs.elements.size(), rhs.elements.size());
  for (const ShapeValue *v : {&lhs, &rhs})
    if (v->elements.size() != n && v->elements.size() != 1)
      return node.error() << "shapes of " << lhs.elements.size() << " and "
                          << rhs.elements.size()
                          << " elements do not broadcast";
  StringRef op = node.getOpType();
  ShapeValue result{{}, lhs.isScalar && rhs.isScalar, lhs.elementType};
  for (size_t i = 0; i < n; ++i) {
    SymDim a = lhs.elements[lhs.elements.size() == 1 ? 0 : i];
    SymDim b = rhs.elements[rhs.elements.size() == 1 ? 0 : i];
    std::optional<int64_t> bc = getConstantSize(b), ac = getConstantSize(a);
    if (op == "Add") {
      result.elements.push_back(a + b);
    } else if (op == "Sub") {
      result.elements.push_back(a - b);
    } else if (op == "Mul") {
      if (!ac && !bc)
        return node.error() << "the product of two symbolic sizes ("
                            << node.getScope().print(a) << " and "
                            << node.getScope().print(b) << ") is not supported";
      result.elements.push_back(a * b);
    } else {
      if (!bc || *bc <= 0)
        return node.error() << "a symbolic size can only be divided by a "
                               "positive constant, not "
                            << node.getScope().print(b);
      result.elements.push_back(a.floorDiv(*bc));
    }
  }
  node.setShapeOutput(0, result);
  return success();
}

/// Reshape to a symbolic shape: a relax.reshape whose static spelling uses
/// 0 (copy the input's dimension) where the target repeats the input's
/// expression at that position and -1 for at most one other symbolic
/// dimension; the inferred symbolic shape must be the target.
LogicalResult convertReshape(NodeContext &node) {
  std::optional<ShapeValue> target = node.shapeInput(1);
  if (!target || target->isScalar)
    return node.error() << "the shape (input 1) must be a vector";
  SymbolScope &scope = node.getScope();
  RankedTensorType type = node.inputType(0);
  SymShape input = relax::getSymbolicShape(type, scope);
  SmallVector<int64_t> spelling;
  bool inferred = false;
  for (auto [i, dim] : llvm::enumerate(target->elements)) {
    if (std::optional<int64_t> c = getConstantSize(dim)) {
      if (*c == -1)
        inferred = true;
      spelling.push_back(*c);
    } else if (i < input.size() && input[i] == dim) {
      spelling.push_back(0);
    } else if (!inferred) {
      inferred = true;
      spelling.push_back(-1);
    } else {
      return node.error() << "cannot reshape " << type << " to ["
                          << scope.print(target->elements)
                          << "]: more than one dimension would be inferred";
    }
  }
  FailureOr<Value> result =
      node.op("reshape", {node.input(0)}, {node.i64s("shape", spelling)});
  if (failed(result))
    return failure();
  // The spelling's -1 is inferred from the element count: check it gives
  // the requested expression. Where the count does not divide symbolically
  // ((b * t * 4) / (b * 8)) the dimension is unknown, and a relax tensor
  // cannot be allocated without its size.
  SymShape got =
      relax::getSymbolicShape(cast<RankedTensorType>(result->getType()), scope);
  for (auto [i, dim] : llvm::enumerate(target->elements)) {
    std::optional<int64_t> c = getConstantSize(dim);
    if ((c && (*c == 0 || *c == -1)) || got[i] == dim)
      continue;
    return node.error() << "reshaping " << type << " to ["
                        << scope.print(target->elements) << "] gives dimension "
                        << i << " = " << scope.print(got[i]) << ", not "
                        << scope.print(dim)
                        << " (relax infers a size from the element count "
                           "only when it divides symbolically)";
  }
  Value value = *result;
  node.setOutput(0, value);
  return success();
}

} // namespace

LogicalResult mlc::onnx_import::convertShapeValueNode(NodeContext &node) {
  StringRef op = node.getOpType();
  if (op == "Gather")
    return convertGather(node);
  if (op == "Unsqueeze" || op == "Squeeze")
    return convertUnsqueezeOrSqueeze(node, op == "Unsqueeze");
  if (op == "Concat")
    return convertConcat(node);
  if (op == "Slice")
    return convertSlice(node);
  if (op == "Cast")
    return convertCast(node);
  if (op == "Identity")
    return convertIdentity(node);
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div")
    return convertArithmetic(node);
  if (op == "Reshape" && !node.shapeInput(0))
    return convertReshape(node);
  for (unsigned i = 0; i < node.getNumInputs(); ++i)
    if (std::optional<ShapeValue> value = node.shapeInput(i))
      if (llvm::any_of(value->elements,
                       [](SymDim d) { return !getConstantSize(d); }))
        return node.error()
               << "input " << i << " is a shape computed from symbolic "
               << "dimensions [" << node.getScope().print(value->elements)
               << "], which only Gather, Unsqueeze, Squeeze, Concat, Slice, "
                  "Cast, Add, Sub, Mul, Div and Reshape (as its shape) can "
                  "use; give static input shapes (--onnx-input-shape)";
  return node.error() << "unexpected shape input";
}
