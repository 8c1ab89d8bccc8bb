//===- ScheduleBlocks.cpp - TensorIR block schedule primitives --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The block primitives of TVM's tir.Schedule: decompose_reduction and
// reverse_compute_at.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlc::tensorir;
using namespace mlc::tensorir::schedutil;

static OpFoldResult cloneOfr(OpFoldResult ofr, IRMapping &map, OpBuilder &b,
                             Operation *scope) {
  if (auto value = dyn_cast<Value>(ofr))
    return cloneValue(value, map, b, scope);
  return ofr;
}

FailureOr<AccessRegions> schedutil::getAccessRegions(BlockOp block) {
  if (block.getReads() && block.getWrites()) {
    AccessRegions regions;
    llvm::append_range(regions.readBuffers, block.getReadBuffers());
    llvm::append_range(regions.reads, *block.getReads());
    llvm::append_range(regions.writeBuffers, block.getWriteBuffers());
    llvm::append_range(regions.writes, *block.getWrites());
    return regions;
  }
  return inferAccessRegions(block);
}

/// The terms of `pred` as a conjunction (`arith.andi` trees).
static void collectConjuncts(Value pred, SmallVectorImpl<Value> &conjuncts) {
  if (auto andOp = pred.getDefiningOp<arith::AndIOp>()) {
    collectConjuncts(andOp.getLhs(), conjuncts);
    collectConjuncts(andOp.getRhs(), conjuncts);
    return;
  }
  conjuncts.push_back(pred);
}

//===----------------------------------------------------------------------===//
// decompose_reduction
//===----------------------------------------------------------------------===//

FailureOr<BlockOp> Schedule::decomposeReductionImpl(BlockOp block, ForOp loop) {
  auto error = [&](Operation *at) {
    return at->emitError("cannot decompose the reduction of ")
           << describe(block) << " at " << describe(loop) << ": ";
  };
  InitOp init = block.getInitOp();
  if (!init)
    return error(block) << "it has no tensorir.init";
  if (!loop->isProperAncestor(block))
    return error(loop) << "the loop does not contain the block";
  SmallVector<ForOp> inner; // From `loop` down to the block.
  for (Operation *op = block->getParentOp();; op = op->getParentOp()) {
    if (isa<BlockOp>(op))
      return error(loop) << "block '" << cast<BlockOp>(op).getName()
                         << "' lies between them";
    if (auto l = dyn_cast<ForOp>(op))
      inner.push_back(l);
    if (op == loop.getOperation())
      break;
  }
  std::reverse(inner.begin(), inner.end());

  SmallVector<Value> spatial, reduce;
  SmallVector<unsigned> spatialIndices;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (block.isReduceIterVar(i)) {
      reduce.push_back(block.getBindings()[i]);
    } else {
      spatial.push_back(block.getBindings()[i]);
      spatialIndices.push_back(i);
    }
  }
  // The init must run once per spatial point: no loop outside `loop` may
  // step through the reduction.
  for (ForOp outer : getLoops(block)) {
    if (outer == loop)
      break;
    Value iv = outer.getInductionVar();
    if (llvm::any_of(reduce, [&](Value v) { return dependsOn(v, iv); }))
      return error(loop) << describe(outer)
                         << " outside it is bound to a reduce iteration "
                            "variable, so the initialisation would run more "
                            "than once";
  }
  SmallVector<ForOp> copied;
  SmallVector<Value> skippedIvs;
  for (ForOp l : inner) {
    Value iv = l.getInductionVar();
    bool s = llvm::any_of(spatial, [&](Value v) { return dependsOn(v, iv); });
    bool r = llvm::any_of(reduce, [&](Value v) { return dependsOn(v, iv); });
    if (s && r)
      return error(l) << describe(l)
                      << " is bound to both spatial and reduce iteration "
                         "variables";
    if (s)
      copied.push_back(l);
    else
      skippedIvs.push_back(iv);
  }
  for (ForOp l : copied)
    for (Value bound : l.getDynamicBounds())
      if (dependsOn(bound, skippedIvs))
        return error(l) << "the bounds of " << describe(l)
                        << " depend on a reduction loop";
  // The init keeps the conjuncts of the predicate over the copied loops (a
  // spatial tail); those over reduction loops only mask reduction steps.
  SmallVector<Value> initConjuncts;
  if (Value pred = block.getPredicate()) {
    SmallVector<Value> conjuncts;
    collectConjuncts(pred, conjuncts);
    SmallVector<Value> copiedIvs = llvm::map_to_vector(
        copied, [](ForOp l) { return l.getInductionVar(); });
    for (Value c : conjuncts) {
      bool overSkipped = dependsOn(c, skippedIvs);
      if (overSkipped && dependsOn(c, copiedIvs))
        return error(block) << "a term of its predicate depends on both a "
                               "spatial and a reduction loop";
      if (!overSkipped)
        initConjuncts.push_back(c);
    }
  }
  for (Value extent : block.getDynamicExtents())
    if (dependsOn(extent, skippedIvs))
      return error(block) << "its extents depend on a reduction loop";
  WalkResult usesOutside = init.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == block.getBodyBlock() &&
          block.isReduceIterVar(arg.getArgNumber())) {
        error(op) << "the initialisation uses reduce iteration variable "
                  << block.getIterVarDisplayName(arg.getArgNumber());
        return WalkResult::interrupt();
      }
      Operation *def = operand.getDefiningOp();
      if (def && loop->isProperAncestor(def) && !block->isAncestor(def)) {
        error(op) << "the initialisation uses a value computed inside the "
                     "loop";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (usesOutside.wasInterrupted())
    return failure();

  // The init block, under copies of the spatial loops, before `loop`.
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  IRMapping map;
  for (ForOp l : copied) {
    OpFoldResult lb = cloneOfr(l.getLowerBound(), map, rewriter, loop);
    OpFoldResult ub = cloneOfr(l.getUpperBound(), map, rewriter, loop);
    OpFoldResult step = cloneOfr(l.getStep(), map, rewriter, loop);
    auto newLoop = ForOp::create(rewriter, l.getLoc(), lb, ub, step,
                                 l.getKind(), l.getThreadTag().value_or(""));
    newLoop.setIvNameAttr(
        rewriter.getStringAttr((l.getIvName().value_or("i") + "_init").str()));
    map.map(l.getInductionVar(), newLoop.getInductionVar());
    rewriter.setInsertionPoint(newLoop.getBodyBlock()->getTerminator());
  }
  SmallVector<Value> bindings;
  SmallVector<OpFoldResult> extents;
  SmallVector<IterVarType> types;
  SmallVector<Attribute> names;
  for (unsigned i : spatialIndices) {
    bindings.push_back(cloneValue(block.getBindings()[i], map, rewriter, loop));
    extents.push_back(cloneOfr(block.getExtent(i), map, rewriter, loop));
    types.push_back(IterVarType::spatial);
    if (auto iterNames = block.getIterVarNames())
      names.push_back((*iterNames)[i]);
  }
  Value pred;
  for (Value c : initConjuncts) {
    Value cloned = cloneValue(c, map, rewriter, loop);
    pred = pred ? arith::AndIOp::create(rewriter, loc, pred, cloned).getResult()
                : cloned;
  }
  auto initBlock =
      BlockOp::create(rewriter, loc, (block.getName() + "_init").str(), types,
                      extents, bindings);
  if (pred)
    initBlock.getPredicateMutable().assign(pred);
  if (!names.empty())
    initBlock.setIterVarNamesAttr(rewriter.getArrayAttr(names));
  IRMapping bodyMap;
  for (auto [newIndex, oldIndex] : llvm::enumerate(spatialIndices))
    bodyMap.map(block.getIterVar(oldIndex), initBlock.getIterVar(newIndex));
  rewriter.setInsertionPoint(initBlock.getBodyBlock()->getTerminator());
  for (Operation &op : init.getBody().front().without_terminator())
    rewriter.clone(op, bodyMap);
  refreshAccessRegions(rewriter, initBlock,
                       /*force=*/block.getReads() || block.getWrites());

  rewriter.eraseOp(init);
  rewriter.modifyOpInPlace(
      block, [&] { block.setName((block.getName() + "_update").str()); });
  refreshAccessRegions(rewriter, block, /*force=*/false);
  return initBlock;
}

//===----------------------------------------------------------------------===//
// reverse_compute_at
//===----------------------------------------------------------------------===//

