//===- CompactBufferAllocation.cpp - shrink shared/local buffers ----------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's CompactBufferAllocation for GPU scopes: a `shared` or `local` buffer
// gets the shape of what one iteration of the loop enclosing all its
// accesses touches, and its accesses are rebased.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::tensorir {
#define GEN_PASS_DEF_TENSORIRCOMPACTBUFFERALLOCATION
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"
} // namespace mlc::tensorir

using namespace mlir;
using namespace mlc::tensorir;
using namespace mlc::tensorir::schedutil;

namespace {

/// The prim_func or block whose scope `op` is in.
Operation *getScopeOp(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<BlockOp, PrimFuncOp>(parent))
      return parent;
  return nullptr;
}

bool isThreadIdxLoop(ForOp loop) {
  return loop.getKind() == ForKind::thread_binding &&
         loop.getThreadTag().value_or("").starts_with("threadIdx");
}

/// How one access is rebased: its new indices as functions of `ivs`, the
/// loops around its block.
struct Rebase {
  Operation *op;
  SmallVector<AffineExpr> exprs;
  SmallVector<Value> ivs;
  /// Where the loops of its block are in the plan's dimensions (`numOuter`
  /// common loops, then one per threadIdx tag); -1 for a loop below the
  /// common ones that is relaxed.
  SmallVector<int> planDims;
};

/// threadIdx.x, y, z as 0, 1, 2.
int getThreadIdxIndex(ForOp loop) {
  return getHardwareIndex(loop.getThreadTag().value_or("")) - 3;
}

/// The compaction of one buffer.
struct Compaction {
  Value buffer;
  MemRefType type;
  /// The blocks that access it: they become their bodies, except
  /// cross-thread reductions (`kept`).
  SmallVector<BlockOp> blocks;
  SmallVector<BlockOp> kept;
  SmallVector<Rebase> rebases;
};

/// Whether `block` is inside a loop that mlc-gpu-tensorize-mma turns into
/// mma.sync (TensorIRDialect::getMmaSyncAnnotationName).
bool isInMmaSyncNest(BlockOp block) {
  return llvm::any_of(Schedule::getLoops(block), [](ForOp loop) {
    DictionaryAttr annotations = loop.getAnnotationsAttr();
    return annotations &&
           annotations.contains(TensorIRDialect::getMmaSyncAnnotationName());
  });
}

/// Whether a reduce iteration variable of `block` depends on a threadIdx
/// loop (a cross-thread reduction, which must stay a block for the GPU
/// lowering).
bool isCrossThreadReduction(BlockOp block) {
  SmallVector<Value> threadIvs;
  for (ForOp loop : Schedule::getLoops(block))
    if (isThreadIdxLoop(loop))
      threadIvs.push_back(loop.getInductionVar());
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    if (block.isReduceIterVar(i) &&
        dependsOn(block.getBindings()[i], threadIvs))
      return true;
  return false;
}

