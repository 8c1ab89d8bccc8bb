//===- LegalizeManipulation.cpp - shape manipulation relax op kernels -----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Kernels of the shape manipulation ops (TVM's topi/transform.h and
// topi/nn.h pad): one spatial block per output that loads the input element
// the output element comes from. Index arithmetic is done on `index` values
// and folds where sizes are static; dynamic sizes are read from the buffers
// (`memref.dim` at the start of the function). Values that do not depend on
// the iteration variables (offsets, canonicalized begins) are computed once
// at function level, before the stage that uses them.
//
//===----------------------------------------------------------------------===//

#include "Legalizations.h"

#include "mlc/Dialect/Relax/IR/Relax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;
using namespace mlc::tensorir;

namespace {
/// `index` arithmetic on OpFoldResults that folds what is static (x * 1,
/// x + 0, 2 + 3) and creates arith ops (and one constant per value) only for
/// the rest, so that static shapes give TOPI-like simple index expressions.
class IndexMath {
public:
  IndexMath(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &b;
  Location loc;

  OpFoldResult constant(int64_t value) { return b.getIndexAttr(value); }
  /// `e` as an SSA value (constants are created once per IndexMath).
  Value get(OpFoldResult e) {
    if (auto value = dyn_cast<Value>(e))
      return value;
    int64_t value = *getConstantIntValue(e);
    Value &cached = constants[value];
    if (!cached)
      cached = arith::ConstantIndexOp::create(b, loc, value);
    return cached;
  }

  OpFoldResult add(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c)
      return constant(*a + *c);
    if (a == 0)
      return y;
    if (c == 0)
      return x;
    return arith::AddIOp::create(b, loc, get(x), get(y)).getResult();
  }
  OpFoldResult sub(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c)
      return constant(*a - *c);
    if (c == 0)
      return x;
    return arith::SubIOp::create(b, loc, get(x), get(y)).getResult();
  }
  OpFoldResult mul(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c)
      return constant(*a * *c);
    if (a == 0 || c == 0)
      return constant(0);
    if (a == 1)
      return y;
    if (c == 1)
      return x;
    return arith::MulIOp::create(b, loc, get(x), get(y)).getResult();
  }
  /// Division and remainder of non-negative values by positive ones.
  OpFoldResult div(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c && *c != 0)
      return constant(*a / *c);
    if (c == 1 || a == 0)
      return x;
    return arith::DivUIOp::create(b, loc, get(x), get(y)).getResult();
  }
  OpFoldResult rem(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c && *c != 0)
      return constant(*a % *c);
    if (c == 1)
      return constant(0);
    return arith::RemUIOp::create(b, loc, get(x), get(y)).getResult();
  }
  /// Signed (indices may be negative before clamping).
  OpFoldResult max(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c)
      return constant(std::max(*a, *c));
    return arith::MaxSIOp::create(b, loc, get(x), get(y)).getResult();
  }
  OpFoldResult min(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> a = getConstantIntValue(x),
                           c = getConstantIntValue(y);
    if (a && c)
      return constant(std::min(*a, *c));
    return arith::MinSIOp::create(b, loc, get(x), get(y)).getResult();
  }
  Value compare(arith::CmpIPredicate predicate, OpFoldResult x,
                OpFoldResult y) {
    return arith::CmpIOp::create(b, loc, predicate, get(x), get(y));
  }
  Value lt(OpFoldResult x, OpFoldResult y) {
    return compare(arith::CmpIPredicate::slt, x, y);
  }
  Value ge(OpFoldResult x, OpFoldResult y) {
    return compare(arith::CmpIPredicate::sge, x, y);
  }
  Value eq(OpFoldResult x, OpFoldResult y) {
    return compare(arith::CmpIPredicate::eq, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value condition, OpFoldResult x, OpFoldResult y) {
    return arith::SelectOp::create(b, loc, condition, get(x), get(y));
  }
  /// An integer scalar (i1 as unsigned, others signed) as `index`.
  Value toIndex(Value value) {
    Type type = value.getType();
    if (type.isIndex())
      return value;
    if (type.isInteger(1))
      value = arith::ExtUIOp::create(b, loc, b.getI64Type(), value);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  }
  /// The values of `exprs`.
  SmallVector<Value> get(ArrayRef<OpFoldResult> exprs) {
    return llvm::map_to_vector(exprs, [&](OpFoldResult e) { return get(e); });
  }

private:
  // Not a DenseMap: its keys INT64_MAX and INT64_MIN are reserved, and
  // shapes may hold those values.
  std::map<int64_t, Value> constants;
};
} // namespace

