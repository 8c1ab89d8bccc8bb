//===- ConvertNN.cpp - ONNX neural-network ops to relax ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Convolutions and pooling (2-D, and 1-D through a unit height), matrix
// products, softmax, normalizations and Resize.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::onnx_import;

namespace {

/// Window attributes of Conv / ConvTranspose / pooling, in 2-D form.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, pads; // pads: t, l, b, r
  /// ConvTranspose: rows / columns to add after the output (an output_shape
  /// larger than the padding-free size), one per spatial dimension.
  SmallVector<int64_t> extraOutputPadding;
  /// The op works on 1-D data lifted to 2-D (a unit height).
  bool lifted = false;
};

/// Reads kernel_shape (or the weight's spatial sizes), strides, dilations,
/// pads and auto_pad for `spatialRank` (1 or 2) dimensions; 1-D windows are
/// lifted to 2-D. `inputSizes` are the data's spatial sizes (for SAME
/// padding).
FailureOr<Window> readWindow(NodeContext &node, ArrayRef<int64_t> kernelDefault,
                             ArrayRef<int64_t> inputSizes, bool hasDilations,
                             bool transposed = false) {
  unsigned n = inputSizes.size();
  Window w;
  FailureOr<SmallVector<int64_t>> kernel =
      node.getInts("kernel_shape", kernelDefault);
  SmallVector<int64_t> ones(n, 1), zeros(2 * n, 0);
  FailureOr<SmallVector<int64_t>> strides = node.getInts("strides", ones);
  FailureOr<SmallVector<int64_t>> dilations =
      hasDilations ? node.getInts("dilations", ones)
                   : FailureOr<SmallVector<int64_t>>(ones);
  FailureOr<SmallVector<int64_t>> pads = node.getInts("pads", zeros);
  FailureOr<std::string> autoPad = node.getString("auto_pad", "NOTSET");
  if (failed(kernel) || failed(strides) || failed(dilations) || failed(pads) ||
      failed(autoPad))
    return failure();
  if (kernel->size() != n || strides->size() != n || dilations->size() != n ||
      pads->size() != 2 * n)
    return node.error() << "kernel_shape, strides, dilations and pads must "
                           "have one value per spatial dimension ("
                        << n << "; pads: " << 2 * n << ")";
  // ONNX's ranges, and bounds under which no size computed below overflows
  // (a model may hold any int64 values).
  constexpr int64_t kMaxWindowValue = int64_t(1) << 31;
  auto inRange = [&](ArrayRef<int64_t> values, int64_t min) {
    return llvm::all_of(values, [&](int64_t value) {
      return value >= min && value <= kMaxWindowValue;
    });
  };
  if (!inRange(*kernel, 1) || !inRange(*strides, 1) ||
      !inRange(*dilations, 1) || !inRange(*pads, 0))
    return node.error() << "kernel_shape, strides and dilations must be in "
                           "[1, 2^31] and pads in [0, 2^31]";
  for (int64_t size : inputSizes)
    if (!ShapedType::isDynamic(size) && size > kMaxWindowValue)
      return node.error() << "spatial size " << size
                          << " is larger than 2^31, which windows support";
  // ConvTranspose: padding from the output shape (given, or input * stride
  // with SAME), total = stride * (in - 1) + output_padding + (k - 1) * d + 1
  // - out, split as ONNX does.
  bool same = *autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER";
  if (transposed && (same || node.hasAttr("output_shape"))) {
    FailureOr<SmallVector<int64_t>> outputPadding =
        node.getInts("output_padding", SmallVector<int64_t>(n, 0));
    FailureOr<SmallVector<int64_t>> outputShape = node.getInts("output_shape");
    if (failed(outputPadding) || failed(outputShape))
      return failure();
    if (outputShape->size() > n)
      outputShape->erase(outputShape->begin(),
                         outputShape->begin() + (outputShape->size() - n));
    if (outputPadding->size() != n ||
        (!outputShape->empty() && outputShape->size() != n))
      return node.error() << "output_padding and output_shape need " << n
                          << " values";
    for (unsigned i = 0; i < n; ++i) {
      if (ShapedType::isDynamic(inputSizes[i]))
        return node.error() << "output_shape / auto_pad need static sizes";
      int64_t out = outputShape->empty() ? inputSizes[i] * (*strides)[i]
                                         : (*outputShape)[i];
      int64_t total = (*strides)[i] * (inputSizes[i] - 1) +
                      (*outputPadding)[i] +
                      ((*kernel)[i] - 1) * (*dilations)[i] + 1 - out;
      if (total < 0) {
        // A larger output than the unpadded one: the rest is output padding
        // (after the end, as ONNX's reference appends it).
        w.extraOutputPadding.resize(n, 0);
        w.extraOutputPadding[i] = -total;
        (*pads)[i] = (*pads)[i + n] = 0;
        continue;
      }
      int64_t half = total / 2;
      bool upper = *autoPad == "SAME_UPPER";
      (*pads)[i] = upper ? half : total - half;
      (*pads)[i + n] = upper ? total - half : half;
    }
  } else if (same) {
    for (unsigned i = 0; i < n; ++i) {
      if (ShapedType::isDynamic(inputSizes[i]))
        return node.error()
               << "auto_pad " << *autoPad << " needs static spatial sizes";
      int64_t out = llvm::divideCeil(inputSizes[i], (*strides)[i]);
      int64_t total = std::max<int64_t>(
          (out - 1) * (*strides)[i] + ((*kernel)[i] - 1) * (*dilations)[i] + 1 -
              inputSizes[i],
          0);
      int64_t small = total / 2, large = total - small;
      (*pads)[i] = *autoPad == "SAME_UPPER" ? small : large;
      (*pads)[i + n] = *autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (*autoPad == "VALID") {
    pads->assign(2 * n, 0);
  } else if (*autoPad != "NOTSET") {
    return node.error() << "unknown auto_pad '" << *autoPad << "'";
  }
  if (n == 1) {
    w.lifted = true;
    w.kernel = {1, (*kernel)[0]};
    w.strides = {1, (*strides)[0]};
    w.dilations = {1, (*dilations)[0]};
    w.pads = {0, (*pads)[0], 0, (*pads)[1]};
  } else {
    w.kernel = *kernel;
    w.strides = *strides;
    w.dilations = *dilations;
    w.pads = *pads;
  }
  return w;
}

/// The spatial sizes of an NC... tensor; fails for ranks other than 3 to 5
/// (1-D, 2-D and 3-D ops; 3-D ones need static shapes).
FailureOr<SmallVector<int64_t>> getSpatialSizes(NodeContext &node,
                                                RankedTensorType type) {
  if (type.getRank() < 3 || type.getRank() > 5)
    return node.error() << "only 1-D, 2-D and 3-D data (rank 3 to 5) are "
                           "supported, not rank "
                        << type.getRank();
  if (type.getRank() == 5 && !type.hasStaticShape())
    return node.error() << "3-D data must have a static shape, not " << type;
  return SmallVector<int64_t>(type.getShape().drop_front(2));
}

/// 3-D windows (rank-5 NCDHW data) are composed from 2-D ops: `depth` is
/// the depth part of a Window read for three dimensions, `plane` its H and
/// W part in the 2-D form.
struct Window3D {
  int64_t kernel, stride, dilation, padBefore, padAfter;
  Window plane;
};

Window3D splitDepth(const Window &w) {
  Window3D result{w.kernel[0], w.strides[0], w.dilations[0],
                  w.pads[0],   w.pads[3],    Window()};
  result.plane.kernel = {w.kernel[1], w.kernel[2]};
  result.plane.strides = {w.strides[1], w.strides[2]};
  result.plane.dilations = {w.dilations[1], w.dilations[2]};
  result.plane.pads = {w.pads[1], w.pads[2], w.pads[4], w.pads[5]};
  return result;
}

/// One tap of a sliding window: `input` sliced from `begin` to `end` with
/// `strides` along `axes`, with a new unit axis at `newAxis` to stack the
/// taps along.
FailureOr<Value> windowTap(NodeContext &node, Value input,
                           ArrayRef<int64_t> axes, ArrayRef<int64_t> begin,
                           ArrayRef<int64_t> end, ArrayRef<int64_t> strides,
                           int64_t newAxis) {
  FailureOr<Value> tap =
      node.op("strided_slice", {input},
              {node.i64s("axes", axes), node.i64s("begin", begin),
               node.i64s("end", end), node.i64s("strides", strides)});
  if (failed(tap))
    return failure();
  return node.op("expand_dims", {*tap}, {node.i64s("axis", {newAxis})});
}

FailureOr<Value> reshapeTo(NodeContext &node, Value v,
                           ArrayRef<int64_t> shape) {
  return node.op("reshape", {v}, {node.i64s("shape", shape)});
}

/// The product of two sizes for a reshape's shape: -1 (inferred) when one
/// is dynamic, nullopt when it overflows int64_t (a model may declare any
/// sizes).
std::optional<int64_t> reshapeProduct(int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
    return -1;
  return llvm::checkedMul(a, b);
}

/// A 3-D convolution as one 2-D convolution: the KD depth taps of every
/// output depth are gathered next to the channels ([N * D', C * KD, H, W],
/// channel c * KD + kd, which keeps groups contiguous), the weight is
/// [O, C / groups * KD, KH, KW], and the result is put back in NCDHW. The
/// gathered data is KD times the input.
FailureOr<Value> convolve3D(NodeContext &node, Value data, Value weight,
                            const Window &w, int64_t groups) {
  auto type = cast<RankedTensorType>(data.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  if (!weightType.hasStaticShape())
    return node.error() << "a 3-D weight must have a static shape";
  Window3D d = splitDepth(w);
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  int64_t depth = type.getDimSize(2) + d.padBefore + d.padAfter;
  int64_t h = type.getDimSize(3), wd = type.getDimSize(4);
  int64_t outDepth = (depth - d.dilation * (d.kernel - 1) - 1) / d.stride + 1;
  if (outDepth < 1)
    return node.error() << "the depth window is larger than the padded "
                           "depth "
                        << depth;
  Value padded = data;
  if (d.padBefore || d.padAfter) {
    FailureOr<Value> p =
        node.op("nn.pad", {data, node.scalar(0, type.getElementType())},
                {node.i64s("pad_width",
                           {0, 0, 0, 0, d.padBefore, d.padAfter, 0, 0, 0, 0})});
    if (failed(p))
      return failure();
    padded = *p;
  }
  SmallVector<Value> taps;
  for (int64_t k = 0; k < d.kernel; ++k) {
    int64_t begin = k * d.dilation;
    FailureOr<Value> tap =
        windowTap(node, padded, {2}, {begin},
                  {begin + (outDepth - 1) * d.stride + 1}, {d.stride}, 2);
    if (failed(tap))
      return failure();
    taps.push_back(*tap);
  }
  // [N, C, KD, D', H, W] -> [N, D', C, KD, H, W] -> [N * D', C * KD, H, W].
  FailureOr<Value> stacked =
      taps.size() == 1 ? FailureOr<Value>(taps[0])
                       : node.op("concat", taps, {node.i64("axis", 2)});
  if (failed(stacked))
    return failure();
  FailureOr<Value> moved = node.op("permute_dims", {*stacked},
                                   {node.i64s("axes", {0, 3, 1, 2, 4, 5})});
  if (failed(moved))
    return failure();
  std::optional<int64_t> planeCount = reshapeProduct(n, outDepth),
                         planeChannels = reshapeProduct(c, d.kernel),
                         kernelChannels =
                             reshapeProduct(weightType.getDimSize(1), d.kernel);
  if (!planeCount || !planeChannels || !kernelChannels)
    return node.error() << "the sizes of the 3-D convolution's 2-D planes "
                           "overflow 64 bits";
  FailureOr<Value> planes =
      reshapeTo(node, *moved, {*planeCount, *planeChannels, h, wd});
  FailureOr<Value> kernel2D =
      reshapeTo(node, weight,
                {weightType.getDimSize(0), *kernelChannels,
                 weightType.getDimSize(3), weightType.getDimSize(4)});
  if (failed(planes) || failed(kernel2D))
    return failure();
  FailureOr<Value> conv = node.op("nn.conv2d", {*planes, *kernel2D},
                                  {node.i64s("strides", d.plane.strides),
                                   node.i64s("padding", d.plane.pads),
                                   node.i64s("dilation", d.plane.dilations),
                                   node.i64("groups", groups)});
  if (failed(conv))
    return failure();
  auto convType = cast<RankedTensorType>(conv->getType());
  int64_t o = convType.getDimSize(1), oh = convType.getDimSize(2),
          ow = convType.getDimSize(3);
  FailureOr<Value> split = reshapeTo(node, *conv, {n, outDepth, o, oh, ow});
  if (failed(split))
    return failure();
  return node.op("permute_dims", {*split},
                 {node.i64s("axes", {0, 2, 1, 3, 4})});
}

/// A 3-D transposed convolution as a stride-1 3-D convolution (TOPI's
/// conv3d_transpose): the data dilated by the strides (stride - 1 zeros
/// between elements), padded by dilation * (kernel - 1) - pad on each side
/// (and output_padding after; a negative amount crops), convolved with the
/// kernel flipped and its in/out channels swapped per group.
FailureOr<Value> transposeConvolve3D(NodeContext &node, Value data,
                                     Value weight, const Window &w,
                                     ArrayRef<int64_t> outputPadding,
                                     int64_t groups) {
  auto type = cast<RankedTensorType>(data.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  if (!weightType.hasStaticShape())
    return node.error() << "a 3-D weight must have a static shape";
  Type t = type.getElementType();
  Value x = data;
  for (int64_t axis = 2; axis < 5; ++axis) {
    int64_t stride = w.strides[axis - 2];
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t length = xType.getDimSize(axis);
    if (stride > 1 && length > 1) {
      // [.., L, ..] -> [.., L, 1, ..] + zeros [.., L, s - 1, ..] ->
      // [.., L * s, ..] -> the first (L - 1) * s + 1.
      FailureOr<Value> column =
          node.op("expand_dims", {x}, {node.i64s("axis", {axis + 1})});
      if (failed(column))
        return failure();
      SmallVector<int64_t> zerosShape(xType.getShape());
      zerosShape.insert(zerosShape.begin() + axis + 1, stride - 1);
      auto zerosType = RankedTensorType::get(zerosShape, t);
      Value zeros = node.constant(
          DenseElementsAttr::get(zerosType, node.getBuilder().getZeroAttr(t)));
      FailureOr<Value> joined =
          node.op("concat", {*column, zeros}, {node.i64("axis", axis + 1)});
      if (failed(joined))
        return failure();
      SmallVector<int64_t> merged(xType.getShape());
      merged[axis] = length * stride;
      FailureOr<Value> flat = reshapeTo(node, *joined, merged);
      if (failed(flat))
        return failure();
      FailureOr<Value> cut =
          node.op("strided_slice", {*flat},
                  {node.i64s("axes", {axis}), node.i64s("begin", {0}),
                   node.i64s("end", {(length - 1) * stride + 1})});
      if (failed(cut))
        return failure();
      x = *cut;
    }
    // Pad (or crop, where negative) dilation * (kernel - 1) - pad.
    int64_t i = axis - 2;
    int64_t reach = w.dilations[i] * (w.kernel[i] - 1);
    int64_t before = reach - w.pads[i];
    int64_t after = reach - w.pads[i + 3] + outputPadding[i];
    SmallVector<int64_t> widths(10, 0);
    widths[2 * axis] = std::max<int64_t>(before, 0);
    widths[2 * axis + 1] = std::max<int64_t>(after, 0);
    if (widths[2 * axis] || widths[2 * axis + 1]) {
      FailureOr<Value> padded = node.op("nn.pad", {x, node.scalar(0, t)},
                                        {node.i64s("pad_width", widths)});
      if (failed(padded))
        return failure();
      x = *padded;
    }
    if (before < 0 || after < 0) {
      int64_t size = cast<RankedTensorType>(x.getType()).getDimSize(axis);
      FailureOr<Value> cropped =
          node.op("strided_slice", {x},
                  {node.i64s("axes", {axis}),
                   node.i64s("begin", {std::max<int64_t>(-before, 0)}),
                   node.i64s("end", {size - std::max<int64_t>(-after, 0)})});
      if (failed(cropped))
        return failure();
      x = *cropped;
    }
  }
  // Weight [I, O / g, K...] -> [g, I / g, O / g, K...] -> [g, O / g, I / g,
  // K...] -> [O, I / g, K...], flipped along K.
  ArrayRef<int64_t> ws = weightType.getShape();
  int64_t in = ws[0], outPerGroup = ws[1];
  if (in % groups)
    return node.error() << "the weight's " << in
                        << " input channels do not split into " << groups
                        << " groups";
  FailureOr<Value> grouped = reshapeTo(
      node, weight, {groups, in / groups, outPerGroup, ws[2], ws[3], ws[4]});
  if (failed(grouped))
    return failure();
  FailureOr<Value> swapped = node.op("permute_dims", {*grouped},
                                     {node.i64s("axes", {0, 2, 1, 3, 4, 5})});
  if (failed(swapped))
    return failure();
  FailureOr<Value> kernel = reshapeTo(
      node, *swapped, {groups * outPerGroup, in / groups, ws[2], ws[3], ws[4]});
  if (failed(kernel))
    return failure();
  FailureOr<Value> flipped =
      node.op("strided_slice", {*kernel},
              {node.i64s("axes", {2, 3, 4}), node.i64s("begin", {-1, -1, -1}),
               node.i64s("end", {-ws[2] - 1, -ws[3] - 1, -ws[4] - 1}),
               node.i64s("strides", {-1, -1, -1})});
  if (failed(flipped))
    return failure();
  Window unit = w;
  unit.strides = {1, 1, 1};
  unit.pads = {0, 0, 0, 0, 0, 0};
  return convolve3D(node, x, *flipped, unit, groups);
}

/// 3-D pooling as two 2-D poolings, which is exact because the window is a
/// box: over H and W with depth folded into the channels, then over depth
/// with H and W flattened into one axis. Averages stay exact with or
/// without padding counted: the count of a box is the product of its
/// per-axis counts.
FailureOr<Value> pool3D(NodeContext &node, StringRef relaxName, Value data,
                        const Window &w, ArrayRef<NamedAttribute> commonAttrs) {
  auto type = cast<RankedTensorType>(data.getType());
  Window3D d = splitDepth(w);
  int64_t n = type.getDimSize(0), c = type.getDimSize(1),
          depth = type.getDimSize(2);
  auto pool = [&](Value v, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads) {
    SmallVector<NamedAttribute> attrs = {
        node.i64s("pool_size", kernel), node.i64s("strides", strides),
        node.i64s("dilation", dilations), node.i64s("padding", pads)};
    llvm::append_range(attrs, commonAttrs);
    return node.op(relaxName, {v}, attrs);
  };
  std::optional<int64_t> planeChannels = reshapeProduct(c, depth);
  if (!planeChannels)
    return node.error() << "the 3-D pooling's " << c << " x " << depth
                        << " planes overflow 64 bits";
  FailureOr<Value> folded = reshapeTo(
      node, data, {n, *planeChannels, type.getDimSize(3), type.getDimSize(4)});
  if (failed(folded))
    return failure();
  FailureOr<Value> planes = pool(*folded, d.plane.kernel, d.plane.strides,
                                 d.plane.dilations, d.plane.pads);
  if (failed(planes))
    return failure();
  auto planeType = cast<RankedTensorType>(planes->getType());
  int64_t oh = planeType.getDimSize(2), ow = planeType.getDimSize(3);
  std::optional<int64_t> planeSize = reshapeProduct(oh, ow);
  if (!planeSize)
    return node.error() << "the 3-D pooling's " << oh << " x " << ow
                        << " planes overflow 64 bits";
  FailureOr<Value> columns =
      reshapeTo(node, *planes, {n, c, depth, *planeSize});
  if (failed(columns))
    return failure();
  FailureOr<Value> pooled =
      pool(*columns, {d.kernel, 1}, {d.stride, 1}, {d.dilation, 1},
           {d.padBefore, 0, d.padAfter, 0});
  if (failed(pooled))
    return failure();
  int64_t outDepth = cast<RankedTensorType>(pooled->getType()).getDimSize(2);
  return reshapeTo(node, *pooled, {n, c, outDepth, oh, ow});
}

/// Inserts a unit height (axis 2) into 1-D data; removes it from results.
FailureOr<Value> liftTo2D(NodeContext &node, Value v) {
  return node.op("expand_dims", {v}, {node.i64s("axis", {2})});
}
FailureOr<Value> lowerFrom2D(NodeContext &node, Value v) {
  return node.op("squeeze", {v}, {node.i64s("axis", {2})});
}

/// Adds a per-channel bias (shape [C]) to an NC... tensor.
FailureOr<Value> addChannelBias(NodeContext &node, Value x, Value bias) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<int64_t> axes;
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i - 1);
  FailureOr<Value> shaped =
      node.op("expand_dims", {bias}, {node.i64s("axis", axes)});
  if (failed(shaped))
    return failure();
  return node.op("add", {x, *shaped});
}

LogicalResult convertConv(NodeContext &node) {
  bool transpose = node.getOpType() == "ConvTranspose";
  RankedTensorType weightType = node.inputType(1);
  FailureOr<SmallVector<int64_t>> spatial =
      getSpatialSizes(node, node.inputType(0));
  if (failed(spatial))
    return failure();
  if (weightType.getRank() != node.inputType(0).getRank())
    return node.error() << "the weight's rank " << weightType.getRank()
                        << " differs from the data's "
                        << node.inputType(0).getRank();
  FailureOr<Window> w = readWindow(node, weightType.getShape().drop_front(2),
                                   *spatial, true, transpose);
  FailureOr<int64_t> group = node.getInt("group", 1);
  if (failed(w) || failed(group))
    return failure();
  Value data = node.input(0), weight = node.input(1);
  if (spatial->size() == 3) {
    FailureOr<SmallVector<int64_t>> outputPadding =
        node.getInts("output_padding", {0, 0, 0});
    if (failed(outputPadding))
      return failure();
    if (outputPadding->size() != 3)
      return node.error() << "output_padding needs 3 values";
    for (auto [i, extra] : llvm::enumerate(w->extraOutputPadding))
      (*outputPadding)[i] += extra;
    FailureOr<Value> out = transpose
                               ? transposeConvolve3D(node, data, weight, *w,
                                                     *outputPadding, *group)
                               : convolve3D(node, data, weight, *w, *group);
    if (failed(out))
      return failure();
    if (node.hasInput(2))
      out = addChannelBias(node, *out, node.input(2));
    return define(node, out);
  }
  if (w->lifted) {
    FailureOr<Value> d = liftTo2D(node, data), k = liftTo2D(node, weight);
    if (failed(d) || failed(k))
      return failure();
    data = *d;
    weight = *k;
  }
  SmallVector<NamedAttribute> attrs = {
      node.i64s("strides", w->strides), node.i64s("padding", w->pads),
      node.i64s("dilation", w->dilations), node.i64("groups", *group)};
  if (transpose) {
    unsigned n = spatial->size();
    FailureOr<SmallVector<int64_t>> outputPadding =
        node.getInts("output_padding", SmallVector<int64_t>(n, 0));
    if (failed(outputPadding))
      return failure();
    if (outputPadding->size() != n)
      return node.error() << "output_padding needs " << n << " values";
    for (auto [i, extra] : llvm::enumerate(w->extraOutputPadding))
      (*outputPadding)[i] += extra;
    if (w->lifted)
      outputPadding->insert(outputPadding->begin(), 0);
    attrs.push_back(node.i64s("output_padding", *outputPadding));
  }
  FailureOr<Value> result = node.op(
      transpose ? "nn.conv2d_transpose" : "nn.conv2d", {data, weight}, attrs);
  if (failed(result))
    return failure();
  Value out = *result;
  if (w->lifted) {
    FailureOr<Value> lowered = lowerFrom2D(node, out);
    if (failed(lowered))
      return failure();
    out = *lowered;
  }
  if (node.hasInput(2)) {
    FailureOr<Value> biased = addChannelBias(node, out, node.input(2));
    if (failed(biased))
      return failure();
    out = *biased;
  }
  node.setOutput(0, out);
  return success();
}

/// An i64 relax.constant of `shape` holding `values`.
Value i64Constant(NodeContext &node, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, node.getBuilder().getI64Type());
  return node.constant(DenseElementsAttr::get(type, values));
}

/// MaxPool's second output (2-D, static NCHW data): the flat index of each
/// maximum in the unpadded input, n * C * H * W + c * H * W + (h * W + w, or
/// w * H + h with storage_order 1). The window's taps are stacked on a new
/// axis of the data padded with -inf, their argmax (the first maximum) picks
/// one, and constants map a tap to its offset.
FailureOr<Value> maxPoolIndices(NodeContext &node, const Window &w,
                                Value pooled, bool columnMajor) {
  Value data = node.input(0);
  auto type = cast<RankedTensorType>(data.getType());
  auto outType = cast<RankedTensorType>(pooled.getType());
  if (type.getRank() != 4 || !type.hasStaticShape())
    return node.error() << "the indices of the maxima need static 2-D data";
  int64_t n = type.getDimSize(0), c = type.getDimSize(1),
          h = type.getDimSize(2), wd = type.getDimSize(3);
  int64_t oh = outType.getDimSize(2), ow = outType.getDimSize(3);
  int64_t kh = w.kernel[0], kw = w.kernel[1];
  // The constants below hold one value per window tap, output row and
  // column and (n, c): bounded, so that a huge static shape is an error
  // rather than a hang.
  constexpr int64_t kMaxConstantElements = int64_t(1) << 24;
  std::optional<int64_t> tapCount = llvm::checkedMul(kh, kw);
  std::optional<int64_t> planeCount = llvm::checkedMul(n, c);
  if (!tapCount || !planeCount || *tapCount > kMaxConstantElements ||
      *planeCount > kMaxConstantElements || oh > kMaxConstantElements ||
      ow > kMaxConstantElements)
    return node.error() << "the indices of the maxima of data shape [" << n
                        << ", " << c << ", " << h << ", " << wd
                        << "] need constants of over 2^24 elements";
  // Enough padding after the end for ceil_mode's last windows. (Window
  // values and spatial sizes are at most 2^31: no sum here overflows.)
  int64_t needH = (oh - 1) * w.strides[0] + (kh - 1) * w.dilations[0] + 1;
  int64_t needW = (ow - 1) * w.strides[1] + (kw - 1) * w.dilations[1] + 1;
  int64_t afterH = std::max<int64_t>(w.pads[2], needH - h - w.pads[0]);
  int64_t afterW = std::max<int64_t>(w.pads[3], needW - wd - w.pads[1]);
  // Every offset computed below is within the padded data.
  std::optional<int64_t> paddedElements = planeCount;
  for (int64_t size : {w.pads[0] + h + afterH, w.pads[1] + wd + afterW})
    if (paddedElements)
      paddedElements = llvm::checkedMul(*paddedElements, size);
  if (!paddedElements)
    return node.error() << "the indices of the maxima of data shape [" << n
                        << ", " << c << ", " << h << ", " << wd
                        << "] overflow 64 bits";
  Type t = type.getElementType();
  FailureOr<Value> padded =
      node.op("nn.pad",
              {data, node.scalar(-std::numeric_limits<double>::infinity(), t)},
              {node.i64s("pad_width",
                         {0, 0, 0, 0, w.pads[0], afterH, w.pads[1], afterW})});
  if (failed(padded))
    return failure();
  SmallVector<Value> taps;
  SmallVector<int64_t> offsets;
  for (int64_t i = 0; i < kh; ++i) {
    for (int64_t j = 0; j < kw; ++j) {
      int64_t y = i * w.dilations[0], x = j * w.dilations[1];
      FailureOr<Value> tap = windowTap(
          node, *padded, {2, 3}, {y, x},
          {y + (oh - 1) * w.strides[0] + 1, x + (ow - 1) * w.strides[1] + 1},
          {w.strides[0], w.strides[1]}, 4);
      if (failed(tap))
        return failure();
      taps.push_back(*tap);
      int64_t dy = y - w.pads[0], dx = x - w.pads[1];
      offsets.push_back(columnMajor ? dx * h + dy : dy * wd + dx);
    }
  }
  FailureOr<Value> stacked =
      taps.size() == 1 ? FailureOr<Value>(taps[0])
                       : node.op("concat", taps, {node.i64("axis", 4)});
  if (failed(stacked))
    return failure();
  FailureOr<Value> tap = node.op("argmax", {*stacked}, {node.i64("axis", 4)});
  if (failed(tap))
    return failure();
  // Offsets of each output position's window origin and of each (n, c).
  SmallVector<int64_t> rows, columns, planes;
  for (int64_t y = 0; y < oh; ++y)
    rows.push_back(y * w.strides[0] * (columnMajor ? 1 : wd));
  for (int64_t x = 0; x < ow; ++x)
    columns.push_back(x * w.strides[1] * (columnMajor ? h : 1));
  for (int64_t p = 0; p < n * c; ++p)
    planes.push_back(p * h * wd);
  Value tapOffsets = i64Constant(node, {int64_t(offsets.size())}, offsets);
  FailureOr<Value> tapOffset =
      node.op("take", {tapOffsets, *tap}, {node.i64("axis", 0)});
  if (failed(tapOffset))
    return failure();
  Value acc = *tapOffset;
  for (Value base :
       {i64Constant(node, {oh, 1}, rows), i64Constant(node, {ow}, columns),
        i64Constant(node, {n, c, 1, 1}, planes)}) {
    FailureOr<Value> sum = node.op("add", {acc, base});
    if (failed(sum))
      return failure();
    acc = *sum;
  }
  return acc;
}

template <const char *RelaxName> LogicalResult convertPool(NodeContext &node) {
  bool isMax = StringRef(RelaxName) == kMaxPool;
  bool wantIndices =
      isMax && node.getNumOutputs() > 1 && !node.getOutputName(1).empty();
  FailureOr<SmallVector<int64_t>> spatial =
      getSpatialSizes(node, node.inputType(0));
  if (failed(spatial))
    return failure();
  if (!node.hasAttr("kernel_shape"))
    return node.error() << "attribute 'kernel_shape' is required";
  FailureOr<Window> w =
      readWindow(node, {}, *spatial, isMax || node.getOpset() >= 19);
  FailureOr<int64_t> ceilMode = node.getInt("ceil_mode", 0);
  if (failed(w) || failed(ceilMode))
    return failure();
  FailureOr<int64_t> storageOrder = node.getInt("storage_order", 0);
  if (failed(storageOrder))
    return failure();
  if (wantIndices && (w->lifted || spatial->size() != 2))
    return node.error() << "the indices of the maxima are supported for 2-D "
                           "data only";
  Value data = node.input(0);
  if (w->lifted) {
    FailureOr<Value> d = liftTo2D(node, data);
    if (failed(d))
      return failure();
    data = *d;
  }
  SmallVector<NamedAttribute> common = {
      node.attr("ceil_mode", node.getBuilder().getBoolAttr(*ceilMode != 0))};
  if (!isMax) {
    FailureOr<int64_t> countIncludePad = node.getInt("count_include_pad", 0);
    if (failed(countIncludePad))
      return failure();
    common.push_back(node.attr(
        "count_include_pad", node.getBuilder().getBoolAttr(*countIncludePad)));
  }
  if (spatial->size() == 3)
    return define(node, pool3D(node, RelaxName, data, *w, common));
  SmallVector<NamedAttribute> attrs = {
      node.i64s("pool_size", w->kernel), node.i64s("strides", w->strides),
      node.i64s("dilation", w->dilations), node.i64s("padding", w->pads)};
  llvm::append_range(attrs, common);
  FailureOr<Value> result = node.op(RelaxName, {data}, attrs);
  if (failed(result))
    return failure();
  Value out = *result;
  if (wantIndices) {
    FailureOr<Value> indices =
        maxPoolIndices(node, *w, out, /*columnMajor=*/*storageOrder == 1);
    if (failed(indices))
      return failure();
    node.setOutput(1, *indices);
  }
  if (w->lifted) {
    FailureOr<Value> lowered = lowerFrom2D(node, out);
    if (failed(lowered))
      return failure();
    out = *lowered;
  }
  node.setOutput(0, out);
  return success();
}

/// GlobalAveragePool / GlobalMaxPool: a mean / max over the spatial axes.
template <const char *RelaxName>
LogicalResult convertGlobalPool(NodeContext &node) {
  int64_t rank = node.inputType(0).getRank();
  if (rank < 3)
    return node.error() << "needs data of rank 3 or more, not " << rank;
  SmallVector<int64_t> axes;
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  return define(
      node,
      node.op(RelaxName, {node.input(0)},
              {node.i64s("axis", axes),
               node.attr("keepdims", node.getBuilder().getBoolAttr(true))}));
}

LogicalResult convertMatMul(NodeContext &node) {
  return define(node, node.op("matmul", {node.input(0), node.input(1)}));
}

/// Gemm: alpha * A' B' + beta * C.
LogicalResult convertGemm(NodeContext &node) {
  FailureOr<double> alpha = node.getFloat("alpha", 1.0);
  FailureOr<double> beta = node.getFloat("beta", 1.0);
  FailureOr<int64_t> transA = node.getInt("transA", 0);
  FailureOr<int64_t> transB = node.getInt("transB", 0);
  if (failed(alpha) || failed(beta) || failed(transA) || failed(transB))
    return failure();
  Value a = node.input(0), b = node.input(1);
  if (node.inputType(0).getRank() != 2 || node.inputType(1).getRank() != 2)
    return node.error() << "A and B must be matrices";
  Type t = node.inputType(0).getElementType();
  for (auto [operand, transposed] : {std::pair{&a, *transA}, {&b, *transB}}) {
    if (!transposed)
      continue;
    FailureOr<Value> permuted =
        node.op("permute_dims", {*operand}, {node.i64s("axes", {1, 0})});
    if (failed(permuted))
      return failure();
    *operand = *permuted;
  }
  FailureOr<Value> product = node.op("matmul", {a, b});
  if (failed(product))
    return failure();
  Value out = *product;
  if (*alpha != 1.0) {
    FailureOr<Value> scaled =
        node.op("multiply", {out, node.scalar(*alpha, t)});
    if (failed(scaled))
      return failure();
    out = *scaled;
  }
  if (node.hasInput(2) && *beta != 0.0) {
    Value c = node.input(2);
    if (*beta != 1.0) {
      FailureOr<Value> scaled = node.op("multiply", {c, node.scalar(*beta, t)});
      if (failed(scaled))
        return failure();
      c = *scaled;
    }
    FailureOr<Value> sum = node.op("add", {out, c});
    if (failed(sum))
      return failure();
    out = *sum;
  }
  node.setOutput(0, out);
  return success();
}

/// Softmax / LogSoftmax from opset 13: along one axis (default -1).
template <const char *RelaxName>
LogicalResult convertSoftmax13(NodeContext &node) {
  FailureOr<int64_t> axis = node.getInt("axis", -1);
  if (failed(axis))
    return failure();
  return define(node,
                node.op(RelaxName, {node.input(0)}, {node.i64("axis", *axis)}));
}

/// Before opset 13 the input is coerced to 2-D at `axis` (default 1): the
/// softmax runs over all dimensions from `axis` on.
template <const char *RelaxName>
LogicalResult convertSoftmax1(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  FailureOr<int64_t> axisAttr = node.getInt("axis", 1);
  if (failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis =
      normalizeAxis(node, *axisAttr, type.getRank(), "axis");
  if (failed(axis))
    return failure();
  if (*axis == type.getRank() - 1) {
    FailureOr<Value> result =
        node.op(RelaxName, {node.input(0)}, {node.i64("axis", -1)});
    if (failed(result))
      return failure();
    node.setOutput(0, *result);
    return success();
  }
  if (!type.hasStaticShape())
    return node.error() << "a softmax over several axes needs a static shape";
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < type.getRank(); ++i)
    (i < *axis ? outer : inner) *= type.getDimSize(i);
  FailureOr<Value> flat =
      node.op("reshape", {node.input(0)}, {node.i64s("shape", {outer, inner})});
  if (failed(flat))
    return failure();
  FailureOr<Value> soft = node.op(RelaxName, {*flat}, {node.i64("axis", -1)});
  if (failed(soft))
    return failure();
  return define(
      node, node.op("reshape", {*soft}, {node.i64s("shape", type.getShape())}));
}

/// Training-mode BatchNormalization (opset 14+): normalized by the batch's
/// own mean and (population) variance over every axis but the channel's,
/// with running statistics input * momentum + batch * (1 - momentum).
LogicalResult convertBatchNormTraining(NodeContext &node, double epsilon) {
  FailureOr<double> momentum = node.getFloat("momentum", 0.9);
  if (failed(momentum))
    return failure();
  Value x = node.input(0);
  int64_t rank = node.inputType(0).getRank();
  if (rank < 2)
    return node.error() << "needs data of rank 2 or more, not " << rank;
  SmallVector<int64_t> axes = {0};
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  Builder &b = node.getBuilder();
  auto reduce = [&](Value v, bool keepdims) {
    return node.op("mean", {v},
                   {node.i64s("axis", axes),
                    node.attr("keepdims", b.getBoolAttr(keepdims))});
  };
  FailureOr<Value> mean = reduce(x, false), meanKept = reduce(x, true);
  if (failed(mean) || failed(meanKept))
    return failure();
  FailureOr<Value> centered = node.op("subtract", {x, *meanKept});
  if (failed(centered))
    return failure();
  FailureOr<Value> squared = node.op("multiply", {*centered, *centered});
  if (failed(squared))
    return failure();
  FailureOr<Value> variance = reduce(*squared, false);
  if (failed(variance))
    return failure();
  FailureOr<ValueRange> normalized = node.ops(
      "nn.batch_norm", {x, node.input(1), node.input(2), *mean, *variance},
      {node.i64("axis", 1), node.f64("epsilon", epsilon)});
  if (failed(normalized))
    return failure();
  node.setOutput(0, normalized->front());
  Type t = cast<RankedTensorType>(mean->getType()).getElementType();
  for (auto [i, running, batch] :
       {std::tuple(1u, node.input(3), *mean), {2u, node.input(4), *variance}}) {
    FailureOr<Value> kept =
        node.op("multiply", {running, node.scalar(*momentum, t)});
    FailureOr<Value> fresh =
        node.op("multiply", {batch, node.scalar(1.0 - *momentum, t)});
    if (failed(kept) || failed(fresh))
      return failure();
    FailureOr<Value> updated = node.op("add", {*kept, *fresh});
    if (failed(updated))
      return failure();
    node.setOutput(i, *updated);
  }
  return success();
}

LogicalResult convertBatchNorm(NodeContext &node) {
  FailureOr<double> epsilon = node.getFloat("epsilon", 1e-5);
  FailureOr<int64_t> training = node.getInt("training_mode", 0);
  if (failed(epsilon) || failed(training))
    return failure();
  if (*training)
    return convertBatchNormTraining(node, *epsilon);
  for (unsigned i = 1; i < 5; ++i)
    if (failed(node.rejectOutput(i, "training statistics")))
      return failure();
  FailureOr<ValueRange> results =
      node.ops("nn.batch_norm",
               {node.input(0), node.input(1), node.input(2), node.input(3),
                node.input(4)},
               {node.i64("axis", 1), node.f64("epsilon", *epsilon)});
  if (failed(results))
    return failure();
  node.setOutput(0, results->front());
  return success();
}

LogicalResult convertInstanceNorm(NodeContext &node) {
  FailureOr<double> epsilon = node.getFloat("epsilon", 1e-5);
  if (failed(epsilon))
    return failure();
  return define(
      node,
      node.op("nn.instance_norm", {node.input(0), node.input(1), node.input(2)},
              {node.i64("channel_axis", 1), node.f64("epsilon", *epsilon)}));
}

LogicalResult convertLayerNorm(NodeContext &node) {
  FailureOr<double> epsilon = node.getFloat("epsilon", 1e-5);
  FailureOr<int64_t> axisAttr = node.getInt("axis", -1);
  if (failed(epsilon) || failed(axisAttr))
    return failure();
  int64_t rank = node.inputType(0).getRank();
  FailureOr<int64_t> axis = normalizeAxis(node, *axisAttr, rank, "axis");
  if (failed(axis))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t i = *axis; i < rank; ++i)
    axes.push_back(i);
  if (node.getNumOutputs() > 1) {
    // Mean and InvStdDev = 1 / sqrt(mean((x - mean)^2) + epsilon), kept
    // as size-1 dimensions.
    Value x = node.input(0);
    SmallVector<NamedAttribute> reduce = {
        node.i64s("axis", axes),
        node.attr("keepdims", node.getBuilder().getBoolAttr(true))};
    FailureOr<Value> mean = node.op("mean", {x}, reduce);
    if (failed(mean))
      return failure();
    FailureOr<Value> centered = node.op("subtract", {x, *mean});
    if (failed(centered))
      return failure();
    FailureOr<Value> squared = node.op("multiply", {*centered, *centered});
    if (failed(squared))
      return failure();
    FailureOr<Value> variance = node.op("mean", {*squared}, reduce);
    if (failed(variance))
      return failure();
    FailureOr<Value> shifted = node.op(
        "add",
        {*variance, node.scalar(*epsilon, node.inputType(0).getElementType())});
    if (failed(shifted))
      return failure();
    FailureOr<Value> invStdDev = node.op("rsqrt", {*shifted});
    if (failed(invStdDev))
      return failure();
    node.setOutput(1, *mean);
    node.setOutput(2, *invStdDev);
  }
  Value scale = node.input(1);
  // Without B, the scale stands in as the (unused) beta.
  Value bias = node.hasInput(2) ? node.input(2) : scale;
  return define(node,
                node.op("nn.layer_norm", {node.input(0), scale, bias},
                        {node.i64s("axes", axes), node.f64("epsilon", *epsilon),
                         node.attr("center", node.getBuilder().getBoolAttr(
                                                 node.hasInput(2)))}));
}

/// Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) of the two
/// trailing dimensions of NCHW data.
/// ONNX's coordinate transforms use the scale itself where one is given
/// (x_original = (x + 0.5) / scale - 0.5 for half_pixel; the output size
/// length * scale, unfloored, for align_corners), relax's resize2d the ratio
/// of the sizes. When a floored size makes them differ, the transform (an
/// affine map start + x * step per axis) is spelled as tf_crop_and_resize's
/// roi, which is exact while the coordinates stay inside the image (they
/// do when downsampling); `transform` and `roi` are updated. Fails when
/// they would leave it.
LogicalResult scaleTransform(RankedTensorType type, ArrayRef<double> scales,
                             ArrayRef<int64_t> size, std::string &transform,
                             SmallVectorImpl<double> &roi) {
  static constexpr StringLiteral kModes[] = {
      "half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn",
      "align_corners"};
  if (scales.size() != 4 || !llvm::is_contained(kModes, transform))
    return success();
  bool exact = true;
  for (unsigned i = 0; i < 2; ++i)
    exact &= double(size[i]) == double(type.getDimSize(2 + i)) * scales[2 + i];
  if (exact)
    return success();
  SmallVector<double> starts, ends;
  for (unsigned i = 0; i < 2; ++i) {
    double length = double(type.getDimSize(2 + i)), scale = scales[2 + i];
    double resized = double(size[i]), start = 0, step = 1 / scale;
    if (transform == "half_pixel" ||
        (transform == "pytorch_half_pixel" && size[i] > 1))
      start = 0.5 / scale - 0.5;
    else if (transform == "tf_half_pixel_for_nn")
      start = 0.5 / scale;
    else if (transform == "align_corners")
      step = length * scale > 1 ? (length - 1) / (length * scale - 1) : 0;
    else if (transform == "pytorch_half_pixel")
      step = 0;
    double last = start + step * (resized - 1);
    constexpr double kSlack = 1e-9;
    if (length < 2 || start < -kSlack || last > length - 1 + kSlack)
      return failure();
    starts.push_back(start / (length - 1));
    ends.push_back(resized > 1 ? (start + step * (resized - 1)) / (length - 1)
                               : starts.back());
  }
  transform = "tf_crop_and_resize";
  roi.assign({starts[0], starts[1], ends[0], ends[1]});
  return success();
}

