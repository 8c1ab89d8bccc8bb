//===- ConvertTensor.cpp - ONNX tensor ops to relax -------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Shape manipulation (Reshape, Transpose, Slice, Gather, ...), constants and
// the shape sub-graph ops (Shape, Size, ConstantOfShape, Range), and
// reductions. Ops whose operands are all known are computed while
// importing (Importer::create), so shape sub-graphs fold to constants.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlc/Dialect/Relax/IR/Relax.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::onnx_import;

namespace {

/// Integers from attribute `name` before `sinceInput`, from input `input`
/// after (the opset where ONNX moved them); nullopt when absent.
FailureOr<std::optional<SmallVector<int64_t>>>
getIntsAttrOrInput(NodeContext &node, StringRef name, int64_t sinceInput,
                   unsigned input) {
  if (node.getOpset() < sinceInput) {
    if (!node.hasAttr(name))
      return std::optional<SmallVector<int64_t>>();
    FailureOr<SmallVector<int64_t>> values = node.getInts(name);
    if (failed(values))
      return failure();
    return std::optional<SmallVector<int64_t>>(*values);
  }
  if (!node.hasInput(input))
    return std::optional<SmallVector<int64_t>>();
  FailureOr<SmallVector<int64_t>> values = node.intInput(input, name);
  if (failed(values))
    return failure();
  return std::optional<SmallVector<int64_t>>(*values);
}

LogicalResult convertReshape(NodeContext &node) {
  SmallVector<int64_t> shape;
  if (node.getOpset() < 5) {
    FailureOr<SmallVector<int64_t>> attr = node.getInts("shape");
    if (failed(attr))
      return failure();
    shape = *attr;
  } else {
    FailureOr<SmallVector<int64_t>> input = node.intInput(1, "shape");
    if (failed(input))
      return failure();
    shape = *input;
  }
  FailureOr<int64_t> allowZero = node.getInt("allowzero", 0);
  if (failed(allowZero))
    return failure();
  if (*allowZero && llvm::is_contained(shape, 0)) {
    // A literal 0: the result has no elements, nor must the input; it is an
    // empty constant (relax.reshape reads 0 as "copy the input dimension").
    RankedTensorType type = node.inputType(0);
    if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
      return node.error() << "allowzero = 1: shape [" << shape
                          << "] may not hold both 0 and -1";
    if (!type.hasStaticShape() || type.getNumElements() != 0)
      return node.error() << "allowzero = 1: shape [" << shape
                          << "] has no elements, but the input is " << type;
    auto empty = RankedTensorType::get(shape, type.getElementType());
    node.setOutput(
        0, node.constant(DenseElementsAttr::get(empty, ArrayRef<Attribute>())));
    return success();
  }
  return define(
      node, node.op("reshape", {node.input(0)}, {node.i64s("shape", shape)}));
}

LogicalResult convertFlatten(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  FailureOr<int64_t> axisAttr = node.getInt("axis", 1);
  if (failed(axisAttr))
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
  if (axis < 0 || axis > rank)
    return node.error() << "axis " << *axisAttr << " is out of range for rank "
                        << rank;
  // Each side's product, -1 when it is not static (at most one may be), or
  // nothing when it overflows.
  auto product = [&](int64_t begin, int64_t end) -> std::optional<int64_t> {
    int64_t p = 1;
    for (int64_t i = begin; i < end; ++i) {
      if (type.isDynamicDim(i))
        return -1;
      if (llvm::MulOverflow(p, type.getDimSize(i), p))
        return std::nullopt;
    }
    return p;
  };
  std::optional<int64_t> outer = product(0, axis), inner = product(axis, rank);
  if (!outer || !inner)
    return node.error() << "the flattened size of " << type
                        << " overflows 64 bits";
  if (*outer == -1 && *inner == -1)
    return node.error() << "both sides of the flattening axis are dynamic";
  return define(node, node.op("reshape", {node.input(0)},
                              {node.i64s("shape", {*outer, *inner})}));
}

LogicalResult convertTranspose(NodeContext &node) {
  int64_t rank = node.inputType(0).getRank();
  SmallVector<int64_t> reversed;
  for (int64_t i = rank - 1; i >= 0; --i)
    reversed.push_back(i);
  FailureOr<SmallVector<int64_t>> perm = node.getInts("perm", reversed);
  if (failed(perm))
    return failure();
  return define(node, node.op("permute_dims", {node.input(0)},
                              {node.i64s("axes", *perm)}));
}

LogicalResult convertSqueeze(NodeContext &node) {
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      getIntsAttrOrInput(node, "axes", 13, 1);
  if (failed(axes))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (*axes)
    attrs.push_back(node.i64s("axis", **axes));
  return define(node, node.op("squeeze", {node.input(0)}, attrs));
}

LogicalResult convertUnsqueeze(NodeContext &node) {
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      getIntsAttrOrInput(node, "axes", 13, 1);
  if (failed(axes))
    return failure();
  if (!*axes)
    return node.error() << "axes are required";
  return define(node, node.op("expand_dims", {node.input(0)},
                              {node.i64s("axis", **axes)}));
}

LogicalResult convertConcat(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", 0);
  if (failed(axis))
    return failure();
  if (!node.hasAttr("axis"))
    return node.error() << "attribute 'axis' is required";
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < node.getNumInputs(); ++i)
    inputs.push_back(node.input(i));
  return define(node, node.op("concat", inputs, {node.i64("axis", *axis)}));
}