/// Row-major flat position of `indices` in an index space of `sizes`
/// (topi's RavelIndex).
static OpFoldResult ravelIndex(IndexMath &m, ValueRange indices,
                               ArrayRef<OpFoldResult> sizes) {
  OpFoldResult flat = m.constant(0);
  for (auto [index, size] : llvm::zip(indices, sizes))
    flat = m.add(m.mul(flat, size), index);
  return flat;
}

/// The indices of flat position `flat` in an index space of `sizes`
/// (topi's UnravelIndex; the leading dimension needs no remainder since
/// `flat` is in range).
static SmallVector<Value> unravelIndex(IndexMath &m, OpFoldResult flat,
                                       ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> indices(sizes.size());
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i > 0; --i) {
    indices[i] = m.rem(flat, sizes[i]);
    flat = m.div(flat, sizes[i]);
  }
  if (!sizes.empty())
    indices[0] = flat;
  return m.get(indices);
}

/// `axis` in [0, rank) (the op verifiers have checked it).
static int64_t normalize(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// `indices` with entry `axis` replaced by `value`.
static SmallVector<Value> replaceAt(ValueRange indices, int64_t axis,
                                    Value value) {
  SmallVector<Value> result(indices);
  result[axis] = value;
  return result;
}

//===----------------------------------------------------------------------===//
// reshape, permute_dims, expand_dims, squeeze, broadcast_to
//===----------------------------------------------------------------------===//

static LogicalResult buildReshape(relax::ReshapeOp op, PrimFuncBuilder &kernel,
                                  ValueRange inputs, ValueRange outputs) {
  // topi.reshape: out[i] = in[unravel(ravel(i, out.shape), in.shape)]. A
  // common leading or trailing run of equal sizes (static, or the same
  // symbolic expression) maps index to index in row-major order, which TVM's
  // arith simplifier finds from the loop bounds; here it is done up front,
  // so e.g. batch_flatten keeps its batch index and only the remaining
  // dimensions pay for the div/rem.
  SmallVector<OpFoldResult> inSizes = kernel.getSizes(inputs[0]);
  SmallVector<OpFoldResult> outSizes = kernel.getSizes(outputs[0]);
  SymbolScope scope(op.getContext());
  SymShape inShape = relax::getSymbolicShape(
      cast<RankedTensorType>(op.getData().getType()), scope);
  SymShape outShape = relax::getSymbolicShape(
      cast<RankedTensorType>(op.getResult().getType()), scope);
  auto isSame = [&](size_t i, size_t j) {
    return inShape[i] && inShape[i] == outShape[j];
  };
  size_t inRank = inSizes.size(), outRank = outSizes.size();
  size_t minRank = std::min(inRank, outRank);
  size_t lead = 0, trail = 0;
  while (lead < minRank && isSame(lead, lead))
    ++lead;
  while (lead + trail < minRank &&
         isSame(inRank - 1 - trail, outRank - 1 - trail))
    ++trail;
  ArrayRef<OpFoldResult> inMiddle =
      ArrayRef(inSizes).slice(lead, inRank - lead - trail);
  ArrayRef<OpFoldResult> outMiddle =
      ArrayRef(outSizes).slice(lead, outRank - lead - trail);
  kernel.compute("T_reshape", outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   IndexMath m(b, loc);
                   SmallVector<Value> in(indices.take_front(lead));
                   if (!inMiddle.empty()) {
                     OpFoldResult flat = ravelIndex(
                         m, indices.slice(lead, outMiddle.size()), outMiddle);
                     llvm::append_range(in, unravelIndex(m, flat, inMiddle));
                   }
                   llvm::append_range(in, indices.take_back(trail));
                   return load(b, loc, inputs[0], in);
                 });
  return success();
}

