//===- ShapeFunctions.cpp - shapes of tensor operators ----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Each function follows the TVM type relation named in its comment in
// ShapeFunctions.h; ShapedType::kDynamic plays the role of Relay's `Any`.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlc;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::Twine;

static constexpr int64_t kDyn = ShapedType::kDynamic;

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

/// Upper bound on the rank of a result and on the number of split parts, so
/// that absurd attributes are diagnosed instead of exhausting memory.
static constexpr int64_t kMaxRank = 1 << 16;

/// a * b, or nullopt on signed overflow.
static std::optional<int64_t> mul(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::MulOverflow(a, b, r))
    return std::nullopt;
  return r;
}

static LogicalResult fail(ShapeErrorFn emitError, const Twine &message) {
  if (emitError)
    emitError(message);
  return failure();
}

std::string mlc::formatIntList(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

std::string mlc::formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (isDyn(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}

FailureOr<int64_t> mlc::normalizeAxis(int64_t axis, int64_t rank,
                                      ShapeErrorFn emitError, bool allowEnd) {
  int64_t bound = allowEnd ? rank + 1 : rank;
  if (axis < -bound || axis >= bound) {
    (void)fail(emitError, "axis " + Twine(axis) + " is out of range for rank " +
                              Twine(rank));
    return failure();
  }
  return axis < 0 ? axis + bound : axis;
}

LogicalResult mlc::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                                   SmallVectorImpl<int64_t> &result,
                                   ShapeErrorFn emitError) {
  size_t rank = std::max(lhs.size(), rhs.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Walk from the innermost dimension; missing leading dims are 1.
    size_t li = lhs.size() >= rank - i ? lhs.size() - (rank - i) : SIZE_MAX;
    size_t ri = rhs.size() >= rank - i ? rhs.size() - (rank - i) : SIZE_MAX;
    int64_t a = li == SIZE_MAX ? 1 : lhs[li];
    int64_t b = ri == SIZE_MAX ? 1 : rhs[ri];
    int64_t out;
    if (a == b)
      out = a;
    else if (a == 1)
      out = b;
    else if (b == 1)
      out = a;
    else if (isDyn(a))
      out = b;
    else if (isDyn(b))
      out = a;
    else
      return fail(emitError, "dimension " + Twine(i) + ": " + Twine(a) +
                                 " vs " + Twine(b));
    result[i] = out;
  }
  return success();
}

LogicalResult mlc::inferReshapeShape(ArrayRef<int64_t> ishape,
                                     ArrayRef<int64_t> newshape,
                                     SmallVectorImpl<int64_t> &oshape,
                                     ShapeErrorFn emitError, bool allowZero) {
  oshape.clear();
  llvm::SmallDenseSet<size_t> usedInputDims, usedOutputDims;
  size_t src = 0;
  int64_t inferIdx = -1;
  auto err = [&](const Twine &msg) {
    return fail(emitError, "newshape " + formatIntList(newshape) +
                               " is invalid for input shape " +
                               formatShape(ishape) + ": " + msg);
  };
  for (size_t i = 0; i < newshape.size(); ++i) {
    int64_t v = newshape[i];
    if (v > 0 || (v == 0 && allowZero)) {
      oshape.push_back(v);
      ++src;
    } else if (v == 0) {
      if (src >= ishape.size())
        return err("0 at position " + Twine(i) +
                   " copies an input dimension that does not exist");
      usedInputDims.insert(src);
      usedOutputDims.insert(oshape.size());
      oshape.push_back(ishape[src++]);
    } else if (v == -1) {
      if (inferIdx >= 0)
        return err("only one dimension can be -1");
      inferIdx = oshape.size();
      oshape.push_back(1);
      ++src;
    } else if (v == -2) {
      while (src < ishape.size()) {
        usedInputDims.insert(src);
        usedOutputDims.insert(oshape.size());
        oshape.push_back(ishape[src++]);
      }
    } else if (v == -3) {
      if (src + 1 >= ishape.size())
        return err("-3 at position " + Twine(i) +
                   " needs two remaining input dimensions");
      usedInputDims.insert(src);
      int64_t d1 = ishape[src++];
      usedInputDims.insert(src);
      int64_t d2 = ishape[src++];
      usedOutputDims.insert(oshape.size());
      if (isDyn(d1) || isDyn(d2)) {
        oshape.push_back(kDyn);
      } else if (std::optional<int64_t> m = mul(d1, d2)) {
        oshape.push_back(*m);
      } else {
        return err("-3 at position " + Twine(i) + " overflows");
      }
    } else if (v == -4) {
      if (i + 2 >= newshape.size())
        return err("-4 at position " + Twine(i) +
                   " must be followed by two values");
      if (src >= ishape.size())
        return err("-4 at position " + Twine(i) +
                   " splits an input dimension that does not exist");
      usedInputDims.insert(src);
      int64_t d0 = ishape[src++];
      int64_t d1 = newshape[++i];
      int64_t d2 = newshape[++i];
      if (d1 < -1 || d1 == 0 || d2 < -1 || d2 == 0)
        return err("the values after -4 must be positive or -1");
      if (d1 == -1 && d2 == -1)
        return err("the two values after -4 cannot both be -1");
      usedOutputDims.insert(oshape.size());
      if (d1 == -1)
        oshape.push_back(isDyn(d0) ? kDyn : d0 / d2);
      else
        oshape.push_back(d1);
      usedOutputDims.insert(oshape.size());
      if (d2 == -1)
        oshape.push_back(isDyn(d0) ? kDyn : d0 / d1);
      else
        oshape.push_back(d2);
    } else {
      return err("unsupported special value " + Twine(v));
    }
  }

  if (inferIdx >= 0) {
    int64_t inferDim = 1;
    for (size_t i = 0; i < ishape.size(); ++i) {
      if (usedInputDims.count(i))
        continue;
      if (isDyn(ishape[i])) {
        inferDim = kDyn;
        break;
      }
      std::optional<int64_t> m = mul(inferDim, ishape[i]);
      if (!m)
        return err("the element count overflows");
      inferDim = *m;
    }
    if (!isDyn(inferDim)) {
      for (size_t i = 0; i < oshape.size(); ++i) {
        if (usedOutputDims.count(i) || static_cast<int64_t>(i) == inferIdx)
          continue;
        if (isDyn(oshape[i])) {
          inferDim = kDyn;
          break;
        }
        if (oshape[i] == 0)
          return err("cannot infer the -1 dimension next to a 0-sized one");
        inferDim /= oshape[i];
      }
    }
    oshape[inferIdx] = inferDim;
  }

  // ReshapeRel: with all sizes known the element counts must agree.
  if (llvm::none_of(oshape, isDyn) && llvm::none_of(ishape, isDyn)) {
    std::optional<int64_t> in = 1, out = 1;
    for (int64_t d : ishape)
      if (in)
        in = mul(*in, d);
    for (int64_t d : oshape)
      if (out)
        out = mul(*out, d);
    if (!in || !out)
      return err("the element count overflows");
    if (*in != *out)
      return err("the result shape " + formatShape(oshape) + " has " +
                 Twine(*out) + " elements, the input " + Twine(*in));
  }
  return success();
}

LogicalResult mlc::inferTransposePermutation(
    int64_t rank, std::optional<ArrayRef<int64_t>> axes,
    SmallVectorImpl<int64_t> &perm, ShapeErrorFn emitError) {
  perm.clear();
  if (!axes) {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
    return success();
  }
  if (static_cast<int64_t>(axes->size()) != rank)
    return fail(emitError, "axes " + formatIntList(*axes) + " has " +
                               Twine(axes->size()) +
                               " entries, expected one per dimension (" +
                               Twine(rank) + ")");
  SmallVector<bool> seen(rank, false);
  for (int64_t a : *axes) {
    FailureOr<int64_t> axis = normalizeAxis(a, rank, emitError);
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return fail(emitError, "axes " + formatIntList(*axes) +
                                 " is not a permutation (axis " + Twine(a) +
                                 " repeats)");
    seen[*axis] = true;
    perm.push_back(*axis);
  }
  return success();
}

LogicalResult mlc::inferExpandDimsShape(ArrayRef<int64_t> input, int64_t axis,
                                        int64_t numNewAxis,
                                        SmallVectorImpl<int64_t> &result,
                                        ShapeErrorFn emitError) {
  if (numNewAxis < 0 || numNewAxis > kMaxRank)
    return fail(emitError, "num_newaxis must be in [0, " + Twine(kMaxRank) +
                               "], got " + Twine(numNewAxis));
  FailureOr<int64_t> pivot =
      normalizeAxis(axis, input.size(), emitError, /*allowEnd=*/true);
  if (failed(pivot))
    return failure();
  result.assign(input.begin(), input.begin() + *pivot);
  result.append(numNewAxis, 1);
  result.append(input.begin() + *pivot, input.end());
  return success();
}

LogicalResult mlc::inferSqueezeShape(ArrayRef<int64_t> input,
                                     std::optional<ArrayRef<int64_t>> axes,
                                     SmallVectorImpl<int64_t> &result,
                                     ShapeErrorFn emitError) {
  result.clear();
  if (!axes) {
    // Like TVM's SqueezeRel: which dimensions go must be known statically.
    if (llvm::any_of(input, isDyn))
      return fail(emitError, "'axis' must be given for shape " +
                                 formatShape(input) +
                                 " with unknown dimensions");
    for (int64_t d : input)
      if (d != 1)
        result.push_back(d);
    return success();
  }
  SmallVector<bool> drop(input.size(), false);
  for (int64_t a : *axes) {
    FailureOr<int64_t> axis = normalizeAxis(a, input.size(), emitError);
    if (failed(axis))
      return failure();
    if (!isDyn(input[*axis]) && input[*axis] != 1)
      return fail(emitError, "cannot squeeze axis " + Twine(a) + " of shape " +
                                 formatShape(input) + ": its size is " +
                                 Twine(input[*axis]) + ", not 1");
    drop[*axis] = true;
  }
  for (size_t i = 0; i < input.size(); ++i)
    if (!drop[i])
      result.push_back(input[i]);
  return success();
}

LogicalResult mlc::inferConcatenateShape(ArrayRef<ArrayRef<int64_t>> inputs,
                                         int64_t axis,
                                         SmallVectorImpl<int64_t> &result,
                                         ShapeErrorFn emitError) {
  if (inputs.empty())
    return fail(emitError, "needs at least one input");
  int64_t rank = inputs[0].size();
  if (rank == 0)
    return fail(emitError, "cannot concatenate rank-0 tensors");
  FailureOr<int64_t> ax = normalizeAxis(axis, rank, emitError);
  if (failed(ax))
    return failure();
  for (size_t i = 1; i < inputs.size(); ++i)
    if (static_cast<int64_t>(inputs[i].size()) != rank)
      return fail(emitError, "input " + Twine(i) + " has rank " +
                                 Twine(inputs[i].size()) +
                                 ", input 0 has rank " + Twine(rank));
  result.assign(rank, kDyn);
  // The concatenated axis: the sum, or unknown if any input's is unknown.
  bool dynamicConcat = false;
  int64_t sum = 0;
  for (ArrayRef<int64_t> s : inputs) {
    if (isDyn(s[*ax]))
      dynamicConcat = true;
    else if (llvm::AddOverflow(sum, s[*ax], sum))
      return fail(emitError, "the concatenated size along axis " + Twine(*ax) +
                                 " overflows int64_t");
  }
  result[*ax] = dynamicConcat ? kDyn : sum;
  // Other axes: the known sizes must agree. As in TVM's ConcatenateRel, the
  // result is static if every input is, or if some input is and the
  // concatenated axis is unknown; otherwise it is unknown (so a static
  // result never hides an unchecked dynamic input).
  for (int64_t d = 0; d < rank; ++d) {
    if (d == *ax)
      continue;
    std::optional<int64_t> known;
    size_t numKnown = 0;
    for (auto [i, s] : llvm::enumerate(inputs)) {
      if (isDyn(s[d]))
        continue;
      ++numKnown;
      if (!known) {
        known = s[d];
      } else if (*known != s[d]) {
        return fail(emitError, "input " + Twine(i) + " has shape " +
                                   formatShape(s) + ", expected size " +
                                   Twine(*known) + " in dimension " + Twine(d) +
                                   " like the previous inputs");
      }
    }
    if (known && (numKnown == inputs.size() || dynamicConcat))
      result[d] = *known;
  }
  return success();
}

LogicalResult mlc::inferSplitShapes(ArrayRef<int64_t> input, int64_t sections,
                                    int64_t axis,
                                    SmallVectorImpl<SmallVector<int64_t>> &out,
                                    ShapeErrorFn emitError) {
  out.clear();
  FailureOr<int64_t> ax = normalizeAxis(axis, input.size(), emitError);
  if (failed(ax))
    return failure();
  if (sections <= 0 || sections > kMaxRank)
    return fail(emitError, "indices_or_sections must be in [1, " +
                               Twine(kMaxRank) + "], got " + Twine(sections));
  int64_t dim = input[*ax];
  if (!isDyn(dim) && dim % sections != 0)
    return fail(emitError, "axis " + Twine(axis) + " of shape " +
                               formatShape(input) + " (size " + Twine(dim) +
                               ") is not divisible into " + Twine(sections) +
                               " sections");
  SmallVector<int64_t> part(input);
  part[*ax] = isDyn(dim) ? kDyn : dim / sections;
  out.assign(sections, part);
  return success();
}

LogicalResult mlc::inferSplitShapes(ArrayRef<int64_t> input,
                                    ArrayRef<int64_t> indices, int64_t axis,
                                    SmallVectorImpl<SmallVector<int64_t>> &out,
                                    ShapeErrorFn emitError) {
  out.clear();
  FailureOr<int64_t> ax = normalizeAxis(axis, input.size(), emitError);
  if (failed(ax))
    return failure();
  int64_t dim = input[*ax];
  int64_t begin = 0;
  for (int64_t idx : indices) {
    if (idx <= begin)
      return fail(emitError, "indices_or_sections " + formatIntList(indices) +
                                 " must be a strictly ascending list of "
                                 "positive indices");
    if (!isDyn(dim) && idx >= dim)
      return fail(emitError, "index " + Twine(idx) +
                                 " of indices_or_sections is not inside "
                                 "axis " +
                                 Twine(axis) + " (size " + Twine(dim) + ")");
    SmallVector<int64_t> part(input);
    part[*ax] = idx - begin;
    out.push_back(part);
    begin = idx;
  }
  SmallVector<int64_t> last(input);
  last[*ax] = isDyn(dim) ? kDyn : dim - begin;
  out.push_back(last);
  return success();
}

/// topi::CanonicalizeIndex.
static int64_t canonicalizeIndex(int64_t index, int64_t extent,
                                 int64_t stride) {
  int64_t beginRange = stride < 0 ? -1 : 0;
  int64_t endRange = stride < 0 ? extent - 1 : extent;
  if (index < 0)
    index += extent;
  return std::min(std::max(index, beginRange), endRange);
}

LogicalResult mlc::inferStridedSliceShape(
    ArrayRef<int64_t> input, ArrayRef<int64_t> beginAttr,
    ArrayRef<int64_t> endAttr, std::optional<ArrayRef<int64_t>> stridesAttr,
    std::optional<ArrayRef<int64_t>> axesAttr, StringRef sliceMode,
    SmallVectorImpl<int64_t> &result, ShapeErrorFn emitError) {
  constexpr int64_t maxRange = std::numeric_limits<int64_t>::max();
  if (sliceMode != "end" && sliceMode != "size")
    return fail(emitError, "slice_mode must be \"end\" or \"size\", got \"" +
                               sliceMode + "\"");
  SmallVector<int64_t> begin(beginAttr), end(endAttr);
  SmallVector<int64_t> strides = stridesAttr
                                     ? SmallVector<int64_t>(*stridesAttr)
                                     : SmallVector<int64_t>{1};
  int64_t rank = input.size();
  SmallVector<int64_t> axes;
  if (axesAttr) {
    if (axesAttr->size() != begin.size() || axesAttr->size() != end.size() ||
        axesAttr->size() != strides.size())
      return fail(emitError,
                  "axes, begin, end and strides must have the same length, "
                  "got " +
                      Twine(axesAttr->size()) + ", " + Twine(begin.size()) +
                      ", " + Twine(end.size()) + " and " +
                      Twine(strides.size()));
    for (int64_t a : *axesAttr) {
      FailureOr<int64_t> ax = normalizeAxis(a, rank, emitError);
      if (failed(ax))
        return failure();
      axes.push_back(*ax);
    }
  } else {
    if (static_cast<int64_t>(begin.size()) > rank ||
        static_cast<int64_t>(end.size()) > rank ||
        static_cast<int64_t>(strides.size()) > rank)
      return fail(emitError, "begin, end and strides (" + Twine(begin.size()) +
                                 ", " + Twine(end.size()) + " and " +
                                 Twine(strides.size()) +
                                 " entries) address more dimensions than the "
                                 "input has (" +
                                 Twine(rank) + ")");
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
    while (static_cast<int64_t>(strides.size()) < rank)
      strides.push_back(1);
    for (int64_t i = begin.size(); i < rank; ++i)
      begin.push_back(strides[i] > 0 ? 0 : maxRange);
    for (int64_t i = end.size(); i < rank; ++i)
      end.push_back(strides[i] < 0 ? 0 : maxRange);
  }

  // topi ConvertToVec: "size" mode ignores strides and turns sizes into ends.
  if (sliceMode == "size") {
    for (size_t i = 0; i < end.size(); ++i) {
      strides[i] = 1;
      if (end[i] < 0 || (begin[i] > 0 && end[i] > maxRange - begin[i]))
        end[i] = maxRange;
      else
        end[i] = begin[i] + end[i];
    }
  }

  result.assign(input.begin(), input.end());
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = axes[i];
    if (strides[i] == 0)
      return fail(emitError, "stride of axis " + Twine(ax) + " is 0");
    int64_t dim = input[ax];
    if (isDyn(dim)) {
      result[ax] = kDyn;
      continue;
    }
    int64_t b = canonicalizeIndex(begin[i], dim, strides[i]);
    int64_t e = canonicalizeIndex(end[i], dim, strides[i]);
    if (strides[i] < 0 ? e > b : b > e)
      return fail(emitError, "slice [" + Twine(b) + ", " + Twine(e) +
                                 ") with stride " + Twine(strides[i]) +
                                 " (after canonicalization) is empty or "
                                 "reversed for axis " +
                                 Twine(ax) + " of size " + Twine(dim));
    // Unsigned so that |INT64_MIN| and interval + step - 1 cannot overflow.
    uint64_t interval = std::abs(e - b);
    uint64_t step = strides[i] < 0 ? 0 - static_cast<uint64_t>(strides[i])
                                   : static_cast<uint64_t>(strides[i]);
    result[ax] = static_cast<int64_t>((interval + step - 1) / step);
  }
  return success();
}