std::optional<AffineExpr> schedutil::toAffine(Value value, ArrayRef<Value> ivs,
                                              MLIRContext *ctx) {
  if (const auto *it = llvm::find(ivs, value); it != ivs.end())
    return getAffineDimExpr(it - ivs.begin(), ctx);
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return getAffineConstantExpr(constant.getSExtValue(), ctx);
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<affine::AffineApplyOp>(def))
    return expressAffineApply(
        def, [&](Value operand) { return toAffine(operand, ivs, ctx); });
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    std::optional<AffineExpr> lhs = toAffine(def->getOperand(0), ivs, ctx);
    std::optional<AffineExpr> rhs = toAffine(def->getOperand(1), ivs, ctx);
    if (!lhs || !rhs)
      return std::nullopt;
    return combineIndexOp(def, *lhs, *rhs);
  }
  return std::nullopt;
}

/// Whether `expr` has a mod, floordiv or ceildiv whose operands involve
/// dimension `dim` (where min/max need not be at the ends of the range).
static bool hasNonLinearUse(AffineExpr expr, unsigned dim) {
  bool found = false;
  expr.walk([&](AffineExpr sub) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(sub);
    if (!bin || sub.getKind() == AffineExprKind::Add ||
        sub.getKind() == AffineExprKind::Mul)
      return;
    if (bin.getLHS().isFunctionOfDim(dim) || bin.getRHS().isFunctionOfDim(dim))
      found = true;
  });
  return found;
}

/// The minimum (or maximum) of `expr` over dimension `dim` in
/// [0, extent - 1], or std::nullopt when it is not linear in `dim`.
static std::optional<AffineExpr> relaxDim(AffineExpr expr, unsigned dim,
                                          int64_t extent, bool max,
                                          unsigned numDims) {
  if (!expr.isFunctionOfDim(dim))
    return expr;
  if (hasNonLinearUse(expr, dim))
    return std::nullopt;
  MLIRContext *ctx = expr.getContext();
  AffineExpr d = getAffineDimExpr(dim, ctx);
  AffineExpr atLow = expr.replace(d, getAffineConstantExpr(0, ctx));
  AffineExpr atHigh = expr.replace(d, getAffineConstantExpr(extent - 1, ctx));
  auto diff = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(atHigh - atLow, numDims, 0));
  if (!diff)
    return std::nullopt;
  return simplifyAffineExpr(max == (diff.getValue() >= 0) ? atHigh : atLow,
                            numDims, 0);
}

/// The least (or greatest) value of `expr` over the dimensions with a range
/// in `relaxed`: `expr` must be a sum of terms that each use only relaxed
/// dimensions (bounded by interval arithmetic) or none.
static std::optional<AffineExpr>
relaxTerms(AffineExpr expr, ArrayRef<std::optional<IndexRange>> relaxed,
           bool max, unsigned numDims) {
  SmallVector<AffineExpr> terms, worklist{expr};
  while (!worklist.empty()) {
    AffineExpr e = worklist.pop_back_val();
    if (e.getKind() == AffineExprKind::Add) {
      auto bin = cast<AffineBinaryOpExpr>(e);
      worklist.push_back(bin.getLHS());
      worklist.push_back(bin.getRHS());
      continue;
    }
    terms.push_back(e);
  }
  AffineExpr kept = getAffineConstantExpr(0, expr.getContext());
  int64_t bound = 0;
  for (AffineExpr term : terms) {
    bool usesRelaxed = false, usesKept = false;
    for (unsigned d = 0; d < numDims; ++d)
      if (term.isFunctionOfDim(d))
        (relaxed[d] ? usesRelaxed : usesKept) = true;
    if (!usesRelaxed) {
      kept = kept + term;
      continue;
    }
    if (usesKept)
      return std::nullopt;
    std::optional<IndexRange> range = getStaticExprRange(term, relaxed);
    if (!range)
      return std::nullopt;
    bound += max ? range->max : range->min;
  }
  return simplifyAffineExpr(kept + bound, numDims, 0);
}

FailureOr<SmallVector<ProducedRange>> schedutil::relaxRegion(
    BlockOp other, BufferRegionAttr region, unsigned numOuter,
    function_ref<InFlightDiagnostic()> fail,
    function_ref<bool(ForOp)> relaxOuter, function_ref<bool(ForOp)> keepInner) {
  MLIRContext *ctx = other.getContext();
  SmallVector<ForOp> loops = Schedule::getLoops(other);
  SmallVector<Value> ivs =
      llvm::map_to_vector(loops, [](ForOp l) { return l.getInductionVar(); });
  SmallVector<AffineExpr> bindingExprs;
  for (Value binding : other.getBindings()) {
    std::optional<AffineExpr> expr = toAffine(binding, ivs, ctx);
    if (!expr)
      return fail() << "a binding of " << describe(other)
                    << " is not an affine function of its loops";
    bindingExprs.push_back(*expr);
  }
  AffineMap lowerMap = region.getLowerBounds().getValue();
  AffineMap upperMap = region.getUpperBounds().getValue();
  // A loop that the region does not depend on needs no relaxing (its
  // extent may then be dynamic, as a causal attention's key loop).
  auto usesDim = [&](unsigned dim) {
    for (unsigned d = 0, rank = region.getRank(); d < rank; ++d)
      if (lowerMap.getResult(d)
              .replaceDims(bindingExprs)
              .isFunctionOfDim(dim) ||
          upperMap.getResult(d).replaceDims(bindingExprs).isFunctionOfDim(dim))
        return true;
    return false;
  };
  // The loops to relax, with their ranges.
  SmallVector<std::optional<IndexRange>> relaxed(ivs.size());
  for (unsigned dim = 0; dim < ivs.size(); ++dim) {
    if (dim < numOuter && !(relaxOuter && relaxOuter(loops[dim])))
      continue;
    if (dim >= numOuter && keepInner && keepInner(loops[dim]))
      continue;
    if (!usesDim(dim))
      continue;
    std::optional<int64_t> extent = loops[dim].getConstantUpperBound();
    std::optional<int64_t> lb = loops[dim].getConstantLowerBound();
    std::optional<int64_t> step = loops[dim].getConstantStep();
    if (!extent || !lb || *lb != 0 || !step || *step != 1)
      return fail() << describe(loops[dim])
                    << " under the loop must start at 0 with step 1 and "
                       "have a constant extent";
    relaxed[dim] = IndexRange{0, *extent - 1};
  }
  SmallVector<ProducedRange> ranges;
  for (unsigned d = 0, rank = region.getRank(); d < rank; ++d) {
    AffineExpr lower = lowerMap.getResult(d).replaceDims(bindingExprs);
    AffineExpr upper = upperMap.getResult(d).replaceDims(bindingExprs);
    // Exactly, one loop at a time, where the region is linear in it.
    std::optional<AffineExpr> lo = lower, hi = upper;
    for (unsigned dim = 0; dim < ivs.size() && lo && hi; ++dim) {
      if (!relaxed[dim])
        continue;
      int64_t extent = relaxed[dim]->max + 1;
      lo = relaxDim(*lo, dim, extent, /*max=*/false, ivs.size());
      if (lo)
        hi = relaxDim(*hi, dim, extent, /*max=*/true, ivs.size());
    }
    // Else (fused and split loops: floordiv/mod) over the ranges of the
    // terms that use only relaxed loops.
    if (!lo || !hi) {
      lo = relaxTerms(lower, relaxed, /*max=*/false, ivs.size());
      hi = relaxTerms(upper, relaxed, /*max=*/true, ivs.size());
    }
    if (!lo || !hi)
      return fail() << "the region of buffer dimension " << d << " accessed by "
                    << describe(other)
                    << " is not a sum of terms in the loops under the loop "
                       "and terms in the loops above";
    lower = *lo;
    upper = *hi;
    auto extentExpr = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(upper - lower, ivs.size(), 0));
    if (!extentExpr || extentExpr.getValue() <= 0)
      return fail() << "the region of buffer dimension " << d << " accessed by "
                    << describe(other)
                    << " in one iteration has no constant size";
    ranges.push_back(
        {simplifyAffineExpr(lower, ivs.size(), 0), extentExpr.getValue()});
  }
  return ranges;
}

LogicalResult
schedutil::checkCoversDomain(BlockOp block, Operation *top,
                             function_ref<InFlightDiagnostic()> error) {
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    // A variable of extent 1 bound to 0 (its loop folded away) covers its
    // one-point domain.
    if (block.getConstantExtent(i) == std::optional<int64_t>(1) &&
        isConstantIntValue(block.getBindings()[i], 0))
      continue;
    auto arg = dyn_cast<BlockArgument>(block.getBindings()[i]);
    auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
    if (!loop || !top->isAncestor(loop) || !seen.insert(loop).second ||
        loop.getConstantLowerBound() != std::optional<int64_t>(0) ||
        loop.getConstantStep() != std::optional<int64_t>(1) ||
        loop.getUpperBound() != block.getExtent(i))
      return error() << "its loops do not run iteration variable "
                     << block.getIterVarDisplayName(i)
                     << " over its whole domain (each binding must be its own "
                        "loop over the domain)";
  }
  return success();
}