static LogicalResult buildPermuteDims(relax::PermuteDimsOp op,
                                      PrimFuncBuilder &kernel,
                                      ValueRange inputs, ValueRange outputs) {
  int64_t rank = cast<MemRefType>(inputs[0].getType()).getRank();
  SmallVector<int64_t> perm;
  if (DenseI64ArrayAttr axes = op.getAxesAttr())
    for (int64_t axis : axes.asArrayRef())
      perm.push_back(normalize(axis, rank));
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  // topi.transpose: output dimension i is input dimension perm[i].
  kernel.compute("T_transpose", outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   SmallVector<Value> in(rank);
                   for (auto [i, axis] : llvm::enumerate(perm))
                     in[axis] = indices[i];
                   return load(b, loc, inputs[0], in);
                 });
  return success();
}

static LogicalResult buildExpandDims(relax::ExpandDimsOp op,
                                     PrimFuncBuilder &kernel, ValueRange inputs,
                                     ValueRange outputs) {
  int64_t outRank = cast<MemRefType>(outputs[0].getType()).getRank();
  SmallVector<bool> isNew(outRank, false);
  for (int64_t axis : op.getAxis())
    isNew[normalize(axis, outRank)] = true;
  kernel.compute("T_expand_dims", outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   SmallVector<Value> in;
                   for (auto [i, index] : llvm::enumerate(indices))
                     if (!isNew[i])
                       in.push_back(index);
                   return load(b, loc, inputs[0], in);
                 });
  return success();
}

static LogicalResult buildSqueeze(relax::SqueezeOp op, PrimFuncBuilder &kernel,
                                  ValueRange inputs, ValueRange outputs) {
  auto inType = cast<MemRefType>(inputs[0].getType());
  int64_t rank = inType.getRank();
  SmallVector<bool> removed(rank, false);
  if (DenseI64ArrayAttr axes = op.getAxisAttr()) {
    for (int64_t axis : axes.asArrayRef())
      removed[normalize(axis, rank)] = true;
  } else {
    for (int64_t i = 0; i < rank; ++i)
      removed[i] = inType.getDimSize(i) == 1;
  }
  kernel.compute("T_squeeze", outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   IndexMath m(b, loc);
                   SmallVector<Value> in;
                   auto next = indices.begin();
                   for (int64_t i = 0; i < rank; ++i)
                     in.push_back(removed[i] ? m.get(m.constant(0)) : *next++);
                   return load(b, loc, inputs[0], in);
                 });
  return success();
}

static LogicalResult buildBroadcastTo(relax::BroadcastToOp,
                                      PrimFuncBuilder &kernel,
                                      ValueRange inputs, ValueRange outputs) {
  Value input = inputs[0];
  auto inType = cast<MemRefType>(input.getType());
  auto outType = cast<MemRefType>(outputs[0].getType());
  int64_t offset = outType.getRank() - inType.getRank();
  SmallVector<OpFoldResult> inSizes = kernel.getSizes(input);
  // A dynamic input dimension may be 1 at run time (broadcast) or the
  // output's size: decided per element, as numpy does.
  kernel.compute("T_broadcast_to", outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   IndexMath m(b, loc);
                   SmallVector<Value> in;
                   for (int64_t j = 0, e = inType.getRank(); j < e; ++j) {
                     Value index = indices[offset + j];
                     int64_t inSize = inType.getDimSize(j);
                     if (inSize == 1) {
                       index = m.get(m.constant(0));
                     } else if (ShapedType::isDynamic(inSize) &&
                                outType.getDimSize(offset + j) != 1) {
                       Value isOne = m.eq(inSizes[j], m.constant(1));
                       index = m.select(isOne, m.constant(0), index);
                     }
                     in.push_back(index);
                   }
                   return load(b, loc, input, in);
                 });
  return success();
}

