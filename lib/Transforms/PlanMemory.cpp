//===- PlanMemory.cpp - share one arena between dead buffers ---*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Static memory planning at the memref level (TVM's StaticPlanBlockMemory):
// buffers allocated and freed in one block whose live intervals do not
// overlap share bytes of one arena allocated at the block start.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "mlc-plan-memory"

namespace mlc {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// One buffer to place in its block's arena.
struct Candidate {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  /// Bytes of the buffer (the data layout's element size times the count).
  uint64_t bytes = 0;
  /// Live interval in block order, inclusive: first to last use (of the
  /// buffer or a view of it, counted at the use's ancestor in the block).
  unsigned start = 0, end = 0;
  uint64_t offset = 0;
};

/// The planned buffers of one block.
struct BlockPlan {
  SmallVector<Candidate> candidates;
  uint64_t alignment = 64;
  uint64_t arenaBytes = 0;
  unsigned numSlots = 0;
  /// Whether the block's buffers are rewritten into the arena.
  bool apply = false;
};

} // namespace

/// The size in bytes of one element, or failure for element types whose
/// size is not known without a target (complex, custom types).
static FailureOr<uint64_t> getElementBytes(Type type,
                                           const DataLayout &layout) {
  Type scalar = type;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return failure();
    scalar = vector.getElementType();
  }
  if (!isa<IntegerType, FloatType, IndexType>(scalar))
    return failure();
  return static_cast<uint64_t>(layout.getTypeSize(type).getFixedValue());
}

/// Checks that `alloc` can live in an arena of its block and fills in its
/// dealloc, size and live interval (positions from `position`). Returns the
/// reason when it cannot.
static std::optional<std::string>
analyze(memref::AllocOp alloc, const DataLayout &layout,
        const DenseMap<Operation *, unsigned> &position, Candidate &result) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return std::string("dynamic shape");
  if (!type.getLayout().isIdentity())
    return std::string("non-identity layout");
  if (type.getMemorySpace())
    return std::string("non-default memory space");
  FailureOr<uint64_t> elementBytes =
      getElementBytes(type.getElementType(), layout);
  if (failed(elementBytes))
    return std::string("element type of unknown size");
  result.alloc = alloc;
  result.bytes = *elementBytes * type.getNumElements();

  Block *block = alloc->getBlock();
  Value buffer = alloc.getResult();
  SmallVector<Value> worklist = {buffer};
  std::optional<unsigned> firstUse, lastUse;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      std::string name = user->getName().getStringRef().str();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        if (value != buffer)
          return "freed through an alias by '" + name + "'";
        if (user->getBlock() != block)
          return std::string("freed in another block");
        if (result.dealloc)
          return std::string("freed twice");
        result.dealloc = dealloc;
        continue;
      }
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return "used in another block by '" + name + "'";
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == value) {
        for (Value alias : user->getResults())
          if (isa<BaseMemRefType>(alias.getType()))
            worklist.push_back(alias);
      } else if (user->hasTrait<OpTrait::IsTerminator>() ||
                 isa<RegionBranchOpInterface>(user)) {
        return "escapes through '" + name + "'";
      } else if (isa<func::CallOp>(user)) {
        // The callee borrows its arguments for the duration of the call.
      } else if (isa<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        return "pointer taken by '" + name + "'";
      } else if (llvm::any_of(user->getResultTypes(),
                              llvm::IsaPred<BaseMemRefType, TensorType>)) {
        return "may be aliased by a result of '" + name + "'";
      } else if (!isa<MemoryEffectOpInterface>(user) &&
                 !user->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
        return "may be captured by '" + name + "'";
      }
      unsigned at = position.lookup(ancestor);
      firstUse = std::min(firstUse.value_or(at), at);
      lastUse = std::max(lastUse.value_or(at), at);
    }
  }
  if (!result.dealloc)
    return std::string("not freed in its block");
  // The ownership-based deallocation frees buffers at the end of the block,
  // so the interval ends at the last use: nothing that does not capture the
  // buffer (checked above) can touch it afterwards.
  unsigned deallocAt = position.lookup(result.dealloc);
  result.start = firstUse.value_or(deallocAt);
  result.end = lastUse.value_or(deallocAt);
  return std::nullopt;
}

/// Assigns offsets greedily by size (largest first), each at the best-fitting
/// gap among the already placed buffers whose intervals overlap its own.
static void assignOffsets(BlockPlan &plan) {
  SmallVector<Candidate *> order;
  for (Candidate &candidate : plan.candidates)
    order.push_back(&candidate);
  llvm::stable_sort(order, [](const Candidate *a, const Candidate *b) {
    if (a->bytes != b->bytes)
      return a->bytes > b->bytes;
    return a->start < b->start;
  });
  SmallVector<Candidate *> placed;
  for (Candidate *candidate : order) {
    uint64_t size = llvm::alignTo(candidate->bytes, plan.alignment);
    SmallVector<Candidate *> live;
    for (Candidate *other : placed)
      if (other->start <= candidate->end && candidate->start <= other->end)
        live.push_back(other);
    llvm::sort(live, [](const Candidate *a, const Candidate *b) {
      return a->offset < b->offset;
    });
    uint64_t cursor = 0, bestGap = UINT64_MAX;
    std::optional<uint64_t> bestOffset;
    for (Candidate *other : live) {
      if (other->offset >= cursor + size && other->offset - cursor < bestGap) {
        bestGap = other->offset - cursor;
        bestOffset = cursor;
      }
      cursor = std::max(
          cursor, other->offset + llvm::alignTo(other->bytes, plan.alignment));
    }
    candidate->offset = bestOffset.value_or(cursor);
    plan.arenaBytes = std::max(plan.arenaBytes, candidate->offset + size);
    placed.push_back(candidate);
  }
  llvm::SmallDenseSet<uint64_t> offsets;
  for (Candidate &candidate : plan.candidates)
    offsets.insert(candidate.offset);
  plan.numSlots = offsets.size();
}