/// How `alloc` shrinks, if it is a shared/local buffer whose accesses allow
/// it.
std::optional<Compaction> planCompaction(AllocBufferOp alloc,
                                         bool threadPrivateLocals) {
  StringRef scope = alloc.getStorageScope();
  if (scope == "global")
    return std::nullopt;
  Value buffer = alloc.getBuffer();
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  Operation *scopeOp = alloc->getParentOp();

  // The blocks that access the buffer, and the loads/stores to rebase.
  llvm::SetVector<BlockOp> blocks;
  SmallVector<Operation *> accesses;
  for (OpOperand &use : buffer.getUses()) {
    Operation *owner = use.getOwner();
    if (auto block = dyn_cast<BlockOp>(owner)) {
      blocks.insert(block);
      continue;
    }
    bool isAccess = isa<memref::LoadOp>(owner) ||
                    (isa<memref::StoreOp>(owner) &&
                     use.getOperandNumber() == cast<memref::StoreOp>(owner)
                                                   .getMemrefMutable()
                                                   .getOperandNumber());
    auto block = owner->getParentOfType<BlockOp>();
    if (!isAccess || !block)
      return std::nullopt;
    blocks.insert(block);
    accesses.push_back(owner);
  }
  if (blocks.empty())
    return std::nullopt;
  for (BlockOp block : blocks)
    if (getScopeOp(block) != scopeOp)
      return std::nullopt;

  // The loops above the lowest common ancestor: a common prefix of the loops
  // of every block.
  SmallVector<ForOp> prefix = Schedule::getLoops(blocks.front());
  for (BlockOp block : blocks) {
    SmallVector<ForOp> loops = Schedule::getLoops(block);
    unsigned n = 0;
    while (n < prefix.size() && n < loops.size() && prefix[n] == loops[n])
      ++n;
    prefix.resize(n);
  }
  unsigned numOuter = prefix.size();
  // A local buffer is private to its thread: threadIdx loops of one tag
  // are the same thread in every statement (TVM's thread variables), so
  // they are not relaxed and the region may start at a function of them,
  // dimensions numOuter + 0, 1, 2 (x, y, z) of the plan. Dimension
  // numOuter + 3 stands for any other loop, which must not appear.
  bool privateLocal = threadPrivateLocals && scope == "local";
  unsigned numPlanDims = numOuter + (privateLocal ? 4 : 0);
  auto keepInner = [&](ForOp loop) {
    return privateLocal && isThreadIdxLoop(loop);
  };

  // Each index as an affine function of the loops around its block (the
  // prefix first), through the block's bindings.
  SmallVector<Rebase> rebases;
  for (Operation *op : accesses) {
    auto block = op->getParentOfType<BlockOp>();
    SmallVector<Value> ivs =
        llvm::map_to_vector(Schedule::getLoops(block),
                            [](ForOp loop) { return loop.getInductionVar(); });
    SmallVector<Value> iterVars(block.getBodyBlock()->getArguments());
    SmallVector<AffineExpr> bindingExprs;
    for (Value binding : block.getBindings()) {
      std::optional<AffineExpr> expr =
          toAffine(binding, ivs, alloc.getContext());
      if (!expr)
        return std::nullopt;
      bindingExprs.push_back(*expr);
    }
    ValueRange indices = isa<memref::LoadOp>(op)
                             ? cast<memref::LoadOp>(op).getIndices()
                             : cast<memref::StoreOp>(op).getIndices();
    Rebase rebase{op, {}, ivs, {}};
    for (auto [i, loop] : llvm::enumerate(Schedule::getLoops(block)))
      rebase.planDims.push_back(i < numOuter ? int(i)
                                : keepInner(loop)
                                    ? int(numOuter + getThreadIdxIndex(loop))
                                    : -1);
    for (Value index : indices) {
      std::optional<AffineExpr> expr =
          toAffine(index, iterVars, alloc.getContext());
      if (!expr)
        return std::nullopt;
      rebase.exprs.push_back(expr->replaceDims(bindingExprs));
    }
    rebases.push_back(std::move(rebase));
  }

  // The union of what each block accesses in one iteration of the common
  // ancestor, per dimension as `lower + [minOffset, maxEnd)`.
  MLIRContext *ctx = alloc.getContext();
  unsigned rank = type.getRank();
  SmallVector<AffineExpr> lower(rank);
  SmallVector<int64_t> minOffset(rank, 0), maxEnd(rank, 0);
  bool first = true;
  // Failures only mean the buffer stays as it is.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  auto fail = [&]() { return alloc.emitError(); };
  bool shared = scope.starts_with("shared");
  for (BlockOp block : blocks) {
    // In an mma_sync nest the warp's lanes read a local operand as their
    // fragments, each lane its own elements (mlc-gpu-tensorize-mma), which
    // the buffer's other statements place: the nest's SIMT form, in which
    // a thread reads whole rows of the operand, says nothing of them.
    if (privateLocal && isInMmaSyncNest(block))
      continue;
    FailureOr<AccessRegions> regions = getAccessRegions(block);
    if (failed(regions))
      return std::nullopt;
    SmallVector<Attribute> regionAttrs;
    for (auto [b, r] : llvm::zip(regions->readBuffers, regions->reads))
      if (b == buffer)
        regionAttrs.push_back(r);
    for (auto [b, r] : llvm::zip(regions->writeBuffers, regions->writes))
      if (b == buffer)
        regionAttrs.push_back(r);
    for (Attribute attr : regionAttrs) {
      FailureOr<SmallVector<ProducedRange>> ranges = relaxRegion(
          block, cast<BufferRegionAttr>(attr), numOuter, fail,
          [&](ForOp loop) { return shared && isThreadIdxLoop(loop); },
          keepInner);
      if (failed(ranges) || ranges->size() != rank)
        return std::nullopt;
      // The block's loops as the plan's dimensions.
      SmallVector<AffineExpr> toPlan;
      for (auto [i, loop] : llvm::enumerate(Schedule::getLoops(block)))
        toPlan.push_back(getAffineDimExpr(
            i < numOuter      ? unsigned(i)
            : keepInner(loop) ? numOuter + getThreadIdxIndex(loop)
                              : numOuter + 3,
            ctx));
      for (unsigned d = 0; d < rank; ++d) {
        ProducedRange range = (*ranges)[d];
        if (privateLocal) {
          range.lower = simplifyAffineExpr(range.lower.replaceDims(toPlan),
                                           numPlanDims, 0);
          if (range.lower.isFunctionOfDim(numOuter + 3))
            return std::nullopt;
        }
        if (first) {
          lower[d] = range.lower;
          maxEnd[d] = range.extent;
          continue;
        }
        auto offset = dyn_cast<AffineConstantExpr>(
            simplifyAffineExpr(range.lower - lower[d], numPlanDims, 0));
        if (!offset)
          return std::nullopt;
        minOffset[d] = std::min(minOffset[d], offset.getValue());
        maxEnd[d] = std::max(maxEnd[d], offset.getValue() + range.extent);
      }
      first = false;
    }
  }
  if (first)
    return std::nullopt;

  SmallVector<int64_t> shape;
  bool smaller = false;
  for (unsigned d = 0; d < rank; ++d) {
    lower[d] = simplifyAffineExpr(lower[d] + minOffset[d], numPlanDims, 0);
    // A predicated tail may relax past the end of the buffer.
    int64_t extent = std::min(maxEnd[d] - minOffset[d], type.getDimSize(d));
    shape.push_back(extent);
    smaller |= extent < type.getDimSize(d);
  }
  if (!smaller)
    return std::nullopt;

  Compaction result;
  result.buffer = buffer;
  result.type =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  for (BlockOp block : blocks)
    (isCrossThreadReduction(block) ? result.kept : result.blocks)
        .push_back(block);
  for (Rebase &rebase : rebases) {
    // The region's start in the access's loops: the plan's thread
    // dimensions are its own threadIdx loops.
    SmallVector<AffineExpr> fromPlan(numPlanDims,
                                     getAffineDimExpr(rebase.ivs.size(), ctx));
    for (auto [i, planDim] : llvm::enumerate(rebase.planDims))
      if (planDim >= 0)
        fromPlan[planDim] = getAffineDimExpr(i, ctx);
    for (unsigned d = 0; d < rank; ++d) {
      AffineExpr start = lower[d].replaceDims(fromPlan);
      if (start.isFunctionOfDim(rebase.ivs.size()))
        return std::nullopt;
      rebase.exprs[d] =
          simplifyAffineExpr(rebase.exprs[d] - start, rebase.ivs.size() + 1, 0);
    }
    result.rebases.push_back(std::move(rebase));
  }
  return result;
}