//===----------------------------------------------------------------------===//
// split, strided_slice, concat
//===----------------------------------------------------------------------===//

static LogicalResult buildSplit(relax::SplitOp op, PrimFuncBuilder &kernel,
                                ValueRange inputs, ValueRange outputs) {
  Value input = inputs[0];
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  int64_t axis = normalize(op.getAxis(), rank);
  IndexMath top(kernel.getBuilder(), kernel.getLoc());
  // The start of each part along `axis` (topi.split / split_sections).
  SmallVector<OpFoldResult> begins;
  StringRef name;
  if (auto sections = dyn_cast<IntegerAttr>(op.getIndicesOrSections())) {
    name = "T_split_sections";
    OpFoldResult part =
        top.div(kernel.getSizes(input)[axis], top.constant(sections.getInt()));
    for (int64_t i = 0, e = outputs.size(); i < e; ++i)
      begins.push_back(top.mul(part, top.constant(i)));
  } else {
    name = "T_split";
    begins.push_back(top.constant(0));
    for (int64_t index :
         cast<DenseI64ArrayAttr>(op.getIndicesOrSections()).asArrayRef())
      begins.push_back(top.constant(index));
  }
  if (begins.size() != outputs.size())
    return op.emitOpError("has ")
           << outputs.size() << " results but its indices_or_sections make "
           << begins.size() << " parts";
  // One stage per part, named as te.create_prim_func names a repeated
  // stage: T_split, T_split_1, ...
  for (auto [i, out] : llvm::enumerate(outputs)) {
    std::string blockName = name.str();
    if (i > 0)
      blockName += "_" + std::to_string(i);
    OpFoldResult begin = begins[i];
    kernel.compute(
        blockName, out, [&](OpBuilder &b, Location loc, ValueRange indices) {
          IndexMath m(b, loc);
          Value index = m.get(m.add(indices[axis], begin));
          return load(b, loc, input, replaceAt(indices, axis, index));
        });
  }
  return success();
}

/// topi's CanonicalizeIndex: negative indices count from the end of
/// `extent`, then the index is clamped into [0, extent] (stride > 0) or
/// [-1, extent - 1] (stride < 0).
static OpFoldResult canonicalizeIndex(IndexMath &m, int64_t index,
                                      OpFoldResult extent, int64_t stride) {
  OpFoldResult lo = m.constant(stride < 0 ? -1 : 0);
  OpFoldResult hi = stride < 0 ? m.sub(extent, m.constant(1)) : extent;
  OpFoldResult value =
      index < 0 ? m.add(extent, m.constant(index)) : m.constant(index);
  return m.min(m.max(value, lo), hi);
}

static LogicalResult buildStridedSlice(relax::StridedSliceOp op,
                                       PrimFuncBuilder &kernel,
                                       ValueRange inputs, ValueRange outputs) {
  constexpr int64_t maxRange = std::numeric_limits<int64_t>::max();
  Value input = inputs[0];
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  // The begin and stride of each sliced dimension, completed as the shared
  // shape function does (Relay's conventions without axes).
  SmallVector<int64_t> begin(op.getBegin());
  SmallVector<int64_t> strides = op.getStridesAttr()
                                     ? SmallVector<int64_t>(*op.getStrides())
                                     : SmallVector<int64_t>{1};
  SmallVector<int64_t> axes;
  if (DenseI64ArrayAttr axesAttr = op.getAxesAttr()) {
    for (int64_t axis : axesAttr.asArrayRef())
      axes.push_back(normalize(axis, rank));
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
    while (static_cast<int64_t>(strides.size()) < rank)
      strides.push_back(1);
    for (int64_t i = begin.size(); i < rank; ++i)
      begin.push_back(strides[i] > 0 ? 0 : maxRange);
  }
  if (begin.size() < axes.size() || strides.size() < axes.size())
    return op.emitOpError("begin and strides must cover the ")
           << axes.size() << " sliced axes";

  IndexMath top(kernel.getBuilder(), kernel.getLoc());
  SmallVector<OpFoldResult> sizes = kernel.getSizes(input);
  // Input index in dimension d: begins[d] + i * steps[d].
  SmallVector<OpFoldResult> begins(rank, top.constant(0));
  SmallVector<int64_t> steps(rank, 1);
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (strides[i] == 0)
      return op.emitOpError("stride of axis ") << axis << " is 0";
    steps[axis] = strides[i];
    begins[axis] = canonicalizeIndex(top, begin[i], sizes[axis], strides[i]);
  }
  // topi.strided_slice / strided_slice_with_axes.
  StringRef blockName =
      op.getAxesAttr() ? "T_strided_slice_with_axes" : "T_strided_slice";
  kernel.compute(blockName, outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   IndexMath m(b, loc);
                   SmallVector<Value> in;
                   for (int64_t d = 0; d < rank; ++d)
                     in.push_back(m.get(m.add(
                         m.mul(indices[d], m.constant(steps[d])), begins[d])));
                   return load(b, loc, input, in);
                 });
  return success();
}