LogicalResult convertSplit(NodeContext &node) {
  FailureOr<int64_t> axisAttr = node.getInt("axis", 0);
  if (failed(axisAttr))
    return failure();
  RankedTensorType type = node.inputType(0);
  FailureOr<int64_t> axis =
      normalizeAxis(node, *axisAttr, type.getRank(), "axis");
  if (failed(axis))
    return failure();
  FailureOr<std::optional<SmallVector<int64_t>>> split =
      getIntsAttrOrInput(node, "split", 13, 1);
  if (failed(split))
    return failure();
  unsigned numOutputs = node.getNumOutputs();
  Attribute indices;
  if (*split) {
    if ((*split)->size() != numOutputs)
      return node.error() << "split has " << (*split)->size() << " sizes for "
                          << numOutputs << " outputs";
    // relax.split's points ascend strictly: pieces of size 0 are slices.
    if (llvm::is_contained(**split, 0)) {
      int64_t offset = 0;
      for (auto [i, size] : llvm::enumerate(**split)) {
        FailureOr<Value> piece = node.op(
            "strided_slice", {node.input(0)},
            {node.i64s("axes", {*axis}), node.i64s("begin", {offset}),
             node.i64s("end", {offset + size}), node.i64s("strides", {1})});
        if (failed(piece))
          return failure();
        node.setOutput(i, *piece);
        offset += size;
      }
      return success();
    }
    SmallVector<int64_t> points;
    int64_t offset = 0;
    for (int64_t size : ArrayRef(**split).drop_back()) {
      offset += size;
      points.push_back(offset);
    }
    indices = node.getBuilder().getDenseI64ArrayAttr(points);
  } else {
    indices = node.getBuilder().getI64IntegerAttr(numOutputs);
  }
  FailureOr<ValueRange> results = node.ops(
      "split", {node.input(0)},
      {node.attr("indices_or_sections", indices), node.i64("axis", *axis)});
  if (failed(results))
    return failure();
  for (auto [i, v] : llvm::enumerate(*results))
    node.setOutput(i, v);
  return success();
}

