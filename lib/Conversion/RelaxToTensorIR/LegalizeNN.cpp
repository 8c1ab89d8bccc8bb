//===- LegalizeNN.cpp - nn relax op kernels -------------------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Kernels of the neural-network compute ops, following TVM's TOPI:
// matmul (te_matmul / topi.nn.matmul), conv2d (topi.nn.conv2d_nchw and its
// layout / group variants), conv2d_transpose (topi.nn.conv2d_transpose_nchw:
// dilate and pad the input, flip the kernel, convolve), max/avg pooling
// (topi.nn.pool2d) and adaptive average pooling (topi.nn.adaptive_pool).
//
// Layouts are handled generically: an op's layout strings give, for each
// letter of the primal layout (NCHW, OIHW, IOHW), the buffer dimension
// holding it, and every kernel indexes buffers through that permutation.
// Intermediate buffers (pad_temp, ...) keep the data's layout. Sizes may be
// dynamic where the formulas allow it (e.g. the batch); they are then read
// with memref.dim at the function start.
//
//===----------------------------------------------------------------------===//

#include "Legalizations.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Utils/NNShapeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <map>

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;
using namespace mlc::tensorir;

namespace {

/// Index arithmetic (on `index` values) at the builder's insertion point.
/// Constant operands are folded and constants are made once, so kernels
/// stay readable.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  // Not a DenseMap: its keys INT64_MAX and INT64_MIN are reserved, and
  // shapes may hold those values.
  std::map<int64_t, Value> constants = {};

  Value c(int64_t v) {
    Value &constant = constants[v];
    if (!constant)
      constant = arith::ConstantIndexOp::create(b, loc, v);
    return constant;
  }
  Value get(OpFoldResult size) {
    if (auto attr = dyn_cast<Attribute>(size))
      return c(cast<IntegerAttr>(attr).getInt());
    return cast<Value>(size);
  }
  /// `OpTy(x, y)`, or the constant `fn(x, y)` when both are constants and
  /// `fn` folds them.
  template <typename OpTy>
  Value
  binary(Value x, Value y,
         llvm::function_ref<std::optional<int64_t>(int64_t, int64_t)> fn) {
    std::optional<int64_t> cx = getConstantIntValue(x);
    std::optional<int64_t> cy = getConstantIntValue(y);
    if (cx && cy)
      if (std::optional<int64_t> folded = fn(*cx, *cy))
        return c(*folded);
    return OpTy::create(b, loc, x, y);
  }
  Value add(Value x, Value y) {
    if (getConstantIntValue(y) == 0)
      return x;
    if (getConstantIntValue(x) == 0)
      return y;
    return binary<arith::AddIOp>(
        x, y,
        [](int64_t p, int64_t q) -> std::optional<int64_t> { return p + q; });
  }
  Value sub(Value x, Value y) {
    if (getConstantIntValue(y) == 0)
      return x;
    return binary<arith::SubIOp>(
        x, y,
        [](int64_t p, int64_t q) -> std::optional<int64_t> { return p - q; });
  }
  Value mul(Value x, Value y) {
    if (getConstantIntValue(y) == 1)
      return x;
    if (getConstantIntValue(x) == 1)
      return y;
    return binary<arith::MulIOp>(
        x, y,
        [](int64_t p, int64_t q) -> std::optional<int64_t> { return p * q; });
  }
  /// Division and remainder of non-negative values.
  Value div(Value x, Value y) {
    if (getConstantIntValue(y) == 1)
      return x;
    return binary<arith::DivSIOp>(
        x, y, [](int64_t p, int64_t q) -> std::optional<int64_t> {
          if (q == 0)
            return std::nullopt;
          return p / q;
        });
  }
  Value rem(Value x, Value y) {
    return binary<arith::RemSIOp>(
        x, y, [](int64_t p, int64_t q) -> std::optional<int64_t> {
          if (q == 0)
            return std::nullopt;
          return p % q;
        });
  }
  Value min(Value x, Value y) {
    return binary<arith::MinSIOp>(
        x, y, [](int64_t p, int64_t q) -> std::optional<int64_t> {
          return std::min(p, q);
        });
  }
  Value max(Value x, Value y) {
    return binary<arith::MaxSIOp>(
        x, y, [](int64_t p, int64_t q) -> std::optional<int64_t> {
          return std::max(p, q);
        });
  }
  Value addc(Value x, int64_t v) { return v == 0 ? x : add(x, c(v)); }
  Value mulc(Value x, int64_t v) { return v == 1 ? x : mul(x, c(v)); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value ge(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value andi(Value x, Value y) {
    if (!x)
      return y;
    return arith::AndIOp::create(b, loc, x, y);
  }
  /// An index count as a scalar of `type` (for averages).
  Value toScalar(Value index, Type type) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return createCast(b, loc, i64, type);
  }
};

/// Sizes of function-level buffers, combined at function level (for the
/// shapes of intermediate buffers): constants stay attributes.
struct SizeMath {
  PrimFuncBuilder &kernel;

