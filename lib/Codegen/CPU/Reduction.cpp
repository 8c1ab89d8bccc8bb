//===- Reduction.cpp - CPU schedule of reductions -------------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Reductions whose maps are projected permutations (sum, max, mean, the
// stages of softmax and norms): a vector of output columns carried in
// registers across the reduction dimensions, or the contiguous reduction
// dimension split across vector lanes (like TVM's rfactor). The register
// tiling here is shared with the window reductions (Pooling.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc::cpu;

void KernelScheduler::scheduleReduction(RewriterBase &rewriter,
                                        linalg::LinalgOp op) {
  // The vectorizer takes projected permutations only (pooling windows are
  // schedulePooling's).
  if (!hasProjectedPermutationMaps(op))
    return;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  // Whether every input that reads dimension `d` reads it contiguously, and
  // at least one does.
  auto contiguousInInputs = [&](unsigned d) {
    bool any = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isFunctionOfDim(d))
        continue;
      if (innermostDim(map) != d)
        return false;
      any = true;
    }
    return any;
  };
  // Along the output: its innermost dimension n is a vector of independent
  // accumulators (column sums, reductions over outer axes). Along the
  // reduction: its innermost dimension r is split across vector lanes that
  // are combined once at the end (row sums, softmax, norms). -1: none.
  std::optional<unsigned> outputInnermost =
      innermostDim(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  int64_t n = outputInnermost ? static_cast<int64_t>(*outputInnermost) : -1;
  int64_t r = -1;
  if (n < 0 || ranges[n] < 4 || !contiguousInInputs(n)) {
    n = -1;
    for (unsigned d = 0; d < numLoops; ++d)
      if (linalg::isReductionIterator(iterators[d]))
        r = d;
    if (r < 0 || ranges[r] < vectorWidth || !contiguousInInputs(r))
      return;
  }

  int64_t columns =
      n >= 0
          ? std::min<int64_t>(llvm::alignTo(nRegister, vectorWidth), ranges[n])
          : 0;
  tileReductionRegisters(rewriter, op, n, columns, r);
}

RegisterTile KernelScheduler::tileReductionRegisters(RewriterBase &rewriter,
                                                     linalg::LinalgOp op,
                                                     int64_t n, int64_t columns,
                                                     int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  linalg::LinalgOp current = op;
  uint64_t elements = countElements(ranges);
  bool singleThread = op->hasAttr(kSingleThreadMarker) || isInParallelTask(op);
  op->removeAttr(kSingleThreadMarker);
  // About 16 tasks over the outermost parallel dimension that is not 1.
  for (unsigned d = 0; d < numLoops && !singleThread &&
                       elements >= static_cast<uint64_t>(kMinParallelElements);
       ++d) {
    if (!linalg::isParallelIterator(iterators[d]) || ranges[d] == 1)
      continue;
    int64_t chunk = llvm::divideCeil(ranges[d], 16);
    if (d == n)
      chunk = llvm::alignTo(chunk, columns);
    SmallVector<int64_t> parallel(numLoops, 0);
    parallel[d] = clampTile(chunk, ranges[d]);
    if (!(current = tile(rewriter, current, parallel, /*forall=*/true)))
      return {};
    break;
  }
  // Every parallel dimension but n one by one.
  SmallVector<int64_t> sizes(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d)
    if (linalg::isParallelIterator(iterators[d]))
      sizes[d] = clampTile(d == n ? columns : 1, ranges[d]);
  if (!(current = tile(rewriter, current, sizes)))
    return {};
  // The reduction dimensions, outermost first, around the register tile:
  // its accumulators stay in registers across all of them.
  Operation *reductionNest = nullptr;
  for (unsigned d = 0; d < numLoops; ++d) {
    if (!linalg::isReductionIterator(iterators[d]))
      continue;
    bool split = d == lanes;
    if (!split && ranges[d] == 1)
      continue;
    sizes.assign(numLoops, 0);
    sizes[d] = split ? vectorWidth : 1;
    Operation *loop = nullptr;
    if (!(current = tile(rewriter, current, sizes, /*forall=*/false, &loop)))
      return {};
    if (!loop)
      continue;
    if (!reductionNest)
      reductionNest = loop;
    loop->setAttr(kRegisterLoopMarker, rewriter.getUnitAttr());
    if (split)
      loop->setAttr(kLaneLoopMarker, rewriter.getUnitAttr());
  }
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
  return {current, reductionNest, /*splitReduction=*/{}, /*flatten=*/true};
}