LogicalResult convertSlice(NodeContext &node) {
  SmallVector<int64_t> starts, ends, axes, steps;
  if (node.getOpset() < 10) {
    FailureOr<SmallVector<int64_t>> s = node.getInts("starts");
    FailureOr<SmallVector<int64_t>> e = node.getInts("ends");
    FailureOr<SmallVector<int64_t>> a = node.getInts("axes");
    if (failed(s) || failed(e) || failed(a))
      return failure();
    starts = *s;
    ends = *e;
    axes = *a;
  } else {
    FailureOr<SmallVector<int64_t>> s = node.intInput(1, "starts");
    FailureOr<SmallVector<int64_t>> e = node.intInput(2, "ends");
    if (failed(s) || failed(e))
      return failure();
    starts = *s;
    ends = *e;
    for (auto [i, out] : {std::pair{3u, &axes}, {4u, &steps}}) {
      if (!node.hasInput(i))
        continue;
      FailureOr<SmallVector<int64_t>> v =
          node.intInput(i, i == 3 ? "axes" : "steps");
      if (failed(v))
        return failure();
      *out = *v;
    }
  }
  if (axes.empty())
    for (int64_t i = 0; i < (int64_t)starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return node.error() << "starts, ends, axes and steps must have the same "
                           "length";
  if (llvm::is_contained(steps, 0))
    return node.error() << "steps must not be 0";
  return define(
      node, node.op("strided_slice", {node.input(0)},
                    {node.i64s("begin", starts), node.i64s("end", ends),
                     node.i64s("strides", steps), node.i64s("axes", axes)}));
}

LogicalResult convertGatherElements(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", 0);
  if (failed(axis))
    return failure();
  return define(node, node.op("gather_elements", {node.input(0), node.input(1)},
                              {node.i64("axis", *axis)}));
}

/// ScatterElements / ScatterND's `reduction` ("none" is relax's "update").
FailureOr<std::string> getScatterReduction(NodeContext &node) {
  FailureOr<std::string> reduction = node.getString("reduction", "none");
  if (failed(reduction))
    return failure();
  if (*reduction == "none")
    return std::string("update");
  if (!llvm::is_contained({"add", "mul", "min", "max"}, *reduction))
    return node.error() << "reduction '" << *reduction
                        << "' is not none, add, mul, min or max";
  return reduction;
}

LogicalResult convertScatterElements(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", 0);
  FailureOr<std::string> reduction = getScatterReduction(node);
  if (failed(axis) || failed(reduction))
    return failure();
  return define(
      node,
      node.op("scatter_elements", {node.input(0), node.input(1), node.input(2)},
              {node.i64("axis", *axis), node.str("reduction", *reduction)}));
}

LogicalResult convertScatterND(NodeContext &node) {
  FailureOr<std::string> reduction = getScatterReduction(node);
  if (failed(reduction))
    return failure();
  return define(node, node.op("scatter_nd",
                              {node.input(0), node.input(1), node.input(2)},
                              {node.str("reduction", *reduction)}));
}

LogicalResult convertGather(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", 0);
  if (failed(axis))
    return failure();
  // Negative indices count from the end: "wrap" maps them, and leaves
  // indices in range alone.
  return define(node,
                node.op("take", {node.input(0), node.input(1)},
                        {node.i64("axis", *axis), node.str("mode", "wrap")}));
}

LogicalResult convertExpand(NodeContext &node) {
  FailureOr<SmallVector<int64_t>> shape = node.intInput(1, "shape");
  if (failed(shape))
    return failure();
  RankedTensorType type = node.inputType(0);
  // Bidirectional broadcast of the input's shape and `shape`.
  int64_t rank = std::max<int64_t>(type.getRank(), shape->size());
  SmallVector<int64_t> result(rank);
  for (int64_t i = 0; i < rank; ++i) {
    int64_t fromInput = i - (rank - type.getRank());
    int64_t fromShape = i - (rank - (int64_t)shape->size());
    int64_t a = fromInput >= 0 ? type.getDimSize(fromInput) : 1;
    int64_t b = fromShape >= 0 ? (*shape)[fromShape] : 1;
    if (ShapedType::isDynamic(a))
      return node.error() << "needs a static input shape";
    if (a != b && a != 1 && b != 1)
      return node.error() << "cannot broadcast dimension " << i << " of size "
                          << a << " to " << b;
    result[i] = a == 1 ? b : a;
  }
  return define(node, node.op("broadcast_to", {node.input(0)},
                              {node.i64s("shape", result)}));
}

LogicalResult convertTile(NodeContext &node) {
  FailureOr<SmallVector<int64_t>> repeats = node.intInput(1, "repeats");
  if (failed(repeats))
    return failure();
  RankedTensorType type = node.inputType(0);
  if (!type.hasStaticShape())
    return node.error() << "needs a static input shape";
  if ((int64_t)repeats->size() != type.getRank())
    return node.error() << "repeats needs " << type.getRank() << " values";
  // x[d0, d1] tiled (r0, r1) = reshape(broadcast_to(reshape(x, [1, d0, 1,
  // d1]), [r0, d0, r1, d1]), [r0 * d0, r1 * d1]).
  SmallVector<int64_t> split, broadcast, result;
  for (auto [d, r] : llvm::zip(type.getShape(), *repeats)) {
    split.append({1, d});
    broadcast.append({r, d});
    result.push_back(r * d);
  }
  FailureOr<Value> v =
      node.op("reshape", {node.input(0)}, {node.i64s("shape", split)});
  if (failed(v))
    return failure();
  v = node.op("broadcast_to", {*v}, {node.i64s("shape", broadcast)});
  if (failed(v))
    return failure();
  return define(node, node.op("reshape", {*v}, {node.i64s("shape", result)}));
}

LogicalResult convertPad(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  SmallVector<int64_t> pads;
  double value = 0;
  if (node.getOpset() < 11) {
    FailureOr<SmallVector<int64_t>> p = node.getInts("pads");
    FailureOr<double> v = node.getFloat("value", 0.0);
    if (failed(p) || failed(v))
      return failure();
    pads = *p;
    value = *v;
  } else {
    FailureOr<SmallVector<int64_t>> p = node.intInput(1, "pads");
    if (failed(p))
      return failure();
    pads = *p;
    if (node.hasInput(2)) {
      FailureOr<double> v = node.floatInput(2, "constant_value");
      if (failed(v))
        return failure();
      value = *v;
    }
  }
  FailureOr<std::string> mode = node.getString("mode", "constant");
  if (failed(mode))
    return failure();
  if (*mode != "constant" && *mode != "reflect" && *mode != "edge")
    return node.error() << "unknown mode '" << *mode << "'";
  int64_t rank = type.getRank();
  if ((int64_t)pads.size() != 2 * rank)
    return node.error() << "pads needs " << 2 * rank << " values";
  // ONNX: all begins, then all ends; relax: (before, after) per dimension.
  SmallVector<int64_t> widths;
  for (int64_t i = 0; i < rank; ++i)
    widths.append({pads[i], pads[i + rank]});
  return define(
      node,
      node.op("nn.pad",
              {node.input(0), node.scalar(value, type.getElementType())},
              {node.i64s("pad_width", widths), node.str("pad_mode", *mode)}));
}

ElementsAttr getI64Attr(NodeContext &node, ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, node.getBuilder().getI64Type());
  return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
}