  OpFoldResult add(OpFoldResult size, int64_t v) {
    if (auto attr = dyn_cast<Attribute>(size))
      return index(cast<IntegerAttr>(attr).getInt() + v);
    if (v == 0)
      return size;
    IndexMath ix{kernel.getBuilder(), kernel.getLoc()};
    return ix.addc(cast<Value>(size), v);
  }
  /// (size - 1) * stride + 1 (a dilated extent).
  OpFoldResult dilate(OpFoldResult size, int64_t stride) {
    if (auto attr = dyn_cast<Attribute>(size))
      return index((cast<IntegerAttr>(attr).getInt() - 1) * stride + 1);
    if (stride == 1)
      return size;
    IndexMath ix{kernel.getBuilder(), kernel.getLoc()};
    return ix.addc(ix.mulc(ix.addc(cast<Value>(size), -1), stride), 1);
  }
  OpFoldResult div(OpFoldResult size, int64_t v) {
    if (auto attr = dyn_cast<Attribute>(size))
      return index(cast<IntegerAttr>(attr).getInt() / v);
    if (v == 1)
      return size;
    IndexMath ix{kernel.getBuilder(), kernel.getLoc()};
    return ix.div(cast<Value>(size), ix.c(v));
  }
  OpFoldResult index(int64_t v) { return kernel.getBuilder().getIndexAttr(v); }
  /// A value usable inside blocks (constants are made by the caller).
  Value get(OpBuilder &b, Location loc, OpFoldResult size) {
    return IndexMath{b, loc}.get(size);
  }
};

/// The static value of a size, if it has one.
std::optional<int64_t> getStatic(OpFoldResult size) {
  if (auto attr = dyn_cast<Attribute>(size))
    return cast<IntegerAttr>(attr).getInt();
  return std::nullopt;
}

/// A memref type of `sizes` (dynamic where not constant) and the dynamic
/// ones as values, for allocBuffer.
std::pair<MemRefType, SmallVector<Value>>
getBufferTypeAndSizes(ArrayRef<OpFoldResult> sizes, Type elementType) {
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamic;
  for (OpFoldResult size : sizes) {
    if (std::optional<int64_t> v = getStatic(size)) {
      shape.push_back(*v);
    } else {
      shape.push_back(ShapedType::kDynamic);
      dynamic.push_back(cast<Value>(size));
    }
  }
  return {MemRefType::get(shape, elementType), dynamic};
}

/// Positions of the letters of `primal` in `layout`, reporting at `op`.
FailureOr<SmallVector<int64_t, 4>> getPermutation(Operation *op,
                                                  StringRef layout,
                                                  StringRef primal,
                                                  StringRef what) {
  return nn::getLayoutPermutation(
      layout, primal, what, [&](const Twine &msg) { op->emitOpError(msg); });
}

/// Puts `logical` (indices in the primal layout's order) into buffer order.
SmallVector<Value> permute(ArrayRef<int64_t> perm, ArrayRef<Value> logical) {
  SmallVector<Value> result(perm.size());
  for (auto [letter, position] : llvm::enumerate(perm))
    result[position] = logical[letter];
  return result;
}

/// The lower-case layout for block names ("conv2d_nhwc").
std::string lower(StringRef s) { return s.lower(); }

/// A `padBefore`/`padAfter` (per buffer dimension, negative crops) copy of
/// `input` filled with `padValue` outside of it (topi.nn.pad), as the
/// intermediate buffer `name`. Returns `input` itself when nothing is
/// padded.
Value buildPad(PrimFuncBuilder &kernel, StringRef name, Value input,
               ArrayRef<int64_t> padBefore, ArrayRef<int64_t> padAfter,
               PrimFuncBuilder::ScalarFn padValue) {
  if (llvm::all_of(padBefore, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(padAfter, [](int64_t p) { return p == 0; }))
    return input;
  SizeMath sm{kernel};
  SmallVector<OpFoldResult> inSizes = kernel.getSizes(input);
  SmallVector<OpFoldResult> sizes;
  for (auto [size, before, after] : llvm::zip(inSizes, padBefore, padAfter))
    sizes.push_back(sm.add(size, before + after));
  auto [type, dynamic] = getBufferTypeAndSizes(sizes, getElementType(input));
  Value padded = kernel.allocBuffer(type, name, dynamic);
  kernel.compute(
      name, padded, [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        IndexMath ix{b, loc};
        SmallVector<Value> indices;
        Value inBounds;
        for (auto [i, size] : llvm::enumerate(inSizes)) {
          if (padBefore[i] == 0 && padAfter[i] == 0) {
            indices.push_back(iv[i]);
            continue;
          }
          // Clamped so the load stays in bounds; the select
          // picks the pad value outside.
          Value src = ix.addc(iv[i], -padBefore[i]);
          Value extent = ix.get(size);
          inBounds = ix.andi(inBounds, ix.ge(src, ix.c(0)));
          inBounds = ix.andi(inBounds, ix.lt(src, extent));
          indices.push_back(ix.max(ix.min(src, ix.addc(extent, -1)), ix.c(0)));
        }
        Value value = load(b, loc, input, indices);
        return arith::SelectOp::create(b, loc, inBounds, value,
                                       padValue(b, loc));
      });
  return padded;
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return createScalarConstant(b, loc, type, 0);
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// numpy.matmul (TVM's te_matmul): 1-D operands get a unit dimension that
/// the result drops, batch dimensions broadcast, out_dtype casts the
/// operands before multiplying.
LogicalResult buildMatmul(relax::MatmulOp op, PrimFuncBuilder &kernel,
                          ValueRange inputs, ValueRange outputs) {
  Value a = inputs[0], bBuf = inputs[1], out = outputs[0];
  auto aType = cast<MemRefType>(a.getType());
  auto bType = cast<MemRefType>(bBuf.getType());
  int64_t aRank = aType.getRank(), bRank = bType.getRank();
  int64_t outRank = cast<MemRefType>(out.getType()).getRank();
  if (aRank == 0 || bRank == 0)
    return op.emitOpError("needs operands of rank >= 1");
  int64_t aBatch = std::max<int64_t>(aRank - 2, 0);
  int64_t bBatch = std::max<int64_t>(bRank - 2, 0);
  int64_t outBatch = outRank - (aRank > 1) - (bRank > 1);
  if (outBatch < std::max(aBatch, bBatch))
    return op.emitOpError("result rank ")
           << outRank << " does not fit operand ranks " << aRank << " and "
           << bRank;
  Type outType = getElementType(out);
  OpFoldResult k = kernel.getSizes(a)[aRank - 1];

  // The batch indices of an operand: right-aligned against the result's,
  // 0 where the operand's dimension is a static 1 that broadcasts. Where the
  // result's dimension is 1 too, the loop index keeps the access a
  // projected permutation, so that the kernel stays a linalg contraction
  // for the schedule ((1, m, k) x (k, n) is the usual transformer dense).
  auto outBufferType = cast<MemRefType>(out.getType());
  auto batchIndices = [&](OpBuilder &b, Location loc, MemRefType type,
                          int64_t batch, ValueRange iv,
                          SmallVectorImpl<Value> &indices) {
    for (int64_t j = 0; j < batch; ++j) {
      int64_t outDim = outBatch - batch + j;
      if (type.getDimSize(j) == 1 && outBufferType.getDimSize(outDim) != 1)
        indices.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      else
        indices.push_back(iv[outDim]);
    }
  };
  kernel.reduce(
      "T_matmul_NN", out, {k},
      [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, outType); },
      [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        Value kk = iv[outRank];
        SmallVector<Value> aIdx, bIdx;
        batchIndices(b, loc, aType, aBatch, iv, aIdx);
        if (aRank > 1)
          aIdx.push_back(iv[outBatch]);
        aIdx.push_back(kk);
        batchIndices(b, loc, bType, bBatch, iv, bIdx);
        bIdx.push_back(kk);
        if (bRank > 1)
          bIdx.push_back(iv[outRank - 1]);
        Value x = createCast(b, loc, load(b, loc, a, aIdx), outType);
        Value y = createCast(b, loc, load(b, loc, bBuf, bIdx), outType);
        return createMul(b, loc, x, y);
      },
      createAdd);
  return success();
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// topi.nn.conv2d for any layouts and groups: an optional `pad_temp`
/// stage, then out[n, f, y, x] = sum over (rc, ry, rx) of
/// pad_temp[n, g * Cg + rc, y * sh + ry * dh, x * sw + rx * dw] *
/// weight[f, rc, ry, rx] with g = f / (O / groups) and Cg the weight's
/// input channels (per group).
LogicalResult buildConv2D(relax::Conv2DOp op, PrimFuncBuilder &kernel,
                          ValueRange inputs, ValueRange outputs) {
  Value data = inputs[0], weight = inputs[1], out = outputs[0];
  StringRef outLayout =
      op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
  auto dataPerm = getPermutation(op, op.getDataLayout(), "NCHW", "data_layout");
  auto kernelPerm =
      getPermutation(op, op.getKernelLayout(), "OIHW", "kernel_layout");
  auto outPerm = getPermutation(op, outLayout, "NCHW", "out_layout");
  if (failed(dataPerm) || failed(kernelPerm) || failed(outPerm))
    return failure();
  auto pads = nn::getPadTuple2D(op.getPadding(),
                                [&](const Twine &msg) { op.emitOpError(msg); });
  if (failed(pads))
    return failure();
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  if (strides.size() != 2 || dilation.size() != 2)
    return op.emitOpError("strides and dilation must have 2 values");
  int64_t groups = op.getGroups();
  if (groups < 1)
    return op.emitOpError("groups must be >= 1 but is ") << groups;

  SmallVector<OpFoldResult> wSizes = kernel.getSizes(weight);
  OpFoldResult outChannels = wSizes[(*kernelPerm)[0]];
  OpFoldResult inPerGroup = wSizes[(*kernelPerm)[1]];
  OpFoldResult kh = wSizes[(*kernelPerm)[2]], kw = wSizes[(*kernelPerm)[3]];
  SizeMath sm{kernel};
  OpFoldResult outPerGroup = sm.div(outChannels, groups);

  // pad_temp in the data's layout: (top, left) before, (bottom, right)
  // after, zeros outside.
  auto [top, left, bottom, right] = *pads;
  SmallVector<int64_t> before(4, 0), after(4, 0);
  before[(*dataPerm)[2]] = top;
  before[(*dataPerm)[3]] = left;
  after[(*dataPerm)[2]] = bottom;
  after[(*dataPerm)[3]] = right;
  Type dataType = getElementType(data);
  Value padded = buildPad(
      kernel, "pad_temp", data, before, after,
      [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, dataType); });

  int64_t channels =
      cast<MemRefType>(data.getType()).getDimSize((*dataPerm)[1]);
  std::string name;
  if (groups == 1)
    name = "conv2d_";
  else if (channels == groups && getStatic(inPerGroup) == 1)
    name = "depthwise_conv2d_";
  else
    name = "group_conv2d_";
  name += lower(op.getDataLayout());

  Type outType = getElementType(out);
  kernel.reduce(
      name, out, {inPerGroup, kh, kw},
      [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, outType); },
      [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        IndexMath ix{b, loc};
        Value n = iv[(*outPerm)[0]], f = iv[(*outPerm)[1]];
        Value y = iv[(*outPerm)[2]], x = iv[(*outPerm)[3]];
        Value rc = iv[4], ry = iv[5], rx = iv[6];
        Value ic = rc;
        if (groups != 1) {
          Value g = ix.div(f, ix.get(outPerGroup));
          ic = ix.add(ix.mul(g, ix.get(inPerGroup)), rc);
        }
        Value iy = ix.add(ix.mulc(y, strides[0]), ix.mulc(ry, dilation[0]));
        Value ixx = ix.add(ix.mulc(x, strides[1]), ix.mulc(rx, dilation[1]));
        Value d = load(b, loc, padded, permute(*dataPerm, {n, ic, iy, ixx}));
        Value w = load(b, loc, weight, permute(*kernelPerm, {f, rc, ry, rx}));
        return createMul(b, loc, createCast(b, loc, d, outType),
                         createCast(b, loc, w, outType));
      },
      createAdd);
  return success();
}

//===----------------------------------------------------------------------===//
// conv2d_transpose
//===----------------------------------------------------------------------===//

/// topi.nn.group_conv2d_transpose_nchw for any layouts, plus dilation:
/// `data_dilate` inserts stride - 1 zeros between input elements,
/// `data_pad` pads by (K - 1) * dilation - pad (+ output_padding after),
/// `kernel_transform` flips the kernel into (O / groups, I, KH, KW), and the
/// stage `conv2d_transpose_<layout>` is a stride-1 convolution of the two.
LogicalResult buildConv2DTranspose(relax::Conv2DTransposeOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) {
  Value data = inputs[0], weight = inputs[1], out = outputs[0];
  StringRef outLayout =
      op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
  auto dataPerm = getPermutation(op, op.getDataLayout(), "NCHW", "data_layout");
  auto kernelPerm =
      getPermutation(op, op.getKernelLayout(), "IOHW", "kernel_layout");
  auto outPerm = getPermutation(op, outLayout, "NCHW", "out_layout");
  if (failed(dataPerm) || failed(kernelPerm) || failed(outPerm))
    return failure();
  auto pads = nn::getPadTuple2D(op.getPadding(),
                                [&](const Twine &msg) { op.emitOpError(msg); });
  if (failed(pads))
    return failure();
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  ArrayRef<int64_t> outputPadding = op.getOutputPadding();
  if (strides.size() != 2 || dilation.size() != 2 || outputPadding.size() != 2)
    return op.emitOpError(
        "strides, dilation and output_padding must have 2 values");
  int64_t groups = op.getGroups();
  if (groups < 1)
    return op.emitOpError("groups must be >= 1 but is ") << groups;

  SmallVector<OpFoldResult> wSizes = kernel.getSizes(weight);
  OpFoldResult inChannels = wSizes[(*kernelPerm)[0]];
  OpFoldResult outPerGroup = wSizes[(*kernelPerm)[1]];
  std::optional<int64_t> kh = getStatic(wSizes[(*kernelPerm)[2]]);
  std::optional<int64_t> kw = getStatic(wSizes[(*kernelPerm)[3]]);
  if (!kh || !kw)
    return op.emitOpError("needs a static kernel height and width to pad the "
                          "input; weight has type ")
           << op.getWeight().getType();
  SizeMath sm{kernel};
  OpFoldResult inPerGroup = sm.div(inChannels, groups);
  int64_t hPos = (*dataPerm)[2], wPos = (*dataPerm)[3];
  Type dataType = getElementType(data);
  auto zero = [&](OpBuilder &b, Location loc) {
    return zeroOf(b, loc, dataType);
  };

  // data_dilate: (H - 1) * stride + 1 rows, the input on multiples of the
  // stride and zeros between.
  Value dilated = data;
  if (strides[0] != 1 || strides[1] != 1) {
    SmallVector<OpFoldResult> sizes = kernel.getSizes(data);
    sizes[hPos] = sm.dilate(sizes[hPos], strides[0]);
    sizes[wPos] = sm.dilate(sizes[wPos], strides[1]);
    auto [type, dynamic] = getBufferTypeAndSizes(sizes, dataType);
    dilated = kernel.allocBuffer(type, "data_dilate", dynamic);
    kernel.compute(
        "data_dilate", dilated,
        [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
          IndexMath ix{b, loc};
          SmallVector<Value> indices(iv.begin(), iv.end());
          Value onGrid;
          for (auto [pos, stride] :
               {std::pair{hPos, strides[0]}, std::pair{wPos, strides[1]}}) {
            if (stride == 1)
              continue;
            onGrid =
                ix.andi(onGrid, ix.eq(ix.rem(iv[pos], ix.c(stride)), ix.c(0)));
            indices[pos] = ix.div(iv[pos], ix.c(stride));
          }
          return arith::SelectOp::create(
              b, loc, onGrid, load(b, loc, data, indices), zero(b, loc));
        });
  }

  // data_pad: the full-convolution padding minus the op's padding.
  auto [top, left, bottom, right] = *pads;
  SmallVector<int64_t> before(4, 0), after(4, 0);
  before[hPos] = (*kh - 1) * dilation[0] - top;
  before[wPos] = (*kw - 1) * dilation[1] - left;
  after[hPos] = (*kh - 1) * dilation[0] - bottom + outputPadding[0];
  after[wPos] = (*kw - 1) * dilation[1] - right + outputPadding[1];
  Value padded = buildPad(kernel, "data_pad", dilated, before, after, zero);

  // kernel_transform[o, i, h, w] = weight[i, o, KH - 1 - h, KW - 1 - w].
  Type weightType = getElementType(weight);
  SmallVector<OpFoldResult> ktSizes = {outPerGroup, inChannels, sm.index(*kh),
                                       sm.index(*kw)};
  auto [ktType, ktDynamic] = getBufferTypeAndSizes(ktSizes, weightType);
  Value flipped = kernel.allocBuffer(ktType, "kernel_transform", ktDynamic);
  kernel.compute(
      "kernel_transform", flipped,
      [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        IndexMath ix{b, loc};
        Value h = ix.sub(ix.c(*kh - 1), iv[2]);
        Value w = ix.sub(ix.c(*kw - 1), iv[3]);
        return load(b, loc, weight, permute(*kernelPerm, {iv[1], iv[0], h, w}));
      });

  Type outType = getElementType(out);
  kernel.reduce(
      "conv2d_transpose_" + lower(op.getDataLayout()), out,
      {inPerGroup, sm.index(*kh), sm.index(*kw)},
      [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, outType); },
      [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        IndexMath ix{b, loc};
        Value n = iv[(*outPerm)[0]], c = iv[(*outPerm)[1]];
        Value y = iv[(*outPerm)[2]], x = iv[(*outPerm)[3]];
        Value dc = iv[4], dh = iv[5], dw = iv[6];
        Value oc = c, ic = dc;
        if (groups != 1) {
          Value perGroup = ix.get(outPerGroup);
          Value g = ix.div(c, perGroup);
          oc = ix.rem(c, perGroup);
          ic = ix.add(ix.mul(g, ix.get(inPerGroup)), dc);
        }
        Value iy = ix.add(y, ix.mulc(dh, dilation[0]));
        Value ixx = ix.add(x, ix.mulc(dw, dilation[1]));
        Value d = load(b, loc, padded, permute(*dataPerm, {n, ic, iy, ixx}));
        Value w = load(b, loc, flipped, {oc, ic, dh, dw});
        return createMul(b, loc, createCast(b, loc, d, outType),
                         createCast(b, loc, w, outType));
      },
      createAdd);
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// topi.nn.pool2d: pad_temp (padding plus stride - 1 more after in
/// ceil_mode; -inf for max, 0 for avg), then `pool_max`, or `pool_sum` and
/// `pool_avg` dividing by the window's element count (with or without the
/// padding, count_include_pad).
template <typename OpTy>
LogicalResult buildPool2D(OpTy op, PrimFuncBuilder &kernel, Value data,
                          Value out, bool isMax, bool countIncludePad) {
  StringRef outLayout =
      op.getOutLayout().empty() ? op.getLayout() : op.getOutLayout();
  auto perm = getPermutation(op, op.getLayout(), "NCHW", "layout");
  auto outPerm = getPermutation(op, outLayout, "NCHW", "out_layout");
  if (failed(perm) || failed(outPerm))
    return failure();
  if (*perm != *outPerm)
    return op.emitOpError("out_layout \"")
           << outLayout << "\" must equal layout \"" << op.getLayout() << "\"";
  auto pads = nn::getPadTuple2D(op.getPadding(),
                                [&](const Twine &msg) { op.emitOpError(msg); });
  if (failed(pads))
    return failure();
  ArrayRef<int64_t> poolSize = op.getPoolSize(), strides = op.getStrides(),
                    dilation = op.getDilation();
  if (poolSize.size() != 2 || strides.size() != 2 || dilation.size() != 2)
    return op.emitOpError("pool_size, strides and dilation must have 2 values");
  auto [top, left, bottom, right] = *pads;
  int64_t hPos = (*perm)[2], wPos = (*perm)[3];
  // ceil_mode: extra padding after so that the last window fits.
  int64_t extraH = op.getCeilMode() ? strides[0] - 1 : 0;
  int64_t extraW = op.getCeilMode() ? strides[1] - 1 : 0;
  SmallVector<int64_t> before(4, 0), after(4, 0);
  before[hPos] = top;
  before[wPos] = left;
  after[hPos] = bottom + extraH;
  after[wPos] = right + extraW;
  Type type = getElementType(data);
  Value padded = buildPad(
      kernel, "pad_temp", data, before, after, [&](OpBuilder &b, Location loc) {
        return isMax ? createLowestValue(b, loc, type) : zeroOf(b, loc, type);
      });

  SizeMath sm{kernel};
  auto window = [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
    IndexMath ix{b, loc};
    SmallVector<Value> indices(iv.take_front(4));
    indices[hPos] =
        ix.add(ix.mulc(iv[hPos], strides[0]), ix.mulc(iv[4], dilation[0]));
    indices[wPos] =
        ix.add(ix.mulc(iv[wPos], strides[1]), ix.mulc(iv[5], dilation[1]));
    return load(b, loc, padded, indices);
  };
  SmallVector<OpFoldResult> extents = {sm.index(poolSize[0]),
                                       sm.index(poolSize[1])};
  if (isMax) {
    kernel.reduce(
        "pool_max", out, extents,
        [&](OpBuilder &b, Location loc) {
          return createLowestValue(b, loc, type);
        },
        window, createMax);
    return success();
  }

  SmallVector<OpFoldResult> outSizes = kernel.getSizes(out);
  auto [sumType, sumDynamic] = getBufferTypeAndSizes(outSizes, type);
  Value sum = kernel.allocBuffer(sumType, "pool_sum", sumDynamic);
  kernel.reduce(
      "pool_sum", sum, extents,
      [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, type); }, window,
      createAdd);
  auto dataType = cast<MemRefType>(data.getType());
  SmallVector<OpFoldResult> inSizes =
      dataType.hasStaticShape()
          ? getAsIndexOpFoldResult(data.getContext(), dataType.getShape())
          : kernel.getSizes(data);
  kernel.compute(
      "pool_avg", out, [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        IndexMath ix{b, loc};
        // TOPI's element count per axis: (end - start) / dilation + 1 of
        // the window's first and last element, clipped to the input (or to
        // the input and its explicit padding with count_include_pad).
        Value count = ix.c(1);
        for (auto [pos, stride, pool, dil, padBefore, padAfter] :
             {std::tuple{hPos, strides[0], poolSize[0], dilation[0], top,
                         bottom},
              std::tuple{wPos, strides[1], poolSize[1], dilation[1], left,
                         right}}) {
          Value size = ix.get(inSizes[pos]);
          Value start = ix.addc(ix.mulc(iv[pos], stride), -padBefore);
          Value end = ix.addc(start, (pool - 1) * dil);
          if (countIncludePad) {
            end = ix.min(end, ix.addc(size, padAfter - 1));
          } else {
            start = ix.max(start, ix.c(0));
            end = ix.min(end, ix.addc(size, -1));
          }
          Value axisCount = ix.addc(ix.div(ix.sub(end, start), ix.c(dil)), 1);
          count = ix.mul(count, axisCount);
        }
        // TOPI clamps the count to 1 without count_include_pad; a window
        // wholly in the ceil_mode padding would divide by zero with it (its
        // sum is 0), so both clamp.
        count = ix.max(count, ix.c(1));
        Value s = load(b, loc, sum, iv);
        return createDiv(b, loc, s, ix.toScalar(count, type));
      });
  return success();
}