/// compute_at (`reverse` false: `block` is a producer of blocks under
/// `loop`) and reverse_compute_at (`reverse` true: a consumer).
static LogicalResult computeAtCommon(RewriterBase &rewriter, BlockOp block,
                                     ForOp loop, bool reverse) {
  StringRef primitive = reverse ? "reverse_compute_at" : "compute_at";
  auto error = [&](Operation *at) {
    return at->emitError("cannot ") << primitive << " " << describe(block)
                                    << " under " << describe(loop) << ": ";
  };
  if (loop->isProperAncestor(block))
    return error(block) << "the block is already under the loop";
  if (reverse && block.hasReduceIterVars())
    return error(block) << "the block has reduce iteration variables (only a "
                           "spatial block can be moved)";
  if (block.getPredicate())
    return error(block) << "the block has a predicate";
  // Both must be in one scope, the block's loop nest after (before) the
  // loop's.
  Operation *scope = loop->getParentOp();
  while (!isa<BlockOp, PrimFuncOp>(scope))
    scope = scope->getParentOp();
  Operation *loopTop = loop;
  while (loopTop->getParentOp() != scope)
    loopTop = loopTop->getParentOp();
  Operation *blockTop = block;
  while (blockTop->getParentOp() && blockTop->getParentOp() != scope)
    blockTop = blockTop->getParentOp();
  if (blockTop->getParentOp() != scope ||
      blockTop->getBlock() != loopTop->getBlock())
    return error(block) << "the block is not in the scope of the loop";
  if (reverse && !loopTop->isBeforeInBlock(blockTop))
    return error(block) << "the block does not come after the loop";
  if (!reverse && !blockTop->isBeforeInBlock(loopTop))
    return error(block) << "the block does not come before the loop";
  if (failed(
          checkCoversDomain(block, blockTop, [&]() { return error(block); })))
    return failure();
  // The block must be alone in its loop nest.
  SmallVector<BlockOp> nestBlocks = getChildBlocks(blockTop);
  if (blockTop != block.getOperation() &&
      (nestBlocks.size() != 1 || nestBlocks.front() != block))
    return error(block) << "its loop nest contains other blocks";
  WalkResult sideEffects =
      blockTop->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == block.getOperation())
          return WalkResult::skip();
        if (isa<ForOp, YieldOp>(op) || isMovableExpr(op))
          return WalkResult::advance();
        error(op) << "its loop nest contains a statement outside the block";
        return WalkResult::interrupt();
      });
  if (sideEffects.wasInterrupted())
    return failure();

  // Where the block goes, and whether what it uses is available there.
  Operation *insertBefore = reverse ? loop.getBodyBlock()->getTerminator()
                                    : &loop.getBodyBlock()->front();
  DominanceInfo dominance(scope);
  auto available = [&](Value v) {
    if (Operation *def = v.getDefiningOp(); def && block->isAncestor(def))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && block->isAncestor(arg.getOwner()->getParentOp()))
      return true;
    // The old loop nest goes away.
    Operation *owner = v.getDefiningOp();
    if (!owner)
      owner = cast<BlockArgument>(v).getOwner()->getParentOp();
    if (blockTop->isAncestor(owner))
      return false;
    return dominance.properlyDominates(v, insertBefore);
  };
  for (Value v : block.getDynamicExtents())
    if (!available(v))
      return error(block) << "its extents are not available under the loop";
  for (Value v : block.getReadBuffers())
    if (!available(v))
      return error(block) << "a buffer it reads is not available under the "
                             "loop";
  for (Value v : block.getWriteBuffers())
    if (!available(v))
      return error(block) << "a buffer it writes is not available under the "
                             "loop";
  WalkResult used = block.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!available(operand)) {
        error(op) << "the block body uses a value that is not available "
                     "under the loop";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (used.wasInterrupted())
    return failure();

  FailureOr<AccessRegions> blockRegions = getAccessRegions(block);
  if (failed(blockRegions))
    return failure();
  auto conflict = [&](ArrayRef<Value> a, ArrayRef<Value> b) {
    return llvm::any_of(a, [&](Value v) { return llvm::is_contained(b, v); });
  };
  // Statements between the two must not conflict with the moved block.
  Operation *first = reverse ? loopTop->getNextNode() : blockTop->getNextNode();
  Operation *last = reverse ? blockTop : loopTop;
  for (Operation *op = first; op != last; op = op->getNextNode()) {
    SmallVector<BlockOp> blocks = getChildBlocks(op);
    if (auto b = dyn_cast<BlockOp>(op))
      blocks = {b};
    for (BlockOp other : blocks) {
      FailureOr<AccessRegions> regions = getAccessRegions(other);
      if (failed(regions))
        return failure();
      if (conflict(regions->writeBuffers, blockRegions->readBuffers) ||
          conflict(regions->writeBuffers, blockRegions->writeBuffers) ||
          conflict(regions->readBuffers, blockRegions->writeBuffers)) {
        auto diag = error(block)
                    << describe(other) << " between them accesses its buffers";
        diag.attachNote(other.getLoc()) << "block is here";
        return diag;
      }
    }
  }
  if (!reverse) {
    // Computed piecewise, the outputs must be intermediates that only the
    // blocks under the loop read.
    for (Value buffer : blockRegions->writeBuffers)
      if (!buffer.getDefiningOp<AllocBufferOp>())
        return error(block) << "it writes a buffer that is not a "
                               "tensorir.alloc_buffer (an output would only "
                               "be computed where the loop reads it)";
    for (Operation *op = blockTop->getNextNode(); op; op = op->getNextNode()) {
      if (op == loopTop)
        continue;
      SmallVector<BlockOp> blocks = getChildBlocks(op);
      if (auto b = dyn_cast<BlockOp>(op))
        blocks = {b};
      for (BlockOp other : blocks) {
        FailureOr<AccessRegions> regions = getAccessRegions(other);
        if (failed(regions))
          return failure();
        if (conflict(regions->readBuffers, blockRegions->writeBuffers)) {
          auto diag = error(block) << describe(other)
                                   << " outside the loop reads its output";
          diag.attachNote(other.getLoc()) << "block is here";
          return diag;
        }
      }
    }
  }

  // What one iteration of `loop` needs of (or produces into) the buffers.
  MLIRContext *ctx = block.getContext();
  SmallVector<Value> outerIvs;
  for (Operation *op = loop; op != scope; op = op->getParentOp())
    if (auto l = dyn_cast<ForOp>(op))
      outerIvs.insert(outerIvs.begin(), l.getInductionVar());
  unsigned numOuter = outerIvs.size();
  // For each iteration variable of the block, the range it must cover.
  SmallVector<std::optional<ProducedRange>> covered(block.getNumIterVars());
  bool anyOther = false;
  StringRef otherRole = reverse ? "producer" : "consumer";
  for (BlockOp other : getChildBlocks(loop)) {
    FailureOr<AccessRegions> regions = getAccessRegions(other);
    if (failed(regions))
      return failure();
    ArrayRef<Value> otherBuffers =
        reverse ? regions->writeBuffers : regions->readBuffers;
    ArrayRef<Attribute> otherRegions =
        reverse ? regions->writes : regions->reads;
    ArrayRef<Value> blockBuffers =
        reverse ? blockRegions->readBuffers : blockRegions->writeBuffers;
    ArrayRef<Attribute> blockRegionAttrs =
        reverse ? blockRegions->reads : blockRegions->writes;
    for (auto [buffer, regionAttr] : llvm::zip(otherBuffers, otherRegions)) {
      const auto *it = llvm::find(blockBuffers, buffer);
      if (it == blockBuffers.end())
        continue;
      anyOther = true;
      auto fail = [&]() {
        auto diag = error(block);
        diag.attachNote(other.getLoc()) << otherRole << " is here";
        return diag;
      };
      // A producer must be complete after one iteration of `loop`.
      if (reverse)
        for (unsigned i = 0, e = other.getNumIterVars(); i < e; ++i)
          if (other.isReduceIterVar(i) &&
              dependsOn(other.getBindings()[i], outerIvs))
            return fail() << describe(other)
                          << " is not complete after one iteration: its "
                             "reduce iteration variable "
                          << other.getIterVarDisplayName(i)
                          << " depends on the loop or a loop outside it";
      // Threads of a block fill a shared buffer together (TVM relaxes the
      // threadIdx loops for shared storage).
      auto alloc = buffer.getDefiningOp<AllocBufferOp>();
      bool shared =
          !reverse && alloc && alloc.getStorageScope().starts_with("shared");
      auto isThreadLoop = [&](ForOp l) {
        return shared && l.getKind() == ForKind::thread_binding &&
               l.getThreadTag().value_or("").starts_with("threadIdx");
      };
      FailureOr<SmallVector<ProducedRange>> ranges =
          relaxRegion(other, cast<BufferRegionAttr>(regionAttr), numOuter, fail,
                      isThreadLoop);
      if (failed(ranges))
        return failure();
      auto blockRegion =
          cast<BufferRegionAttr>(blockRegionAttrs[it - blockBuffers.begin()]);
      for (auto [d, range] : llvm::enumerate(*ranges)) {
        // Which iteration variable of the block indexes this dimension.
        AffineExpr lo = blockRegion.getLowerBounds().getValue().getResult(d);
        AffineExpr hi = blockRegion.getUpperBounds().getValue().getResult(d);
        if (isa<AffineConstantExpr>(lo))
          continue;
        auto dimExpr = dyn_cast<AffineDimExpr>(lo);
        if (!dimExpr || hi != lo + 1 ||
            block.isReduceIterVar(dimExpr.getPosition()))
          return error(block)
                 << "dimension " << d << " of the buffer it "
                 << (reverse ? "reads from " : "writes for ") << describe(other)
                 << " is not indexed by one spatial iteration "
                    "variable";
        std::optional<ProducedRange> &slot = covered[dimExpr.getPosition()];
        if (slot &&
            (slot->lower != range.lower || slot->extent != range.extent))
          return fail() << "iteration variable "
                        << block.getIterVarDisplayName(dimExpr.getPosition())
                        << " would have to cover two different ranges";
        slot = range;
      }
    }
  }
  if (!anyOther)
    return error(block) << (reverse ? "no block under the loop writes a "
                                      "buffer it reads"
                                    : "no block under the loop reads a "
                                      "buffer it writes");

  // Which bindings may leave the block's domain (a split tail) and need a
  // predicate.
  SmallVector<std::optional<IndexRange>> outerRanges = llvm::map_to_vector(
      outerIvs, [](Value iv) { return getStaticIndexRange(iv); });
  SmallVector<bool> needsGuard(block.getNumIterVars(), false);
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (!covered[i])
      continue;
    SmallVector<std::optional<IndexRange>> ranges(outerRanges);
    AffineExpr expr = covered[i]->lower;
    if (covered[i]->extent != 1) {
      expr = expr + getAffineDimExpr(numOuter, ctx);
      ranges.push_back(IndexRange{0, covered[i]->extent - 1});
    }
    std::optional<IndexRange> range = getStaticExprRange(expr, ranges);
    std::optional<int64_t> domain = block.getConstantExtent(i);
    if (range && range->min < 0)
      return error(block) << "the range of iteration variable "
                          << block.getIterVarDisplayName(i)
                          << " may be negative";
    needsGuard[i] = !range || !domain || range->max >= *domain;
  }

  // New loops in the loop body, the block inside.
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(insertBefore);
  SmallVector<Value> newIvs(block.getNumIterVars());
  unsigned axis = 0;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    OpFoldResult extent =
        covered[i] ? OpFoldResult(rewriter.getIndexAttr(covered[i]->extent))
                   : block.getExtent(i);
    if (covered[i] && covered[i]->extent == 1)
      continue;
    auto newLoop =
        ForOp::create(rewriter, loc, rewriter.getIndexAttr(0), extent);
    newLoop.setIvNameAttr(rewriter.getStringAttr(("ax" + Twine(axis++)).str()));
    newIvs[i] = newLoop.getInductionVar();
    rewriter.setInsertionPoint(newLoop.getBodyBlock()->getTerminator());
  }
  SmallVector<Value> bindings;
  Value pred;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (!covered[i]) {
      bindings.push_back(newIvs[i]);
      continue;
    }
    AffineExpr expr = covered[i]->lower;
    SmallVector<Value> operands(outerIvs);
    if (newIvs[i]) {
      expr = expr + getAffineDimExpr(numOuter, ctx);
      operands.push_back(newIvs[i]);
    }
    AffineMap map = AffineMap::get(operands.size(), 0, expr);
    Value binding = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(rewriter, loc, map,
                                              getAsOpFoldResult(operands)));
    bindings.push_back(binding);
    if (!needsGuard[i])
      continue;
    Value bound =
        getValueOrCreateConstantIndexOp(rewriter, loc, block.getExtent(i));
    Value inDomain = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, binding, bound);
    pred =
        pred ? arith::AndIOp::create(rewriter, loc, pred, inDomain) : inDomain;
  }
  rewriter.moveOpBefore(block, rewriter.getInsertionBlock(),
                        rewriter.getInsertionPoint());
  rewriter.modifyOpInPlace(block, [&] {
    block.getBindingsMutable().assign(bindings);
    if (pred)
      block.getPredicateMutable().assign(pred);
  });
  if (blockTop != block.getOperation())
    rewriter.eraseOp(blockTop);
  return success();
}