LogicalResult
mlc::inferTakeShape(ArrayRef<int64_t> data, ArrayRef<int64_t> indices,
                    std::optional<int64_t> axis, int64_t batchDims,
                    SmallVectorImpl<int64_t> &result, ShapeErrorFn emitError) {
  if (!axis) {
    result.assign(indices.begin(), indices.end());
    return success();
  }
  int64_t ndimData = data.size(), ndimIndices = indices.size();
  FailureOr<int64_t> ax = normalizeAxis(*axis, ndimData, emitError);
  if (failed(ax))
    return failure();
  if (batchDims < 0)
    batchDims += ndimIndices;
  if (batchDims < 0 || batchDims > ndimIndices || batchDims > *ax)
    return fail(emitError, "batch_dims " + Twine(batchDims) +
                               " must be in [0, min(axis, rank(indices))]");
  result.assign(data.begin(), data.begin() + *ax);
  result.append(indices.begin() + batchDims, indices.end());
  result.append(data.begin() + *ax + 1, data.end());
  return success();
}

LogicalResult mlc::inferBroadcastToShape(ArrayRef<int64_t> input,
                                         ArrayRef<int64_t> shape,
                                         SmallVectorImpl<int64_t> &result,
                                         ShapeErrorFn emitError) {
  for (int64_t d : shape)
    if (d < 0 && !isDyn(d))
      return fail(emitError,
                  "shape " + formatIntList(shape) + " has a negative size");
  SmallVector<int64_t> b;
  std::string detail;
  if (failed(broadcastShapes(input, shape, b,
                             [&](const Twine &m) { detail = m.str(); })) ||
      b != SmallVector<int64_t>(shape))
    return fail(emitError, "input shape " + formatShape(input) +
                               " cannot be broadcast to " + formatShape(shape) +
                               (detail.empty() ? "" : " (" + detail + ")"));
  result.assign(shape.begin(), shape.end());
  return success();
}

