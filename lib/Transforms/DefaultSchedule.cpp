//===- DefaultSchedule.cpp - default CPU schedule of linalg ops -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Tiles, peels and vectorizes the linalg.generic ops raised from tensorir
// te.compute stages with upstream's TilingInterface and vectorizer:
// contractions get cache tiles, a parallel outer loop and a register tile
// lowered to FMAs; elementwise ops a parallel outer loop and a vectorized
// innermost dimension.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_DEFAULTSCHEDULEPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Marks the register-level ops to vectorize and the tile loops to peel.
constexpr StringLiteral kVectorizeMarker = "mlc.vectorize";
constexpr StringLiteral kPeelMarker = "mlc.peel";
/// Marks the k loop around a contraction's register tile.
constexpr StringLiteral kRegisterLoopMarker = "mlc.register_k";

/// Elementwise ops smaller than this run on one thread (a fork costs more).
constexpr int64_t kMinParallelElements = 1 << 15;

/// Tiles `op` with `sizes` (0: not tiled) and erases it; returns the tiled
/// op, or null when tiling failed (then `op` is left alone).
linalg::LinalgOp tile(RewriterBase &rewriter, linalg::LinalgOp op,
                      ArrayRef<int64_t> sizes, bool forall = false) {
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
  rewriter.eraseOp(op);
  return dyn_cast<linalg::LinalgOp>(result->tiledOps.back());
}

/// Clamps a tile size to the extent (a tile covering the whole dimension is
/// no tile).
/// Whether `expr` grows with every dimension: sums of dimensions with
/// non-negative constant factors.
bool isNonDecreasing(AffineExpr expr) {
  switch (expr.getKind()) {
  case AffineExprKind::DimId:
  case AffineExprKind::SymbolId:
  case AffineExprKind::Constant:
    return true;
  case AffineExprKind::Add: {
    auto add = cast<AffineBinaryOpExpr>(expr);
    return isNonDecreasing(add.getLHS()) && isNonDecreasing(add.getRHS());
  }
  case AffineExprKind::Mul: {
    auto mul = cast<AffineBinaryOpExpr>(expr);
    auto factor = dyn_cast<AffineConstantExpr>(mul.getRHS());
    return factor && factor.getValue() >= 0 && isNonDecreasing(mul.getLHS());
  }
  default:
    return false;
  }
}

int64_t clampTile(int64_t size, int64_t extent) {
  return size >= extent ? 0 : size;
}

struct DefaultSchedulePass
    : public mlc::impl::DefaultSchedulePassBase<DefaultSchedulePass> {
  using Base::Base;

  void runOnOperation() override;

  /// Contractions: parallel m (or n) tiles, k and n cache tiles, an
  /// m-register x n-register tile over k steps of one.
  void scheduleContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                           const linalg::ContractionDimensions &dims);
  /// No reduction: parallel outermost dimension, vectorized innermost.
  void scheduleElementwise(RewriterBase &rewriter, linalg::LinalgOp op);
};

