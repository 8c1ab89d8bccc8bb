//===- DefaultSchedule.cpp - default GPU schedule of TensorIR -------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM dlight's rule-based default GPU schedule, on tensorir prim_funcs with
// the TensorIR schedule primitives. Each rule is a function that schedules
// one top-level statement or declines; the first that applies wins.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlc {
#define GEN_PASS_DEF_GPUDEFAULTSCHEDULEPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

namespace {

/// The largest reduction output that the Reduction rule keeps in shared
/// memory to run its epilogue in the same kernel.
constexpr int64_t kMaxEpilogueSharedBytes = 4096;

/// Elements of 4 bytes that one thread copies at once into shared memory
/// (a 16-byte vector access).
constexpr int64_t kCopyLanes = 4;

/// Whether `loop` only feeds spatial iteration variables of the blocks in it.
bool isSpatialLoop(ForOp loop) {
  Value iv = loop.getInductionVar();
  WalkResult result = loop.walk([&](BlockOp block) {
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
      if (block.isReduceIterVar(i) && dependsOn(block.getBindings()[i], {iv}))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

bool startsAtZero(ForOp loop) {
  std::optional<int64_t> lb = loop.getConstantLowerBound();
  std::optional<int64_t> step = loop.getConstantStep();
  return lb && *lb == 0 && step && *step == 1;
}

/// Side-effect free, region-free ops (index computations between loops).
bool isIndexExpr(Operation &op) {
  return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
}

/// The only loop in `loop`'s body besides index computations, if any.
ForOp getOnlyNestedLoop(ForOp loop) {
  ForOp nested;
  for (Operation &op : loop.getBodyBlock()->without_terminator()) {
    if (isIndexExpr(op))
      continue;
    auto inner = dyn_cast<ForOp>(op);
    if (!inner || nested)
      return nullptr;
    nested = inner;
  }
  return nested;
}

/// The leading perfectly nested serial spatial loops of `root` that start
/// at 0 with constant extents (what `fuse` takes).
SmallVector<ForOp> getSpatialBand(ForOp root) {
  SmallVector<ForOp> band;
  for (ForOp loop = root; loop; loop = getOnlyNestedLoop(loop)) {
    if (loop.getKind() != ForKind::serial || !startsAtZero(loop) ||
        !loop.getConstantUpperBound() || !isSpatialLoop(loop))
      break;
    band.push_back(loop);
  }
  return band;
}

/// `loops` (a perfectly nested chain, at least one) as one loop.
FailureOr<ForOp> fuseAll(Schedule &sch, ArrayRef<ForOp> loops) {
  if (loops.size() == 1)
    return loops.front();
  return sch.fuse(loops);
}

struct GPUDefaultSchedulePass
    : public mlc::impl::GPUDefaultSchedulePassBase<GPUDefaultSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    PrimFuncOp func = getOperation();
    if (threadsPerBlock < 1 || threadsPerBlock > 1024) {
      func.emitError("mlc-gpu-default-schedule: threads-per-block must be "
                     "in [1, 1024], got ")
          << static_cast<int64_t>(threadsPerBlock);
      return signalPassFailure();
    }
    // Hand-scheduled for the GPU already (dlight skips these too).
    WalkResult bound = func.walk([](ForOp loop) {
      return loop.getKind() == ForKind::thread_binding ? WalkResult::interrupt()
                                                       : WalkResult::advance();
    });
    if (bound.wasInterrupted())
      return;

    // One top-level statement at a time: the first rule that applies
    // schedules it (and may absorb the statements after it, e.g. an
    // epilogue); a rule that fails midway is undone.
    IRRewriter rewriter(&getContext());
    using Rule = LogicalResult (GPUDefaultSchedulePass::*)(Schedule &, ForOp);
    const Rule rules[] = {&GPUDefaultSchedulePass::applyMatmul,
                          &GPUDefaultSchedulePass::applyGeneralReduction,
                          &GPUDefaultSchedulePass::applyReduction,
                          &GPUDefaultSchedulePass::applyFallback};
    while (Operation *statement = getFirstUnscheduled(func)) {
      bool scheduled = false;
      for (Rule rule : rules) {
        auto loop = dyn_cast<ForOp>(statement);
        if (!loop)
          break;
        auto backup = cast<PrimFuncOp>(func->clone());
        LogicalResult result = failure();
        {
          // A rule that does not apply is no error: the next one is tried.
          ScopedDiagnosticHandler quiet(&getContext(),
                                        [](Diagnostic &) { return success(); });
          Schedule sch(func, rewriter);
          result = (this->*rule)(sch, loop);
        }
        if (succeeded(result)) {
          backup->erase();
          scheduled = true;
          break;
        }
        func.getBody().takeBody(backup.getBody());
        backup->erase();
        statement = getFirstUnscheduled(func);
      }
      if (!scheduled && failed(applySingleThread(rewriter, statement)))
        return signalPassFailure();
    }
  }

  /// The first statement at the function's top level without a thread
  /// binding.
  static Operation *getFirstUnscheduled(PrimFuncOp func) {
    for (Operation &op : func.getBody().front().without_terminator()) {
      if (isa<BlockOp>(op))
        return &op;
      if (auto loop = dyn_cast<ForOp>(op);
          loop && loop.getKind() != ForKind::thread_binding)
        return &op;
    }
    return nullptr;
  }

  /// dlight's Matmul rule (SIMT): a reduction block C[b.., i, j] +=
  /// f(A[b.., i, k], B[b.., k, j]) (any layout of A and B) gets a tile of
  /// (TY * VI) x (TX * VJ) outputs per thread block, VI x VJ per thread in
  /// registers (`local`), and K in steps of BK through `shared` copies of A
  /// and B that all threads of the block load together. Consumers of C in
  /// the statements after it (bias, activation) are inlined into the
  /// write-back of the register tile.
  LogicalResult applyMatmul(Schedule &sch, ForOp root) {
    SmallVector<BlockOp> blocks;
    root.walk([&](BlockOp b) { blocks.push_back(b); });
    if (blocks.size() != 1)
      return failure();
    BlockOp block = blocks.front();
    if (!matchReductionBlock(block, nullptr))
      return failure();
    // Each iteration variable bound to its own loop, the loops perfectly
    // nested from the root.
    SmallVector<ForOp> loops = Schedule::getLoops(block);
    if (loops.empty() || loops.front() != root ||
        loops.size() != block.getNumIterVars())
      return failure();
    SmallVector<ForOp> loopOf(block.getNumIterVars());
    for (ForOp loop : loops) {
      if (loop.getKind() != ForKind::serial || !startsAtZero(loop) ||
          !loop.getConstantUpperBound())
        return failure();
      auto it = llvm::find(block.getBindings(), loop.getInductionVar());
      if (it == block.getBindings().end())
        return failure();
      loopOf[it - block.getBindings().begin()] = loop;
    }
    SmallVector<unsigned> spatial, reduce;
    for (unsigned v = 0, e = block.getNumIterVars(); v < e; ++v)
      (block.isReduceIterVar(v) ? reduce : spatial).push_back(v);
    if (reduce.size() != 1 || spatial.size() < 2)
      return failure();
    unsigned iVar = spatial[spatial.size() - 2], jVar = spatial.back(),
             kVar = reduce.front();
    // GEMM access pattern: two inputs, one indexed by i and k (not j), the
    // other by j and k (not i).
    FailureOr<AccessRegions> regions = inferAccessRegions(block);
    if (failed(regions) || regions->readBuffers.size() != 2)
      return failure();
    auto uses = [&](Attribute attr, unsigned v) {
      auto region = cast<BufferRegionAttr>(attr);
      return llvm::any_of(region.getLowerBounds().getValue().getResults(),
                          [&](AffineExpr e) { return e.isFunctionOfDim(v); });
    };
    for (Attribute read : regions->reads)
      if (!uses(read, kVar) || uses(read, iVar) == uses(read, jVar))
        return failure();

    int64_t m = *loopOf[iVar].getConstantUpperBound();
    int64_t n = *loopOf[jVar].getConstantUpperBound();
    int64_t k = *loopOf[kVar].getConstantUpperBound();
    if (m < 32 || n < 32 || k < 8)
      return failure();
    // 16 x 16 threads; 8 x 8 outputs each on large matrices, else 4 x 4.
    const int64_t ty = 16, tx = 16, bk = 8;
    const int64_t v = (m >= 128 && n >= 128) ? 8 : 4;
    int64_t gridY = llvm::divideCeil(m, ty * v);
    if (gridY > 65535)
      return failure();

    FailureOr<SmallVector<ForOp>> iParts = sch.split(loopOf[iVar], {0, ty, v});
    if (failed(iParts))
      return failure();
    FailureOr<SmallVector<ForOp>> jParts = sch.split(loopOf[jVar], {0, tx, v});
    if (failed(jParts))
      return failure();
    FailureOr<SmallVector<ForOp>> kParts = sch.split(loopOf[kVar], {0, bk});
    if (failed(kParts))
      return failure();
    SmallVector<ForOp> batch;
    for (unsigned s : ArrayRef<unsigned>(spatial).drop_back(2))
      batch.push_back(loopOf[s]);
    SmallVector<ForOp> order(batch);
    order.append({(*iParts)[0], (*jParts)[0], (*iParts)[1], (*jParts)[1],
                  (*kParts)[0], (*kParts)[1], (*iParts)[2], (*jParts)[2]});
    if (failed(sch.reorder(order)))
      return failure();
    if (!batch.empty()) {
      FailureOr<ForOp> fused = fuseAll(sch, batch);
      if (failed(fused) || *fused->getConstantUpperBound() > 65535 ||
          failed(sch.bind(*fused, "blockIdx.z")))
        return failure();
    }
    ForOp tyLoop = (*iParts)[1], txLoop = (*jParts)[1], koLoop = (*kParts)[0];
    if (failed(sch.bind((*iParts)[0], "blockIdx.y")) ||
        failed(sch.bind((*jParts)[0], "blockIdx.x")) ||
        failed(sch.bind(tyLoop, "threadIdx.y")) ||
        failed(sch.bind(txLoop, "threadIdx.x")))
      return failure();

    // The register tile, written back per thread.
    FailureOr<BlockOp> writeBack = sch.cacheWrite(block, 0, "local");
    if (failed(writeBack) || failed(sch.reverseComputeAt(*writeBack, txLoop)))
      return failure();
    // A and B through shared memory, loaded by all threads together.
    for (unsigned r = 0; r < 2; ++r) {
      FailureOr<BlockOp> copy = sch.cacheRead(block, r, "shared");
      if (failed(copy) || failed(sch.computeAt(*copy, koLoop)))
        return failure();
      SmallVector<ForOp> copyLoops = Schedule::getLoops(*copy);
      SmallVector<ForOp> inner;
      for (ForOp l : copyLoops)
        if (koLoop->isProperAncestor(l))
          inner.push_back(l);
      if (inner.empty())
        return failure();
      // Each thread copies `lanes` consecutive elements of a row (one
      // 16-byte load and store once LLVM knows the alignment: dlight's
      // vector_size): the innermost loop split first, so that its lanes stay
      // contiguous after the rest is fused and spread over the threads.
      int64_t tileElements = 1;
      for (ForOp l : inner)
        tileElements *= *l.getConstantUpperBound();
      int64_t innermost = *inner.back().getConstantUpperBound();
      int64_t lanes = kCopyLanes;
      while (lanes > 1 &&
             (innermost % lanes != 0 || tileElements < ty * tx * lanes))
        lanes /= 2;
      ForOp laneLoop;
      if (lanes > 1) {
        FailureOr<SmallVector<ForOp>> laneParts =
            sch.split(inner.back(), {0, lanes});
        if (failed(laneParts))
          return failure();
        inner.back() = (*laneParts)[0];
        laneLoop = (*laneParts)[1];
      }
      FailureOr<ForOp> fused = fuseAll(sch, inner);
      if (failed(fused))
        return failure();
      FailureOr<SmallVector<ForOp>> parts = sch.split(*fused, {0, ty, tx});
      if (failed(parts) || failed(sch.bind((*parts)[1], "threadIdx.y")) ||
          failed(sch.bind((*parts)[2], "threadIdx.x")) ||
          (laneLoop && failed(sch.vectorize(laneLoop))))
        return failure();
    }
    FailureOr<BlockOp> initBlock = sch.decomposeReduction(block, koLoop);
    if (failed(initBlock))
      return failure();
    // The per-thread loops unrolled, so that the tile stays in registers
    // (indexed by constants only).
    (void)sch.unroll((*kParts)[1]);
    (void)sch.unroll((*iParts)[2]);
    (void)sch.unroll((*jParts)[2]);
    for (ForOp l : Schedule::getLoops(*writeBack))
      if (txLoop->isProperAncestor(l))
        (void)sch.unroll(l);
    for (ForOp l : Schedule::getLoops(*initBlock))
      if (txLoop->isProperAncestor(l))
        (void)sch.unroll(l);

    // Epilogues: elementwise consumers of C become part of the write-back.
    while (Operation *next = getFirstUnscheduled(sch.getFunc())) {
      SmallVector<BlockOp> consumers;
      next->walk([&](BlockOp b) { consumers.push_back(b); });
      if (consumers.size() != 1 ||
          failed(sch.reverseComputeInline(consumers.front())))
        break;
    }
    return success();
  }

  /// Threads along x for loops of `extent` iterations combined across
  /// threads: whole warps (the cross-thread reduction combines warps), at
  /// most threads-per-block.
  int64_t getWarpAlignedThreads(int64_t extent) {
    return std::min<int64_t>(std::max<int64_t>(32, threadsPerBlock / 32 * 32),
                             llvm::alignTo(extent, 32));
  }

  /// Fuses `loops` and splits them over `threads` threadIdx.x threads, the
  /// thread loop outermost (consecutive threads, consecutive elements).
  static LogicalResult splitOverThreads(Schedule &sch, ArrayRef<ForOp> loops,
                                        int64_t threads) {
    FailureOr<ForOp> fused = fuseAll(sch, loops);
    if (failed(fused))
      return failure();
    FailureOr<SmallVector<ForOp>> parts = sch.split(*fused, {0, threads});
    if (failed(parts) || failed(sch.reorder({(*parts)[1], (*parts)[0]})))
      return failure();
    return sch.bind((*parts)[1], "threadIdx.x");
  }

  /// `block` as a reduction that convert-tensorir-to-gpu can combine across
  /// threads: warp shuffles move 32-bit values (f32, i32).
  static std::optional<ReductionBlock>
  matchCrossThreadReduction(BlockOp block) {
    std::optional<ReductionBlock> reduction =
        matchReductionBlock(block, nullptr);
    if (!reduction)
      return std::nullopt;
    Type type = reduction->store.getValue().getType();
    if (!type.isF32() && !type.isInteger(32))
      return std::nullopt;
    return reduction;
  }

  /// dlight's GeneralReduction rule: `root` and the statements after it
  /// (softmax: max, exp, sum, normalize; layer norm: sum, mean, variance,
  /// normalize) over the same leading spatial loops (the rows) become one
  /// kernel with a thread block per row. Spatial stages other than the last
  /// are inlined into their consumers; the last statement's row loops are
  /// fused into `blockIdx.x` and its trailing loops split over the threads;
  /// every earlier stage writes `shared` buffers, is computed at the row
  /// loop and has its trailing loops split over the same threads (a
  /// reduction among them becomes a cross-thread reduction).
  LogicalResult applyGeneralReduction(Schedule &sch, ForOp root) {
    // The statements from `root` to the end: one block each, in perfect
    // nests of serial loops from 0 with constant extents.
    SmallVector<BlockOp> blocks;
    for (Operation *op = root; op; op = op->getNextNode()) {
      if (isa<AllocBufferOp, ReturnOp>(op) || isIndexExpr(*op))
        continue;
      auto loop = dyn_cast<ForOp>(op);
      if (!loop)
        return failure();
      SmallVector<BlockOp> nested;
      loop.walk([&](BlockOp b) { nested.push_back(b); });
      if (nested.size() != 1)
        return failure();
      for (ForOp l : Schedule::getLoops(nested.front()))
        if (l.getKind() != ForKind::serial || !startsAtZero(l) ||
            !l.getConstantUpperBound())
          return failure();
      blocks.push_back(nested.front());
    }
    auto isReduction = [](BlockOp block) {
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
        if (block.isReduceIterVar(i))
          return true;
      return false;
    };
    if (blocks.size() < 2 || !llvm::any_of(blocks, isReduction))
      return failure();
    for (BlockOp block : blocks)
      if (isReduction(block) && !matchCrossThreadReduction(block))
        return failure();

    // The rows: the leading spatial loops of the first reduction.
    SmallVector<int64_t> rows;
    for (BlockOp block : blocks) {
      if (!isReduction(block))
        continue;
      for (ForOp loop : Schedule::getLoops(block)) {
        if (!isSpatialLoop(loop))
          break;
        rows.push_back(*loop.getConstantUpperBound());
      }
      break;
    }
    if (rows.empty())
      return failure();

    // Spatial stages before the last one are recomputed where they are
    // read rather than stored (dlight's try_inline_contiguous_spatial).
    SmallVector<BlockOp> stages;
    for (BlockOp block : ArrayRef(blocks).drop_back()) {
      if (!isReduction(block) && succeeded(sch.computeInline(block)))
        continue;
      stages.push_back(block);
    }
    stages.push_back(blocks.back());
    if (stages.size() < 2)
      return failure();

    // Every stage: the row loops first, then at least one trailing loop for
    // the threads.
    int64_t widest = 0;
    for (BlockOp block : stages) {
      SmallVector<ForOp> loops = Schedule::getLoops(block);
      if (loops.size() <= rows.size())
        return failure();
      int64_t trailing = 1;
      for (auto [i, loop] : llvm::enumerate(loops)) {
        int64_t extent = *loop.getConstantUpperBound();
        if (i < rows.size()) {
          if (extent != rows[i] || !isSpatialLoop(loop))
            return failure();
          continue;
        }
        trailing *= extent;
      }
      widest = std::max(widest, trailing);
    }
    int64_t threads = getWarpAlignedThreads(widest);

    // The loops after the (bound) row loops, over the threads.
    auto bindTrailing = [&](BlockOp block) -> LogicalResult {
      SmallVector<ForOp> trailing;
      for (ForOp loop : Schedule::getLoops(block))
        if (loop.getKind() == ForKind::serial)
          trailing.push_back(loop);
      return splitOverThreads(sch, trailing, threads);
    };

    BlockOp last = stages.back();
    SmallVector<ForOp> lastLoops = Schedule::getLoops(last);
    FailureOr<ForOp> row =
        fuseAll(sch, ArrayRef(lastLoops).take_front(rows.size()));
    if (failed(row) ||
        *row->getConstantUpperBound() > std::numeric_limits<int32_t>::max() ||
        failed(sch.bind(*row, "blockIdx.x")) || failed(bindTrailing(last)))
      return failure();

    int64_t sharedBytes = 0;
    for (BlockOp block : llvm::reverse(ArrayRef(stages).drop_back())) {
      // What one stage writes, every thread of the row reads (sch.set_scope).
      WalkResult scoped = block.walk([&](memref::StoreOp store) {
        auto alloc = store.getMemRef().getDefiningOp<AllocBufferOp>();
        if (!alloc)
          return WalkResult::interrupt();
        if (alloc.getStorageScope() != "shared") {
          alloc.setScope("shared");
          // Per row once compacted: the buffer over the rows' count.
          MemRefType type = alloc.getType();
          int64_t perRow = type.getNumElements();
          for (int64_t extent : rows)
            perRow /= extent;
          sharedBytes += perRow * type.getElementTypeBitWidth() / 8;
        }
        return WalkResult::advance();
      });
      if (scoped.wasInterrupted() || failed(sch.computeAt(block, *row)) ||
          failed(bindTrailing(block)))
        return failure();
    }
    // Stages that could not be inlined keep a row each in shared memory.
    if (sharedBytes > 48 * 1024)
      return failure();
    return success();
  }

  /// dlight's Reduction rule (also its GEMV case): a reduction block whose
  /// spatial loops come first gets one thread block per output element
  /// (the spatial loops fused into blockIdx.x) and its reduce loops fused and
  /// split over the threads of the block, which `convert-tensorir-to-gpu`
  /// combines across threads (warp shuffles and a shared array).
  LogicalResult applyReduction(Schedule &sch, ForOp root) {
    SmallVector<BlockOp> blocks;
    root.walk([&](BlockOp b) { blocks.push_back(b); });
    if (blocks.size() != 1)
      return failure();
    BlockOp block = blocks.front();
    std::optional<ReductionBlock> reduction = matchCrossThreadReduction(block);
    if (!reduction)
      return failure();
    SmallVector<ForOp> loops = Schedule::getLoops(block);
    if (loops.empty() || loops.front() != root)
      return failure();
    SmallVector<ForOp> spatial, reduce;
    int64_t reduceExtent = 1;
    for (ForOp loop : loops) {
      if (loop.getKind() != ForKind::serial || !startsAtZero(loop) ||
          !loop.getConstantUpperBound())
        return failure();
      if (isSpatialLoop(loop)) {
        if (!reduce.empty())
          return failure();
        spatial.push_back(loop);
        continue;
      }
      reduce.push_back(loop);
      reduceExtent *= *loop.getConstantUpperBound();
    }
    if (reduce.empty() || reduceExtent < 32)
      return failure();
    // An intermediate result (not a parameter) may take its epilogue along.
    auto output = reduction->store.getMemRef().getDefiningOp<AllocBufferOp>();
    if (failed(
            splitOverThreads(sch, reduce, getWarpAlignedThreads(reduceExtent))))
      return failure();
    if (spatial.empty())
      return success();
    FailureOr<ForOp> s = fuseAll(sch, spatial);
    if (failed(s) ||
        *s->getConstantUpperBound() > std::numeric_limits<int32_t>::max() ||
        failed(sch.bind(*s, "blockIdx.x")))
      return failure();
    if (output)
      fuseReductionEpilogue(sch, output, *s);
    return success();
  }

  /// dlight's GEMV epilogue: the elementwise consumers of a reduction's
  /// intermediate output in the statements after it (bias, activation) run
  /// in the reduction's kernel, at its block loop, by the thread that holds
  /// the result; the output becomes a `shared` buffer. Leaves the function
  /// as it was when that does not work out.
  void fuseReductionEpilogue(Schedule &sch, AllocBufferOp output,
                             ForOp blockLoop) {
    // Compaction does not shrink the shared buffer to the block's element
    // when the block index is a fused (div/mod) one, so only small outputs
    // (GEMV rows) are kept whole in shared memory.
    MemRefType type = output.getType();
    if (!type.hasStaticShape() ||
        type.getNumElements() * type.getElementTypeBitWidth() / 8 >
            kMaxEpilogueSharedBytes)
      return;
    Operation *next = getFirstUnscheduled(sch.getFunc());
    auto nextLoop = dyn_cast_or_null<ForOp>(next);
    if (!nextLoop)
      return;
    SmallVector<BlockOp> consumers;
    nextLoop.walk([&](BlockOp b) { consumers.push_back(b); });
    if (consumers.size() != 1)
      return;
    PrimFuncOp func = sch.getFunc();
    auto backup = cast<PrimFuncOp>(func->clone());
    auto restore = [&] {
      func.getBody().takeBody(backup.getBody());
      backup->erase();
    };
    output.setScope("shared");
    if (failed(sch.reverseComputeAt(consumers.front(), blockLoop)))
      return restore();
    // One thread writes each output: the epilogue's loops (one iteration
    // per block) are bound to threadIdx.x, which masks the others.
    SmallVector<ForOp> inner;
    for (ForOp loop : Schedule::getLoops(consumers.front()))
      if (loop.getKind() == ForKind::serial)
        inner.push_back(loop);
    if (inner.empty()) {
      IRRewriter rewriter(func.getContext());
      (void)applySingleThread(rewriter, consumers.front());
    } else {
      FailureOr<ForOp> fused = fuseAll(sch, inner);
      if (failed(fused) || fused->getConstantUpperBound() != 1 ||
          failed(sch.bind(*fused, "threadIdx.x")))
        return restore();
    }
    backup->erase();
  }

  /// dlight's Fallback: fuse the spatial band, split it into blocks x
  /// threads.
  LogicalResult applyFallback(Schedule &sch, ForOp root) {
    SmallVector<ForOp> band = getSpatialBand(root);
    ForOp fused;
    int64_t extent;
    if (!band.empty()) {
      FailureOr<ForOp> result = fuseAll(sch, band);
      if (failed(result))
        return failure();
      fused = *result;
      extent = *fused.getConstantUpperBound();
    } else if (root.getKind() == ForKind::serial && startsAtZero(root) &&
               !root.getConstantUpperBound() && isSpatialLoop(root)) {
      // A dynamic extent: the grid is ceil(n / threads), computed on the host.
      fused = root;
      extent = ShapedType::kDynamic;
    } else {
      return failure();
    }
    if (extent != ShapedType::kDynamic && extent <= threadsPerBlock)
      return sch.bind(fused, "threadIdx.x");
    FailureOr<SmallVector<ForOp>> parts =
        sch.split(fused, {0, static_cast<int64_t>(threadsPerBlock)});
    if (failed(parts))
      return failure();
    if (failed(sch.bind((*parts)[0], "blockIdx.x")))
      return failure();
    return sch.bind((*parts)[1], "threadIdx.x");
  }

  /// Runs `statement` in one thread of one block.
  LogicalResult applySingleThread(RewriterBase &rewriter,
                                  Operation *statement) {
    rewriter.setInsertionPoint(statement);
    auto unit =
        ForOp::create(rewriter, statement->getLoc(), rewriter.getIndexAttr(0),
                      rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
                      ForKind::thread_binding, "threadIdx.x");
    unit.setIvNameAttr(rewriter.getStringAttr("unit"));
    rewriter.moveOpBefore(statement, unit.getBodyBlock()->getTerminator());
    return success();
  }
};

} // namespace
