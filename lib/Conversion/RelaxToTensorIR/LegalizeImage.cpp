//===- LegalizeImage.cpp - image relax op kernels ---------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Kernels of the image ops (TVM's topi/image/resize.py): relax.image.resize2d
// with nearest-neighbor, linear and cubic interpolation. Coordinates are
// computed in f32 as TOPI's "float" does, and pixels read out of the image are
// clamped to its border (get_2d_pixel).
//
//===----------------------------------------------------------------------===//

#include "Legalizations.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Utils/NNShapeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;
using namespace mlc::tensorir;

namespace {
/// Scalar helpers for one resize block.
struct ResizeBuilder {
  OpBuilder &b;
  Location loc;
  Type f32;

  Value constant(double value) {
    return createScalarConstant(b, loc, f32, value);
  }
  /// An `index` value (iteration variable or size) as f32.
  Value toFloat(Value index) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, loc, f32, i64);
  }
  /// TOPI's `.astype("int32")` of a float, as an `index` value.
  Value toIndex(Value value) {
    Value i32 = arith::FPToSIOp::create(b, loc, b.getI32Type(), value);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i32);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value gt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }

  /// TOPI's get_inx: the input coordinate of output index `x` along a
  /// dimension of `image` input and `target` output elements (`index`
  /// values); `start` / `end` are the roi bounds (tf_crop_and_resize).
  Value getInputCoordinate(Value x, Value image, Value target, StringRef mode,
                           double start, double end) {
    Value xf = toFloat(x), imageF = toFloat(image), targetF = toFloat(target);
    if (mode == "half_pixel") {
      Value half = constant(0.5);
      Value shifted = add(xf, half);
      return sub(mul(shifted, div(imageF, targetF)), half);
    }
    if (mode == "asymmetric")
      return mul(div(imageF, targetF), xf);
    if (mode == "tf_half_pixel_for_nn") {
      Value shifted = add(xf, constant(0.5));
      return mul(shifted, div(imageF, targetF));
    }
    Value one = constant(1.0);
    Value targetAboveOne = gt(targetF, one);
    if (mode == "align_corners") {
      // (image - 1) / (target - 1) * x; TOPI divides by zero for a target
      // of 1, where every output reads coordinate 0 here.
      Value imageMinusOne = sub(imageF, one);
      Value ratio = div(imageMinusOne, sub(targetF, one));
      Value inside = mul(ratio, xf);
      return select(targetAboveOne, inside, constant(0.0));
    }
    if (mode == "pytorch_half_pixel") {
      Value half = constant(0.5);
      Value shifted = add(xf, half);
      Value inside = sub(mul(shifted, div(imageF, targetF)), half);
      return select(targetAboveOne, inside, constant(0.0));
    }
    // tf_crop_and_resize.
    Value imageMinusOne = sub(imageF, one);
    Value startF = constant(start), endF = constant(end);
    Value extent = mul(mul(xf, sub(endF, startF)), imageMinusOne);
    Value scaled = div(extent, sub(targetF, one));
    Value inside = add(mul(startF, imageMinusOne), scaled);
    Value halfSum = mul(constant(0.5), add(startF, endF));
    Value center = mul(halfSum, imageMinusOne);
    return select(targetAboveOne, inside, center);
  }

  /// TOPI's get_closest_index (nearest neighbor), as an `index` value.
  Value getClosestIndex(Value in, StringRef rounding) {
    Value epsilon = constant(1e-5), half = constant(0.5);
    Value rounded;
    if (rounding == "round")
      rounded = math::RoundEvenOp::create(b, loc, in); // te.round: nearbyint
    else if (rounding == "round_prefer_floor")
      rounded = math::CeilOp::create(b, loc, sub(in, half));
    else if (rounding == "round_prefer_ceil")
      rounded = math::FloorOp::create(b, loc, add(in, half));
    else if (rounding == "floor")
      rounded = math::FloorOp::create(b, loc, add(in, epsilon));
    else // ceil
      rounded = math::CeilOp::create(b, loc, sub(in, epsilon));
    return toIndex(rounded);
  }

  /// `index` clamped to [0, size - 1] (get_2d_pixel).
  Value clamp(Value index, Value size) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value last = arith::SubIOp::create(
        b, loc, size, arith::ConstantIndexOp::create(b, loc, 1));
    return arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, index, last), zero);
  }
};
} // namespace

