//===- Schedule.cpp - TensorIR loop schedule primitives ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The loop primitives of TVM's tir.Schedule: get_block, get_loops, split,
// fuse, reorder, tile, parallel, vectorize, unroll and bind. The block
// primitives (decompose_reduction, reverse_compute_at) are in
// ScheduleBlocks.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"
#include "ScheduleUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc::tensorir;
using namespace mlc::tensorir::schedutil;

//===----------------------------------------------------------------------===//
// Shared helpers (ScheduleUtils.h)
//===----------------------------------------------------------------------===//

std::string schedutil::describe(ForOp loop) {
  return ("loop '" + loop.getIvName().value_or("?") + "'").str();
}

std::string schedutil::describe(BlockOp block) {
  return ("block '" + block.getName() + "'").str();
}

SmallVector<BlockOp> schedutil::getChildBlocks(Operation *op) {
  SmallVector<BlockOp> blocks;
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    if (auto block = dyn_cast<BlockOp>(nested)) {
      blocks.push_back(block);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return blocks;
}

bool schedutil::isMovableExpr(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

LogicalResult schedutil::checkStartsAtZero(ForOp loop, StringRef primitive) {
  std::optional<int64_t> lb = loop.getConstantLowerBound();
  std::optional<int64_t> step = loop.getConstantStep();
  if (!lb || *lb != 0 || !step || *step != 1)
    return loop.emitError("cannot ") << primitive << " " << describe(loop)
                                     << ": it must start at 0 with step 1";
  return success();
}

FailureOr<int64_t> schedutil::getConstantExtent(ForOp loop,
                                                StringRef primitive) {
  if (failed(checkStartsAtZero(loop, primitive)))
    return failure();
  std::optional<int64_t> ub = loop.getConstantUpperBound();
  if (!ub)
    return loop.emitError("cannot ") << primitive << " " << describe(loop)
                                     << ": its extent is not a constant";
  return *ub;
}

/// Checks that `inner` is the only statement in the body of `outer`, apart
/// from side-effect free index computations.
static LogicalResult checkPerfectlyNested(ForOp outer, ForOp inner,
                                          StringRef primitive) {
  if (inner->getParentOp() != outer.getOperation())
    return inner.emitError("cannot ")
           << primitive << ": " << describe(inner)
           << " is not directly nested in " << describe(outer);
  for (Operation &op : outer.getBodyBlock()->without_terminator()) {
    if (&op == inner.getOperation() || isMovableExpr(&op))
      continue;
    InFlightDiagnostic diag = outer.emitError("cannot ")
                              << primitive << ": " << describe(outer)
                              << " contains a statement other than "
                              << describe(inner)
                              << " (the loops must be perfectly nested)";
    diag.attachNote(op.getLoc()) << "statement is here";
    return diag;
  }
  return success();
}

/// Moves the side-effect free ops between the loops of the perfectly nested
/// `chain` (outermost first) out of the way: those that depend on a loop of
/// the chain to the start of the innermost body, the others before the
/// chain. Afterwards every loop of the chain but the last contains only the
/// next one.
static void normalizeChain(ArrayRef<ForOp> chain) {
  SmallVector<Value> ivs =
      llvm::map_to_vector(chain, [](ForOp l) { return l.getInductionVar(); });
  ForOp last = chain.back(), first = chain.front();
  Block *innermost = last.getBodyBlock();
  Operation *sinkPoint = &innermost->front();
  for (ForOp loop : chain.drop_back()) {
    for (Operation &op : llvm::make_early_inc_range(
             loop.getBodyBlock()->without_terminator())) {
      if (isa<ForOp>(op))
        continue;
      bool dependent = llvm::any_of(op.getOperands(), [&](Value operand) {
        return dependsOn(operand, ivs);
      });
      op.moveBefore(dependent ? sinkPoint : first.getOperation());
    }
  }
}

LogicalResult schedutil::checkMaskable(ForOp loop, int64_t extent,
                                       int64_t product, StringRef primitive) {
  // Only blocks can be masked by a predicate.
  WalkResult result =
      loop.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<BlockOp>(op))
          return WalkResult::skip();
        if (isa<ForOp, YieldOp>(op) || isMovableExpr(op))
          return WalkResult::advance();
        InFlightDiagnostic diag =
            loop.emitError("cannot ")
            << primitive << " " << describe(loop) << " of extent "
            << (ShapedType::isDynamic(extent) ? std::string("?")
                                              : std::to_string(extent))
            << " into a product of " << product
            << ": a statement outside a block cannot be masked by a "
               "predicate";
        diag.attachNote(op->getLoc()) << "statement is here";
        return WalkResult::interrupt();
      });
  return failure(result.wasInterrupted());
}

