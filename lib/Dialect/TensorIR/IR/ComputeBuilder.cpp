//===- ComputeBuilder.cpp - te.compute-style prim_func builder ------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/ComputeBuilder.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Diagnostics.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

//===----------------------------------------------------------------------===//
// PrimFuncBuilder
//===----------------------------------------------------------------------===//

PrimFuncBuilder::PrimFuncBuilder(OpBuilder &builder, Location loc,
                                 StringRef name, TypeRange argTypes,
                                 ArrayRef<std::string> argNames)
    : builder(builder), guard(builder), loc(loc) {
  func = PrimFuncOp::create(
      builder, loc, name, argTypes,
      {builder.getNamedAttr("tensorir.noalias", builder.getUnitAttr())});
  for (auto [i, argName] : llvm::enumerate(argNames))
    if (!argName.empty() && i < argTypes.size())
      func.setArgAttr(i, "tensorir.name", builder.getStringAttr(argName));
  Block *entry = &func.getBody().front();
  builder.setInsertionPoint(entry->getTerminator());
  dimInsertPoint = OpBuilder::InsertPoint(entry, entry->begin());
}

SmallVector<OpFoldResult> PrimFuncBuilder::getSizes(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> sizes;
  for (auto [i, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      sizes.push_back(builder.getIndexAttr(size));
      continue;
    }
    // Sizes of arguments are read once at the function start, so that every
    // stage (and every block extent) can use them.
    OpBuilder::InsertionGuard dimGuard(builder);
    if (auto arg = dyn_cast<BlockArgument>(buffer))
      builder.restoreInsertionPoint(dimInsertPoint);
    else
      builder.setInsertionPointAfterValue(buffer);
    Value dim = memref::DimOp::create(builder, loc, buffer, i);
    if (isa<BlockArgument>(buffer))
      dimInsertPoint = builder.saveInsertionPoint();
    sizes.push_back(dim);
  }
  return sizes;
}

Value PrimFuncBuilder::allocBuffer(MemRefType type, StringRef name,
                                   ValueRange dynamicSizes) {
  return AllocBufferOp::create(builder, loc, type, dynamicSizes, name);
}

void PrimFuncBuilder::compute(StringRef blockName, Value out, ElementFn fn) {
  buildStage(
      blockName, out, /*reduceExtents=*/{}, /*init=*/nullptr,
      [&](OpBuilder &b, Location l, ValueRange iterVars) {
        return SmallVector<Value>{fn(b, l, iterVars)};
      },
      /*combine=*/nullptr);
}

void PrimFuncBuilder::reduce(StringRef blockName, Value out,
                             ArrayRef<OpFoldResult> reduceExtents,
                             ScalarFn init, ElementFn fn, CombineFn combine) {
  auto multiInit = [&](OpBuilder &b, Location l) {
    return SmallVector<Value>{init(b, l)};
  };
  auto multiFn = [&](OpBuilder &b, Location l, ValueRange iterVars) {
    return SmallVector<Value>{fn(b, l, iterVars)};
  };
  auto multiCombine = [&](OpBuilder &b, Location l, ValueRange accs,
                          ValueRange values) {
    return SmallVector<Value>{combine(b, l, accs[0], values[0])};
  };
  buildStage(blockName, out, reduceExtents,
             init ? MultiScalarFn(multiInit) : MultiScalarFn(), multiFn,
             combine ? MultiCombineFn(multiCombine) : MultiCombineFn());
}

void PrimFuncBuilder::reduceMulti(StringRef blockName, ValueRange outs,
                                  ArrayRef<OpFoldResult> reduceExtents,
                                  MultiScalarFn init, MultiElementFn fn,
                                  MultiCombineFn combine) {
  buildStage(blockName, outs, reduceExtents, init, fn, combine);
}

/// Infers and sets the read/write regions of `block`. Leaves them unknown
/// (absent) when they cannot be expressed, without reporting anything: they
/// are an optimisation hint here, and the inference pass reports such cases.
static void setInferredRegions(BlockOp block) {
  ScopedDiagnosticHandler silence(block.getContext(),
                                  [](Diagnostic &) { return success(); });
  FailureOr<AccessRegions> regions = inferAccessRegions(block);
  if (failed(regions))
    return;
  block.setReadRegions(regions->readBuffers, regions->reads);
  block.setWriteRegions(regions->writeBuffers, regions->writes);
}