static LogicalResult buildConcat(relax::ConcatOp op, PrimFuncBuilder &kernel,
                                 ValueRange inputs, ValueRange outputs) {
  int64_t rank = cast<MemRefType>(outputs[0].getType()).getRank();
  if (rank == 0)
    return op.emitOpError("cannot concatenate 0-d tensors");
  int64_t axis = normalize(op.getAxis(), rank);
  // The inputs that contribute (statically empty ones do not).
  SmallVector<std::pair<Value, OpFoldResult>> contributing;
  for (Value input : inputs) {
    OpFoldResult size = kernel.getSizes(input)[axis];
    if (getConstantIntValue(size) != 0)
      contributing.push_back({input, size});
  }
  if (contributing.empty())
    return success(); // The output is empty.
  // Where each starts along `axis`, and its last index there (only needed
  // to clamp the loads of all but the last input).
  IndexMath top(kernel.getBuilder(), kernel.getLoc());
  SmallVector<OpFoldResult> begins, lasts;
  OpFoldResult offset = top.constant(0);
  for (auto [i, part] : llvm::enumerate(contributing)) {
    begins.push_back(offset);
    if (i + 1 == contributing.size())
      break;
    lasts.push_back(top.sub(part.second, top.constant(1)));
    offset = top.add(offset, part.second);
  }
  // topi.concatenate: one block selecting the input that covers the output
  // index along `axis`, last to first. Every input is loaded (arith.select
  // is not lazy), so the indices are clamped into each input.
  kernel.compute(
      "T_concat", outputs[0],
      [&](OpBuilder &b, Location loc, ValueRange indices) {
        IndexMath m(b, loc);
        Value index = indices[axis];
        Value result;
        for (int64_t i = static_cast<int64_t>(contributing.size()) - 1; i >= 0;
             --i) {
          OpFoldResult local = m.sub(index, begins[i]);
          if (i > 0)
            local = m.max(local, m.constant(0));
          if (result)
            local = m.min(local, lasts[i]);
          Value value = load(b, loc, contributing[i].first,
                             replaceAt(indices, axis, m.get(local)));
          result = result ? m.select(m.lt(index, begins[i + 1]), value, result)
                          : value;
        }
        return result;
      });
  return success();
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

/// The position `index` takes in a dimension of size `size` according to
/// take's `mode` (topi.take): clip clamps into [0, size), wrap takes it
/// modulo size (negative indices count from the end), fast uses it as is.
static Value applyTakeMode(IndexMath &m, StringRef mode, Value index,
                           OpFoldResult size) {
  if (mode == "clip")
    return m.get(
        m.min(m.max(index, m.constant(0)), m.sub(size, m.constant(1))));
  if (mode == "wrap") {
    // truncmod(truncmod(i, n) + n, n).
    Value n = m.get(size);
    Value r = arith::RemSIOp::create(m.b, m.loc, index, n);
    Value shifted = arith::AddIOp::create(m.b, m.loc, r, n);
    return arith::RemSIOp::create(m.b, m.loc, shifted, n);
  }
  return index;
}

static LogicalResult buildTake(relax::TakeOp op, PrimFuncBuilder &kernel,
                               ValueRange inputs, ValueRange outputs) {
  Value data = inputs[0], indicesBuffer = inputs[1];
  auto dataType = cast<MemRefType>(data.getType());
  int64_t dataRank = dataType.getRank();
  int64_t indicesRank = cast<MemRefType>(indicesBuffer.getType()).getRank();
  std::string mode = op.getMode().str();
  std::optional<int64_t> axis;
  if (IntegerAttr axisAttr = op.getAxisAttr())
    axis = normalize(axisAttr.getInt(), dataRank);
  // clip and wrap read some element whatever the index: there must be one.
  bool empty = axis ? dataType.getDimSize(*axis) == 0
                    : llvm::is_contained(dataType.getShape(), 0);
  if (empty && mode != "fast")
    return op.emitOpError("cannot take from data of shape [")
           << dataType.getShape() << "] with no elements along the axis";

  SmallVector<OpFoldResult> sizes = kernel.getSizes(data);
  IndexMath top(kernel.getBuilder(), kernel.getLoc());
  if (!axis) {
    // Flattened data: out[i] = data[unravel(mode(indices[i]), data.shape)].
    OpFoldResult count = top.constant(1);
    for (OpFoldResult size : sizes)
      count = top.mul(count, size);
    kernel.compute("T_take", outputs[0],
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     IndexMath m(b, loc);
                     Value index =
                         m.toIndex(load(b, loc, indicesBuffer, indices));
                     index = applyTakeMode(m, mode, index, count);
                     return load(b, loc, data, unravelIndex(m, index, sizes));
                   });
    return success();
  }

  // out[data dims before axis, indices dims, data dims after axis].
  OpFoldResult axisSize = sizes[*axis];
  kernel.compute(
      "T_take", outputs[0],
      [&](OpBuilder &b, Location loc, ValueRange indices) {
        IndexMath m(b, loc);
        Value index = m.toIndex(
            load(b, loc, indicesBuffer, indices.slice(*axis, indicesRank)));
        SmallVector<Value> in(indices.take_front(*axis));
        in.push_back(applyTakeMode(m, mode, index, axisSize));
        llvm::append_range(in, indices.drop_front(*axis + indicesRank));
        return load(b, loc, data, in);
      });
  return success();
}

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