struct TensorIRCompactBufferAllocationPass
    : public mlc::tensorir::impl::TensorIRCompactBufferAllocationBase<
          TensorIRCompactBufferAllocationPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Compaction, 2> compactions;
    getOperation().walk([&](AllocBufferOp alloc) {
      if (std::optional<Compaction> c =
              planCompaction(alloc, threadPrivateLocals))
        compactions.push_back(std::move(*c));
    });
    if (compactions.empty())
      return;
    // The blocks that access a compacted buffer index it with their loops
    // now: they become their bodies, innermost first.
    llvm::SmallPtrSet<Operation *, 8> toInline;
    for (Compaction &c : compactions)
      for (BlockOp block : c.blocks)
        toInline.insert(block);
    SmallVector<BlockOp> ordered;
    getOperation().walk<WalkOrder::PostOrder>([&](BlockOp block) {
      if (toInline.contains(block))
        ordered.push_back(block);
    });
    IRRewriter rewriter(&getContext());
    for (BlockOp block : ordered)
      inlineBlock(rewriter, block);
    // Cross-thread reductions stay blocks (convert-tensorir-to-gpu lowers
    // them): they index the compacted buffer with new spatial iteration
    // variables bound to the rebased indices, one per buffer dimension and
    // index, so that the reduction's init, accumulator load and store still
    // agree (at distinct iteration variables).
    llvm::SmallPtrSet<Operation *, 8> keptBlocks;
    for (Compaction &c : compactions)
      keptBlocks.insert(c.kept.begin(), c.kept.end());
    DenseMap<std::tuple<Operation *, Value, unsigned, AffineExpr>, Value>
        rebasedIterVars;
    for (Compaction &c : compactions) {
      for (Rebase &rebase : c.rebases) {
        auto indices =
            isa<memref::LoadOp>(rebase.op)
                ? cast<memref::LoadOp>(rebase.op).getIndicesMutable()
                : cast<memref::StoreOp>(rebase.op).getIndicesMutable();
        auto block = rebase.op->getParentOfType<BlockOp>();
        bool kept = block && keptBlocks.contains(block);
        rewriter.setInsertionPoint(kept ? block.getOperation() : rebase.op);
        SmallVector<Value> rebased;
        for (auto [d, expr] : llvm::enumerate(rebase.exprs)) {
          auto rebasedIndex = [&]() {
            return getValueOrCreateConstantIndexOp(
                rewriter, rebase.op->getLoc(),
                affine::makeComposedFoldedAffineApply(
                    rewriter, rebase.op->getLoc(),
                    AffineMap::get(rebase.ivs.size(), 0, expr),
                    getAsOpFoldResult(rebase.ivs)));
          };
          if (!kept) {
            rebased.push_back(rebasedIndex());
            continue;
          }
          Value &iterVar =
              rebasedIterVars[{block, c.buffer, unsigned(d), expr}];
          if (!iterVar)
            iterVar = addSpatialIterVar(
                rewriter, block, rebasedIndex(), c.type.getDimSize(d),
                ("v_" + getBufferName(c.buffer) + "_" + Twine(d)).str());
          rebased.push_back(iterVar);
        }
        rewriter.modifyOpInPlace(rebase.op, [&] { indices.assign(rebased); });
      }
      c.buffer.setType(c.type);
    }
    for (Operation *block : keptBlocks)
      refreshAccessRegions(rewriter, cast<BlockOp>(block));
  }
};

} // namespace
