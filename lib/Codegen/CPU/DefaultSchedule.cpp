//===- DefaultSchedule.cpp - default CPU schedule of linalg ops ----------===//
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
// This file is the pass: it picks the kernel class of each op, whose
// tiling is in the class's own file (KernelSchedules.h), then peels the
// partial tiles, vectorizes the register tiles, keeps their accumulators in
// registers and lowers the vectors to FMAs, loads and stores.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlc {
#define GEN_PASS_DEF_DEFAULTSCHEDULEPASS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc::cpu;

namespace {

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

/// Tiles `op` by its kernel class (KernelSchedules.h); ops of no class are
/// left alone.
void scheduleOp(KernelScheduler &scheduler, RewriterBase &rewriter,
                linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return scheduler.scheduleElementwise(rewriter, op);
  if (!linalg::isaContractionOpInterface(op)) {
    if (std::optional<ConvDims> dims = matchConv(op)) {
      scheduler.scheduleConv(rewriter, op, *dims);
    } else if (hasProjectedPermutationMaps(op)) {
      scheduler.scheduleReduction(rewriter, op);
    } else if (std::optional<WindowDims> window = matchWindowReduction(op)) {
      scheduler.schedulePooling(rewriter, op, *window);
    }
    return;
  }
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return;
  scheduler.scheduleContraction(rewriter, op, *dims);
}

struct DefaultSchedulePass
    : public mlc::impl::DefaultSchedulePassBase<DefaultSchedulePass> {
  using Base::Base;

  void runOnOperation() override;
};

/// Keeps the accumulator tile of a register-level k loop in registers: a
/// transfer_read/transfer_write pair of one loop-invariant slice becomes a
/// loop-carried vector. The kernels' buffers do not alias (tensorir.noalias),
/// which upstream's hoistRedundantVectorTransfers cannot assume of function
/// arguments. Returns the loop, which this replaces.
scf::ForOp hoistAccumulators(RewriterBase &rewriter, scf::ForOp loop) {
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
      return loop;
    loop = cast<scf::ForOp>(newLoop->getOperation());
    rewriter.moveOpAfter(write, loop);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(loop.getResults().back());
    });
  }
  return loop;
}