LogicalResult Schedule::reverseComputeAtImpl(BlockOp block, ForOp loop) {
  return computeAtCommon(rewriter, block, loop, /*reverse=*/true);
}

LogicalResult Schedule::computeAtImpl(BlockOp block, ForOp loop) {
  return computeAtCommon(rewriter, block, loop, /*reverse=*/false);
}

//===----------------------------------------------------------------------===//
// compute_inline / reverse_compute_inline
//===----------------------------------------------------------------------===//

namespace {
/// A block of the form `store f(loads, iteration variables) to B[v...]`.
struct InlinableBlock {
  memref::StoreOp store;
  /// For each buffer dimension of the store, the iteration variable it is
  /// (empty unless the store index is the iteration variables, each once).
  SmallVector<unsigned> storeIterVars;
};

/// What the store index of a block to inline must be.
enum class StoreIndex {
  /// Its iteration variables, each once.
  IterVars,
  /// Also a complete mixed-radix decomposition of them (each element
  /// stored by exactly one iteration: the inverse of a fusion).
  Bijective,
  /// Anything.
  Any,
};
} // namespace

Operation *schedutil::getTopInScope(Operation *op) {
  Operation *top = op;
  while (top->getParentOp() && !isa<BlockOp, PrimFuncOp>(top->getParentOp()))
    top = top->getParentOp();
  return top;
}

LogicalResult schedutil::checkAloneInNest(
    BlockOp block, function_ref<InFlightDiagnostic()> error, bool allowInit) {
  if (block.getPredicate())
    return error() << "the block has a predicate";
  if (!allowInit && block.getInitOp())
    return error() << "the block has a tensorir.init";
  Operation *top = getTopInScope(block);
  SmallVector<BlockOp> nest = getChildBlocks(top);
  if (top != block.getOperation() &&
      (nest.size() != 1 || nest.front() != block))
    return error() << "its loop nest contains other blocks";
  WalkResult result = top->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == block.getOperation())
      return WalkResult::skip();
    if (isa<ForOp, YieldOp>(op) || isMovableExpr(op))
      return WalkResult::advance();
    error() << "its loop nest contains a statement outside the block";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Checks that `block` is a single store of a side-effect free computation
/// (over loads) to an alloc_buffer, at an index that is each iteration
/// variable once.
static FailureOr<InlinableBlock>
matchInlinable(BlockOp block, function_ref<InFlightDiagnostic()> error,
               StoreIndex storeIndex = StoreIndex::IterVars) {
  if (block.hasReduceIterVars())
    return error() << "the block has reduce iteration variables";
  InlinableBlock result;
  for (Operation &op : block.getBodyBlock()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return error() << "its body has an op with regions ('" << op.getName()
                     << "')";
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (result.store)
        return error() << "the block stores more than once";
      result.store = store;
      continue;
    }
    if (result.store)
      return error() << "the store is not the last op of the block";
    if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(&op))
      return error() << "its body has an op with side effects ('"
                     << op.getName() << "')";
  }
  if (!result.store)
    return error() << "the block stores nothing";
  if (storeIndex == StoreIndex::Any)
    return result;
  llvm::SmallBitVector seen(block.getNumIterVars());
  for (Value index : result.store.getIndices()) {
    auto arg = dyn_cast<BlockArgument>(index);
    if (!arg || arg.getOwner() != block.getBodyBlock() ||
        seen.test(arg.getArgNumber()))
      break;
    seen.set(arg.getArgNumber());
    result.storeIterVars.push_back(arg.getArgNumber());
  }
  if (result.storeIterVars.size() == block.getNumIterVars() &&
      result.store.getIndices().size() == block.getNumIterVars())
    return result;
  result.storeIterVars.clear();
  if (storeIndex == StoreIndex::Bijective) {
    SmallVector<Value> iterVars(block.getBodyBlock()->getArguments());
    SmallVector<AffineExpr> indices;
    SmallVector<int64_t> extents;
    for (unsigned v = 0, e = block.getNumIterVars(); v < e; ++v)
      extents.push_back(
          block.getConstantExtent(v).value_or(ShapedType::kDynamic));
    for (Value index : result.store.getIndices())
      if (std::optional<AffineExpr> expr =
              toAffine(index, iterVars, block.getContext()))
        indices.push_back(*expr);
    if (indices.size() == result.store.getIndices().size() &&
        !llvm::is_contained(extents, ShapedType::kDynamic) &&
        isDigitDecomposition(indices, extents,
                             result.store.getMemRefType().getShape()))
      return result;
    return error() << "the store index is not its iteration variables, each "
                      "once, nor a decomposition of them that stores each "
                      "element once";
  }
  return error() << "the store index is not its iteration variables, each "
                    "once";
}