void DefaultSchedulePass::scheduleContraction(
    RewriterBase &rewriter, linalg::LinalgOp op,
    const linalg::ContractionDimensions &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
  // Every other dimension (batch, extra m/n/k) is walked one by one.
  SmallVector<int64_t> ones(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != m && d != n && d != k)
      ones[d] = clampTile(1, ranges[d]);

  // Parallel tasks: rows when there are enough of them, else columns.
  SmallVector<int64_t> parallel = ones;
  if (ranges[m] >= 2 * mParallel)
    parallel[m] = mParallel;
  else if (ranges[n] >= 2 * nCacheTile)
    parallel[n] = nCacheTile;
  linalg::LinalgOp current = tile(rewriter, op, parallel, /*forall=*/true);
  if (!current)
    return;
  SmallVector<int64_t> sizes(numLoops, 0);
  sizes[k] = clampTile(kTile, ranges[k]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  sizes.assign(numLoops, 0);
  sizes[n] = clampTile(nCacheTile, ranges[n]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  sizes.assign(numLoops, 0);
  sizes[m] = std::min<int64_t>(mRegister, ranges[m]);
  sizes[n] = std::min<int64_t>(nRegister, ranges[n]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  sizes.assign(numLoops, 0);
  sizes[k] = 1;
  if (!(current = tile(rewriter, current, sizes)))
    return;
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
  if (auto loop = current->getParentOfType<scf::ForOp>())
    loop->setAttr(kRegisterLoopMarker, rewriter.getUnitAttr());
}

/// Keeps the accumulator tile of a register-level k loop in registers: a
/// transfer_read/transfer_write pair of one loop-invariant slice becomes a
/// loop-carried vector. The kernels' buffers do not alias (tensorir.noalias),
/// which upstream's hoistRedundantVectorTransfers cannot assume of function
/// arguments.
void hoistAccumulators(RewriterBase &rewriter, scf::ForOp loop) {
  for (auto read :
       llvm::to_vector(loop.getBody()->getOps<vector::TransferReadOp>())) {
    Value source = read.getBase();
    if (read.getMask() || !loop.isDefinedOutsideOfLoop(source) ||
        !llvm::all_of(read.getIndices(),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      continue;
    vector::TransferWriteOp write;
    bool otherUse = false;
    for (Operation *user : source.getUsers()) {
      if (user == read.getOperation() || !loop->isProperAncestor(user))
        continue;
      auto candidate = dyn_cast<vector::TransferWriteOp>(user);
      if (write || !candidate || candidate->getBlock() != loop.getBody() ||
          candidate.getMask() || candidate.getIndices() != read.getIndices() ||
          candidate.getVector().getType() != read.getType() ||
          candidate.getPermutationMap() != read.getPermutationMap()) {
        otherUse = true;
        break;
      }
      write = candidate;
    }
    if (otherUse || !write || !read->isBeforeInBlock(write))
      continue;
    rewriter.moveOpBefore(read, loop);
    FailureOr<LoopLikeOpInterface> newLoop = loop.replaceWithAdditionalYields(
        rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{write.getVector()};
        });
    if (failed(newLoop))
      return;
    loop = cast<scf::ForOp>(newLoop->getOperation());
    rewriter.moveOpAfter(write, loop);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(loop.getResults().back());
    });
  }
}

void DefaultSchedulePass::scheduleElementwise(RewriterBase &rewriter,
                                              linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  linalg::LinalgOp current = op;
  if (numLoops > 1 && elements >= kMinParallelElements && ranges[0] > 1) {
    // About 16 tasks: enough to balance a few threads.
    SmallVector<int64_t> parallel(numLoops, 0);
    parallel[0] = clampTile(llvm::divideCeil(ranges[0], 16), ranges[0]);
    if (!(current = tile(rewriter, current, parallel, /*forall=*/true)))
      return;
  }
  // One innermost vector per step; a short innermost dimension is one
  // vector as it is.
  SmallVector<int64_t> sizes(numLoops, 1);
  sizes.back() = clampTile(vectorWidth, ranges.back());
  for (unsigned d = 0; d + 1 < numLoops; ++d)
    sizes[d] = clampTile(1, ranges[d]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
}

/// Canonicalization patterns of every loaded dialect and op.
void populateCanonicalization(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// Applies `patterns` greedily with a bound on the rewrites: lowering and
/// folding patterns of different sets may undo each other's work, and a
/// schedule that stops early is still correct code.
void applyBounded(Operation *root, RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.setMaxNumRewrites(100000);
  (void)applyPatternsGreedily(root, std::move(patterns), config);
}

void DefaultSchedulePass::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();
  if (target != "cpu") {
    func.emitError() << "mlc-default-schedule: unknown target '" << target
                     << "' (only 'cpu')";
    return signalPassFailure();
  }
  if (mRegister <= 0 || nRegister <= 0 || mParallel <= 0 || kTile <= 0 ||
      nCacheTile <= 0 || vectorWidth <= 0) {
    func.emitError() << "mlc-default-schedule: tile sizes must be positive";
    return signalPassFailure();
  }
  IRRewriter rewriter(ctx);

  // 1. Tile. Only static-shaped ops on buffers: the kernels that tensorir
  // lowered, not tensor-level host code.
  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) {
    // Vectors of i1 are bit-packed in LLVM, memrefs of i1 hold bytes: such
    // ops stay scalar.
    bool subByte = llvm::any_of(op->getOperandTypes(), [](Type t) {
      Type element = getElementTypeOrSelf(t);
      return !element.isIntOrIndexOrFloat() ||
             (!element.isIndex() && element.getIntOrFloatBitWidth() % 8 != 0);
    });
    // Tiling computes operand slices from the indexing maps; a decreasing
    // index (a flipped kernel, a negative-stride slice) gives slices that do
    // not fit, so such ops stay as they are.
    bool increasing =
        llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
          return llvm::all_of(map.getResults(), isNonDecreasing);
        });
    if (op.hasPureBufferSemantics() && !op.hasDynamicShape() && !subByte &&
        increasing && op.getNumLoops() > 0 && op.getNumDpsInits() == 1)
      ops.push_back(op);
  });
  // Host code and kernels without such ops are left exactly as they are.
  if (ops.empty())
    return;
  for (linalg::LinalgOp op : ops) {
    if (op.getNumReductionLoops() == 0) {
      scheduleElementwise(rewriter, op);
      continue;
    }
    if (!linalg::isaContractionOpInterface(op))
      continue;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
      continue;
    scheduleContraction(rewriter, op, *dims);
  }

  // 2. Peel the partial tiles off, outer loops first, so that the full
  // tiles get static shapes.
  while (true) {
    scf::ForOp next;
    func.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (!loop->hasAttr(kPeelMarker))
        return WalkResult::advance();
      next = loop;
      return WalkResult::interrupt();
    });
    if (!next)
      break;
    next->removeAttr(kPeelMarker);
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, next, partial);
  }
  // Parallel tiles become scf.parallel (OpenMP later in the pipeline).
  SmallVector<scf::ForallOp> foralls;
  func.walk([&](scf::ForallOp op) { foralls.push_back(op); });
  for (scf::ForallOp forall : foralls) {
    rewriter.setInsertionPoint(forall);
    (void)scf::forallToParallelLoop(rewriter, forall);
  }
  {
    RewritePatternSet patterns(ctx);
    populateCanonicalization(patterns);
    applyBounded(func, std::move(patterns));
  }

  // 3. Vectorize the register-level ops whose tile is full (static); the
  // peeled partial tiles stay scalar linalg for the loop lowering.
  SmallVector<linalg::LinalgOp> toVectorize;
  func.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorizeMarker)) {
      op->removeAttr(kVectorizeMarker);
      if (!op.hasDynamicShape())
        toVectorize.push_back(op);
    }
  });
  for (linalg::LinalgOp op : toVectorize) {
    if (failed(linalg::vectorizeOpPrecondition(op)))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (succeeded(result))
      rewriter.eraseOp(op);
  }
  // mul + multi_reduction of the vectorized contractions -> vector.contract
  // with the operands' broadcasts folded into its maps.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    applyBounded(func, std::move(patterns));
  }
  // The accumulator tile stays in registers across the k loop.
  SmallVector<scf::ForOp> registerLoops;
  func.walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kRegisterLoopMarker)) {
      loop->removeAttr(kRegisterLoopMarker);
      registerLoops.push_back(loop);
    }
  });
  for (scf::ForOp loop : registerLoops)
    hoistAccumulators(rewriter, loop);

  // 4. Lower the contractions to outer products (FMAs) and the transfers
  // to plain loads/stores where they are contiguous. One pattern set per
  // step: together, the leading-unit-dim, transfer and broadcast patterns
  // rewrite each other's output forever on 1xN tiles (seconds per kernel).
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    applyBounded(func, std::move(patterns));
  }
  {
    RewritePatternSet patterns(ctx);
    // 1-D vectors: the math/arith lowering to LLVM wants them.
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    applyBounded(func, std::move(patterns));
  }
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    applyBounded(func, std::move(patterns));
  }
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    applyBounded(func, std::move(patterns));
  }
  {
    RewritePatternSet patterns(ctx);
    populateCanonicalization(patterns);
    applyBounded(func, std::move(patterns));
  }
}

} // namespace