LogicalResult convertShape(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  int64_t rank = type.getRank();
  FailureOr<int64_t> start = node.getInt("start", 0);
  FailureOr<int64_t> end = node.getInt("end", rank);
  if (failed(start) || failed(end))
    return failure();
  auto clampIndex = [&](int64_t i) {
    return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank);
  };
  int64_t first = clampIndex(*start), last = clampIndex(*end);
  // Symbolic dimensions make a ShapeValue (a constant when there are none).
  SymShape dims = relax::getSymbolicShape(type, node.getScope());
  ShapeValue shape;
  shape.elementType = node.getBuilder().getI64Type();
  for (int64_t i = first; i < last; ++i) {
    if (!dims[i])
      return node.error() << "the shape of a tensor with an unknown "
                             "dimension ("
                          << type
                          << ") is not supported; give static "
                             "input shapes (--onnx-input-shape)";
    shape.elements.push_back(dims[i]);
  }
  node.setShapeOutput(0, shape);
  return success();
}

LogicalResult convertSize(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  SymDim size = node.getScope().getConstant(1);
  for (SymDim dim : relax::getSymbolicShape(type, node.getScope())) {
    if (!dim)
      return node.error() << "the size of a tensor with an unknown dimension ("
                          << type << ") is not supported";
    size = size * dim;
  }
  ShapeValue shape{{size}, /*isScalar=*/true, node.getBuilder().getI64Type()};
  node.setShapeOutput(0, shape);
  return success();
}