/// Strided convolutions read every s-th element of an image row, which the
/// transfer lowering would do one scalar at a time: read the contiguous span
/// instead and pick the elements with a shuffle. Only reads of a subview
/// whose innermost stride s > 1 is taken from a unit-stride source.
void deinterleaveStridedReads(RewriterBase &rewriter, Operation *func) {
  SmallVector<vector::TransferReadOp> reads;
  func->walk([&](vector::TransferReadOp read) { reads.push_back(read); });
  for (vector::TransferReadOp read : reads) {
    auto view = read.getBase().getDefiningOp<memref::SubViewOp>();
    VectorType type = read.getVectorType();
    if (!view || read.getMask() || type.getRank() == 0 || type.isScalable() ||
        !read.getPermutationMap().isMinorIdentity() ||
        !llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }) ||
        llvm::any_of(type.getShape().drop_back(),
                     [](int64_t d) { return d != 1; }))
      continue;
    auto [viewStrides, viewOffset] = view.getType().getStridesAndOffset();
    auto [srcStrides, srcOffset] = view.getSourceType().getStridesAndOffset();
    ArrayRef<int64_t> staticStrides = view.getStaticStrides();
    ArrayRef<int64_t> staticSizes = view.getStaticSizes();
    // The innermost dimension of view and source alike (not dropped).
    if (viewStrides.empty() || srcStrides.back() != 1 ||
        view.getDroppedDims().test(srcStrides.size() - 1) ||
        staticStrides.back() <= 1 ||
        ShapedType::isDynamic(staticStrides.back()) ||
        ShapedType::isDynamic(staticSizes.back()) ||
        viewStrides.back() != staticStrides.back())
      continue;
    int64_t s = staticStrides.back(), n = type.getShape().back();
    Location loc = read.getLoc();
    rewriter.setInsertionPoint(read);
    SmallVector<OpFoldResult> sizes = view.getMixedSizes(),
                              strides = view.getMixedStrides();
    sizes.back() = rewriter.getIndexAttr((staticSizes.back() - 1) * s + 1);
    strides.back() = rewriter.getIndexAttr(1);
    SmallVector<int64_t> shape(view.getType().getShape());
    shape.back() = (staticSizes.back() - 1) * s + 1;
    MemRefType denseType = memref::SubViewOp::inferRankReducedResultType(
        shape, view.getSourceType(), view.getMixedOffsets(), sizes, strides);
    Value dense =
        memref::SubViewOp::create(rewriter, loc, denseType, view.getSource(),
                                  view.getMixedOffsets(), sizes, strides);
    SmallVector<Value> indices(read.getIndices());
    indices.back() =
        arith::MulIOp::create(rewriter, loc, indices.back(),
                              arith::ConstantIndexOp::create(rewriter, loc, s));
    int64_t span = (n - 1) * s + 1;
    auto spanType = VectorType::get({span}, type.getElementType());
    SmallVector<int64_t> spanShape(type.getShape());
    spanShape.back() = span;
    Value wide = vector::TransferReadOp::create(
        rewriter, loc, VectorType::get(spanShape, type.getElementType()), dense,
        indices, read.getPadding(), SmallVector<bool>(type.getRank(), true));
    Value flat = vector::ShapeCastOp::create(rewriter, loc, spanType, wide);
    SmallVector<int64_t> picks;
    for (int64_t i = 0; i < n; ++i)
      picks.push_back(i * s);
    Value picked = vector::ShuffleOp::create(rewriter, loc, flat, flat, picks);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, picked);
  }
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
  FunctionOpInterface func = getOperation();
  MLIRContext *ctx = &getContext();
  if (target != "cpu") {
    func.emitError() << "mlc-default-schedule: unknown target '" << target
                     << "' (only 'cpu')";
    return signalPassFailure();
  }
  KernelScheduler scheduler{mRegister,  nRegister,   mParallel,    kTile,
                            nCacheTile, vectorWidth, convMRegister};
  // The function's own knobs (a tuning record's choice) override the
  // options: `mlc.schedule.<option with '_' for '-'> = <integer>`.
  std::pair<StringRef, int64_t *> knobs[] = {
      {"m_register", &scheduler.mRegister},
      {"n_register", &scheduler.nRegister},
      {"m_parallel", &scheduler.mParallel},
      {"k_tile", &scheduler.kTile},
      {"n_cache_tile", &scheduler.nCacheTile},
      {"vector_width", &scheduler.vectorWidth},
      {"conv_m_register", &scheduler.convMRegister}};
  for (NamedAttribute attr : func->getDiscardableAttrs()) {
    StringRef name = attr.getName().strref();
    if (!name.consume_front(mlc::kScheduleKnobPrefix))
      continue;
    // Read by mlc-cpu-winograd-convolution, which runs before.
    if (name == "winograd_tile")
      continue;
    auto *knob = llvm::find_if(knobs, [&](auto &k) { return k.first == name; });
    if (knob == std::end(knobs)) {
      func.emitError()
          << "mlc-default-schedule: unknown schedule knob '"
          << attr.getName().strref()
          << "' (expected m_register, n_register, m_parallel, "
             "k_tile, n_cache_tile, vector_width, conv_m_register or "
             "winograd_tile)";
      return signalPassFailure();
    }
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value) {
      func.emitError() << "mlc-default-schedule: schedule knob '"
                       << attr.getName().strref()
                       << "' must be an integer, got " << attr.getValue();
      return signalPassFailure();
    }
    *knob->second = value.getInt();
  }
  for (auto [name, value] : knobs) {
    if (*value <= 0 || *value > (1 << 20)) {
      func.emitError() << "mlc-default-schedule: " << name << " = " << *value
                       << " is not a tile size in [1, 1048576]";
      return signalPassFailure();
    }
  }
  IRRewriter rewriter(ctx);

  // 0. Pointwise convolutions become contractions (Convolution.cpp).
  if (pointwiseConvAsMatmul) {
    SmallVector<linalg::GenericOp> convs;
    func.walk([&](linalg::GenericOp op) {
      if (op.getNumReductionLoops() != 0 && op.hasPureBufferSemantics() &&
          !op.hasDynamicShape())
        convs.push_back(op);
    });
    for (linalg::GenericOp op : convs)
      (void)collapsePointwiseConv(rewriter, op);
  }

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
    // A loop of no iterations leaves nothing to schedule, and tiling it
    // would divide by its extent.
    bool empty = llvm::is_contained(op.getStaticLoopRanges(), 0);
    if (op.hasPureBufferSemantics() && !op.hasDynamicShape() && !subByte &&
        increasing && !empty && op.getNumLoops() > 0 &&
        (op.getNumDpsInits() == 1 || op.getNumReductionLoops() == 0))
      ops.push_back(op);
  });
  // Host code and kernels without such ops are left exactly as they are.
  if (ops.empty())
    return;
  // Fills and epilogues around a reduction's buffer, computed on its
  // register tiles if its schedule makes them (Epilogue.cpp).
  llvm::SmallDenseMap<Operation *, Epilogue> epilogues;
  llvm::SmallPtrSet<Operation *, 8> deferred;
  if (fuseEpilogues) {
    for (linalg::LinalgOp op : ops) {
      if (op.getNumReductionLoops() == 0)
        continue;
      std::optional<Epilogue> epilogue = matchEpilogue(op);
      if (!epilogue || !llvm::is_contained(ops, epilogue->fill) ||
          !llvm::is_contained(ops, epilogue->epilogue))
        continue;
      epilogues[op] = *epilogue;
      deferred.insert(epilogue->fill);
      deferred.insert(epilogue->epilogue);
    }
  }
  bool fusedEpilogue = false;
  // Copies of constant arguments into sliver panels wait for the last op,
  // to read the constants in place instead where every reader allows it.
  SmallVector<ConstantPanelCopy> constantPanelCopies;
  scheduler.constantPanelCopies = &constantPanelCopies;
  for (linalg::LinalgOp op : ops) {
    if (deferred.contains(op))
      continue;
    auto epilogue = epilogues.find(op);
    SmallVector<RegisterTile> registerTiles;
    if (epilogue != epilogues.end())
      scheduler.registerTiles = &registerTiles;
    scheduleOp(scheduler, rewriter, op);
    scheduler.registerTiles = nullptr;
    if (epilogue == epilogues.end())
      continue;
    if (succeeded(fuseEpilogue(rewriter, epilogue->second, registerTiles))) {
      fusedEpilogue = true;
      continue;
    }
    scheduler.scheduleElementwise(rewriter, epilogue->second.fill);
    scheduler.scheduleElementwise(rewriter, epilogue->second.epilogue);
  }
  scheduler.constantPanelCopies = nullptr;
  usePrepackedPanels(rewriter, func, constantPanelCopies, scheduler);

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
  for (linalg::LinalgOp &op : toVectorize) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        generic && generic.getNumReductionLoops() == 0) {
      bool flatten = generic->hasAttr(kFlattenMarker);
      generic->removeAttr(kFlattenMarker);
      op = flatten ? flattenUnitLoops(rewriter, generic)
                   : dropConstantIndices(rewriter, generic);
    }
    // A convolution's register tile becomes a matmul-shaped generic first,
    // a pooling window step an elementwise one, and a contraction's with
    // several m or n dimensions (of extent one by now but the last) a 2-d
    // one: an extra n dimension (the batch of a pointwise convolution)
    // would otherwise make the contraction lowering vectorize along m.
    if (linalg::isaContractionOpInterface(op) && op.getNumLoops() > 3 &&
        !op.hasDynamicShape()) {
      FailureOr<linalg::ContractionDimensions> dims =
          linalg::inferContractionDims(op);
      // (Batch dimensions lower well, and flattening them would keep a fused
      // epilogue's tile from being forwarded in registers.)
      if (succeeded(dims) && dims->batch.empty() &&
          dims->m.size() + dims->n.size() > 2) {
        ConvDims tile;
        tile.m = dims->m.back();
        tile.n = dims->n.back();
        tile.lhs = op.getMatchingIndexingMap(op.getDpsInputOperand(0))
                           .isFunctionOfDim(tile.m)
                       ? 0
                       : 1;
        tile.rhs = 1 - tile.lhs;
        if (linalg::LinalgOp flat = flattenConvTile(rewriter, op, tile))
          op = flat;
      }
    } else if (!linalg::isaContractionOpInterface(op) &&
               op.getNumReductionLoops() != 0) {
      if (std::optional<ConvDims> dims = matchConv(op)) {
        op = flattenConvTile(rewriter, op, *dims);
      } else if (!hasProjectedPermutationMaps(op)) {
        std::optional<WindowDims> window = matchWindowReduction(op);
        op = window ? flattenWindowTile(rewriter, op, *window) : nullptr;
      }
    }
  }
  for (linalg::LinalgOp op : toVectorize) {
    if (!op)
      continue;
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
  // The reads are in bounds and broadcast-free by now.
  deinterleaveStridedReads(rewriter, func);
  // The accumulator tile stays in registers across the k loop.
  SmallVector<std::pair<scf::ForOp, bool>> registerLoops;
  func.walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kRegisterLoopMarker)) {
      loop->removeAttr(kRegisterLoopMarker);
      registerLoops.push_back({loop, loop->hasAttr(kLaneLoopMarker)});
      loop->removeAttr(kLaneLoopMarker);
    }
  });
  // Innermost first (post-order walk): the accumulators of a convolution
  // move out of its kernel-window and channel loops one loop at a time, once
  // the views they are read from are hoisted too.
  for (auto [loop, lanes] : registerLoops) {
    (void)moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    scf::ForOp hoisted = hoistAccumulators(rewriter, loop);
    if (lanes)
      splitReductionAcrossLanes(rewriter, hoisted);
  }
  // A fused epilogue reads the register tile that its reduction has just
  // written (and the reduction the fill's zeros): forward the values, and
  // drop the buffer when nothing reads it any more.
  if (fusedEpilogue) {
    // The views of one tile that the reduction and the fill and epilogue
    // made alike become one, which the forwarding needs.
    DominanceInfo dominance(func);
    eliminateCommonSubExpressions(rewriter, dominance, func);
    vector::transferOpflowOpt(rewriter, func);
    memref::eraseDeadAllocAndStores(rewriter, func);
  }

  // 4. Lower the contractions to outer products (FMAs) and the transfers
  // to plain loads/stores where they are contiguous. One pattern set per
  // step, contractions first: together, the leading-unit-dim, transfer and
  // broadcast patterns rewrite each other's output forever on 1xN tiles and
  // would use up the iteration budget before every contraction was lowered.
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
  // 5. What is left inside the tile loops (peeled partial tiles, tiles the
  // vectorizer rejects) runs sequentially there: the parallel lowering of
  // the pipeline would open an OpenMP region per tile.
  SmallVector<linalg::LinalgOp> nested;
  func.walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<LoopLikeOpInterface>())
      nested.push_back(op);
  });
  for (linalg::LinalgOp op : nested) {
    rewriter.setInsertionPoint(op);
    if (succeeded(linalg::linalgOpToLoops(rewriter, op)))
      rewriter.eraseOp(op);
  }
  {
    RewritePatternSet patterns(ctx);
    populateCanonicalization(patterns);
    applyBounded(func, std::move(patterns));
  }
}

} // namespace