LogicalResult schedutil::selectBlocks(PrimFuncOp func,
                                      ArrayRef<std::string> names,
                                      SmallVectorImpl<BlockOp> &blocks) {
  if (names.empty()) {
    func.walk<WalkOrder::PreOrder>(
        [&](BlockOp block) { blocks.push_back(block); });
    return success();
  }
  for (const std::string &name : names) {
    BlockOp block = func.lookupBlock(name);
    if (!block)
      return func.emitError("no block named '")
             << name << "' in prim_func @" << func.getSymName();
    blocks.push_back(block);
  }
  return success();
}

static StringAttr ivNameAttr(OpBuilder &b, StringRef name) {
  return b.getStringAttr(name);
}

//===----------------------------------------------------------------------===//
// get_block / get_loops
//===----------------------------------------------------------------------===//

FailureOr<BlockOp> Schedule::getBlock(StringRef name) {
  if (BlockOp block = func.lookupBlock(name))
    return block;
  return func.emitError("no block named '")
         << name << "' in prim_func @" << func.getSymName();
}

SmallVector<ForOp> Schedule::getLoops(BlockOp block) {
  SmallVector<ForOp> loops;
  for (Operation *op = block->getParentOp();
       op && !isa<BlockOp, PrimFuncOp>(op); op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op))
      loops.push_back(loop);
  std::reverse(loops.begin(), loops.end());
  return loops;
}

//===----------------------------------------------------------------------===//
// split
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<ForOp>> Schedule::splitImpl(ForOp loop,
                                                  ArrayRef<int64_t> factors) {
  if (factors.size() < 2)
    return loop.emitError("cannot split ")
           << describe(loop) << ": expected at least 2 factors, got "
           << factors.size();
  if (failed(checkStartsAtZero(loop, "split")))
    return failure();
  // A dynamic extent is split as [ceildiv(n, product), f1, ...].
  std::optional<int64_t> constExtent = loop.getConstantUpperBound();
  Value dynExtent =
      constExtent ? Value() : dyn_cast<Value>(loop.getUpperBound());
  int inferred = -1;
  int64_t product = 1;
  for (auto [i, factor] : llvm::enumerate(factors)) {
    if (factor > 0) {
      if (llvm::MulOverflow(product, factor, product))
        return loop.emitError("cannot split ")
               << describe(loop)
               << ": the product of the factors overflows a 64-bit integer";
      continue;
    }
    if (factor < 0)
      return loop.emitError("cannot split ")
             << describe(loop) << ": factor " << factor
             << " is not positive (use 0 or '?' for the inferred factor)";
    if (inferred >= 0)
      return loop.emitError("cannot split ")
             << describe(loop) << ": at most one factor may be inferred";
    inferred = i;
  }
  SmallVector<int64_t> sizes(factors);
  bool needsPredicate;
  if (!constExtent) {
    if (inferred != 0)
      return loop.emitError("cannot split ")
             << describe(loop)
             << ": its extent is not a constant, so the outermost factor "
                "must be the inferred one (e.g. [?, 4])";
    needsPredicate = product != 1;
    if (needsPredicate &&
        failed(checkMaskable(loop, ShapedType::kDynamic, product, "split")))
      return failure();
  } else {
    int64_t extent = *constExtent;
    if (inferred >= 0) {
      sizes[inferred] = llvm::divideCeil(extent, product);
      // The rounded-up extent: more than INT64_MAX when the extent is
      // within `product` of it.
      if (llvm::MulOverflow(product, sizes[inferred], product))
        return loop.emitError("cannot split ")
               << describe(loop) << ": its extent (" << extent
               << ") rounded up to a multiple of the factors overflows a "
                  "64-bit integer";
    } else if (product < extent) {
      return loop.emitError("cannot split ")
             << describe(loop) << ": the product of the factors (" << product
             << ") is smaller than its extent (" << extent << ")";
    }
    needsPredicate = product != extent;
    if (needsPredicate && failed(checkMaskable(loop, extent, product, "split")))
      return failure();
  }

  Location loc = loop.getLoc();
  StringRef name = loop.getIvName().value_or("i");
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  SmallVector<ForOp> loops;
  OpFoldResult outerExtent = rewriter.getIndexAttr(sizes[0]);
  if (!constExtent)
    outerExtent = affine::makeComposedFoldedAffineApply(
        rewriter, loc,
        AffineMap::get(0, 1, rewriter.getAffineSymbolExpr(0).ceilDiv(product)),
        {OpFoldResult(dynExtent)});
  for (auto [i, size] : llvm::enumerate(sizes)) {
    auto newLoop = ForOp::create(
        rewriter, loc, rewriter.getIndexAttr(0),
        i == 0 ? outerExtent : OpFoldResult(rewriter.getIndexAttr(size)));
    newLoop.setIvNameAttr(ivNameAttr(rewriter, (name + "_" + Twine(i)).str()));
    loops.push_back(newLoop);
    rewriter.setInsertionPoint(newLoop.getBodyBlock()->getTerminator());
  }
  Block *src = loop.getBodyBlock();
  Block *dst = loops.back().getBodyBlock();
  dst->getOperations().splice(dst->getTerminator()->getIterator(),
                              src->getOperations(), src->begin(),
                              std::prev(src->end()));

  AffineExpr expr = rewriter.getAffineConstantExpr(0);
  for (auto [i, size] : llvm::enumerate(sizes))
    expr = expr * size + rewriter.getAffineDimExpr(i);
  AffineMap map = AffineMap::get(sizes.size(), 0, expr);
  SmallVector<Value> ivs =
      llvm::map_to_vector(loops, [](ForOp l) { return l.getInductionVar(); });
  // The old induction variable, recomputed next to each use.
  for (OpOperand &use :
       llvm::make_early_inc_range(loop.getInductionVar().getUses())) {
    rewriter.setInsertionPoint(use.getOwner());
    Value value = affine::AffineApplyOp::create(rewriter, loc, map, ivs);
    rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(value); });
  }
  if (needsPredicate) {
    for (BlockOp block : getChildBlocks(loops.front())) {
      rewriter.setInsertionPoint(block);
      Value value = affine::AffineApplyOp::create(rewriter, loc, map, ivs);
      Value bound = constExtent ? arith::ConstantIndexOp::create(rewriter, loc,
                                                                 *constExtent)
                                : dynExtent;
      Value pred = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, value, bound);
      if (Value old = block.getPredicate())
        pred = arith::AndIOp::create(rewriter, loc, old, pred);
      rewriter.modifyOpInPlace(
          block, [&] { block.getPredicateMutable().assign(pred); });
    }
  }
  rewriter.eraseOp(loop);
  return loops;
}