LogicalResult convertConstant(NodeContext &node) {
  Builder &b = node.getBuilder();
  for (StringRef unsupported :
       {"sparse_value", "value_string", "value_strings"})
    if (node.hasAttr(unsupported))
      return node.error() << "attribute '" << unsupported
                          << "' is not supported";
  ElementsAttr value;
  if (node.hasAttr("value")) {
    FailureOr<ElementsAttr> tensor = node.getTensor("value");
    if (failed(tensor))
      return failure();
    value = *tensor;
  } else if (node.hasAttr("value_float")) {
    FailureOr<double> v = node.getFloat("value_float", 0);
    if (failed(v))
      return failure();
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   float(*v));
  } else if (node.hasAttr("value_floats")) {
    FailureOr<SmallVector<double>> v = node.getFloats("value_floats");
    if (failed(v))
      return failure();
    SmallVector<float> floats(v->begin(), v->end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)floats.size()}, b.getF32Type()),
        ArrayRef(floats));
  } else if (node.hasAttr("value_int")) {
    FailureOr<int64_t> v = node.getInt("value_int", 0);
    if (failed(v))
      return failure();
    value = getI64Attr(node, {}, {*v});
  } else if (node.hasAttr("value_ints")) {
    FailureOr<SmallVector<int64_t>> v = node.getInts("value_ints");
    if (failed(v))
      return failure();
    value = getI64Attr(node, {(int64_t)v->size()}, *v);
  } else {
    return node.error() << "has no value attribute";
  }
  node.setOutput(0, node.constant(value));
  return success();
}

LogicalResult convertConstantOfShape(NodeContext &node) {
  FailureOr<SmallVector<int64_t>> shape = node.intInput(0, "shape");
  if (failed(shape))
    return failure();
  for (int64_t d : *shape)
    if (d < 0)
      return node.error() << "the shape has a negative size " << d;
  Attribute element = node.getBuilder().getF32FloatAttr(0);
  if (node.hasAttr("value")) {
    FailureOr<ElementsAttr> value = node.getTensor("value");
    if (failed(value))
      return failure();
    if (value->getNumElements() != 1)
      return node.error() << "attribute 'value' must have one element";
    auto dense = dyn_cast<DenseElementsAttr>(*value);
    if (!dense)
      return node.error() << "attribute 'value' must be a small tensor";
    element = dense.getValues<Attribute>()[0];
  }
  Type elementType = cast<TypedAttr>(element).getType();
  node.setOutput(0, node.constant(DenseElementsAttr::get(
                        RankedTensorType::get(*shape, elementType), element)));
  return success();
}

/// The most elements a Range (a constant here) may have.
constexpr int64_t kMaxRangeElements = int64_t(1) << 24;

LogicalResult convertRange(NodeContext &node) {
  ElementsAttr startAttr = node.constantInput(0);
  if (!startAttr || !node.constantInput(1) || !node.constantInput(2))
    return node.error() << "start, limit and delta must be constants";
  Type elementType = startAttr.getElementType();
  bool isFloat = isa<FloatType>(elementType);
  Builder &b = node.getBuilder();
  if (isFloat) {
    FailureOr<double> start = node.floatInput(0, "start");
    FailureOr<double> limit = node.floatInput(1, "limit");
    FailureOr<double> delta = node.floatInput(2, "delta");
    if (failed(start) || failed(limit) || failed(delta))
      return failure();
    if (*delta == 0)
      return node.error() << "delta must not be 0";
    double count = std::ceil((*limit - *start) / *delta);
    if (!(count <= double(kMaxRangeElements)))
      return node.error() << "a Range of more than " << kMaxRangeElements
                          << " elements (" << *start << " to " << *limit
                          << " by " << *delta << ") is not supported";
    int64_t n = std::max<int64_t>(int64_t(count), 0);
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(FloatAttr::get(elementType, *start + i * *delta));
    node.setOutput(0, node.constant(DenseElementsAttr::get(
                          RankedTensorType::get({n}, elementType), values)));
    return success();
  }
  FailureOr<SmallVector<int64_t>> start = node.intInput(0, "start");
  FailureOr<SmallVector<int64_t>> limit = node.intInput(1, "limit");
  FailureOr<SmallVector<int64_t>> delta = node.intInput(2, "delta");
  if (failed(start) || failed(limit) || failed(delta))
    return failure();
  if (start->size() != 1 || limit->size() != 1 || delta->size() != 1)
    return node.error() << "start, limit and delta must be scalars";
  int64_t s = (*start)[0], l = (*limit)[0], d = (*delta)[0];
  if (d == 0)
    return node.error() << "delta must not be 0";
  // In 128 bits: limit - start and -delta may not fit in 64.
  __int128 span = d > 0 ? __int128(l) - s : __int128(s) - l;
  __int128 step = d > 0 ? __int128(d) : -__int128(d);
  __int128 count = span <= 0 ? 0 : (span + step - 1) / step;
  if (count > kMaxRangeElements)
    return node.error() << "a Range of more than " << kMaxRangeElements
                        << " elements (" << s << " to " << l << " by " << d
                        << ") is not supported";
  int64_t n = int64_t(count);
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(b.getIntegerAttr(elementType, s + i * d));
  node.setOutput(0, node.constant(DenseElementsAttr::get(
                        RankedTensorType::get({n}, elementType), values)));
  return success();
}