/// `index` counted from the end of an axis of `size` when negative.
static Value wrapNegative(IndexMath &m, Value index, OpFoldResult size) {
  return m.select(m.lt(index, m.constant(0)), m.get(m.add(index, size)), index);
}

/// topi.gather: out[i] = data[i with i[axis] = indices[i]], a negative index
/// counting from the end of the axis.
static LogicalResult buildGatherElements(relax::GatherElementsOp op,
                                         PrimFuncBuilder &kernel,
                                         ValueRange inputs,
                                         ValueRange outputs) {
  Value data = inputs[0], indicesBuffer = inputs[1];
  int64_t rank = cast<MemRefType>(data.getType()).getRank();
  int64_t axis = normalize(op.getAxis(), rank);
  OpFoldResult axisSize = kernel.getSizes(data)[axis];
  kernel.compute("T_gather_elements", outputs[0],
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   IndexMath m(b, loc);
                   SmallVector<Value> in(indices);
                   in[axis] = wrapNegative(
                       m, m.toIndex(load(b, loc, indicesBuffer, indices)),
                       axisSize);
                   return load(b, loc, data, in);
                 });
  return success();
}

//===----------------------------------------------------------------------===//
// scatter_elements, scatter_nd
//===----------------------------------------------------------------------===//

/// The scatter ops' `reduction` of the element in place and the update.
static Value combineScatter(OpBuilder &b, Location loc, StringRef reduction,
                            Value old, Value update) {
  if (reduction == "add")
    return createAdd(b, loc, old, update);
  if (reduction == "mul")
    return createMul(b, loc, old, update);
  if (reduction == "min")
    return createMin(b, loc, old, update);
  if (reduction == "max")
    return createMax(b, loc, old, update);
  return update;
}