//===----------------------------------------------------------------------===//
// fuse
//===----------------------------------------------------------------------===//

FailureOr<ForOp> Schedule::fuseImpl(ArrayRef<ForOp> loopRefs) {
  SmallVector<ForOp> loops(loopRefs);
  if (loops.size() < 2)
    return func.emitError("cannot fuse: expected at least 2 loops, got ")
           << loops.size();
  SmallVector<int64_t> extents;
  for (ForOp loop : loops) {
    FailureOr<int64_t> extent = getConstantExtent(loop, "fuse");
    if (failed(extent))
      return failure();
    extents.push_back(*extent);
  }
  for (size_t i = 1; i < loops.size(); ++i)
    if (failed(checkPerfectlyNested(loops[i - 1], loops[i], "fuse")))
      return failure();
  normalizeChain(loops);

  int64_t product = 1;
  std::string name;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    if (llvm::MulOverflow(product, extents[i], product))
      return loops.front().emitError("cannot fuse ")
             << describe(loops.front())
             << ": the product of the loops' extents overflows a 64-bit "
                "integer";
    name += loop.getIvName().value_or("i").str() + "_";
  }
  name += "fused";
  Location loc = loops.front().getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loops.front());
  auto fused = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                             rewriter.getIndexAttr(product));
  fused.setIvNameAttr(ivNameAttr(rewriter, name));
  Block *src = loops.back().getBodyBlock();
  Block *dst = fused.getBodyBlock();
  dst->getOperations().splice(dst->getTerminator()->getIterator(),
                              src->getOperations(), src->begin(),
                              std::prev(src->end()));
  int64_t stride = 1;
  for (int i = loops.size() - 1; i >= 0; --i) {
    AffineExpr expr = rewriter.getAffineDimExpr(0);
    if (stride != 1)
      expr = expr.floorDiv(stride);
    if (i != 0)
      expr = expr % extents[i];
    stride *= extents[i];
    AffineMap map = AffineMap::get(1, 0, expr);
    for (OpOperand &use :
         llvm::make_early_inc_range(loops[i].getInductionVar().getUses())) {
      rewriter.setInsertionPoint(use.getOwner());
      Value value = affine::AffineApplyOp::create(rewriter, loc, map,
                                                  fused.getInductionVar());
      rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(value); });
    }
  }
  rewriter.eraseOp(loops.front());
  return fused;
}