/// HannWindow, HammingWindow, BlackmanWindow (opset 17): a constant of the
/// given size, a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) with N the size
/// (periodic, the default) or the size - 1 (symmetric).
template <int Kind> LogicalResult convertWindow(NodeContext &node) {
  static constexpr double kCoefficients[3][3] = {
      {0.5, 0.5, 0.0},                 // Hann
      {25.0 / 46.0, 21.0 / 46.0, 0.0}, // Hamming (ONNX's alpha and beta)
      {0.42, 0.5, 0.08}};              // Blackman
  FailureOr<SmallVector<int64_t>> size = node.intInput(0, "size");
  FailureOr<int64_t> periodic = node.getInt("periodic", 1);
  FailureOr<int64_t> dataType = node.getInt("output_datatype", 1);
  if (failed(size) || failed(periodic) || failed(dataType))
    return failure();
  if (size->size() != 1 || (*size)[0] < 0 || (*size)[0] > kMaxRangeElements)
    return node.error() << "size must be one number from 0 to "
                        << kMaxRangeElements;
  Type type = getElementType(node.getContext(), *dataType);
  if (!type || !type.isIntOrFloat())
    return node.error() << "unsupported output_datatype " << *dataType;
  int64_t n = (*size)[0];
  double period = *periodic ? double(n) : double(n - 1);
  const double *a = kCoefficients[Kind];
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i) {
    double x = period > 0 ? 2.0 * M_PI * double(i) / period : 0.0;
    double v = a[0] - a[1] * std::cos(x) + a[2] * std::cos(2.0 * x);
    values.push_back(isa<FloatType>(type)
                         ? Attribute(FloatAttr::get(type, v))
                         : Attribute(IntegerAttr::get(type, int64_t(v))));
  }
  node.setOutput(0, node.constant(DenseElementsAttr::get(
                        RankedTensorType::get({n}, type), values)));
  return success();
}

/// The reductions: relax's, and those composed around one (L1, L2,
/// SumSquare, LogSum, LogSumExp).
enum class ReduceKind { Plain, L1, L2, SumSquare, LogSum, LogSumExp };

template <const char *RelaxName, ReduceKind Kind = ReduceKind::Plain,
          int64_t AxesInputSince = 18>
LogicalResult convertReduce(NodeContext &node) {
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      getIntsAttrOrInput(node, "axes", AxesInputSince, 1);
  FailureOr<int64_t> keepDims = node.getInt("keepdims", 1);
  FailureOr<int64_t> noopWithEmptyAxes = node.getInt("noop_with_empty_axes", 0);
  if (failed(axes) || failed(keepDims) || failed(noopWithEmptyAxes))
    return failure();
  Value x = node.input(0);
  bool noAxes = !*axes || (*axes)->empty();
  if (noAxes && *noopWithEmptyAxes) {
    node.setOutput(0, x);
    return success();
  }
  if (Kind == ReduceKind::L1 || Kind == ReduceKind::LogSumExp) {
    FailureOr<Value> v = node.op(Kind == ReduceKind::L1 ? "abs" : "exp", {x});
    if (failed(v))
      return failure();
    x = *v;
  } else if (Kind == ReduceKind::L2 || Kind == ReduceKind::SumSquare) {
    FailureOr<Value> v = node.op("multiply", {x, x});
    if (failed(v))
      return failure();
    x = *v;
  }
  SmallVector<NamedAttribute> attrs = {
      node.attr("keepdims", node.getBuilder().getBoolAttr(*keepDims != 0))};
  if (!noAxes)
    attrs.push_back(node.i64s("axis", **axes));
  FailureOr<Value> result = node.op(RelaxName, {x}, attrs);
  if (failed(result))
    return failure();
  if (Kind == ReduceKind::L2)
    result = node.op("sqrt", {*result});
  else if (Kind == ReduceKind::LogSum || Kind == ReduceKind::LogSumExp)
    result = node.op("log", {*result});
  return define(node, result);
}

