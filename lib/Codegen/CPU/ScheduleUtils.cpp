//===- ScheduleUtils.cpp - helpers of the default CPU schedule ------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/TilingInterface.h"

#include <functional>

using namespace mlir;

linalg::LinalgOp mlc::cpu::tile(RewriterBase &rewriter, linalg::LinalgOp op,
                                ArrayRef<int64_t> sizes, bool forall,
                                Operation **innermost) {
  if (innermost)
    *innermost = nullptr;
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setLoopType(forall ? scf::SCFTilingOptions::LoopType::ForallOp
                             : scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result) || result->tiledOps.empty())
    return nullptr;
  for (LoopLikeOpInterface loop : result->loops)
    if (isa<scf::ForOp>(loop.getOperation()))
      loop->setAttr(kPeelMarker, rewriter.getUnitAttr());
  if (innermost && !result->loops.empty())
    *innermost = result->loops.back().getOperation();
  rewriter.eraseOp(op);
  return dyn_cast<linalg::LinalgOp>(result->tiledOps.back());
}

int64_t mlc::cpu::clampTile(int64_t size, int64_t extent) {
  return size >= extent ? 0 : size;
}

Value mlc::cpu::rootBuffer(Value value) {
  if (auto memref = dyn_cast<MemrefValue>(value))
    return memref::skipViewLikeOps(memref);
  return value;
}

bool mlc::cpu::canRetype(Value view) {
  for (Operation *user : view.getUsers()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      if (subview.getSource() != view || !canRetype(subview.getResult()))
        return false;
      continue;
    }
    if (!isa<linalg::LinalgOp, memref::PrefetchOp>(user))
      return false;
  }
  return true;
}

void mlc::cpu::retypeSubview(RewriterBase &rewriter, memref::SubViewOp subview,
                             Value source) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(subview);
  auto type = memref::SubViewOp::inferRankReducedResultType(
      subview.getType().getShape(), cast<MemRefType>(source.getType()),
      subview.getMixedOffsets(), subview.getMixedSizes(),
      subview.getMixedStrides());
  Value replacement = memref::SubViewOp::create(
      rewriter, subview.getLoc(), type, source, subview.getMixedOffsets(),
      subview.getMixedSizes(), subview.getMixedStrides());
  if (type == subview.getType()) {
    rewriter.replaceOp(subview, replacement);
    return;
  }
  for (OpOperand &use : llvm::make_early_inc_range(subview->getUses())) {
    if (auto reader = dyn_cast<memref::SubViewOp>(use.getOwner()))
      retypeSubview(rewriter, reader, replacement);
    else
      rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(replacement); });
  }
  rewriter.eraseOp(subview);
}

std::optional<SmallVector<int64_t>> mlc::cpu::linearForm(AffineExpr expr,
                                                         unsigned numDims) {
  SmallVector<int64_t> coeffs(numDims, 0);
  std::function<bool(AffineExpr, int64_t)> visit = [&](AffineExpr e,
                                                       int64_t factor) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      coeffs[dim.getPosition()] += factor;
      return true;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return false;
    if (e.getKind() == AffineExprKind::Add)
      return visit(bin.getLHS(), factor) && visit(bin.getRHS(), factor);
    if (e.getKind() != AffineExprKind::Mul)
      return false;
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    return c && c.getValue() > 0 && visit(bin.getLHS(), factor * c.getValue());
  };
  if (!visit(expr, 1))
    return std::nullopt;
  return coeffs;
}

std::optional<unsigned> mlc::cpu::innermostDim(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

bool mlc::cpu::hasProjectedPermutationMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
}

/// A view of `memref` without the dimensions that `map`'s constant results
/// index (at those constants, offset 0 in the others), and `map`'s other
/// results (in `kept`), for a rank-reduced generic operand.
static Value viewWithoutConstantResults(RewriterBase &rewriter, Location loc,
                                        Value memref, AffineMap map,
                                        SmallVectorImpl<AffineExpr> &kept) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<OpFoldResult> offsets, sizes,
      strides(type.getRank(), rewriter.getIndexAttr(1));
  SmallVector<int64_t> shape;
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      offsets.push_back(rewriter.getIndexAttr(constant.getValue()));
      sizes.push_back(rewriter.getIndexAttr(1));
      continue;
    }
    offsets.push_back(rewriter.getIndexAttr(0));
    sizes.push_back(rewriter.getIndexAttr(type.getDimSize(dim)));
    shape.push_back(type.getDimSize(dim));
    kept.push_back(expr);
  }
  MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
      shape, type, offsets, sizes, strides);
  return memref::SubViewOp::create(rewriter, loc, viewType, memref, offsets,
                                   sizes, strides);
}