//===----------------------------------------------------------------------===//
// reorder
//===----------------------------------------------------------------------===//

static unsigned getLoopDepth(ForOp loop) {
  unsigned depth = 0;
  for (Operation *op = loop; op; op = op->getParentOp())
    ++depth;
  return depth;
}

/// The loops from `outer` down to `inner` (both included) when they form a
/// perfectly nested chain with bounds independent of each other.
static FailureOr<SmallVector<ForOp>> getChain(ForOp outer, ForOp inner,
                                              StringRef primitive) {
  SmallVector<ForOp> chain;
  for (Operation *op = inner; op != outer.getOperation();
       op = op->getParentOp()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop) {
      auto diag = inner.emitError("cannot ")
                  << primitive << ": " << describe(inner) << " and "
                  << describe(outer)
                  << " are separated by an op that is not a loop";
      diag.attachNote(op->getLoc()) << "op is here";
      return diag;
    }
    chain.push_back(loop);
  }
  chain.push_back(outer);
  std::reverse(chain.begin(), chain.end());
  for (size_t i = 1; i < chain.size(); ++i)
    if (failed(checkPerfectlyNested(chain[i - 1], chain[i], primitive)))
      return failure();
  SmallVector<Value> ivs =
      llvm::map_to_vector(chain, [](ForOp l) { return l.getInductionVar(); });
  for (ForOp loop : chain)
    for (Value bound : loop.getDynamicBounds())
      if (dependsOn(bound, ivs))
        return loop.emitError("cannot ")
               << primitive << ": the bounds of " << describe(loop)
               << " depend on another loop of the chain";
  return chain;
}

LogicalResult Schedule::reorderImpl(ArrayRef<ForOp> loops) {
  if (loops.size() < 2)
    return success();
  llvm::SmallPtrSet<Operation *, 8> given;
  for (ForOp loop : loops)
    if (!given.insert(loop).second)
      return loop.emitError("cannot reorder: ")
             << describe(loop) << " is listed twice";
  SmallVector<ForOp> sorted(loops);
  llvm::stable_sort(sorted, [](ForOp a, ForOp b) {
    return getLoopDepth(a) < getLoopDepth(b);
  });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (!sorted[i - 1]->isProperAncestor(sorted[i]))
      return sorted[i].emitError("cannot reorder: ")
             << describe(sorted[i - 1]) << " and " << describe(sorted[i])
             << " are not in one loop nest (neither contains the other)";
  FailureOr<SmallVector<ForOp>> chain =
      getChain(sorted.front(), sorted.back(), "reorder");
  if (failed(chain))
    return failure();

  SmallVector<ForOp> order;
  size_t next = 0;
  for (ForOp loop : *chain)
    order.push_back(given.contains(loop) ? loops[next++] : loop);
  if (order == *chain)
    return success();
  normalizeChain(*chain);

  // Take the loops apart and nest them again in the new order; the loop ops
  // (and the references to them) survive.
  Operation *anchor = chain->front()->getNextNode();
  Block *parent = chain->front()->getBlock();
  Block innermostOps;
  Block *innermost = chain->back().getBodyBlock();
  innermostOps.getOperations().splice(
      innermostOps.end(), innermost->getOperations(), innermost->begin(),
      std::prev(innermost->end()));
  for (ForOp loop : llvm::reverse(*chain))
    loop->remove();
  parent->getOperations().insert(anchor->getIterator(), order.front());
  for (size_t i = 1; i < order.size(); ++i) {
    Block *body = order[i - 1].getBodyBlock();
    body->getOperations().insert(body->getTerminator()->getIterator(),
                                 order[i]);
  }
  Block *dst = order.back().getBodyBlock();
  dst->getOperations().splice(dst->getTerminator()->getIterator(),
                              innermostOps.getOperations());
  return success();
}