/// TOPI's bicubic interpolation: Keys' cubic spline weights (`alpha`) of the
/// fractional parts over the 4x4 neighborhood starting one pixel up-left of
/// the floor; with `excludeOutside`, weights of pixels outside the image are
/// 0 and the rest renormalized. Pixels come from `pixel` (clamped) as
/// `computeType`.
static Value buildCubic(ResizeBuilder &rb, Value inY, Value inX, Value imageH,
                        Value imageW, double alpha, bool excludeOutside,
                        Type computeType,
                        llvm::function_ref<Value(Value, Value)> pixel) {
  OpBuilder &b = rb.b;
  Location loc = rb.loc;
  Value floorY = math::FloorOp::create(b, loc, inY);
  Value floorX = math::FloorOp::create(b, loc, inX);
  Value y0 = rb.toIndex(floorY), x0 = rb.toIndex(floorX);
  Value fy = rb.sub(inY, floorY), fx = rb.sub(inX, floorX);
  // _get_cubic_spline_weights: the constants fold in double as in TOPI.
  auto weights = [&](Value t) {
    Value t2 = rb.mul(t, t);
    Value t3 = rb.mul(t2, t);
    Value w1 = rb.mul(rb.constant(alpha),
                      rb.add(rb.sub(t3, rb.mul(rb.constant(2.0), t2)), t));
    Value w2 = rb.add(rb.sub(rb.mul(rb.constant(alpha + 2), t3),
                             rb.mul(rb.constant(3 + alpha), t2)),
                      rb.constant(1.0));
    Value w3 = rb.sub(rb.add(rb.mul(rb.constant(-(alpha + 2)), t3),
                             rb.mul(rb.constant(3 + 2 * alpha), t2)),
                      rb.mul(rb.constant(alpha), t));
    Value w4 =
        rb.add(rb.mul(rb.constant(-alpha), t3), rb.mul(rb.constant(alpha), t2));
    return SmallVector<Value, 4>{w1, w2, w3, w4};
  };
  SmallVector<Value, 4> wx = weights(fx), wy = weights(fy);
  if (excludeOutside) {
    // Weight i is 0 when `base - 1 + i < 0 || base + i > size`, as TOPI.
    auto exclude = [&](SmallVector<Value, 4> &w, Value base, Value size) {
      Value sum;
      for (int64_t i = 0; i < 4; ++i) {
        Value lo = arith::AddIOp::create(
            b, loc, base, arith::ConstantIndexOp::create(b, loc, i - 1));
        Value hi = arith::AddIOp::create(
            b, loc, base, arith::ConstantIndexOp::create(b, loc, i));
        Value below =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lo,
                                  arith::ConstantIndexOp::create(b, loc, 0));
        Value above =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, hi, size);
        Value outside = arith::OrIOp::create(b, loc, below, above);
        w[i] = rb.select(outside, rb.constant(0.0), w[i]);
        sum = sum ? rb.add(sum, w[i]) : w[i];
      }
      for (Value &weight : w)
        weight = rb.div(weight, sum);
    };
    exclude(wx, x0, imageW);
    exclude(wy, y0, imageH);
  }
  // _cubic_kernel: sum(a_i * w_i), left to right.
  auto combine = [&](ArrayRef<Value> values, ArrayRef<Value> w) {
    Value sum;
    for (auto [value, weight] : llvm::zip(values, w)) {
      Value term =
          createMul(b, loc, value, createCast(b, loc, weight, computeType));
      sum = sum ? createAdd(b, loc, sum, term) : term;
    }
    return sum;
  };
  SmallVector<Value, 4> columns;
  for (int64_t j = 0; j < 4; ++j) {
    Value y = arith::AddIOp::create(
        b, loc, y0, arith::ConstantIndexOp::create(b, loc, j - 1));
    SmallVector<Value, 4> row;
    for (int64_t i = 0; i < 4; ++i) {
      Value x = arith::AddIOp::create(
          b, loc, x0, arith::ConstantIndexOp::create(b, loc, i - 1));
      row.push_back(createCast(b, loc, pixel(y, x), computeType));
    }
    columns.push_back(combine(row, wx));
  }
  return combine(columns, wy);
}