/// The blocks of the prim_func other than `except`, with their regions.
static LogicalResult
forEachOtherBlock(Operation *func, BlockOp except,
                  function_ref<LogicalResult(BlockOp, AccessRegions &)> fn) {
  SmallVector<BlockOp> blocks;
  func->walk([&](BlockOp b) {
    if (b != except && !b->isAncestor(except))
      blocks.push_back(b);
  });
  for (BlockOp b : blocks) {
    FailureOr<AccessRegions> regions = getAccessRegions(b);
    if (failed(regions) || failed(fn(b, *regions)))
      return failure();
  }
  return success();
}

/// Erases the loop nest of `block` and the buffer `buffer` if nothing uses it
/// any more.
static void eraseNestAndBuffer(RewriterBase &rewriter, Operation *top,
                               Value buffer) {
  rewriter.eraseOp(top);
  if (auto alloc = buffer.getDefiningOp<AllocBufferOp>();
      alloc && alloc->use_empty())
    rewriter.eraseOp(alloc);
}

LogicalResult Schedule::computeInlineImpl(BlockOp block) {
  auto error = [&]() {
    return block.emitError("cannot compute_inline ") << describe(block) << ": ";
  };
  if (failed(checkAloneInNest(block, error)))
    return failure();
  FailureOr<InlinableBlock> inl = matchInlinable(block, error);
  if (failed(inl))
    return failure();
  Value buffer = inl->store.getMemRef();
  if (!buffer.getDefiningOp<AllocBufferOp>())
    return error() << "it writes a buffer that is not a tensorir.alloc_buffer";
  Operation *top = getTopInScope(block);
  // What the body uses from outside must not come from its loop nest.
  WalkResult outside = block.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *owner = operand.getDefiningOp();
      if (!owner)
        owner = cast<BlockArgument>(operand).getOwner()->getParentOp();
      if (top->isAncestor(owner) && !block->isAncestor(owner)) {
        error() << "its body uses a value computed in its loop nest";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return failure();
  FailureOr<AccessRegions> own = getAccessRegions(block);
  if (failed(own))
    return failure();
  // The only writer; the buffers it reads are not written after it (the
  // inlined reads move to the consumers).
  if (failed(forEachOtherBlock(
          func, block,
          [&](BlockOp other, AccessRegions &regions) -> LogicalResult {
            if (llvm::is_contained(regions.writeBuffers, buffer)) {
              auto diag = error() << describe(other) << " also writes "
                                  << "the buffer it writes";
              diag.attachNote(other.getLoc()) << "block is here";
              return diag;
            }
            for (Value read : own->readBuffers)
              if (llvm::is_contained(regions.writeBuffers, read) &&
                  getTopInScope(other)->getBlock() == top->getBlock() &&
                  top->isBeforeInBlock(getTopInScope(other))) {
                auto diag = error() << describe(other)
                                    << " after it writes a buffer it reads";
                diag.attachNote(other.getLoc()) << "block is here";
                return diag;
              }
            return success();
          })))
    return failure();
  // Every other use of the buffer must be a load in a block after it.
  SmallVector<memref::LoadOp> loads;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (user == inl->store.getOperation() || isa<BlockOp>(user))
      continue; // Block reads/writes lists are refreshed below.
    if (block->isAncestor(user))
      return error() << "the block reads the buffer it writes";
    auto load = dyn_cast<memref::LoadOp>(user);
    BlockOp consumer = load ? load->getParentOfType<BlockOp>() : BlockOp();
    if (!load || !consumer) {
      auto diag = error() << "its buffer is used by '" << user->getName()
                          << "', which cannot take the inlined computation";
      diag.attachNote(user->getLoc()) << "use is here";
      return diag;
    }
    if (getTopInScope(consumer)->getBlock() != top->getBlock() ||
        !top->isBeforeInBlock(getTopInScope(consumer))) {
      auto diag = error() << describe(consumer)
                          << " reads its buffer but does not come after it";
      diag.attachNote(consumer.getLoc()) << "block is here";
      return diag;
    }
    loads.push_back(load);
  }

  // Replace each load by the computation at the loaded index.
  SmallVector<BlockOp> consumers;
  OpBuilder::InsertionGuard guard(rewriter);
  for (memref::LoadOp load : loads) {
    IRMapping map;
    for (auto [d, iterVar] : llvm::enumerate(inl->storeIterVars))
      map.map(block.getIterVar(iterVar), load.getIndices()[d]);
    rewriter.setInsertionPoint(load);
    for (Operation &op : block.getBodyBlock()->without_terminator())
      if (&op != inl->store.getOperation())
        rewriter.clone(op, map);
    BlockOp consumer = load->getParentOfType<BlockOp>();
    rewriter.replaceOp(load, map.lookupOrDefault(inl->store.getValue()));
    if (!llvm::is_contained(consumers, consumer))
      consumers.push_back(consumer);
  }
  // Drop the buffer from the consumers' declared regions.
  for (BlockOp consumer : consumers)
    refreshAccessRegions(rewriter, consumer, /*force=*/false);
  eraseNestAndBuffer(rewriter, top, buffer);
  return success();
}