LogicalResult convertResize(NodeContext &node) {
  RankedTensorType type = node.inputType(0);
  if (type.getRank() != 4 || !type.hasStaticShape())
    return node.error() << "only static 4-D (NCHW) data is supported";
  bool v10 = node.getOpset() < 11;
  unsigned scalesInput = v10 ? 1 : 2, sizesInput = 3;
  SmallVector<int64_t> size;
  SmallVector<double> scales;
  if (!v10 && node.hasInput(sizesInput)) {
    FailureOr<SmallVector<int64_t>> sizes = node.intInput(sizesInput, "sizes");
    if (failed(sizes))
      return failure();
    if (sizes->size() != 4)
      return node.error() << "sizes must have 4 values";
    if ((*sizes)[0] != type.getDimSize(0) || (*sizes)[1] != type.getDimSize(1))
      return node.error() << "only H and W may be resized";
    size = {(*sizes)[2], (*sizes)[3]};
  } else {
    ElementsAttr scalesAttr = node.constantInput(scalesInput);
    if (!scalesAttr)
      return node.error() << "scales (input " << scalesInput
                          << ") must be a constant";
    for (APFloat v : scalesAttr.getValues<APFloat>())
      scales.push_back(v.convertToDouble());
    if (scales.size() != 4)
      return node.error() << "scales must have 4 values";
    if (scales[0] != 1.0 || scales[1] != 1.0)
      return node.error() << "only H and W may be resized";
    size = {int64_t(std::floor(type.getDimSize(2) * scales[2])),
            int64_t(std::floor(type.getDimSize(3) * scales[3]))};
  }
  FailureOr<std::string> mode = node.getString("mode", "nearest");
  FailureOr<std::string> coordinates = node.getString(
      "coordinate_transformation_mode", v10 ? "asymmetric" : "half_pixel");
  FailureOr<std::string> nearestMode =
      node.getString("nearest_mode", v10 ? "floor" : "round_prefer_floor");
  FailureOr<double> cubicA = node.getFloat("cubic_coeff_a", -0.75);
  FailureOr<int64_t> exclude = node.getInt("exclude_outside", 0);
  FailureOr<double> extrapolation = node.getFloat("extrapolation_value", 0.0);
  if (failed(mode) || failed(coordinates) || failed(nearestMode) ||
      failed(cubicA) || failed(exclude) || failed(extrapolation))
    return failure();
  std::string method = *mode == "nearest" ? "nearest_neighbor" : *mode;
  SmallVector<double> roi = {0, 0, 0, 0};
  std::string transform = *coordinates;
  if (failed(scaleTransform(type, scales, size, transform, roi)))
    return node.error() << "scales [" << scales
                        << "] give input coordinates outside the image with "
                           "coordinate_transformation_mode "
                        << *coordinates;
  if (*coordinates == "tf_crop_and_resize") {
    ElementsAttr roiAttr = node.constantInput(1);
    if (!roiAttr || roiAttr.getNumElements() != 8)
      return node.error() << "roi must be a constant with 8 values";
    SmallVector<double> all;
    for (APFloat v : roiAttr.getValues<APFloat>())
      all.push_back(v.convertToDouble());
    roi = {all[2], all[3], all[6], all[7]};
  }
  return define(
      node,
      node.op("image.resize2d", {node.input(0)},
              {node.i64s("size", size),
               node.attr("roi", node.getBuilder().getDenseF64ArrayAttr(roi)),
               node.str("method", method),
               node.str("coordinate_transformation_mode", transform),
               node.str("rounding_method", *nearestMode),
               node.f64("cubic_alpha", *cubicA),
               node.i64("cubic_exclude", *exclude),
               node.f64("extrapolation_value", *extrapolation)}));
}

} // namespace

static const ConverterEntry kNNConverters[] = {
    {"Conv", 1, convertConv},
    {"ConvTranspose", 1, convertConv},
    {"MaxPool", 1, convertPool<kMaxPool>},
    {"AveragePool", 1, convertPool<kAvgPool>},
    {"GlobalAveragePool", 1, convertGlobalPool<kMean>},
    {"GlobalMaxPool", 1, convertGlobalPool<kMax>},
    {"MatMul", 1, convertMatMul},
    {"Gemm", 1, convertGemm},
    {"Softmax", 1, convertSoftmax1<kSoftmax>},
    {"Softmax", 13, convertSoftmax13<kSoftmax>},
    {"LogSoftmax", 1, convertSoftmax1<kLogSoftmax>},
    {"LogSoftmax", 13, convertSoftmax13<kLogSoftmax>},
    {"BatchNormalization", 1, convertBatchNorm},
    {"InstanceNormalization", 1, convertInstanceNorm},
    {"LayerNormalization", 17, convertLayerNorm},
    {"Resize", 10, convertResize},
};

ArrayRef<ConverterEntry> onnx_import::getNNConverters() {
  return kNNConverters;
}