template <const char *RelaxName>
LogicalResult convertArgReduce(NodeContext &node) {
  FailureOr<int64_t> axisAttr = node.getInt("axis", 0);
  FailureOr<int64_t> keepDims = node.getInt("keepdims", 1);
  FailureOr<int64_t> selectLast = node.getInt("select_last_index", 0);
  if (failed(axisAttr) || failed(keepDims) || failed(selectLast))
    return failure();
  RankedTensorType type = node.inputType(0);
  FailureOr<int64_t> axis =
      normalizeAxis(node, *axisAttr, type.getRank(), "axis");
  if (failed(axis))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      node.i64("axis", *axis),
      node.attr("keepdims", node.getBuilder().getBoolAttr(*keepDims != 0))};
  if (!*selectLast)
    return define(node, node.op(RelaxName, {node.input(0)}, attrs));
  // The last of equal values: the first in the reversed axis, counted from
  // the end.
  int64_t size = type.getDimSize(*axis);
  if (ShapedType::isDynamic(size))
    return node.error() << "select_last_index needs a static axis";
  FailureOr<Value> reversed =
      node.op("strided_slice", {node.input(0)},
              {node.i64s("begin", {size - 1}),
               node.i64s("end", {std::numeric_limits<int64_t>::min()}),
               node.i64s("strides", {-1}), node.i64s("axes", {*axis})});
  if (failed(reversed))
    return failure();
  FailureOr<Value> index = node.op(RelaxName, {*reversed}, attrs);
  if (failed(index))
    return failure();
  return define(
      node,
      node.op("subtract",
              {node.scalar(size - 1, node.getBuilder().getI64Type()), *index}));
}

/// Trilu: where(mask, x, 0) with the mask of the two trailing (static)
/// dimensions computed here.
LogicalResult convertTrilu(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  FailureOr<int64_t> upper = node.getInt("upper", 1);
  if (failed(upper))
    return failure();
  int64_t k = 0;
  if (node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> kValues = node.intInput(1, "k");
    if (failed(kValues))
      return failure();
    if (kValues->size() != 1)
      return node.error() << "k must be one integer";
    k = kValues->front();
  }
  int64_t rank = type.getRank();
  if (rank < 2 || type.isDynamicDim(rank - 1) || type.isDynamicDim(rank - 2))
    return node.error() << "needs two static trailing dimensions";
  int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
  // The mask is a constant built here: bounded, so that a huge (or
  // overflowing) size is an error rather than a hang.
  constexpr int64_t kMaxMaskElements = int64_t(1) << 24;
  std::optional<int64_t> elements = llvm::checkedMul(rows, cols);
  if (!elements || *elements > kMaxMaskElements)
    return node.error() << "the mask of the trailing " << rows << " x " << cols
                        << " dimensions has more than 2^24 elements";
  SmallVector<bool> mask;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask.push_back(*upper ? j - i >= k : j - i <= k);
  Value maskValue = node.constant(DenseElementsAttr::get(
      RankedTensorType::get({rows, cols}, node.getBuilder().getI1Type()),
      ArrayRef(mask)));
  return define(node,
                node.op("where", {maskValue, node.input(0),
                                  node.scalar(0, type.getElementType())}));
}