/// topi.nn.adaptive_pool (avg): output bin i of an axis averages input
/// [floor(i * H / OH), ceil((i + 1) * H / OH)). The `adaptive_pool_sum`
/// stage reduces over the largest bin, masking elements past a smaller
/// bin's end; `adaptive_pool_avg` divides by the bin's size.
LogicalResult buildAdaptiveAvgPool2D(relax::AdaptiveAvgPool2DOp op,
                                     PrimFuncBuilder &kernel, ValueRange inputs,
                                     ValueRange outputs) {
  Value data = inputs[0], out = outputs[0];
  StringRef outLayout =
      op.getOutLayout().empty() ? op.getLayout() : op.getOutLayout();
  auto perm = getPermutation(op, op.getLayout(), "NCHW", "layout");
  auto outPerm = getPermutation(op, outLayout, "NCHW", "out_layout");
  if (failed(perm) || failed(outPerm))
    return failure();
  if (*perm != *outPerm)
    return op.emitOpError("out_layout \"")
           << outLayout << "\" must equal layout \"" << op.getLayout() << "\"";
  int64_t hPos = (*perm)[2], wPos = (*perm)[3];
  auto dataType = cast<MemRefType>(data.getType());
  auto outType = cast<MemRefType>(out.getType());
  int64_t inH = dataType.getDimSize(hPos), inW = dataType.getDimSize(wPos);
  int64_t outH = outType.getDimSize(hPos), outW = outType.getDimSize(wPos);
  if (ShapedType::isDynamic(inH) || ShapedType::isDynamic(inW) ||
      ShapedType::isDynamic(outH) || ShapedType::isDynamic(outW))
    return op.emitOpError("needs static input and output heights and widths "
                          "(the bins' sizes); got ")
           << op.getData().getType() << " -> " << op.getType();
  if (outH <= 0 || outW <= 0)
    return op.emitOpError("output_size must be positive; result type ")
           << op.getType();

  // The largest bin of an axis, and whether all bins have that size.
  auto largestBin = [](int64_t in, int64_t outSize) {
    int64_t largest = 0;
    bool uniform = true;
    for (int64_t i = 0; i < outSize; ++i) {
      int64_t start = i * in / outSize;
      int64_t end = ((i + 1) * in + outSize - 1) / outSize;
      if (i > 0 && end - start != largest)
        uniform = false;
      largest = std::max(largest, end - start);
    }
    return std::pair{largest, uniform};
  };
  auto [binH, uniformH] = largestBin(inH, outH);
  auto [binW, uniformW] = largestBin(inW, outW);

  auto bin = [](IndexMath &ix, Value i, int64_t in, int64_t outSize) {
    Value start = ix.div(ix.mulc(i, in), ix.c(outSize));
    Value end =
        ix.div(ix.addc(ix.mulc(ix.addc(i, 1), in), outSize - 1), ix.c(outSize));
    return std::pair{start, end};
  };

  Type type = dataType.getElementType();
  SizeMath sm{kernel};
  auto [sumType, sumDynamic] =
      getBufferTypeAndSizes(kernel.getSizes(out), type);
  Value sum = kernel.allocBuffer(sumType, "adaptive_pool_sum", sumDynamic);
  kernel.reduce(
      "adaptive_pool_sum", sum, {sm.index(binH), sm.index(binW)},
      [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, type); },
      [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
        IndexMath ix{b, loc};
        SmallVector<Value> indices(iv.take_front(4));
        Value inBin;
        for (auto [pos, r, in, outSize, uniform] :
             {std::tuple{hPos, iv[4], inH, outH, uniformH},
              std::tuple{wPos, iv[5], inW, outW, uniformW}}) {
          auto [start, end] = bin(ix, iv[pos], in, outSize);
          Value index = ix.add(start, r);
          if (!uniform) {
            inBin = ix.andi(inBin, ix.lt(index, end));
            index = ix.min(index, ix.c(in - 1));
          }
          indices[pos] = index;
        }
        Value value = load(b, loc, data, indices);
        if (!inBin)
          return value;
        return arith::SelectOp::create(b, loc, inBin, value,
                                       zeroOf(b, loc, type));
      },
      createAdd);
  kernel.compute("adaptive_pool_avg", out,
                 [&](OpBuilder &b, Location loc, ValueRange iv) -> Value {
                   IndexMath ix{b, loc};
                   auto [startH, endH] = bin(ix, iv[hPos], inH, outH);
                   auto [startW, endW] = bin(ix, iv[wPos], inW, outW);
                   Value count =
                       ix.mul(ix.sub(endH, startH), ix.sub(endW, startW));
                   return createDiv(b, loc, load(b, loc, sum, iv),
                                    ix.toScalar(count, type));
                 });
  return success();
}

} // namespace

void mlc::legalize::populateNNLegalizations(LegalizationTable &table) {
  table.add<relax::MatmulOp>(buildMatmul);
  table.add<relax::Conv2DOp>(buildConv2D);
  table.add<relax::Conv2DTransposeOp>(buildConv2DTranspose);
  table.add<relax::MaxPool2DOp>([](relax::MaxPool2DOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) {
    return buildPool2D(op, kernel, inputs[0], outputs[0], /*isMax=*/true,
                       /*countIncludePad=*/false);
  });
  table.add<relax::AvgPool2DOp>([](relax::AvgPool2DOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) {
    return buildPool2D(op, kernel, inputs[0], outputs[0], /*isMax=*/false,
                       op.getCountIncludePad());
  });
  table.add<relax::AdaptiveAvgPool2DOp>(buildAdaptiveAvgPool2D);
}