/// Replaces the planned allocs of one block by views into its arena.
static void rewrite(Block &block, BlockPlan &plan) {
  OpBuilder builder = OpBuilder::atBlockBegin(&block);
  Location loc = plan.candidates.front().alloc.getLoc();
  auto arenaType = MemRefType::get({static_cast<int64_t>(plan.arenaBytes)},
                                   builder.getI8Type());
  auto arena = memref::AllocOp::create(
      builder, loc, arenaType, ValueRange(),
      builder.getI64IntegerAttr(static_cast<int64_t>(plan.alignment)));
  memref::DeallocOp lastDealloc = plan.candidates.front().dealloc;
  for (Candidate &candidate : plan.candidates) {
    if (lastDealloc->isBeforeInBlock(candidate.dealloc))
      lastDealloc = candidate.dealloc;
    builder.setInsertionPoint(candidate.alloc);
    Value offset =
        arith::ConstantIndexOp::create(builder, candidate.alloc.getLoc(),
                                       static_cast<int64_t>(candidate.offset));
    auto view = memref::ViewOp::create(builder, candidate.alloc.getLoc(),
                                       candidate.alloc.getType(), arena, offset,
                                       ValueRange());
    candidate.alloc.getResult().replaceAllUsesWith(view.getResult());
  }
  builder.setInsertionPoint(lastDealloc);
  memref::DeallocOp::create(builder, lastDealloc.getLoc(), arena);
  for (Candidate &candidate : plan.candidates) {
    candidate.dealloc.erase();
    candidate.alloc.erase();
  }
}

namespace {
struct PlanMemoryPass : public mlc::impl::PlanMemoryPassBase<PlanMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    DataLayout layout = DataLayout::closest(func);
    // Per block, in block order so the output is deterministic.
    llvm::MapVector<Block *, BlockPlan> plans;
    SmallVector<std::pair<memref::AllocOp, std::string>> skipped;
    DenseMap<Block *, DenseMap<Operation *, unsigned>> positions;
    func.walk([&](memref::AllocOp alloc) {
      Block *block = alloc->getBlock();
      auto [it, inserted] = positions.try_emplace(block);
      if (inserted) {
        unsigned index = 0;
        for (Operation &op : *block)
          it->second[&op] = index++;
      }
      Candidate candidate;
      if (std::optional<std::string> reason =
              analyze(alloc, layout, it->second, candidate)) {
        LLVM_DEBUG(llvm::dbgs()
                   << "not planned: " << *reason << ": " << alloc << "\n");
        skipped.emplace_back(alloc, *reason);
        return;
      }
      BlockPlan &plan = plans[block];
      plan.alignment =
          std::max<uint64_t>(plan.alignment, alloc.getAlignment().value_or(1));
      plan.candidates.push_back(candidate);
    });

    uint64_t peakBytes = 0, oldBytes = 0;
    unsigned numBuffers = 0, numSlots = 0;
    for (auto &[block, plan] : plans) {
      // One buffer gains nothing from an arena.
      if (plan.candidates.size() < 2) {
        for (Candidate &candidate : plan.candidates)
          skipped.emplace_back(candidate.alloc,
                               "the only candidate of its block");
        continue;
      }
      assignOffsets(plan);
      uint64_t blockBytes = 0, alignedBytes = 0;
      for (Candidate &candidate : plan.candidates) {
        blockBytes += candidate.bytes;
        alignedBytes += llvm::alignTo(candidate.bytes, plan.alignment);
      }
      // Without reuse the arena is the separate allocations laid end to end.
      if (plan.arenaBytes >= alignedBytes) {
        for (Candidate &candidate : plan.candidates)
          skipped.emplace_back(candidate.alloc,
                               "sharing its block's arena saves no memory");
        continue;
      }
      plan.apply = true;
      oldBytes += blockBytes;
      peakBytes += plan.arenaBytes;
      numBuffers += plan.candidates.size();
      numSlots += plan.numSlots;
      LLVM_DEBUG({
        for (Candidate &candidate : plan.candidates)
          llvm::dbgs() << "[" << candidate.start << ", " << candidate.end
                       << "] " << candidate.bytes << " bytes at "
                       << candidate.offset << ": " << candidate.alloc << "\n";
      });
    }
    if (printPeakBytes) {
      for (auto &[alloc, reason] : skipped)
        alloc.emitRemark() << "not planned: " << reason;
      func.emitRemark() << "planned peak bytes: " << peakBytes << " (was "
                        << oldBytes << " in " << numBuffers << " buffers, now "
                        << numSlots << " slots)";
    }
    for (auto &[block, plan] : plans)
      if (plan.apply)
        rewrite(*block, plan);
  }
};
} // namespace