/// DepthToSpace / SpaceToDepth on static NCHW data: reshape, permute,
/// reshape (the ONNX definitions).
LogicalResult convertDepthSpace(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  FailureOr<int64_t> blockSize = node.getInt("blocksize", 0);
  FailureOr<std::string> mode = node.getString("mode", "DCR");
  if (failed(blockSize) || failed(mode))
    return failure();
  if (type.getRank() != 4 || !type.hasStaticShape())
    return node.error() << "needs static 4-D data";
  int64_t b = *blockSize, n = type.getDimSize(0), c = type.getDimSize(1),
          h = type.getDimSize(2), w = type.getDimSize(3);
  if (b <= 0)
    return node.error() << "blocksize must be positive";
  SmallVector<int64_t> first, perm, last;
  if (node.getOpType() == "DepthToSpace") {
    // c / b / b, never b * b: a huge blocksize must not overflow.
    if (c % b || (c / b) % b)
      return node.error() << "channels " << c
                          << " are not a multiple of blocksize^2 (blocksize "
                          << b << ")";
    int64_t cOut = c / b / b;
    if (*mode == "DCR") {
      first = {n, b, b, cOut, h, w};
      perm = {0, 3, 4, 1, 5, 2};
    } else if (*mode == "CRD") {
      first = {n, cOut, b, b, h, w};
      perm = {0, 1, 4, 2, 5, 3};
    } else {
      return node.error() << "unknown mode '" << *mode << "'";
    }
    // b divides c, so h * b and w * b are at most the input's size.
    last = {n, cOut, h * b, w * b};
  } else {
    if (h % b || w % b)
      return node.error() << "H and W must be multiples of " << b;
    first = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    last = {n, c * b * b, h / b, w / b};
  }
  FailureOr<Value> v =
      node.op("reshape", {node.input(0)}, {node.i64s("shape", first)});
  if (failed(v))
    return failure();
  v = node.op("permute_dims", {*v}, {node.i64s("axes", perm)});
  if (failed(v))
    return failure();
  return define(node, node.op("reshape", {*v}, {node.i64s("shape", last)}));
}

} // namespace

static const ConverterEntry kTensorConverters[] = {
    {"Reshape", 1, convertReshape},
    {"Flatten", 1, convertFlatten},
    {"Transpose", 1, convertTranspose},
    {"Squeeze", 1, convertSqueeze},
    {"Unsqueeze", 1, convertUnsqueeze},
    {"Concat", 1, convertConcat},
    {"Split", 2, convertSplit},
    {"Slice", 1, convertSlice},
    {"Gather", 1, convertGather},
    {"GatherElements", 11, convertGatherElements},
    {"Scatter", 9, convertScatterElements},
    {"ScatterElements", 11, convertScatterElements},
    {"ScatterND", 11, convertScatterND},
    {"Expand", 8, convertExpand},
    {"Tile", 6, convertTile},
    {"Pad", 2, convertPad},
    {"Shape", 1, convertShape},
    {"Size", 1, convertSize},
    {"Constant", 1, convertConstant},
    {"ConstantOfShape", 9, convertConstantOfShape},
    {"Range", 11, convertRange},
    {"HannWindow", 17, convertWindow<0>},
    {"HammingWindow", 17, convertWindow<1>},
    {"BlackmanWindow", 17, convertWindow<2>},
    {"ReduceSum", 1, convertReduce<kSum>},
    {"ReduceSum", 13, convertReduce<kSum, ReduceKind::Plain, 13>},
    {"ReduceMean", 1, convertReduce<kMean>},
    {"ReduceMax", 1, convertReduce<kMax>},
    {"ReduceMin", 1, convertReduce<kMin>},
    {"ReduceProd", 1, convertReduce<kProd>},
    {"ReduceL1", 1, convertReduce<kSum, ReduceKind::L1>},
    {"ReduceL2", 1, convertReduce<kSum, ReduceKind::L2>},
    {"ReduceSumSquare", 1, convertReduce<kSum, ReduceKind::SumSquare>},
    {"ReduceLogSum", 1, convertReduce<kSum, ReduceKind::LogSum>},
    {"ReduceLogSumExp", 1, convertReduce<kSum, ReduceKind::LogSumExp>},
    {"ArgMax", 1, convertArgReduce<kArgmax>},
    {"ArgMin", 1, convertArgReduce<kArgmin>},
    {"Trilu", 14, convertTrilu},
    {"DepthToSpace", 1, convertDepthSpace},
    {"SpaceToDepth", 1, convertDepthSpace},
};

ArrayRef<ConverterEntry> onnx_import::getTensorConverters() {
  return kTensorConverters;
}