void PrimFuncBuilder::buildStage(StringRef blockName, ValueRange outs,
                                 ArrayRef<OpFoldResult> reduceExtents,
                                 MultiScalarFn init, MultiElementFn fn,
                                 MultiCombineFn combine) {
  // Every output has the shape of the first, so its sizes are the extents.
  SmallVector<OpFoldResult> extents = getSizes(outs.front());
  size_t numSpatial = extents.size();
  // TensorIR extents are positive. A zero-size output has nothing to write;
  // a reduction over nothing writes its initial value.
  auto isZero = [](OpFoldResult extent) {
    std::optional<int64_t> value = getConstantIntValue(extent);
    return value && *value == 0;
  };
  if (llvm::any_of(extents, isZero))
    return;
  if (llvm::any_of(reduceExtents, isZero)) {
    if (init)
      buildStage(
          blockName, outs, {}, /*init=*/nullptr,
          [&](OpBuilder &b, Location l, ValueRange) { return init(b, l); },
          /*combine=*/nullptr);
    return;
  }
  extents.append(reduceExtents.begin(), reduceExtents.end());

  SmallVector<IterVarType> iterTypes(numSpatial, IterVarType::spatial);
  iterTypes.append(reduceExtents.size(), IterVarType::reduce);
  SmallVector<std::string> loopNames;
  for (size_t i = 0; i < numSpatial; ++i)
    loopNames.push_back("i" + std::to_string(i));
  for (size_t i = 0; i < reduceExtents.size(); ++i)
    loopNames.push_back("k" + std::to_string(i));

  OpBuilder::InsertionGuard stageGuard(builder);
  SmallVector<Value> loopVars;
  for (auto [extent, loopName] : llvm::zip(extents, loopNames)) {
    auto loop = ForOp::create(builder, loc, builder.getIndexAttr(0), extent);
    loop.setIvName(loopName);
    loopVars.push_back(loop.getInductionVar());
    builder.setInsertionPoint(loop.getBodyBlock()->getTerminator());
  }

  auto block = BlockOp::create(
      builder, loc, blockName, iterTypes, extents, loopVars,
      [&](OpBuilder &b, Location bodyLoc, ValueRange iterVars) {
        ValueRange spatial = iterVars.take_front(numSpatial);
        if (init) {
          InitOp::create(b, bodyLoc, [&](OpBuilder &ib, Location initLoc) {
            SmallVector<Value> values = init(ib, initLoc);
            for (auto [value, out] : llvm::zip(values, outs))
              memref::StoreOp::create(ib, initLoc, value, out, spatial);
          });
        }
        SmallVector<Value> values = fn(b, bodyLoc, iterVars);
        if (combine) {
          SmallVector<Value> accs;
          for (Value out : outs)
            accs.push_back(memref::LoadOp::create(b, bodyLoc, out, spatial));
          values = combine(b, bodyLoc, accs, values);
        }
        for (auto [value, out] : llvm::zip(values, outs))
          memref::StoreOp::create(b, bodyLoc, value, out, spatial);
      });
  block.setIterVarNamesAttr(builder.getArrayAttr(
      llvm::map_to_vector(loopNames, [&](const std::string &n) -> Attribute {
        return builder.getStringAttr("v_" + n);
      })));
  setInferredRegions(block);
}

void PrimFuncBuilder::update(StringRef blockName,
                             ArrayRef<OpFoldResult> extents, UpdateFn fn) {
  if (llvm::any_of(extents, [](OpFoldResult extent) {
        std::optional<int64_t> value = getConstantIntValue(extent);
        return value && *value == 0;
      }))
    return;
  // One block without iteration variables around sequential scf.for loops
  // (TVM's opaque block around ir_builder loops): the positions written
  // depend on data, so the updates neither run in parallel nor declare
  // regions, and a later update to a position wins.
  OpBuilder::InsertionGuard stageGuard(builder);
  BlockOp::create(builder, loc, blockName, {}, {}, {},
                  [&](OpBuilder &b, Location bodyLoc, ValueRange) {
                    OpBuilder::InsertionGuard bodyGuard(b);
                    SmallVector<Value> ivs;
                    Value zero = arith::ConstantIndexOp::create(b, bodyLoc, 0);
                    Value one = arith::ConstantIndexOp::create(b, bodyLoc, 1);
                    for (OpFoldResult extent : extents) {
                      Value upper =
                          getValueOrCreateConstantIndexOp(b, bodyLoc, extent);
                      auto loop =
                          scf::ForOp::create(b, bodyLoc, zero, upper, one);
                      ivs.push_back(loop.getInductionVar());
                      b.setInsertionPoint(loop.getBody()->getTerminator());
                    }
                    fn(b, bodyLoc, ivs);
                  });
}

