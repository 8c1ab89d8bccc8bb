//===- ScheduleUtils.cpp - helpers of the default CPU schedule ------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