LogicalResult Schedule::reverseComputeInlineImpl(BlockOp block,
                                                 bool keepInput) {
  auto error = [&]() {
    return block.emitError("cannot reverse_compute_inline ")
           << describe(block) << ": ";
  };
  if (failed(checkAloneInNest(block, error)))
    return failure();
  // Its own store may be at any index: the producer's iterations take it
  // over with the iteration variables replaced.
  FailureOr<InlinableBlock> inl = matchInlinable(block, error, StoreIndex::Any);
  if (failed(inl))
    return failure();
  // The buffer it reads from its producer: loaded at one index that is each
  // iteration variable once. An intermediate, or with `keepInput` also a
  // parameter of the function (an output the producer keeps writing).
  Value input;
  SmallVector<memref::LoadOp> inputLoads;
  SmallVector<int> iterVarOfDim;
  BlockOp producer;
  for (Operation &op : block.getBodyBlock()->without_terminator()) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load)
      continue;
    Value memref = load.getMemRef();
    bool parameter =
        isa<BlockArgument>(memref) &&
        isa<PrimFuncOp>(cast<BlockArgument>(memref).getOwner()->getParentOp());
    if (!memref.getDefiningOp<AllocBufferOp>() && !(keepInput && parameter))
      continue;
    // Written by a block: a candidate producer.
    BlockOp writer;
    for (Operation *user : load.getMemRef().getUsers())
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && store.getMemRef() == load.getMemRef() &&
          !block->isAncestor(store))
        writer = store->getParentOfType<BlockOp>();
    if (!writer)
      continue;
    if (input && input != load.getMemRef())
      return error() << "it reads more than one intermediate buffer";
    input = load.getMemRef();
    producer = writer;
    inputLoads.push_back(load);
  }
  if (!input)
    return error() << "it reads no buffer that a block writes";
  for (memref::LoadOp load : inputLoads) {
    SmallVector<int> dims;
    llvm::SmallBitVector seen(block.getNumIterVars());
    for (Value index : load.getIndices()) {
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg || arg.getOwner() != block.getBodyBlock() ||
          seen.test(arg.getArgNumber()))
        return error() << "it reads its input at an index that is not its "
                          "iteration variables, each once";
      seen.set(arg.getArgNumber());
      dims.push_back(arg.getArgNumber());
    }
    if (seen.count() != block.getNumIterVars())
      return error() << "it reads its input at an index that is not its "
                        "iteration variables, each once";
    if (!iterVarOfDim.empty() && iterVarOfDim != dims)
      return error() << "it reads its input at two different indices";
    iterVarOfDim = dims;
  }
  if (failed(checkCoversDomain(block, getTopInScope(block), error)))
    return failure();
  auto producerError = [&]() {
    auto diag = error();
    diag.attachNote(producer.getLoc()) << "producer is here";
    return diag;
  };
  if (producer.hasReduceIterVars())
    return producerError() << "the producer is a reduction (the block would "
                              "be applied to partial results)";
  // The producer stores each element of its input once (the block reads
  // every element once).
  FailureOr<InlinableBlock> prod =
      matchInlinable(producer, producerError, StoreIndex::Bijective);
  if (failed(prod))
    return failure();
  if (prod->store.getMemRef() != input)
    return producerError() << "the producer does not store to its input";
  if (getTopInScope(producer)->getBlock() != getTopInScope(block)->getBlock() ||
      !getTopInScope(producer)->isBeforeInBlock(getTopInScope(block)))
    return producerError() << "the producer does not come before it in the "
                              "same scope";
  // The block may cover less than the producer (pad_einsum's copy back of
  // a padded output): the producer's domain then shrinks to the block's,
  // under a predicate.
  SmallVector<std::pair<unsigned, int64_t>> masked;
  for (auto [d, iterVar] : llvm::enumerate(iterVarOfDim)) {
    if (prod->storeIterVars.empty()) {
      // A decomposed store covers the input's shape exactly.
      if (block.getConstantExtent(iterVar) !=
          prod->store.getMemRefType().getDimSize(d))
        return producerError()
               << "iteration variable " << block.getIterVarDisplayName(iterVar)
               << " does not cover dimension " << d << " of its input";
      continue;
    }
    unsigned producerVar = prod->storeIterVars[d];
    if (block.getExtent(iterVar) == producer.getExtent(producerVar))
      continue;
    std::optional<int64_t> extent = block.getConstantExtent(iterVar);
    std::optional<int64_t> producerExtent =
        producer.getConstantExtent(producerVar);
    if (!extent || !producerExtent || *extent > *producerExtent ||
        ShapedType::isDynamic(producer.getStaticExtents()[producerVar]))
      return producerError()
             << "iteration variable " << block.getIterVarDisplayName(iterVar)
             << " and the producer's "
             << producer.getIterVarDisplayName(producerVar)
             << " have different domains (and the block's is not a constant "
                "prefix of the producer's)";
    masked.push_back({producerVar, *extent});
  }
  if (keepInput && !masked.empty())
    return producerError() << "with keep_input the block must cover the "
                              "producer's whole domain";
  // It must be the only reader of the input, and nothing between the two may
  // touch what it reads or writes.
  Operation *top = getTopInScope(block);
  Operation *producerTop = getTopInScope(producer);
  FailureOr<AccessRegions> own = getAccessRegions(block);
  if (failed(own))
    return failure();
  for (Operation *user : input.getUsers()) {
    // A kept input stays the producer's output: other readers keep it.
    if (keepInput || isa<BlockOp>(user) || block->isAncestor(user) ||
        user == prod->store.getOperation())
      continue;
    auto diag = error() << "its input is also used by '" << user->getName()
                        << "'";
    diag.attachNote(user->getLoc()) << "use is here";
    return diag;
  }
  for (Operation *op = producerTop->getNextNode(); op != top;
       op = op->getNextNode()) {
    SmallVector<BlockOp> blocks = getChildBlocks(op);
    if (auto b = dyn_cast<BlockOp>(op))
      blocks = {b};
    for (BlockOp other : blocks) {
      FailureOr<AccessRegions> regions = getAccessRegions(other);
      if (failed(regions))
        return failure();
      auto conflict = [&](ArrayRef<Value> a, ArrayRef<Value> b) {
        return llvm::any_of(a,
                            [&](Value v) { return llvm::is_contained(b, v); });
      };
      if (conflict(regions->writeBuffers, own->readBuffers) ||
          conflict(regions->writeBuffers, own->writeBuffers) ||
          conflict(regions->readBuffers, own->writeBuffers)) {
        auto diag = error() << describe(other)
                            << " between it and its producer accesses its "
                               "buffers";
        diag.attachNote(other.getLoc()) << "block is here";
        return diag;
      }
    }
  }
  // What the body uses from outside must be available at the producer.
  DominanceInfo dominance(func);
  WalkResult unavailable = block.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *owner = operand.getDefiningOp();
      if (!owner)
        owner = cast<BlockArgument>(operand).getOwner()->getParentOp();
      if (block->isAncestor(owner))
        continue;
      if (!dominance.properlyDominates(operand, producer)) {
        error() << "its body uses a value that is not available at the "
                   "producer";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (unavailable.wasInterrupted())
    return failure();

  // The consumer's computation replaces the producer's store (or, keeping
  // the input, follows it).
  OpBuilder::InsertionGuard guard(rewriter);
  IRMapping map;
  for (auto [d, iterVar] : llvm::enumerate(iterVarOfDim))
    map.map(block.getIterVar(iterVar), prod->store.getIndices()[d]);
  for (memref::LoadOp load : inputLoads)
    map.map(load.getResult(), prod->store.getValue());
  if (keepInput)
    rewriter.setInsertionPointAfter(prod->store);
  else
    rewriter.setInsertionPoint(prod->store);
  for (Operation &op : block.getBodyBlock()->without_terminator())
    if (!llvm::is_contained(inputLoads, dyn_cast<memref::LoadOp>(op)))
      rewriter.clone(op, map);
  if (!keepInput)
    rewriter.eraseOp(prod->store);
  if (!masked.empty()) {
    rewriter.setInsertionPoint(producer);
    Value pred = producer.getPredicate();
    for (auto [producerVar, extent] : masked) {
      Location loc = producer.getLoc();
      Value bound = arith::ConstantIndexOp::create(rewriter, loc, extent);
      Value inside =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                producer.getBindings()[producerVar], bound);
      pred = pred ? arith::AndIOp::create(rewriter, loc, pred, inside) : inside;
    }
    // The producer's domain shrinks to the block's; the predicate masks the
    // iterations whose bindings leave it.
    rewriter.modifyOpInPlace(producer, [&] {
      producer.getPredicateMutable().assign(pred);
      SmallVector<int64_t> extents =
          llvm::to_vector(producer.getStaticExtents());
      for (auto [producerVar, extent] : masked)
        extents[producerVar] = extent;
      producer.setStaticExtents(extents);
    });
  }
  refreshAccessRegions(rewriter, producer, /*force=*/false);
  eraseNestAndBuffer(rewriter, top, input);
  return success();
}

//===----------------------------------------------------------------------===//
// cache_read / cache_write
//===----------------------------------------------------------------------===//

std::string schedutil::getUniqueBlockName(BlockOp block,
                                          const std::string &base) {
  auto func = block->getParentOfType<PrimFuncOp>();
  llvm::StringSet<> names;
  func.walk([&](BlockOp b) { names.insert(b.getName()); });
  std::string name = base;
  for (unsigned n = 1; names.contains(name); ++n)
    name = base + "_" + std::to_string(n);
  return name;
}

namespace {
/// What cache_read/cache_write need: the buffer, its constant region over
/// the block's loop nest, and where the block's nest is.
struct CacheTarget {
  Value buffer;
  MemRefType type;
  SmallVector<int64_t> lower, extent;
  Operation *top;
};
} // namespace

static FailureOr<CacheTarget>
getCacheTarget(BlockOp block, unsigned index, bool write,
               function_ref<InFlightDiagnostic()> error) {
  FailureOr<AccessRegions> regions = getAccessRegions(block);
  if (failed(regions))
    return failure();
  ArrayRef<Value> buffers =
      write ? regions->writeBuffers : regions->readBuffers;
  ArrayRef<Attribute> attrs = write ? regions->writes : regions->reads;
  if (index >= buffers.size())
    return error() << "it " << (write ? "writes " : "reads ") << buffers.size()
                   << " buffers, there is no buffer #" << index;
  CacheTarget target;
  target.buffer = buffers[index];
  target.type = dyn_cast<MemRefType>(target.buffer.getType());
  if (!target.type || !target.type.hasStaticShape())
    return error() << "buffer '" << getBufferName(target.buffer)
                   << "' does not have a static shape";
  FailureOr<SmallVector<ProducedRange>> ranges =
      relaxRegion(block, cast<BufferRegionAttr>(attrs[index]), 0, error);
  if (failed(ranges))
    return failure();
  for (const ProducedRange &range : *ranges) {
    auto lower = dyn_cast<AffineConstantExpr>(range.lower);
    if (!lower)
      return error() << "the region of buffer '" << getBufferName(target.buffer)
                     << "' is not constant over the block's loops";
    // Clamped to the buffer: a predicated tail relaxes beyond it but never
    // accesses there.
    int64_t size = target.type.getDimSize(target.lower.size());
    int64_t lo = std::max<int64_t>(lower.getValue(), 0);
    int64_t hi = std::min<int64_t>(lower.getValue() + range.extent, size);
    if (hi <= lo)
      return error() << "the region of buffer '" << getBufferName(target.buffer)
                     << "' lies outside the buffer";
    target.lower.push_back(lo);
    target.extent.push_back(hi - lo);
  }
  target.top = getTopInScope(block);
  return target;
}