PrimFuncOp PrimFuncBuilder::finish() { return func; }

//===----------------------------------------------------------------------===//
// Scalar helpers
//===----------------------------------------------------------------------===//

/// i1 behaves as an unsigned boolean, other integers as signed.
static bool isBool(Type type) { return type.isInteger(1); }

Value mlc::tensorir::createScalarConstant(OpBuilder &b, Location loc, Type type,
                                          double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  if (isBool(type))
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(value != 0));
  // Out-of-range values (e.g. clip's a_max = 1e30 on int32) saturate.
  unsigned width = type.getIntOrFloatBitWidth();
  APInt lowest = APInt::getSignedMinValue(width);
  APInt highest = APInt::getSignedMaxValue(width);
  if (std::isnan(value))
    value = 0;
  APInt result;
  if (value <= static_cast<double>(lowest.getSExtValue()))
    result = lowest;
  else if (value >= static_cast<double>(highest.getSExtValue()))
    result = highest;
  else
    result = APInt(width, static_cast<int64_t>(value), /*isSigned=*/true);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, result));
}

static Value createExtremeValue(OpBuilder &b, Location loc, Type type,
                                bool highest) {
  if (isa<FloatType>(type))
    return createScalarConstant(b, loc, type,
                                highest
                                    ? std::numeric_limits<double>::infinity()
                                    : -std::numeric_limits<double>::infinity());
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isBool(type) ? APInt(1, highest ? 1 : 0)
                             : (highest ? APInt::getSignedMaxValue(width)
                                        : APInt::getSignedMinValue(width));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value mlc::tensorir::createLowestValue(OpBuilder &b, Location loc, Type type) {
  return createExtremeValue(b, loc, type, /*highest=*/false);
}

Value mlc::tensorir::createHighestValue(OpBuilder &b, Location loc, Type type) {
  return createExtremeValue(b, loc, type, /*highest=*/true);
}

Value mlc::tensorir::createAdd(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::OrIOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mlc::tensorir::createSub(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::SubFOp::create(b, loc, x, y);
  return arith::SubIOp::create(b, loc, x, y);
}

Value mlc::tensorir::createMul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::AndIOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value mlc::tensorir::createDiv(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::DivFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::DivUIOp::create(b, loc, x, y);
  return arith::DivSIOp::create(b, loc, x, y);
}

Value mlc::tensorir::createMax(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value mlc::tensorir::createMin(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::MinUIOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

Value mlc::tensorir::createCompare(OpBuilder &b, Location loc, CompareKind kind,
                                   Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    arith::CmpFPredicate predicate = arith::CmpFPredicate::OEQ;
    switch (kind) {
    case CompareKind::lt:
      predicate = arith::CmpFPredicate::OLT;
      break;
    case CompareKind::gt:
      predicate = arith::CmpFPredicate::OGT;
      break;
    case CompareKind::le:
      predicate = arith::CmpFPredicate::OLE;
      break;
    case CompareKind::ge:
      predicate = arith::CmpFPredicate::OGE;
      break;
    case CompareKind::eq:
      predicate = arith::CmpFPredicate::OEQ;
      break;
    case CompareKind::ne:
      predicate = arith::CmpFPredicate::UNE;
      break;
    }
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  bool isUnsigned = isBool(x.getType());
  arith::CmpIPredicate predicate = arith::CmpIPredicate::eq;
  switch (kind) {
  case CompareKind::lt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CompareKind::gt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CompareKind::le:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CompareKind::ge:
    predicate =
        isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  case CompareKind::eq:
    predicate = arith::CmpIPredicate::eq;
    break;
  case CompareKind::ne:
    predicate = arith::CmpIPredicate::ne;
    break;
  }
  return arith::CmpIOp::create(b, loc, predicate, x, y);
}

Value mlc::tensorir::createCast(OpBuilder &b, Location loc, Value value,
                                Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (isBool(to)) {
    Value zero = createScalarConstant(b, loc, from, 0);
    return createCompare(b, loc, CompareKind::ne, value, zero);
  }
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    return arith::TruncFOp::create(b, loc, to, value);
  }
  if (toFloat) {
    if (isBool(from))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, value);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, to, value);
  if (isBool(from))
    return arith::ExtUIOp::create(b, loc, to, value);
  return arith::ExtSIOp::create(b, loc, to, value);
}