LogicalResult mlc::inferReduceAxes(int64_t rank,
                                   std::optional<ArrayRef<int64_t>> axes,
                                   bool exclude,
                                   SmallVectorImpl<int64_t> &reduced,
                                   ShapeErrorFn emitError) {
  reduced.clear();
  if (!axes || axes->empty()) {
    for (int64_t i = 0; i < rank; ++i)
      reduced.push_back(i);
    return success();
  }
  SmallVector<bool> listed(rank, false);
  for (int64_t a : *axes) {
    FailureOr<int64_t> ax = normalizeAxis(a, rank, emitError);
    if (failed(ax))
      return failure();
    if (listed[*ax])
      return fail(emitError, "axis " + formatIntList(*axes) +
                                 " lists dimension " + Twine(*ax) + " twice");
    listed[*ax] = true;
  }
  for (int64_t i = 0; i < rank; ++i)
    if (listed[i] != exclude)
      reduced.push_back(i);
  return success();
}

LogicalResult mlc::inferReduceShape(ArrayRef<int64_t> input,
                                    std::optional<ArrayRef<int64_t>> axes,
                                    bool keepdims, bool exclude,
                                    SmallVectorImpl<int64_t> &result,
                                    ShapeErrorFn emitError) {
  SmallVector<int64_t> reduced;
  if (failed(inferReduceAxes(input.size(), axes, exclude, reduced, emitError)))
    return failure();
  result.clear();
  for (int64_t i = 0, e = input.size(); i < e; ++i) {
    if (llvm::is_contained(reduced, i)) {
      if (keepdims)
        result.push_back(1);
    } else {
      result.push_back(input[i]);
    }
  }
  return success();
}
