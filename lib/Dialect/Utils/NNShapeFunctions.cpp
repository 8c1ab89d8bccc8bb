//===- NNShapeFunctions.cpp - result shapes of nn operators -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/NNShapeFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <tuple>

using namespace mlir;
using namespace mlc;
using namespace mlc::nn;

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

/// Reports `message` through `emitError` unless that is null.
static void report(EmitErrorFn emitError, const Twine &message) {
  if (emitError)
    emitError(message);
}

/// Floor division (TVM's indexdiv on constants) for a positive divisor.
static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0))
    --q;
  return q;
}

FailureOr<int64_t> mlc::nn::normalizeAxis(int64_t axis, int64_t rank,
                                          StringRef what,
                                          EmitErrorFn emitError) {
  if (axis < -rank || axis >= rank) {
    report(emitError, what + "=" + Twine(axis) +
                          " is out of range for data of rank " + Twine(rank) +
                          " (expected a value in [" + Twine(-rank) + ", " +
                          Twine(rank) + "))");
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t, 4>>
mlc::nn::getLayoutPermutation(StringRef layout, StringRef primal,
                              StringRef what, EmitErrorFn emitError) {
  SmallVector<int64_t, 4> perm;
  bool ok = layout.size() == primal.size();
  for (char c : primal) {
    if (!ok)
      break;
    size_t pos = layout.find(c);
    ok = pos != StringRef::npos && layout.count(c) == 1;
    perm.push_back(static_cast<int64_t>(pos));
  }
  if (!ok) {
    report(emitError,
           what + " \"" + layout +
               "\" is not supported: expected a permutation of \"" + primal +
               "\"" +
               (primal == "OIHW"   ? " such as \"OIHW\" or \"HWIO\""
                : primal == "IOHW" ? " such as \"IOHW\" or \"HWOI\""
                                   : " such as \"NCHW\" or \"NHWC\""));
    return failure();
  }
  return perm;
}

LogicalResult mlc::nn::checkIntList(ArrayRef<int64_t> values, size_t size,
                                    int64_t min, StringRef what,
                                    EmitErrorFn emitError) {
  if (values.size() != size) {
    report(emitError, what + " must have " + Twine(size) + " values but has " +
                          Twine(values.size()) + " (" + formatIntList(values) +
                          ")");
    return failure();
  }
  for (int64_t v : values) {
    if (v < min) {
      report(emitError, what + " values must be >= " + Twine(min) +
                            " but got " + formatIntList(values));
      return failure();
    }
  }
  return success();
}

FailureOr<std::array<int64_t, 4>>
mlc::nn::getPadTuple2D(ArrayRef<int64_t> padding, EmitErrorFn emitError) {
  std::array<int64_t, 4> pad;
  switch (padding.size()) {
  case 1:
    pad = {padding[0], padding[0], padding[0], padding[0]};
    break;
  case 2:
    pad = {padding[0], padding[1], padding[0], padding[1]};
    break;
  case 4:
    pad = {padding[0], padding[1], padding[2], padding[3]};
    break;
  default:
    report(emitError,
           "padding must have 1, 2 or 4 values (all sides; top/bottom and "
           "left/right; top, left, bottom, right) but has " +
               Twine(padding.size()) + " (" + formatIntList(padding) + ")");
    return failure();
  }
  if (llvm::any_of(pad, [](int64_t p) { return p < 0; })) {
    report(emitError,
           "padding values must be >= 0 but got " + formatIntList(padding));
    return failure();
  }
  return pad;
}

/// Output extent of a sliding window: floor((in + pad - dilatedWindow) /
/// stride) + 1, with `stride - 1` added before dividing in ceil mode. `what`
/// ("height"/"width") and `window` ("kernel"/"pool") name the dimension in
/// messages.
static FailureOr<int64_t> slidingWindowExtent(int64_t in, int64_t padBefore,
                                              int64_t padAfter, int64_t window,
                                              int64_t dilation, int64_t stride,
                                              bool ceilMode, StringRef what,
                                              StringRef kind,
                                              EmitErrorFn emitError) {
  if (isDyn(in) || isDyn(window))
    return ShapedType::kDynamic;
  // All values are non-negative here; reject sizes that overflow int64.
  int64_t padded, dilated, numerator = 0;
  bool overflow = llvm::AddOverflow(in, padBefore, padded) ||
                  llvm::AddOverflow(padded, padAfter, padded) ||
                  llvm::MulOverflow(window - 1, dilation, dilated) ||
                  llvm::AddOverflow(dilated, int64_t(1), dilated);
  if (!overflow && padded >= dilated) {
    numerator = padded - dilated;
    if (ceilMode)
      overflow = llvm::AddOverflow(numerator, stride - 1, numerator);
  }
  if (overflow) {
    report(emitError, "the output " + what + " of data " + what + " " +
                          Twine(in) + " overflows int64");
    return failure();
  }
  if (padded < dilated) {
    report(emitError, "data " + what + " " + Twine(in) + " plus padding " +
                          Twine(padded - in) + " is smaller than the dilated " +
                          kind + " " + what + " " + Twine(dilated));
    return failure();
  }
  return floorDiv(numerator, stride) + 1;
}

/// Checks a convolution weight's kernel extent `kh`x`kw` (non-empty, and equal
/// to `kernel_size` when given) and fills unknown extents from `kernel_size`.
/// `weightDesc` describes the weight in messages.
static LogicalResult
checkKernelExtent(int64_t &kh, int64_t &kw,
                  std::optional<ArrayRef<int64_t>> kernelSize,
                  const std::string &weightDesc, EmitErrorFn emitError) {
  if ((!isDyn(kh) && kh < 1) || (!isDyn(kw) && kw < 1)) {
    report(emitError, "the weight has an empty " + Twine(kh) + "x" + Twine(kw) +
                          " kernel (" + weightDesc + ")");
    return failure();
  }
  if (!kernelSize)
    return success();
  int64_t ksh = (*kernelSize)[0], ksw = (*kernelSize)[1];
  if ((!isDyn(kh) && kh != ksh) || (!isDyn(kw) && kw != ksw)) {
    report(emitError, "kernel_size is " + formatIntList(*kernelSize) +
                          " but the weight has a " + Twine(kh) + "x" +
                          Twine(kw) + " kernel (" + weightDesc + ")");
    return failure();
  }
  kh = ksh;
  kw = ksw;
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

FailureOr<Shape> mlc::nn::inferConv2DShape(ArrayRef<int64_t> data,
                                           ArrayRef<int64_t> weight,
                                           const Conv2DAttrs &attrs,
                                           EmitErrorFn emitError) {
  auto dataPerm =
      getLayoutPermutation(attrs.dataLayout, "NCHW", "data_layout", emitError);
  if (failed(dataPerm))
    return failure();
  auto kernelPerm = getLayoutPermutation(attrs.kernelLayout, "OIHW",
                                         "kernel_layout", emitError);
  if (failed(kernelPerm))
    return failure();
  StringRef outLayout =
      attrs.outLayout.empty() ? attrs.dataLayout : attrs.outLayout;
  auto outPerm =
      getLayoutPermutation(outLayout, "NCHW", "out_layout", emitError);
  if (failed(outPerm))
    return failure();

  if (data.size() != 4) {
    report(emitError, "data must be a 4-D tensor (" + attrs.dataLayout +
                          ") but has shape " + formatShape(data));
    return failure();
  }
  if (weight.size() != 4) {
    report(emitError, "weight must be a 4-D tensor (" + attrs.kernelLayout +
                          ") but has shape " + formatShape(weight));
    return failure();
  }
  if (failed(checkIntList(attrs.strides, 2, 1, "strides", emitError)) ||
      failed(checkIntList(attrs.dilation, 2, 1, "dilation", emitError)))
    return failure();
  auto pad = getPadTuple2D(attrs.padding, emitError);
  if (failed(pad))
    return failure();
  if (attrs.groups < 1) {
    report(emitError, "groups must be >= 1 but got " + Twine(attrs.groups));
    return failure();
  }
  if (attrs.channels && *attrs.channels < 1) {
    report(emitError,
           "channels must be >= 1 but got " + Twine(*attrs.channels));
    return failure();
  }
  if (attrs.kernelSize &&
      failed(checkIntList(*attrs.kernelSize, 2, 1, "kernel_size", emitError)))
    return failure();

  int64_t n = data[(*dataPerm)[0]], c = data[(*dataPerm)[1]],
          h = data[(*dataPerm)[2]], w = data[(*dataPerm)[3]];
  int64_t o = weight[(*kernelPerm)[0]], i = weight[(*kernelPerm)[1]],
          kh = weight[(*kernelPerm)[2]], kw = weight[(*kernelPerm)[3]];
  std::string weightDesc = "weight shape " + formatShape(weight) + " in " +
                           attrs.kernelLayout.str() + " layout";
  // kernel_size and channels, when given, must agree with the weight; they
  // also fill in unknown weight dimensions.
  if (failed(
          checkKernelExtent(kh, kw, attrs.kernelSize, weightDesc, emitError)))
    return failure();
  int64_t groups = attrs.groups;
  // Relay's depthwise case (groups == data channels == the weight's O): with
  // `channels` given, Relay expects the weight as [C, channels / C, KH, KW]
  // in OIHW terms, e.g. TFLite's HWOI [KH, KW, C, multiplier]. With a
  // multiplier of 1 this is the ordinary grouped convolution.
  if (attrs.channels && groups > 1 && c == groups && o == groups &&
      *attrs.channels != o) {
    int64_t channels = *attrs.channels;
    if (channels % c != 0 || (!isDyn(i) && i != channels / c)) {
      report(emitError, "depthwise weight (" + weightDesc + ") has " +
                            Twine(i) + " channels per input channel but " +
                            "channels=" + Twine(channels) + " needs " +
                            (channels % c ? Twine("a multiple of ") + Twine(c)
                                          : Twine(channels / c)));
      return failure();
    }
    o = channels;
  } else {
    if (attrs.channels) {
      if (!isDyn(o) && o != *attrs.channels) {
        report(emitError, "channels=" + Twine(*attrs.channels) +
                              " but the weight has " + Twine(o) +
                              " output channels (" + weightDesc + ")");
        return failure();
      }
      o = *attrs.channels;
    }
    if (!isDyn(c) && c % groups != 0) {
      report(emitError, "data has " + Twine(c) +
                            " channels, which is not divisible by groups=" +
                            Twine(groups));
      return failure();
    }
    if (!isDyn(o) && o % groups != 0) {
      report(emitError, "weight has " + Twine(o) +
                            " output channels, which is not divisible by "
                            "groups=" +
                            Twine(groups));
      return failure();
    }
    if (!isDyn(c) && !isDyn(i) && c / groups != i) {
      report(emitError,
             "weight has " + Twine(i) +
                 " input channels per group but data has " + Twine(c) +
                 " channels with groups=" + Twine(groups) + " (expected " +
                 Twine(c / groups) + "; " + weightDesc + ")");
      return failure();
    }
  }

  auto oh = slidingWindowExtent(
      h, (*pad)[0], (*pad)[2], kh, attrs.dilation[0], attrs.strides[0],
      /*ceilMode=*/false, "height", "kernel", emitError);
  if (failed(oh))
    return failure();
  auto ow = slidingWindowExtent(
      w, (*pad)[1], (*pad)[3], kw, attrs.dilation[1], attrs.strides[1],
      /*ceilMode=*/false, "width", "kernel", emitError);
  if (failed(ow))
    return failure();

  int64_t nchw[4] = {n, o, *oh, *ow};
  Shape result(4);
  for (int k = 0; k < 4; ++k)
    result[(*outPerm)[k]] = nchw[k];
  return result;
}

/// Output extent of a transposed convolution:
/// stride * (in - 1) + (window - 1) * dilation + 1 - pad + outputPadding.
static FailureOr<int64_t>
transposedExtent(int64_t in, int64_t padBefore, int64_t padAfter,
                 int64_t window, int64_t dilation, int64_t stride,
                 int64_t outputPadding, StringRef what, EmitErrorFn emitError) {
  if (isDyn(in) || isDyn(window))
    return ShapedType::kDynamic;
  int64_t extent, dilated, pad;
  bool overflow = llvm::MulOverflow(stride, in - 1, extent) ||
                  llvm::MulOverflow(window - 1, dilation, dilated) ||
                  llvm::AddOverflow(extent, dilated + 1, extent) ||
                  llvm::AddOverflow(extent, outputPadding, extent) ||
                  llvm::AddOverflow(padBefore, padAfter, pad);
  if (overflow) {
    report(emitError, "the output " + what + " of data " + what + " " +
                          Twine(in) + " overflows int64");
    return failure();
  }
  if (extent - pad < 1) {
    report(emitError, "padding " + Twine(pad) + " leaves no output " + what +
                          " (the unpadded transposed " + what + " is " +
                          Twine(extent) + ")");
    return failure();
  }
  return extent - pad;
}

FailureOr<Shape> mlc::nn::inferConv2DTransposeShape(
    ArrayRef<int64_t> data, ArrayRef<int64_t> weight,
    const Conv2DTransposeAttrs &attrs, EmitErrorFn emitError) {
  auto dataPerm =
      getLayoutPermutation(attrs.dataLayout, "NCHW", "data_layout", emitError);
  if (failed(dataPerm))
    return failure();
  // The kernel of a transposed convolution is [in, out / groups, KH, KW]:
  // its layout is a permutation of IOHW.
  auto kernelPerm = getLayoutPermutation(attrs.kernelLayout, "IOHW",
                                         "kernel_layout", emitError);
  if (failed(kernelPerm))
    return failure();
  StringRef outLayout =
      attrs.outLayout.empty() ? attrs.dataLayout : attrs.outLayout;
  auto outPerm =
      getLayoutPermutation(outLayout, "NCHW", "out_layout", emitError);
  if (failed(outPerm))
    return failure();
  if (data.size() != 4) {
    report(emitError, "data must be a 4-D tensor (" + attrs.dataLayout +
                          ") but has shape " + formatShape(data));
    return failure();
  }
  if (weight.size() != 4) {
    report(emitError, "weight must be a 4-D tensor (" + attrs.kernelLayout +
                          ") but has shape " + formatShape(weight));
    return failure();
  }
  if (failed(checkIntList(attrs.strides, 2, 1, "strides", emitError)) ||
      failed(checkIntList(attrs.dilation, 2, 1, "dilation", emitError)) ||
      failed(
          checkIntList(attrs.outputPadding, 2, 0, "output_padding", emitError)))
    return failure();
  auto pad = getPadTuple2D(attrs.padding, emitError);
  if (failed(pad))
    return failure();
  int64_t groups = attrs.groups;
  if (groups < 1) {
    report(emitError, "groups must be >= 1 but got " + Twine(groups));
    return failure();
  }
  if (attrs.kernelSize &&
      failed(checkIntList(*attrs.kernelSize, 2, 1, "kernel_size", emitError)))
    return failure();

  int64_t n = data[(*dataPerm)[0]], c = data[(*dataPerm)[1]],
          h = data[(*dataPerm)[2]], w = data[(*dataPerm)[3]];
  int64_t wi = weight[(*kernelPerm)[0]], wo = weight[(*kernelPerm)[1]],
          kh = weight[(*kernelPerm)[2]], kw = weight[(*kernelPerm)[3]];
  std::string weightDesc = "weight shape " + formatShape(weight) + " in " +
                           attrs.kernelLayout.str() + " layout";
  if (failed(
          checkKernelExtent(kh, kw, attrs.kernelSize, weightDesc, emitError)))
    return failure();
  if (!isDyn(c) && !isDyn(wi) && c != wi) {
    report(emitError, "weight has " + Twine(wi) +
                          " input channels but data has " + Twine(c) + " (" +
                          weightDesc + ")");
    return failure();
  }
  if (!isDyn(c) && c % groups != 0) {
    report(emitError,
           "data has " + Twine(c) +
               " channels, which is not divisible by groups=" + Twine(groups));
    return failure();
  }
  int64_t o = isDyn(wo) ? ShapedType::kDynamic : wo * groups;
  if (attrs.channels) {
    int64_t channels = *attrs.channels;
    if (channels < 1 || channels % groups != 0 ||
        (!isDyn(wo) && channels / groups != wo)) {
      report(emitError, "channels=" + Twine(channels) +
                            " with groups=" + Twine(groups) + " needs " +
                            (channels % groups ? Twine("channels divisible "
                                                       "by groups")
                                               : Twine(channels / groups) +
                                                     " output channels per "
                                                     "group in the weight") +
                            " (" + weightDesc + ")");
      return failure();
    }
    o = channels;
  }

  auto oh = transposedExtent(h, (*pad)[0], (*pad)[2], kh, attrs.dilation[0],
                             attrs.strides[0], attrs.outputPadding[0], "height",
                             emitError);
  if (failed(oh))
    return failure();
  auto ow = transposedExtent(w, (*pad)[1], (*pad)[3], kw, attrs.dilation[1],
                             attrs.strides[1], attrs.outputPadding[1], "width",
                             emitError);
  if (failed(ow))
    return failure();

  int64_t nchw[4] = {n, o, *oh, *ow};
  Shape result(4);
  for (int k = 0; k < 4; ++k)
    result[(*outPerm)[k]] = nchw[k];
  return result;
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Positions of H and W in a 2-D pooling layout, checking `data` against it.
static FailureOr<std::pair<int64_t, int64_t>> getPoolHW(ArrayRef<int64_t> data,
                                                        StringRef layout,
                                                        StringRef outLayout,
                                                        EmitErrorFn emitError) {
  auto perm = getLayoutPermutation(layout, "NCHW", "layout", emitError);
  if (failed(perm))
    return failure();
  if (!outLayout.empty() && outLayout != layout) {
    report(emitError, "out_layout \"" + outLayout +
                          "\" differs from layout \"" + layout +
                          "\"; pooling does not change the layout");
    return failure();
  }
  if (data.size() != 4) {
    report(emitError, "data must be a 4-D tensor (" + layout +
                          ") but has shape " + formatShape(data));
    return failure();
  }
  return std::make_pair((*perm)[2], (*perm)[3]);
}

FailureOr<Shape> mlc::nn::inferPool2DShape(ArrayRef<int64_t> data,
                                           const Pool2DAttrs &attrs,
                                           EmitErrorFn emitError) {
  auto hw = getPoolHW(data, attrs.layout, attrs.outLayout, emitError);
  if (failed(hw))
    return failure();
  if (failed(checkIntList(attrs.poolSize, 2, 1, "pool_size", emitError)) ||
      failed(checkIntList(attrs.strides, 2, 1, "strides", emitError)) ||
      failed(checkIntList(attrs.dilation, 2, 1, "dilation", emitError)))
    return failure();
  auto pad = getPadTuple2D(attrs.padding, emitError);
  if (failed(pad))
    return failure();
  auto [hIdx, wIdx] = *hw;
  Shape result(data.begin(), data.end());
  auto oh = slidingWindowExtent(
      data[hIdx], (*pad)[0], (*pad)[2], attrs.poolSize[0], attrs.dilation[0],
      attrs.strides[0], attrs.ceilMode, "height", "pool", emitError);
  if (failed(oh))
    return failure();
  auto ow = slidingWindowExtent(
      data[wIdx], (*pad)[1], (*pad)[3], attrs.poolSize[1], attrs.dilation[1],
      attrs.strides[1], attrs.ceilMode, "width", "pool", emitError);
  if (failed(ow))
    return failure();
  result[hIdx] = *oh;
  result[wIdx] = *ow;
  return result;
}

FailureOr<Shape> mlc::nn::inferGlobalPool2DShape(ArrayRef<int64_t> data,
                                                 StringRef layout,
                                                 StringRef outLayout,
                                                 EmitErrorFn emitError) {
  auto hw = getPoolHW(data, layout, outLayout, emitError);
  if (failed(hw))
    return failure();
  Shape result(data.begin(), data.end());
  result[hw->first] = 1;
  result[hw->second] = 1;
  return result;
}

FailureOr<Shape> mlc::nn::inferAdaptivePool2DShape(ArrayRef<int64_t> data,
                                                   ArrayRef<int64_t> outputSize,
                                                   StringRef layout,
                                                   StringRef outLayout,
                                                   EmitErrorFn emitError) {
  auto hw = getPoolHW(data, layout, outLayout, emitError);
  if (failed(hw))
    return failure();
  if (outputSize.size() > 2) {
    report(emitError, "output_size must have 0, 1 or 2 values but has " +
                          Twine(outputSize.size()) + " (" +
                          formatIntList(outputSize) + ")");
    return failure();
  }
  if (llvm::any_of(outputSize, [](int64_t v) { return v < 1; })) {
    report(emitError, "output_size values must be >= 1 but got " +
                          formatIntList(outputSize));
    return failure();
  }
  Shape result(data.begin(), data.end());
  if (!outputSize.empty()) {
    result[hw->first] = outputSize[0];
    result[hw->second] = outputSize.back();
  }
  return result;
}

FailureOr<Shape> mlc::nn::inferUpSamplingShape(ArrayRef<int64_t> data,
                                               double scaleH, double scaleW,
                                               StringRef layout,
                                               EmitErrorFn emitError) {
  auto hw = getPoolHW(data, layout, /*outLayout=*/"", emitError);
  if (failed(hw))
    return failure();
  Shape result(data.begin(), data.end());
  for (auto [idx, scale, name] :
       {std::make_tuple(hw->first, scaleH, "scale_h"),
        std::make_tuple(hw->second, scaleW, "scale_w")}) {
    if (!(scale > 0.0) || !std::isfinite(scale)) {
      report(emitError, Twine(name) + " must be a positive number but is " +
                            Twine(std::to_string(scale)));
      return failure();
    }
    int64_t in = data[idx];
    if (isDyn(in))
      continue;
    double out = std::round(static_cast<double>(in) * scale);
    if (!(out < 9.0e18)) {
      report(emitError, "the upsampled size of dimension " + Twine(idx) +
                            " overflows int64");
      return failure();
    }
    result[idx] = static_cast<int64_t>(out);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Dense / matmul
//===----------------------------------------------------------------------===//

FailureOr<Shape> mlc::nn::inferDenseShape(ArrayRef<int64_t> data,
                                          ArrayRef<int64_t> weight,
                                          std::optional<int64_t> units,
                                          EmitErrorFn emitError) {
  if (data.empty()) {
    report(emitError, "data must have rank >= 1 but is 0-D");
    return failure();
  }
  if (weight.size() != 2) {
    report(emitError, "weight must be a 2-D tensor [units, K] but has shape " +
                          formatShape(weight));
    return failure();
  }
  int64_t k = data.back();
  if (!isDyn(k) && !isDyn(weight[1]) && k != weight[1]) {
    report(emitError, "weight has " + Twine(weight[1]) +
                          " input features (dimension 1) but data has " +
                          Twine(k) + " (last dimension); data shape " +
                          formatShape(data) + ", weight shape " +
                          formatShape(weight));
    return failure();
  }
  int64_t outUnits = weight[0];
  if (units) {
    if (*units < 1) {
      report(emitError, "units must be >= 1 but got " + Twine(*units));
      return failure();
    }
    if (!isDyn(weight[0]) && weight[0] != *units) {
      report(emitError,
             "units=" + Twine(*units) + " but weight has " + Twine(weight[0]) +
                 " output units (dimension 0 of " + formatShape(weight) + ")");
      return failure();
    }
    outUnits = *units;
  }
  Shape result(data.begin(), data.end());
  result.back() = outUnits;
  return result;
}

FailureOr<Shape> mlc::nn::inferMatmulShape(ArrayRef<int64_t> a,
                                           ArrayRef<int64_t> b,
                                           std::optional<int64_t> units,
                                           bool transposeA, bool transposeB,
                                           EmitErrorFn emitError) {
  size_t rank = a.size();
  if (rank < (transposeA ? 2u : 1u)) {
    report(emitError,
           "tensor_a must have rank >= " + Twine(transposeA ? 2 : 1) +
               " but has shape " + formatShape(a));
    return failure();
  }
  if (b.size() != 2) {
    report(emitError,
           "tensor_b must be a 2-D tensor but has shape " + formatShape(b));
    return failure();
  }
  int64_t k = transposeA ? a[rank - 2] : a[rank - 1];
  int64_t bk = transposeB ? b[1] : b[0];
  int64_t n = transposeB ? b[0] : b[1];
  if (!isDyn(k) && !isDyn(bk) && k != bk) {
    report(emitError,
           "reduction dimensions differ: tensor_a has " + Twine(k) + " (dim " +
               Twine(transposeA ? rank - 2 : rank - 1) + " with transpose_a=" +
               (transposeA ? "true" : "false") + ") but tensor_b has " +
               Twine(bk) + " (dim " + Twine(transposeB ? 1 : 0) +
               " with transpose_b=" + (transposeB ? "true" : "false") + ")");
    return failure();
  }
  if (units) {
    if (*units < 1) {
      report(emitError, "units must be >= 1 but got " + Twine(*units));
      return failure();
    }
    if (!isDyn(n) && n != *units) {
      report(emitError, "units=" + Twine(*units) + " but tensor_b has " +
                            Twine(n) + " output units (shape " +
                            formatShape(b) + ")");
      return failure();
    }
    n = *units;
  }
  Shape result(a.begin(), a.end());
  if (transposeA)
    result[rank - 2] = a[rank - 1];
  result[rank - 1] = n;
  return result;
}

FailureOr<Shape> mlc::nn::inferBatchMatmulShape(ArrayRef<int64_t> x,
                                                ArrayRef<int64_t> y,
                                                bool transposeA,
                                                bool transposeB,
                                                EmitErrorFn emitError) {
  if (x.size() != 3) {
    report(emitError, "x must be a 3-D tensor but has shape " + formatShape(x));
    return failure();
  }
  if (y.size() != 3) {
    report(emitError, "y must be a 3-D tensor but has shape " + formatShape(y));
    return failure();
  }
  int64_t xb = x[0], xi = transposeA ? x[2] : x[1],
          xk = transposeA ? x[1] : x[2];
  int64_t yb = y[0], yk = transposeB ? y[2] : y[1],
          yj = transposeB ? y[1] : y[2];
  if (!isDyn(xb) && !isDyn(yb) && xb != yb && xb != 1 && yb != 1) {
    report(emitError, "batch dimensions of x (" + Twine(xb) + ") and y (" +
                          Twine(yb) + ") differ and neither is 1; x shape " +
                          formatShape(x) + ", y shape " + formatShape(y));
    return failure();
  }
  if (!isDyn(xk) && !isDyn(yk) && xk != yk) {
    report(emitError,
           "reduction dimensions differ: x has " + Twine(xk) + " (dim " +
               Twine(transposeA ? 1 : 2) + " with transpose_a=" +
               (transposeA ? "true" : "false") + ") but y has " + Twine(yk) +
               " (dim " + Twine(transposeB ? 2 : 1) +
               " with transpose_b=" + (transposeB ? "true" : "false") +
               "); x shape " + formatShape(x) + ", y shape " + formatShape(y));
    return failure();
  }
  int64_t b =
      (isDyn(xb) || isDyn(yb)) ? ShapedType::kDynamic : std::max(xb, yb);
  return Shape{b, xi, yj};
}

//===----------------------------------------------------------------------===//
// Normalization, bias, pad, flatten
//===----------------------------------------------------------------------===//

LogicalResult mlc::nn::checkChannelVector(ArrayRef<int64_t> data, int64_t axis,
                                          ArrayRef<int64_t> param,
                                          StringRef what,
                                          EmitErrorFn emitError) {
  int64_t expected = data[axis];
  if (param.size() != 1 ||
      (!isDyn(expected) && !isDyn(param[0]) && param[0] != expected)) {
    report(emitError, what + " must have shape " + formatShape({expected}) +
                          " (dimension " + Twine(axis) + " of data shape " +
                          formatShape(data) + ") but has shape " +
                          formatShape(param));
    return failure();
  }
  return success();
}

FailureOr<Shape> mlc::nn::inferPadShape(ArrayRef<int64_t> data,
                                        ArrayRef<int64_t> padWidth,
                                        EmitErrorFn emitError) {
  if (padWidth.size() != 2 * data.size()) {
    report(emitError,
           "pad_width must hold a (before, after) pair per dimension of "
           "data, i.e. " +
               Twine(2 * data.size()) + " values for data shape " +
               formatShape(data) + ", but has " + Twine(padWidth.size()));
    return failure();
  }
  Shape result;
  for (auto [i, d] : llvm::enumerate(data)) {
    if (isDyn(d)) {
      result.push_back(d);
      continue;
    }
    int64_t size;
    if (llvm::AddOverflow(d, padWidth[2 * i], size) ||
        llvm::AddOverflow(size, padWidth[2 * i + 1], size)) {
      report(emitError, "pad_width overflows dimension " + Twine(i));
      return failure();
    }
    if (size < 0) {
      report(emitError, "pad_width [" + Twine(padWidth[2 * i]) + ", " +
                            Twine(padWidth[2 * i + 1]) + "] makes dimension " +
                            Twine(i) + " of size " + Twine(d) + " negative (" +
                            Twine(size) + ")");
      return failure();
    }
    result.push_back(size);
  }
  return result;
}

FailureOr<Shape> mlc::nn::inferBatchFlattenShape(ArrayRef<int64_t> data,
                                                 EmitErrorFn emitError) {
  if (data.empty()) {
    report(emitError, "data must have rank >= 1 but is 0-D");
    return failure();
  }
  int64_t flat = 1;
  for (int64_t d : data.drop_front()) {
    if (isDyn(d)) {
      flat = ShapedType::kDynamic;
      break;
    }
    if (llvm::MulOverflow(flat, d, flat)) {
      report(emitError, "the flattened size of data shape " +
                            formatShape(data) + " overflows int64");
      return failure();
    }
  }
  return Shape{data[0], flat};
}