/// Creates, at the insertion point, a loop nest and block copying
/// `src[region]` to `dst[region]`.
static BlockOp createCopy(RewriterBase &rewriter, Location loc, StringRef name,
                          Value src, Value dst, const CacheTarget &target) {
  SmallVector<Value> bindings;
  SmallVector<OpFoldResult> extents;
  SmallVector<IterVarType> types;
  SmallVector<ForOp> loops;
  for (auto [d, lower, extent] : llvm::enumerate(target.lower, target.extent)) {
    extents.push_back(rewriter.getIndexAttr(target.type.getDimSize(d)));
    types.push_back(IterVarType::spatial);
    if (extent == 1) {
      bindings.push_back(arith::ConstantIndexOp::create(rewriter, loc, lower));
      continue;
    }
    auto loop = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                              rewriter.getIndexAttr(extent));
    loop.setIvNameAttr(rewriter.getStringAttr(("ax" + Twine(d)).str()));
    rewriter.setInsertionPoint(loop.getBodyBlock()->getTerminator());
    AffineExpr expr = rewriter.getAffineDimExpr(0) + lower;
    bindings.push_back(getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(
            rewriter, loc, AffineMap::get(1, 0, expr),
            {OpFoldResult(loop.getInductionVar())})));
  }
  auto copy = BlockOp::create(rewriter, loc, name, types, extents, bindings,
                              [&](OpBuilder &b, Location loc, ValueRange ivs) {
                                Value v =
                                    memref::LoadOp::create(b, loc, src, ivs);
                                memref::StoreOp::create(b, loc, v, dst, ivs);
                              });
  finishCopyBlock(rewriter, copy);
  return copy;
}

void schedutil::finishCopyBlock(RewriterBase &rewriter, BlockOp block) {
  SmallVector<Attribute> names;
  for (unsigned d = 0, e = block.getNumIterVars(); d < e; ++d)
    names.push_back(rewriter.getStringAttr(("v" + Twine(d)).str()));
  block.setIterVarNamesAttr(rewriter.getArrayAttr(names));
  refreshAccessRegions(rewriter, block, /*force=*/true);
}

/// Builds, at the insertion point, a loop nest over `shape` with one block
/// `name` of spatial iteration variables, whose body `body` builds.
BlockOp schedutil::createSpatialNest(
    RewriterBase &rewriter, Location loc, StringRef name,
    ArrayRef<int64_t> shape,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> bindings;
  SmallVector<OpFoldResult> extents;
  for (auto [d, size] : llvm::enumerate(shape)) {
    auto loop = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                              rewriter.getIndexAttr(size));
    loop.setIvNameAttr(rewriter.getStringAttr(("ax" + Twine(d)).str()));
    rewriter.setInsertionPoint(loop.getBodyBlock()->getTerminator());
    bindings.push_back(loop.getInductionVar());
    extents.push_back(rewriter.getIndexAttr(size));
  }
  SmallVector<IterVarType> types(shape.size(), IterVarType::spatial);
  auto block =
      BlockOp::create(rewriter, loc, name, types, extents, bindings, body);
  finishCopyBlock(rewriter, block);
  return block;
}

/// The cache buffer of cache_read/cache_write, in `scope`.
static Value createCacheBuffer(RewriterBase &rewriter, Location loc,
                               MemRefType type, StringRef name,
                               StringRef scope) {
  auto alloc = AllocBufferOp::create(rewriter, loc, type, {}, name);
  if (scope != "global")
    alloc.setScopeAttr(rewriter.getStringAttr(scope));
  return alloc;
}

/// Makes `block` use `cache` instead of `buffer`.
static void redirect(RewriterBase &rewriter, BlockOp block, Value buffer,
                     Value cache) {
  rewriter.replaceUsesWithIf(buffer, cache, [&](OpOperand &use) {
    return block->isAncestor(use.getOwner());
  });
}

FailureOr<BlockOp> Schedule::cacheReadImpl(BlockOp block, unsigned readIndex,
                                           StringRef storageScope) {
  auto error = [&]() {
    return block.emitError("cannot cache_read ")
           << describe(block) << " buffer #" << readIndex << ": ";
  };
  if (!AllocBufferOp::isKnownStorageScope(storageScope))
    return error() << "unknown storage scope \"" << storageScope
                   << "\" (expected global, shared, shared.dyn or local)";
  FailureOr<CacheTarget> target =
      getCacheTarget(block, readIndex, /*write=*/false, error);
  if (failed(target))
    return failure();
  FailureOr<AccessRegions> regions = getAccessRegions(block);
  if (succeeded(regions) &&
      llvm::is_contained(regions->writeBuffers, target->buffer))
    return error() << "the block also writes buffer '"
                   << getBufferName(target->buffer) << "'";
  std::string name = getUniqueBlockName(block, getBufferName(target->buffer) +
                                                   "_" + storageScope.str());
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(target->top);
  Value cache =
      createCacheBuffer(rewriter, loc, target->type, name, storageScope);
  redirect(rewriter, block, target->buffer, cache);
  return createCopy(rewriter, loc, name, target->buffer, cache, *target);
}

FailureOr<BlockOp> Schedule::cacheWriteImpl(BlockOp block, unsigned writeIndex,
                                            StringRef storageScope) {
  auto error = [&]() {
    return block.emitError("cannot cache_write ")
           << describe(block) << " buffer #" << writeIndex << ": ";
  };
  if (!AllocBufferOp::isKnownStorageScope(storageScope))
    return error() << "unknown storage scope \"" << storageScope
                   << "\" (expected global, shared, shared.dyn or local)";
  FailureOr<CacheTarget> target =
      getCacheTarget(block, writeIndex, /*write=*/true, error);
  if (failed(target))
    return failure();
  // The cache starts uninitialised: the block may only read what it wrote,
  // i.e. a reduction with an init.
  if (!block.getInitOp()) {
    bool reads = false;
    block.getBody().walk([&](memref::LoadOp load) {
      reads |= load.getMemRef() == target->buffer;
    });
    if (reads)
      return error() << "the block reads buffer '"
                     << getBufferName(target->buffer)
                     << "' without a tensorir.init (the cache would start "
                        "uninitialised)";
  }
  std::string name = getUniqueBlockName(block, getBufferName(target->buffer) +
                                                   "_" + storageScope.str());
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(target->top);
  Value cache =
      createCacheBuffer(rewriter, loc, target->type, name, storageScope);
  redirect(rewriter, block, target->buffer, cache);
  rewriter.setInsertionPointAfter(target->top);
  return createCopy(rewriter, loc, name, cache, target->buffer, *target);
}

//===----------------------------------------------------------------------===//
// rfactor
//===----------------------------------------------------------------------===//