/// topi.scatter_elements: a copy of the data, then the updates in order.
static LogicalResult buildScatterElements(relax::ScatterElementsOp op,
                                          PrimFuncBuilder &kernel,
                                          ValueRange inputs,
                                          ValueRange outputs) {
  Value data = inputs[0], indicesBuffer = inputs[1], updates = inputs[2];
  Value out = outputs[0];
  int64_t rank = cast<MemRefType>(data.getType()).getRank();
  int64_t axis = normalize(op.getAxis(), rank);
  OpFoldResult axisSize = kernel.getSizes(data)[axis];
  std::string reduction = op.getReduction().str();
  kernel.compute("T_scatter_elements_copy", out,
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   return load(b, loc, data, indices);
                 });
  kernel.update("T_scatter_elements", kernel.getSizes(indicesBuffer),
                [&](OpBuilder &b, Location loc, ValueRange iv) {
                  IndexMath m(b, loc);
                  SmallVector<Value> position(iv);
                  position[axis] = wrapNegative(
                      m, m.toIndex(load(b, loc, indicesBuffer, iv)), axisSize);
                  Value value = combineScatter(b, loc, reduction,
                                               load(b, loc, out, position),
                                               load(b, loc, updates, iv));
                  memref::StoreOp::create(b, loc, value, out, position);
                });
  return success();
}

/// topi.scatter_nd: a copy of the data, then the update slices in order.
static LogicalResult buildScatterND(relax::ScatterNDOp op,
                                    PrimFuncBuilder &kernel, ValueRange inputs,
                                    ValueRange outputs) {
  Value data = inputs[0], indicesBuffer = inputs[1], updates = inputs[2];
  Value out = outputs[0];
  auto indicesType = cast<MemRefType>(indicesBuffer.getType());
  int64_t k = indicesType.getShape().back();
  int64_t q = indicesType.getRank() - 1;
  SmallVector<OpFoldResult> sizes = kernel.getSizes(data);
  std::string reduction = op.getReduction().str();
  kernel.compute("T_scatter_nd_copy", out,
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   return load(b, loc, data, indices);
                 });
  kernel.update(
      "T_scatter_nd", kernel.getSizes(updates),
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        IndexMath m(b, loc);
        SmallVector<Value> position;
        SmallVector<Value> at(iv.take_front(q));
        at.push_back(Value());
        for (int64_t j = 0; j < k; ++j) {
          at.back() = m.get(m.constant(j));
          position.push_back(wrapNegative(
              m, m.toIndex(load(b, loc, indicesBuffer, at)), sizes[j]));
        }
        llvm::append_range(position, iv.drop_front(q));
        Value value =
            combineScatter(b, loc, reduction, load(b, loc, out, position),
                           load(b, loc, updates, iv));
        memref::StoreOp::create(b, loc, value, out, position);
      });
  return success();
}

//===----------------------------------------------------------------------===//
// nn.pad
//===----------------------------------------------------------------------===//