/// The neutral element of `kind` on `type`, if there is one.
static TypedAttr reductionIdentity(vector::CombiningKind kind, Type type) {
  using Kind = vector::CombiningKind;
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(type));
  std::optional<arith::AtomicRMWKind> rmw;
  switch (kind) {
  case Kind::ADD:
    rmw = isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
    break;
  case Kind::MUL:
    rmw = isFloat ? arith::AtomicRMWKind::mulf : arith::AtomicRMWKind::muli;
    break;
  case Kind::MAXIMUMF:
    rmw = arith::AtomicRMWKind::maximumf;
    break;
  case Kind::MINIMUMF:
    rmw = arith::AtomicRMWKind::minimumf;
    break;
  case Kind::MAXNUMF:
    rmw = arith::AtomicRMWKind::maxnumf;
    break;
  case Kind::MINNUMF:
    rmw = arith::AtomicRMWKind::minnumf;
    break;
  case Kind::MAXSI:
    rmw = arith::AtomicRMWKind::maxs;
    break;
  case Kind::MINSI:
    rmw = arith::AtomicRMWKind::mins;
    break;
  case Kind::MAXUI:
    rmw = arith::AtomicRMWKind::maxu;
    break;
  case Kind::MINUI:
    rmw = arith::AtomicRMWKind::minu;
    break;
  case Kind::AND:
    rmw = arith::AtomicRMWKind::andi;
    break;
  case Kind::OR:
    rmw = arith::AtomicRMWKind::ori;
    break;
  default:
    return nullptr;
  }
  OpBuilder builder(type.getContext());
  auto scalar = arith::getIdentityValueAttr(*rmw, getElementTypeOrSelf(type),
                                            builder, builder.getUnknownLoc());
  if (!scalar)
    return nullptr;
  return SplatElementsAttr::get(cast<ShapedType>(type), scalar);
}

void mlc::cpu::splitReductionAcrossLanes(RewriterBase &rewriter,
                                         scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
    BlockArgument acc = loop.getRegionIterArgs()[i];
    auto reduction =
        yield.getOperand(i).getDefiningOp<vector::MultiDimReductionOp>();
    if (!reduction || reduction.getAcc() != acc || !acc.hasOneUse() ||
        !reduction->hasOneUse() || reduction->getBlock() != loop.getBody())
      continue;
    VectorType sourceType = reduction.getSourceVectorType();
    TypedAttr identity = reductionIdentity(reduction.getKind(), sourceType);
    if (!identity)
      continue;
    rewriter.setInsertionPoint(loop);
    Value init = arith::ConstantOp::create(rewriter, loop.getLoc(), identity);
    vector::CombiningKind kind = reduction.getKind();
    Value source = reduction.getSource();
    // Read before `reduction` is replaced (erased) below.
    SmallVector<bool> reductionMask = reduction.getReductionMask();
    FailureOr<LoopLikeOpInterface> newLoop = loop.replaceWithAdditionalYields(
        rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &builder, Location loc, ArrayRef<BlockArgument> args) {
          builder.setInsertionPoint(reduction);
          return SmallVector<Value>{vector::makeArithReduction(
              builder, loc, kind, source, args.front())};
        });
    if (failed(newLoop))
      return;
    loop = cast<scf::ForOp>(newLoop->getOperation());
    // The old accumulator passes through; its result is combined with the
    // lanes after the loop.
    rewriter.replaceOp(reduction, loop.getRegionIterArgs()[i]);
    rewriter.setInsertionPointAfter(loop);
    Value result = loop.getResult(i);
    auto combined = vector::MultiDimReductionOp::create(
        rewriter, loop.getLoc(), loop.getResults().back(), result,
        reductionMask, kind);
    rewriter.replaceAllUsesExcept(result, combined.getResult(), combined);
    yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  }
}