/// A generic with `op`'s body and discardable attributes on `operands`
/// (inputs first) with `maps` and `iterators`, replacing `op`.
static linalg::GenericOp
replaceGeneric(RewriterBase &rewriter, linalg::GenericOp op,
               ArrayRef<Value> operands, ArrayRef<AffineMap> maps,
               ArrayRef<utils::IteratorType> iterators) {
  unsigned numInputs = op.getNumDpsInputs();
  auto replacement = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange(),
      ValueRange(operands).take_front(numInputs),
      ValueRange(operands).drop_front(numInputs), maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), replacement.getRegion(),
                              replacement.getRegion().begin());
  for (NamedAttribute attr : op->getDiscardableAttrs())
    replacement->setAttr(attr.getName(), attr.getValue());
  rewriter.eraseOp(op);
  return replacement;
}

linalg::GenericOp mlc::cpu::dropConstantIndices(RewriterBase &rewriter,
                                                linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineExpr> unitDimsAsZero;
  for (auto [dim, range] : llvm::enumerate(ranges))
    unitDimsAsZero.push_back(range == 1 ? getAffineConstantExpr(0, ctx)
                                        : getAffineDimExpr(dim, ctx));
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  bool changed = false;
  rewriter.setInsertionPoint(op);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    // Projected permutations stay as they are (the loop ranges are read
    // off them), except for their constant results.
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      map = simplifyAffineMap(map.replaceDimsAndSymbols(
          unitDimsAsZero, {}, map.getNumDims(), map.getNumSymbols()));
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    bool hasConstant = llvm::any_of(map.getResults(), [](AffineExpr e) {
      return isa<AffineConstantExpr>(e);
    });
    if (!type || !hasConstant || !type.hasStaticShape()) {
      operands.push_back(operand.get());
      maps.push_back(map);
      continue;
    }
    // The view of the dimensions the op indexes, at the constant indices of
    // the others.
    SmallVector<AffineExpr> kept;
    operands.push_back(viewWithoutConstantResults(rewriter, op.getLoc(),
                                                  operand.get(), map, kept));
    maps.push_back(AffineMap::get(map.getNumDims(), 0, kept, ctx));
    changed = true;
  }
  if (!changed) {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    return op;
  }
  return replaceGeneric(rewriter, op, operands, maps,
                        op.getIteratorTypesArray());
}

linalg::GenericOp mlc::cpu::flattenUnitLoops(RewriterBase &rewriter,
                                             linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (op.getNumReductionLoops() != 0 || op.hasIndexSemantics() ||
      !hasProjectedPermutationMaps(op) || !op.hasPureBufferSemantics() ||
      llvm::any_of(ranges, ShapedType::isDynamic) ||
      !llvm::is_contained(ranges, 1) ||
      llvm::any_of(op->getOperandTypes(), [](Type type) {
        auto memref = dyn_cast<MemRefType>(type);
        return memref && !memref.hasStaticShape();
      }))
    return op;
  MLIRContext *ctx = op.getContext();
  // New positions of the loops that stay.
  SmallVector<AffineExpr> newDims;
  unsigned numKept = 0;
  for (int64_t range : ranges)
    newDims.push_back(range == 1 ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(numKept++, ctx));
  if (numKept == 0)
    return op;
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      operands.push_back(operand.get());
      maps.push_back(AffineMap::get(numKept, 0, {}, ctx));
      continue;
    }
    SmallVector<AffineExpr> kept;
    operands.push_back(viewWithoutConstantResults(
        rewriter, op.getLoc(), operand.get(),
        map.replaceDimsAndSymbols(newDims, {}, numKept, 0), kept));
    maps.push_back(AffineMap::get(numKept, 0, kept, ctx));
  }
  return replaceGeneric(
      rewriter, op, operands, maps,
      SmallVector<utils::IteratorType>(numKept, utils::IteratorType::parallel));
}

FailureOr<std::optional<ArrayRef<char>>>
mlc::cpu::getConstantBytes(Attribute value, int64_t size) {
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value)) {
    if (dense.isSplat())
      return std::optional<ArrayRef<char>>();
    if (static_cast<int64_t>(dense.getRawData().size()) != size)
      return failure();
    return std::optional<ArrayRef<char>>(dense.getRawData());
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || static_cast<int64_t>(blob->getData().size()) != size)
      return failure();
    return std::optional<ArrayRef<char>>(blob->getData());
  }
  return failure();
}