static LogicalResult buildPad(relax::PadOp op, PrimFuncBuilder &kernel,
                              ValueRange inputs, ValueRange outputs) {
  Value data = inputs[0], padValue = inputs[1];
  auto dataType = cast<MemRefType>(data.getType());
  int64_t rank = dataType.getRank();
  ArrayRef<int64_t> width = op.getPadWidth();
  StringRef mode = op.getPadMode();
  bool isConstant = mode == "constant";
  bool isReflect = mode == "reflect";
  // The pad value is cast to the data's element type (TVM's tvm::cast).
  Type fromType = getElementType(padValue);
  Type toType = dataType.getElementType();
  auto isScalar = [](Type type) { return type.isIntOrFloat(); };
  if (isConstant && fromType != toType &&
      (!isScalar(fromType) || !isScalar(toType)))
    return op.emitOpError("cannot cast the pad value of type ")
           << fromType << " to the data's element type " << toType;

  // Edge and reflect read data at the border, so it must be there.
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = dataType.getDimSize(d);
    int64_t before = width[2 * d], after = width[2 * d + 1];
    if (isConstant || ShapedType::isDynamic(size) ||
        (before <= 0 && after <= 0))
      continue;
    if (size == 0)
      return op.emitOpError("cannot pad dimension ")
             << d << " of size 0 in '" << mode << "' mode";
    // topi mirrors once: wider padding would read outside the data.
    if (isReflect && (before >= size || after >= size))
      return op.emitOpError("reflect padding of dimension ")
             << d << " by [" << before << ", " << after
             << "] needs widths smaller than its size " << size;
  }

  SmallVector<OpFoldResult> sizes = kernel.getSizes(data);
  bool empty = llvm::is_contained(dataType.getShape(), 0);
  // topi.nn.pad: data[i - before] inside the data, else the pad value
  // (constant, cast to the data's type), the nearest element (edge) or the
  // element mirrored at the border, the border itself excluded (reflect).
  kernel.compute(
      "T_pad", outputs[0], [&](OpBuilder &b, Location loc, ValueRange indices) {
        IndexMath m(b, loc);
        Value fill;
        if (isConstant) {
          fill = createCast(b, loc, load(b, loc, padValue, {}), toType);
          if (empty)
            return fill;
        }
        Value inside;
        SmallVector<Value> in;
        for (int64_t d = 0; d < rank; ++d) {
          int64_t before = width[2 * d], after = width[2 * d + 1];
          OpFoldResult size = sizes[d];
          OpFoldResult last = m.sub(size, m.constant(1));
          OpFoldResult index = before >= 0
                                   ? m.sub(indices[d], m.constant(before))
                                   : m.add(indices[d], m.constant(-before));
          if (isReflect) {
            if (before > 0)
              index = m.select(m.lt(index, m.constant(0)),
                               m.sub(m.constant(0), index), index);
            if (after > 0)
              index = m.select(m.ge(index, size),
                               m.sub(m.add(last, last), index), index);
          }
          if (isConstant) {
            auto both = [&](Value ok) {
              inside = inside ? m.andI(inside, ok) : ok;
            };
            if (before > 0)
              both(m.ge(index, m.constant(0)));
            if (after > 0)
              both(m.lt(index, size));
          }
          // Clamping is edge mode's index and keeps constant mode's load in
          // bounds; reflect stays inside static sizes (checked above) but
          // may mirror past either end of a dynamic one.
          bool clampLow = before > 0, clampHigh = after > 0;
          if (isReflect)
            clampLow = clampHigh =
                (before > 0 || after > 0) &&
                ShapedType::isDynamic(dataType.getDimSize(d));
          if (clampLow)
            index = m.max(index, m.constant(0));
          if (clampHigh)
            index = m.min(index, last);
          in.push_back(m.get(index));
        }
        Value value = load(b, loc, data, in);
        return inside ? m.select(inside, value, fill) : value;
      });
  return success();
}

void mlc::legalize::populateManipulationLegalizations(
    LegalizationTable &table) {
  table.add<relax::ReshapeOp>(buildReshape);
  table.add<relax::PermuteDimsOp>(buildPermuteDims);
  table.add<relax::ExpandDimsOp>(buildExpandDims);
  table.add<relax::SqueezeOp>(buildSqueeze);
  table.add<relax::BroadcastToOp>(buildBroadcastTo);
  table.add<relax::SplitOp>(buildSplit);
  table.add<relax::StridedSliceOp>(buildStridedSlice);
  table.add<relax::ConcatOp>(buildConcat);
  table.add<relax::TakeOp>(buildTake);
  table.add<relax::GatherElementsOp>(buildGatherElements);
  table.add<relax::ScatterElementsOp>(buildScatterElements);
  table.add<relax::ScatterNDOp>(buildScatterND);
  table.add<relax::PadOp>(buildPad);
}