static LogicalResult buildResize2D(relax::Resize2DOp op,
                                   PrimFuncBuilder &kernel, ValueRange inputs,
                                   ValueRange outputs) {
  StringRef method = op.getMethod();
  StringRef mode = op.getCoordinateTransformationMode();
  FailureOr<SmallVector<int64_t, 4>> perm =
      nn::getLayoutPermutation(op.getLayout(), "NCHW", "layout", nullptr);
  if (failed(perm))
    return op.emitOpError("cannot be legalized: layout '")
           << op.getLayout() << "' is not a permutation of NCHW";
  int64_t hDim = (*perm)[2], wDim = (*perm)[3];
  StringRef rounding = op.getRoundingMethod();
  // TOPI's default rounding for nearest neighbor.
  if (rounding.empty())
    rounding = mode == "align_corners" ? "round" : "floor";
  ArrayRef<double> roi = op.getRoi();
  double extrapolation = op.getExtrapolationValue().convertToDouble();
  double alpha = op.getCubicAlpha().convertToDouble();
  bool excludeOutside = op.getCubicExclude() != 0;

  Value data = inputs[0], output = outputs[0];
  SmallVector<OpFoldResult> inSizes = kernel.getSizes(data);
  SmallVector<OpFoldResult> outSizes = kernel.getSizes(output);
  Type dataType = getElementType(data);
  Type outType = getElementType(output);
  // Linear interpolation runs in f32 (TOPI's "float"), or in the data's
  // type when that is a wider float.
  Type f32 = Float32Type::get(op.getContext());
  Type lerpType = f32;
  if (auto floatType = dyn_cast<FloatType>(dataType))
    if (floatType.getWidth() > 32)
      lerpType = floatType;

  kernel.compute(
      "resize", output,
      [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
        ResizeBuilder rb{b, loc, f32};
        Value imageH = materializeIndex(b, loc, inSizes[hDim]);
        Value imageW = materializeIndex(b, loc, inSizes[wDim]);
        Value targetH = materializeIndex(b, loc, outSizes[hDim]);
        Value targetW = materializeIndex(b, loc, outSizes[wDim]);
        Value inY = rb.getInputCoordinate(indices[hDim], imageH, targetH, mode,
                                          roi[0], roi[2]);
        Value inX = rb.getInputCoordinate(indices[wDim], imageW, targetW, mode,
                                          roi[1], roi[3]);
        auto pixel = [&](Value y, Value x) {
          SmallVector<Value> at(indices);
          at[hDim] = rb.clamp(y, imageH);
          at[wDim] = rb.clamp(x, imageW);
          return load(b, loc, data, at);
        };
        Value value;
        if (method == "nearest_neighbor") {
          Value y = rb.getClosestIndex(inY, rounding);
          Value x = rb.getClosestIndex(inX, rounding);
          value = createCast(b, loc, pixel(y, x), outType);
        } else if (method == "cubic") {
          value = createCast(b, loc,
                             buildCubic(rb, inY, inX, imageH, imageW, alpha,
                                        excludeOutside, lerpType, pixel),
                             outType);
        } else {
          // Linear: lerp(lerp(p00, p01, dx), lerp(p10, p11, dx), dy) with
          // lerp(a, c, t) = a * (1 - t) + c * t.
          Value floorY = math::FloorOp::create(b, loc, inY);
          Value floorX = math::FloorOp::create(b, loc, inX);
          Value y0 = rb.toIndex(floorY), x0 = rb.toIndex(floorX);
          Value one = arith::ConstantIndexOp::create(b, loc, 1);
          Value y1 = arith::AddIOp::create(b, loc, y0, one);
          Value x1 = arith::AddIOp::create(b, loc, x0, one);
          Value dy = createCast(b, loc, rb.sub(inY, floorY), lerpType);
          Value dx = createCast(b, loc, rb.sub(inX, floorX), lerpType);
          auto lerp = [&](Value lo, Value hi, Value t) {
            Value oneL = createScalarConstant(b, loc, lerpType, 1.0);
            Value loPart = createMul(b, loc, lo, createSub(b, loc, oneL, t));
            Value hiPart = createMul(b, loc, hi, t);
            return createAdd(b, loc, loPart, hiPart);
          };
          auto at = [&](Value y, Value x) {
            return createCast(b, loc, pixel(y, x), lerpType);
          };
          Value p00 = at(y0, x0), p01 = at(y0, x1);
          Value top = lerp(p00, p01, dx);
          Value p10 = at(y1, x0), p11 = at(y1, x1);
          Value bottom = lerp(p10, p11, dx);
          value = createCast(b, loc, lerp(top, bottom, dy), outType);
        }
        if (mode == "tf_crop_and_resize") {
          // Coordinates outside the image read extrapolation_value.
          Value zero = rb.constant(0.0), one = rb.constant(1.0);
          Value lastY = rb.sub(rb.toFloat(imageH), one);
          Value lastX = rb.sub(rb.toFloat(imageW), one);
          Value belowY = rb.lt(inY, zero), aboveY = rb.gt(inY, lastY);
          Value belowX = rb.lt(inX, zero), aboveX = rb.gt(inX, lastX);
          Value outsideY = arith::OrIOp::create(b, loc, belowY, aboveY);
          Value outsideX = arith::OrIOp::create(b, loc, belowX, aboveX);
          Value outside = arith::OrIOp::create(b, loc, outsideY, outsideX);
          Value fill = createScalarConstant(b, loc, outType, extrapolation);
          value = rb.select(outside, fill, value);
        }
        return value;
      });
  return success();
}

void mlc::legalize::populateImageLegalizations(LegalizationTable &table) {
  table.add<relax::Resize2DOp>(buildResize2D);
}