FailureOr<BlockOp> Schedule::rfactorImpl(ForOp loop) {
  auto error = [&](Operation *at) {
    return at->emitError("cannot rfactor ") << describe(loop) << ": ";
  };
  SmallVector<BlockOp> children = getChildBlocks(loop);
  if (children.size() != 1)
    return error(loop) << "it must contain exactly one block, it contains "
                       << children.size();
  BlockOp block = children.front();
  InitOp init = block.getInitOp();
  if (!init)
    return error(block) << describe(block) << " has no tensorir.init";
  FailureOr<int64_t> extent = getConstantExtent(loop, "rfactor");
  if (failed(extent))
    return failure();
  Value iv = loop.getInductionVar();
  SmallVector<unsigned> spatialVars, reduceVars;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    (block.isReduceIterVar(i) ? reduceVars : spatialVars).push_back(i);
  for (unsigned i : spatialVars)
    if (dependsOn(block.getBindings()[i], iv))
      return error(loop) << "it is bound to spatial iteration variable "
                         << block.getIterVarDisplayName(i) << " of "
                         << describe(block);
  if (llvm::none_of(reduceVars, [&](unsigned i) {
        return dependsOn(block.getBindings()[i], iv);
      }))
    return error(loop) << "it is not bound to a reduce iteration variable of "
                       << describe(block);
  if (Value pred = block.getPredicate(); pred && dependsOn(pred, iv))
    return error(block) << "the predicate of " << describe(block)
                        << " depends on the loop";

  // The reduction: init `Y[s] = identity`, body `Y[s] = combine(Y[s], v)`.
  std::string why;
  std::optional<ReductionBlock> reduction = matchReductionBlock(block, &why);
  if (!reduction)
    return error(block) << why;
  Attribute identity = reduction->identity;
  memref::StoreOp store = reduction->store;
  Value buffer = store.getMemRef();
  auto bufferType = cast<MemRefType>(buffer.getType());
  if (!bufferType.hasStaticShape())
    return error(block) << "the reduction buffer has no static shape";
  SmallVector<unsigned> storeVars = reduction->storeIterVars;
  Operation *combiner = reduction->combiner;
  int accOperand = reduction->accOperand;
  // The reduce iteration variables as functions of the loops: `loop`
  // becomes the rfactor axis, the other loops they use become new reduce
  // iteration variables and must not feed spatial ones.
  SmallVector<ForOp> loops = getLoops(block);
  SmallVector<Value> ivs =
      llvm::map_to_vector(loops, [](ForOp l) { return l.getInductionVar(); });
  SmallVector<AffineExpr> reduceExprs;
  llvm::SmallBitVector used(loops.size());
  for (unsigned r : reduceVars) {
    std::optional<AffineExpr> expr =
        toAffine(block.getBindings()[r], ivs, getFunc().getContext());
    if (!expr)
      return error(block) << "the binding of " << block.getIterVarDisplayName(r)
                          << " is not an affine function of the loops";
    for (unsigned d = 0; d < loops.size(); ++d)
      if (expr->isFunctionOfDim(d))
        used.set(d);
    reduceExprs.push_back(*expr);
  }
  SmallVector<unsigned> otherLoops;
  for (unsigned d : used.set_bits()) {
    if (loops[d] == loop)
      continue;
    for (unsigned i : spatialVars)
      if (dependsOn(block.getBindings()[i], ivs[d]))
        return error(loops[d]) << describe(loops[d])
                               << " feeds both spatial and reduce iteration "
                                  "variables";
    if (failed(getConstantExtent(loops[d], "rfactor")))
      return failure();
    otherLoops.push_back(d);
  }
  WalkResult initUsesReduce = init.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == block.getBodyBlock() &&
          block.isReduceIterVar(arg.getArgNumber()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (initUsesReduce.wasInterrupted())
    return error(block) << "the init uses a reduce iteration variable";

  // Y_rf[rf, s...]: the partial results.
  MLIRContext *ctx = getFunc().getContext();
  Location loc = block.getLoc();
  Operation *top = getTopInScope(block);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(top);
  SmallVector<int64_t> rfShape{*extent};
  llvm::append_range(rfShape, bufferType.getShape());
  std::string rfName = getBufferName(buffer) + "_rf";
  Value rfBuffer = AllocBufferOp::create(
      rewriter, loc, MemRefType::get(rfShape, bufferType.getElementType()), {},
      rfName);

  // The rfactor block replaces the block: iteration variables (rf, spatial,
  // one reduce per other loop).
  SmallVector<IterVarType> types{IterVarType::spatial};
  SmallVector<OpFoldResult> extents{rewriter.getIndexAttr(*extent)};
  SmallVector<Value> bindings{iv};
  for (unsigned i : spatialVars) {
    types.push_back(IterVarType::spatial);
    extents.push_back(block.getExtent(i));
    bindings.push_back(block.getBindings()[i]);
  }
  for (unsigned d : otherLoops) {
    types.push_back(IterVarType::reduce);
    extents.push_back(rewriter.getIndexAttr(*loops[d].getConstantUpperBound()));
    bindings.push_back(ivs[d]);
  }
  rewriter.setInsertionPoint(block);
  auto rfBlock = BlockOp::create(rewriter, loc, (block.getName() + "_rf").str(),
                                 types, extents, bindings);
  if (Value pred = block.getPredicate())
    rfBlock.getPredicateMutable().assign(pred);
  IRMapping map;
  for (auto [k, i] : llvm::enumerate(spatialVars))
    map.map(block.getIterVar(i), rfBlock.getIterVar(1 + k));
  Value rfVar = rfBlock.getIterVar(0);
  auto rebuildAccesses = [&](Operation *cloned) {
    cloned->walk([&](Operation *op) {
      OpBuilder b(op);
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && load.getMemRef() == buffer) {
        SmallVector<Value> indices{rfVar};
        llvm::append_range(indices, load.getIndices());
        Value v = memref::LoadOp::create(b, load.getLoc(), rfBuffer, indices);
        load.getResult().replaceAllUsesWith(v);
        load.erase();
      } else if (auto st = dyn_cast<memref::StoreOp>(op);
                 st && st.getMemRef() == buffer) {
        SmallVector<Value> indices{rfVar};
        llvm::append_range(indices, st.getIndices());
        memref::StoreOp::create(b, st.getLoc(), st.getValue(), rfBuffer,
                                indices);
        st.erase();
      }
    });
  };
  rewriter.setInsertionPoint(rfBlock.getBodyBlock()->getTerminator());
  rewriter.clone(*init, map);
  // The old reduce iteration variables from the new ones.
  for (auto [r, expr] : llvm::zip(reduceVars, reduceExprs)) {
    SmallVector<AffineExpr> dims(loops.size(), getAffineConstantExpr(0, ctx));
    SmallVector<Value> operands;
    for (unsigned d = 0; d < loops.size(); ++d) {
      if (loops[d] == loop) {
        dims[d] = getAffineDimExpr(operands.size(), ctx);
        operands.push_back(rfVar);
      }
    }
    for (auto [k, d] : llvm::enumerate(otherLoops)) {
      dims[d] = getAffineDimExpr(operands.size(), ctx);
      operands.push_back(rfBlock.getIterVar(1 + spatialVars.size() + k));
    }
    AffineMap m = AffineMap::get(operands.size(), 0, expr.replaceDims(dims));
    map.map(block.getIterVar(r),
            affine::AffineApplyOp::create(rewriter, loc, m, operands));
  }
  for (Operation &op : block.getBodyBlock()->without_terminator()) {
    if (&op == init.getOperation())
      continue;
    rewriter.clone(op, map);
  }
  // After cloning everything: the mapping refers to the cloned loads.
  rebuildAccesses(rfBlock);
  refreshAccessRegions(rewriter, rfBlock,
                       /*force=*/block.getReads() || block.getWrites());

  // The write-back block "<name>": Y[s] = combine over rf of Y_rf[rf, s].
  rewriter.setInsertionPointAfter(top);
  SmallVector<IterVarType> wbTypes;
  SmallVector<OpFoldResult> wbExtents;
  SmallVector<Value> wbBindings;
  for (unsigned i : spatialVars) {
    auto l = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                           block.getExtent(i));
    l.setIvNameAttr(
        rewriter.getStringAttr(("ax" + Twine(wbTypes.size())).str()));
    wbTypes.push_back(IterVarType::spatial);
    wbExtents.push_back(block.getExtent(i));
    wbBindings.push_back(l.getInductionVar());
    rewriter.setInsertionPoint(l.getBodyBlock()->getTerminator());
  }
  auto rfLoop = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                              rewriter.getIndexAttr(*extent));
  rfLoop.setIvNameAttr(
      rewriter.getStringAttr((loop.getIvName().value_or("i") + "_rf").str()));
  rewriter.setInsertionPoint(rfLoop.getBodyBlock()->getTerminator());
  wbTypes.push_back(IterVarType::reduce);
  wbExtents.push_back(rewriter.getIndexAttr(*extent));
  wbBindings.push_back(rfLoop.getInductionVar());
  auto wb = BlockOp::create(rewriter, loc, block.getName(), wbTypes, wbExtents,
                            wbBindings);
  {
    SmallVector<Value> idx, rfIdx{wb.getIterVar(spatialVars.size())};
    for (unsigned v : storeVars)
      idx.push_back(
          wb.getIterVar(llvm::find(spatialVars, v) - spatialVars.begin()));
    llvm::append_range(rfIdx, idx);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPoint(wb.getBodyBlock()->getTerminator());
    auto wbInit = InitOp::create(rewriter, loc);
    rewriter.setInsertionPoint(wbInit.getBody().front().getTerminator());
    Value id =
        arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(identity));
    memref::StoreOp::create(rewriter, loc, id, buffer, idx);
    rewriter.setInsertionPoint(wb.getBodyBlock()->getTerminator());
    Value acc = memref::LoadOp::create(rewriter, loc, buffer, idx);
    Value part = memref::LoadOp::create(rewriter, loc, rfBuffer, rfIdx);
    IRMapping cmap;
    cmap.map(combiner->getOperand(accOperand), acc);
    cmap.map(combiner->getOperand(1 - accOperand), part);
    Operation *c = rewriter.clone(*combiner, cmap);
    memref::StoreOp::create(rewriter, loc, c->getResult(0), buffer, idx);
  }
  refreshAccessRegions(rewriter, wb,
                       /*force=*/block.getReads() || block.getWrites());
  rewriter.eraseOp(block);
  return rfBlock;
}