//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<ForOp>> Schedule::tileImpl(ArrayRef<ForOp> loopRefs,
                                                 ArrayRef<int64_t> sizes) {
  SmallVector<ForOp> loops(loopRefs);
  if (loops.empty() || loops.size() != sizes.size())
    return func.emitError("cannot tile: got ")
           << loops.size() << " loops and " << sizes.size() << " tile sizes";
  for (auto [loop, size] : llvm::zip(loops, sizes))
    if (size <= 0)
      return loop.emitError("cannot tile ")
             << describe(loop) << ": tile size " << size << " is not positive";
  if (failed(getChain(loops.front(), loops.back(), "tile")))
    return failure();
  for (size_t i = 1; i < loops.size(); ++i)
    if (!loops[i - 1]->isProperAncestor(loops[i]))
      return loops[i].emitError("cannot tile: ")
             << describe(loops[i]) << " is not nested in "
             << describe(loops[i - 1]);
  for (auto [loop, size] : llvm::zip(loops, sizes)) {
    FailureOr<int64_t> extent = getConstantExtent(loop, "tile");
    if (failed(extent))
      return failure();
    int64_t product = llvm::divideCeil(*extent, size) * size;
    if (product != *extent &&
        failed(checkMaskable(loop, *extent, product, "tile")))
      return failure();
  }
  SmallVector<ForOp> outer, inner;
  for (auto [loop, size] : llvm::zip(loops, sizes)) {
    int64_t factors[] = {0, size};
    FailureOr<SmallVector<ForOp>> parts = splitImpl(loop, factors);
    if (failed(parts))
      return failure();
    outer.push_back((*parts)[0]);
    inner.push_back((*parts)[1]);
  }
  SmallVector<ForOp> result(outer);
  llvm::append_range(result, inner);
  if (failed(reorderImpl(result)))
    return failure();
  return result;
}

//===----------------------------------------------------------------------===//
// parallel / vectorize / unroll / bind
//===----------------------------------------------------------------------===//

/// Sets the kind of `loop` after checking, unless `allowReduce`, that it only
/// feeds spatial iteration variables (TVM's CheckLoopParallelizableInBlock).
static LogicalResult setLoopKind(RewriterBase &rewriter, ForOp loop,
                                 ForKind kind, StringRef tag,
                                 StringRef primitive, bool checkSpatial,
                                 bool allowReduce) {
  if (loop.getKind() != ForKind::serial &&
      (loop.getKind() != kind || loop.getThreadTag().value_or("") != tag))
    return loop.emitError("cannot ")
           << primitive << " " << describe(loop) << ": it is already "
           << stringifyForKind(loop.getKind())
           << (loop.getThreadTag() ? " \"" + loop.getThreadTag()->str() + "\""
                                   : std::string());
  if (checkSpatial && !allowReduce) {
    Value iv = loop.getInductionVar();
    for (BlockOp block : getChildBlocks(loop)) {
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
        if (!block.isReduceIterVar(i) || !dependsOn(block.getBindings()[i], iv))
          continue;
        InFlightDiagnostic diag =
            loop.emitError("cannot ")
            << primitive << " " << describe(loop)
            << ": it is bound to reduce iteration variable "
            << block.getIterVarDisplayName(i) << " of " << describe(block)
            << " (only loops over spatial iteration variables qualify)";
        diag.attachNote(block.getLoc()) << "block is here";
        return diag;
      }
    }
  }
  rewriter.modifyOpInPlace(loop, [&] {
    loop.setKind(kind);
    if (tag.empty())
      loop.removeThreadTagAttr();
    else
      loop.setThreadTagAttr(rewriter.getStringAttr(tag));
  });
  return success();
}

LogicalResult Schedule::parallelImpl(ForOp loop) {
  return setLoopKind(rewriter, loop, ForKind::parallel, "", "parallelize",
                     /*checkSpatial=*/true, /*allowReduce=*/false);
}

LogicalResult Schedule::vectorizeImpl(ForOp loop) {
  return setLoopKind(rewriter, loop, ForKind::vectorized, "", "vectorize",
                     /*checkSpatial=*/true, /*allowReduce=*/false);
}

LogicalResult Schedule::unrollImpl(ForOp loop) {
  return setLoopKind(rewriter, loop, ForKind::unrolled, "", "unroll",
                     /*checkSpatial=*/false, /*allowReduce=*/true);
}

LogicalResult Schedule::bindImpl(ForOp loop, StringRef threadTag) {
  static constexpr StringLiteral kTags[] = {
      "blockIdx.x",  "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y",
      "threadIdx.z", "vthread",    "vthread.x",  "vthread.y",   "vthread.z"};
  if (!llvm::is_contained(kTags, threadTag))
    return loop.emitError("cannot bind ")
           << describe(loop) << ": unknown thread tag \"" << threadTag
           << "\" (expected blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread or "
              "vthread.{x,y,z})";
  // threadIdx may carry a reduction (cross-thread reduction), the others
  // may not.
  return setLoopKind(rewriter, loop, ForKind::thread_binding, threadTag, "bind",
                     /*checkSpatial=*/true,
                     /*allowReduce=*/threadTag.starts_with("threadIdx"));
}
