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
#include "mlc/Codegen/GPU/Utils.h"

#include "AttentionKernel.h"

#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"
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

/// Bytes that one thread copies at once into shared memory (a vector
/// access).
constexpr int64_t kCopyBytes = 16;
/// Thread blocks of 128 x 128 outputs below which the SIMT Matmul rule
/// takes 64 x 64 tiles: a quarter of an H100's or H200's 132 SMs.
constexpr int64_t kMinSimtMatmulBlocks = 32;
/// Multiply-adds from which the SIMT Matmul rule pads tails to whole tiles
/// (kernels of their own for A and B) instead of masking them.
constexpr int64_t kMinPaddedSimtMatmulMacs = int64_t(1) << 24;
/// Static shared memory of the GeneralReduction rule's stages (48 KiB).
constexpr int64_t kMaxGeneralReductionSharedBytes = 48 * 1024;
/// Elements of a row per thread in the GeneralReduction rule.
constexpr int64_t kRowElementsPerThread = 8;

/// Thread blocks (of 128 x 128 outputs) the tensor-core Matmul rule wants at
/// least before it takes the smaller 64 x 64 tile (about one per SM).
constexpr int64_t kMinTensorCoreBlocks = 128;

/// The Hopper Matmul rule's tile of C (M and N) and its threads (one
/// warpgroup).
constexpr int64_t kWarpgroupTile = 128;
/// The Hopper Matmul rule's tile of N (m64n64k16) for GEMMs of at most that
/// many columns (convolutions of 64 channels), and for those whose 128 x 128
/// tiles would leave SMs idle in the last wave.
constexpr int64_t kNarrowWarpgroupTileN = 64;
/// SMs the rules plan their waves for (the Hopper tiles, split-K): an H100
/// SXM's or H200's.
constexpr int64_t kTargetSMs = 132;
/// Split-K: GEMMs of at most half as many thread blocks as SMs split K
/// into at most kMaxSplitKParts parts of at least kMinSplitK elements.
constexpr int64_t kMinSplitK = 256;
constexpr int64_t kMaxSplitKParts = 16;
/// Threads per block of the split-K sum (one output each).
constexpr int64_t kSplitKSumThreads = 256;
constexpr int64_t kWarpgroupThreads = 128;

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

/// Whether a dimension of the buffer region `attr` (a BufferRegionAttr over
/// a block's iteration variables) depends on iteration variable `v`.
bool regionUses(Attribute attr, unsigned v) {
  auto region = cast<BufferRegionAttr>(attr);
  return llvm::any_of(region.getLowerBounds().getValue().getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(v); });
}

/// The first dimension of the buffer region `attr` that depends on one of
/// `vars` (0 if none does).
size_t getFirstDimUsing(Attribute attr, ArrayRef<unsigned> vars) {
  auto region = cast<BufferRegionAttr>(attr);
  for (auto [d, e] :
       llvm::enumerate(region.getLowerBounds().getValue().getResults()))
    if (llvm::any_of(vars, [&](unsigned v) { return e.isFunctionOfDim(v); }))
      return d;
  return 0;
}

/// The loops around `block` inside `ancestor`, outermost first.
SmallVector<ForOp> getLoopsInside(BlockOp block, ForOp ancestor) {
  SmallVector<ForOp> inner;
  for (ForOp l : Schedule::getLoops(block))
    if (ancestor->isProperAncestor(l))
      inner.push_back(l);
  return inner;
}

/// `loops` (a perfectly nested chain, at least one) as one loop.
FailureOr<ForOp> fuseAll(Schedule &sch, ArrayRef<ForOp> loops) {
  if (loops.size() == 1)
    return loops.front();
  return sch.fuse(loops);
}

/// How a value in a block's body varies over a run of `kRun` consecutive
/// values of an iteration variable k that starts at a multiple of `kRun`
/// (a 16-byte piece of f16 or bf16): not at all, as base + (k mod kRun)
/// with the base a multiple of kRun, or otherwise.
enum class RunKind { Uniform, Lane, Other };
constexpr int64_t kRun = 8;

class RunAnalysis {
public:
  RunAnalysis(BlockOp block, Value k) : block(block), k(k) {}

  RunKind classify(Value value) {
    if (value == k)
      return RunKind::Lane;
    if (auto it = memo.find(value); it != memo.end())
      return it->second;
    RunKind kind = RunKind::Other;
    Operation *def = value.getDefiningOp();
    if (!def || !block->isProperAncestor(def))
      kind = RunKind::Uniform; // an iteration variable other than k
    else if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      SmallVector<RunKind> operands;
      for (Value operand : apply.getOperands())
        operands.push_back(classify(operand));
      AffineMap map = apply.getAffineMap();
      kind = classify(map.getResult(0), operands, map.getNumDims()).kind;
    } else if (def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
               def->getNumResults() == 1) {
      kind = RunKind::Uniform;
      for (Value operand : def->getOperands())
        if (classify(operand) != RunKind::Uniform)
          kind = RunKind::Other;
    } else if (auto load = dyn_cast<memref::LoadOp>(def)) {
      kind = RunKind::Uniform;
      for (Value index : load.getIndices())
        if (classify(index) != RunKind::Uniform)
          kind = RunKind::Other;
    }
    memo[value] = kind;
    return kind;
  }

private:
  struct ExprKind {
    RunKind kind;
    /// For a uniform expression: whether it is a multiple of kRun.
    bool aligned = false;
  };

  static ExprKind classify(AffineExpr expr, ArrayRef<RunKind> operands,
                           unsigned numDims) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return {operands[dim.getPosition()]};
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return {operands[numDims + symbol.getPosition()]};
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return {RunKind::Uniform, constant.getValue() % kRun == 0};
    auto binary = cast<AffineBinaryOpExpr>(expr);
    ExprKind lhs = classify(binary.getLHS(), operands, numDims);
    ExprKind rhs = classify(binary.getRHS(), operands, numDims);
    auto rhsConstant = dyn_cast<AffineConstantExpr>(binary.getRHS());
    int64_t c = rhsConstant ? rhsConstant.getValue() : 0;
    bool uniform = lhs.kind == RunKind::Uniform && rhs.kind == RunKind::Uniform;
    switch (binary.getKind()) {
    case AffineExprKind::Add:
      if (uniform)
        return {RunKind::Uniform, lhs.aligned && rhs.aligned};
      if ((lhs.kind == RunKind::Lane && rhs.kind == RunKind::Uniform &&
           rhs.aligned) ||
          (rhs.kind == RunKind::Lane && lhs.kind == RunKind::Uniform &&
           lhs.aligned))
        return {RunKind::Lane};
      return {RunKind::Other};
    case AffineExprKind::Mul:
      if (uniform)
        return {RunKind::Uniform,
                lhs.aligned || rhs.aligned || (rhsConstant && c % kRun == 0)};
      if (lhs.kind == RunKind::Lane && rhsConstant && c == 1)
        return {RunKind::Lane};
      return {RunKind::Other};
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
      if (uniform)
        return {RunKind::Uniform};
      // (base + lane) floordiv c with c and base multiples of kRun.
      if (binary.getKind() == AffineExprKind::FloorDiv &&
          lhs.kind == RunKind::Lane && rhsConstant && c > 0 && c % kRun == 0)
        return {RunKind::Uniform};
      return {RunKind::Other};
    case AffineExprKind::Mod:
      if (uniform)
        return {RunKind::Uniform};
      if (lhs.kind == RunKind::Lane && rhsConstant && c > 0 && c % kRun == 0)
        return {RunKind::Lane};
      return {RunKind::Other};
    default:
      return {RunKind::Other};
    }
  }

  BlockOp block;
  Value k;
  DenseMap<Value, RunKind> memo;
};

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
    const Rule rules[] = {&GPUDefaultSchedulePass::applyAttention,
                          &GPUDefaultSchedulePass::applySplitKMatmul,
                          &GPUDefaultSchedulePass::applyWarpgroupMatmul,
                          &GPUDefaultSchedulePass::applyWarpgroupConv,
                          &GPUDefaultSchedulePass::applyTensorCoreMatmul,
                          &GPUDefaultSchedulePass::applyMatmul,
                          &GPUDefaultSchedulePass::applyGeneralReduction,
                          &GPUDefaultSchedulePass::applyReduction,
                          &GPUDefaultSchedulePass::applyTranspose,
                          &GPUDefaultSchedulePass::applyVectorFallback,
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

  /// The only block in the first unscheduled statement (a loop nest), or
  /// null when that statement is no loop or holds several blocks.
  static BlockOp getNextOnlyBlock(PrimFuncOp func) {
    auto loop = dyn_cast_or_null<ForOp>(getFirstUnscheduled(func));
    if (!loop)
      return nullptr;
    SmallVector<BlockOp> blocks;
    loop.walk([&](BlockOp b) { blocks.push_back(b); });
    return blocks.size() == 1 ? blocks.front() : nullptr;
  }

  /// The first statement at the function's top level without a thread
  /// binding.
  /// The first unscheduled statement after the last scheduled one (the
  /// kernel a rule just made), else the first one: what follows a GEMM is
  /// its epilogue even when a statement before it (the stem convolution's
  /// zero-padded im2col copy) is still unscheduled.
  static Operation *getFirstUnscheduledAfterKernel(PrimFuncOp func) {
    Operation *last = nullptr;
    for (Operation &op : func.getBody().front().without_terminator())
      if (auto loop = dyn_cast<ForOp>(op);
          loop && loop.getKind() == ForKind::thread_binding)
        last = &op;
    if (!last)
      return getFirstUnscheduled(func);
    for (Operation *op = last->getNextNode(); op; op = op->getNextNode()) {
      if (isa<BlockOp>(op))
        return op;
      if (auto loop = dyn_cast<ForOp>(op);
          loop && loop.getKind() != ForKind::thread_binding)
        return op;
    }
    return nullptr;
  }

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

  /// A GEMM-shaped reduction block C[b.., i, j] += f(A[.., i, k],
  /// B[.., k, j]) (any layout of A and B) whose iteration variables each
  /// have their own loop, perfectly nested from `root`.
  struct Gemm {
    BlockOp block;
    SmallVector<ForOp> loopOf;
    SmallVector<unsigned> spatial;
    unsigned iVar, jVar, kVar;
    int64_t m, n, k;
    ReductionBlock reduction;
  };

  /// The product of a GEMM's batch extents; none when int64_t cannot hold
  /// it.
  static std::optional<int64_t> getBatchExtent(Gemm &gemm) {
    std::optional<int64_t> batch = 1;
    for (unsigned s : ArrayRef<unsigned>(gemm.spatial).drop_back(2))
      batch = batch ? llvm::checkedMul(*batch,
                                       *gemm.loopOf[s].getConstantUpperBound())
                    : std::nullopt;
    return batch;
  }

  /// A thread dimension of a block: its tag and extent.
  struct ThreadDim {
    StringRef tag;
    int64_t extent;
  };

  static std::optional<Gemm> matchGemm(ForOp root) {
    SmallVector<BlockOp> blocks;
    root.walk([&](BlockOp b) { blocks.push_back(b); });
    if (blocks.size() != 1)
      return std::nullopt;
    Gemm gemm;
    gemm.block = blocks.front();
    BlockOp block = gemm.block;
    std::optional<ReductionBlock> reduction =
        matchReductionBlock(block, nullptr);
    if (!reduction)
      return std::nullopt;
    gemm.reduction = *reduction;
    // Each iteration variable bound to its own loop, the loops perfectly
    // nested from the root.
    SmallVector<ForOp> loops = Schedule::getLoops(block);
    if (loops.empty() || loops.front() != root ||
        loops.size() != block.getNumIterVars())
      return std::nullopt;
    gemm.loopOf.resize(block.getNumIterVars());
    for (ForOp loop : loops) {
      if (loop.getKind() != ForKind::serial || !startsAtZero(loop) ||
          !loop.getConstantUpperBound())
        return std::nullopt;
      auto it = llvm::find(block.getBindings(), loop.getInductionVar());
      if (it == block.getBindings().end())
        return std::nullopt;
      gemm.loopOf[it - block.getBindings().begin()] = loop;
    }
    SmallVector<unsigned> reduce;
    for (unsigned v = 0, e = block.getNumIterVars(); v < e; ++v)
      (block.isReduceIterVar(v) ? reduce : gemm.spatial).push_back(v);
    if (reduce.size() != 1 || gemm.spatial.size() < 2)
      return std::nullopt;
    gemm.iVar = gemm.spatial[gemm.spatial.size() - 2];
    gemm.jVar = gemm.spatial.back();
    gemm.kVar = reduce.front();
    // GEMM access pattern: two inputs, one indexed by i and k (not j), the
    // other by j and k (not i).
    FailureOr<AccessRegions> regions = inferAccessRegions(block);
    if (failed(regions) || regions->readBuffers.size() != 2)
      return std::nullopt;
    for (Attribute read : regions->reads)
      if (!regionUses(read, gemm.kVar) ||
          regionUses(read, gemm.iVar) == regionUses(read, gemm.jVar))
        return std::nullopt;
    gemm.m = *gemm.loopOf[gemm.iVar].getConstantUpperBound();
    gemm.n = *gemm.loopOf[gemm.jVar].getConstantUpperBound();
    gemm.k = *gemm.loopOf[gemm.kVar].getConstantUpperBound();
    return gemm;
  }

  /// The batch loops of `gemm` fused into `blockIdx.z`.
  static LogicalResult bindBatch(Schedule &sch, const Gemm &gemm) {
    SmallVector<ForOp> batch;
    for (unsigned s : ArrayRef<unsigned>(gemm.spatial).drop_back(2))
      batch.push_back(gemm.loopOf[s]);
    if (batch.empty())
      return success();
    FailureOr<ForOp> fused = fuseAll(sch, batch);
    if (failed(fused) || *fused->getConstantUpperBound() > 65535)
      return failure();
    return sch.bind(*fused, "blockIdx.z");
  }

  /// Input `readIndex` of `block` through shared memory, copied at every
  /// iteration of `koLoop` by all threads of the block together (`threads`:
  /// the thread tags and extents, outermost first).
  /// Each thread copies 16 consecutive bytes of a row (one vector load and
  /// store once LLVM knows the alignment: dlight's vector_size), the
  /// innermost loop split first, so that its lanes stay contiguous after the
  /// rest is fused and spread over the threads.
  static LogicalResult stageThroughShared(Schedule &sch, BlockOp block,
                                          unsigned readIndex, ForOp koLoop,
                                          ArrayRef<ThreadDim> threads,
                                          bool unroll = true) {
    FailureOr<BlockOp> copy = sch.cacheRead(block, readIndex, "shared");
    if (failed(copy) || failed(sch.computeAt(*copy, koLoop)))
      return failure();
    SmallVector<ForOp> inner = getLoopsInside(*copy, koLoop);
    if (inner.empty())
      return failure();
    int64_t tileElements = 1;
    for (ForOp l : inner)
      tileElements *= *l.getConstantUpperBound();
    int64_t innermost = *inner.back().getConstantUpperBound();
    unsigned bits = 32;
    copy->walk([&](memref::StoreOp store) {
      bits = store.getMemRefType().getElementTypeBitWidth();
    });
    int64_t threadCount = 1;
    for (const ThreadDim &dim : threads)
      threadCount *= dim.extent;
    int64_t lanes = std::max<int64_t>(1, kCopyBytes * 8 / bits);
    while (lanes > 1 &&
           (innermost % lanes != 0 || tileElements < threadCount * lanes))
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
    SmallVector<int64_t> factors{0};
    for (const ThreadDim &dim : threads)
      factors.push_back(dim.extent);
    FailureOr<SmallVector<ForOp>> parts = sch.split(*fused, factors);
    if (failed(parts))
      return failure();
    for (auto [dim, loop] : llvm::zip(threads, ArrayRef(*parts).drop_front()))
      if (failed(sch.bind(loop, dim.tag)))
        return failure();
    // Each thread's copies unrolled: straight-line loads and stores in the
    // K loop's body, which the copy pipelines (register prefetch, cp.async)
    // take from there.
    if (unroll && failed(sch.unroll((*parts)[0])))
      return failure();
    if (laneLoop && failed(sch.vectorize(laneLoop)))
      return failure();
    return success();
  }

  /// Elementwise consumers of the statement just scheduled (bias,
  /// activation) inlined into its write-back.
  static void inlineEpilogues(Schedule &sch) {
    while (Operation *next = getFirstUnscheduledAfterKernel(sch.getFunc())) {
      SmallVector<BlockOp> consumers;
      next->walk([&](BlockOp b) { consumers.push_back(b); });
      if (consumers.size() != 1 ||
          failed(sch.reverseComputeInline(consumers.front())))
        break;
    }
  }

  /// The one buffer that `block` loads from, or null (none, or several).
  static Value getOnlyLoadedBuffer(BlockOp block) {
    Value input;
    for (Operation &op : block.getBodyBlock()->without_terminator())
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        if (input && input != load.getMemRef())
          return {};
        input = load.getMemRef();
      }
    return input;
  }

  /// Whether `block` loads from one buffer only, a parameter of the function.
  static bool readsOneParameter(BlockOp block) {
    Value input = getOnlyLoadedBuffer(block);
    return input && isa<BlockArgument>(input) &&
           isa<PrimFuncOp>(input.getParentBlock()->getParentOp());
  }

  /// The statements after a GEMM's write-back that compute another output of
  /// the function from one it writes, element by element (relax-fuse-ops'
  /// multi-output-casts: the float16 copy of a float32 result, between
  /// reshapes), join the write-back: their intermediates inlined, the last
  /// one after the write-back's store (reverse_compute_inline keep_input).
  static void inlineSecondOutputs(Schedule &sch) {
    PrimFuncOp func = sch.getFunc();
    Operation *first = getFirstUnscheduledAfterKernel(func);
    if (!first)
      return;
    // The chain: single-block spatial statements of one store each, the
    // first reading a parameter that a scheduled statement writes, each
    // next one reading what the previous one wrote, the last one writing a
    // parameter.
    SmallVector<BlockOp> chain;
    Value previous;
    for (Operation *op = first; op; op = op->getNextNode()) {
      if (isa<AllocBufferOp>(op))
        continue;
      SmallVector<BlockOp> blocks;
      op->walk<WalkOrder::PreOrder>([&](BlockOp b) {
        blocks.push_back(b);
        return WalkResult::skip();
      });
      if (blocks.size() != 1 || blocks.front().hasReduceIterVars())
        return;
      BlockOp block = blocks.front();
      auto stores = block.getBodyBlock()->getOps<memref::StoreOp>();
      Value input = getOnlyLoadedBuffer(block);
      if (!input || !llvm::hasSingleElement(stores))
        return;
      if (previous ? input != previous
                   : !isa<BlockArgument>(input) ||
                         !llvm::any_of(input.getUsers(), [&](Operation *user) {
                           Operation *top = user;
                           while (top->getParentOp() != func)
                             top = top->getParentOp();
                           return isa<memref::StoreOp>(user) &&
                                  top->isBeforeInBlock(first);
                         }))
        return;
      chain.push_back(block);
      previous = (*stores.begin()).getMemRef();
      if (isa<BlockArgument>(previous))
        break;
    }
    if (chain.empty() || !isa<BlockArgument>(previous))
      return;
    for (BlockOp block : ArrayRef(chain).drop_back())
      if (failed(sch.computeInline(block)))
        return;
    (void)sch.reverseComputeInline(chain.back(), /*keepInput=*/true);
  }

  /// `block`'s results computed into registers (cache_write "local") and
  /// stored once the thread (`threadLoop`) has done all of its loads, by a
  /// copy whose innermost loop is vectorized and the others unrolled: a load
  /// may not move above a store to a buffer that may alias it, which keeps
  /// LLVM from merging interleaved loads and stores into vector accesses.
  static LogicalResult storeFromRegisters(Schedule &sch, BlockOp block,
                                          ForOp threadLoop) {
    FailureOr<BlockOp> copy = sch.cacheWrite(block, 0, "local");
    if (failed(copy) || failed(sch.reverseComputeAt(*copy, threadLoop)))
      return failure();
    SmallVector<ForOp> copyLoops = getLoopsInside(*copy, threadLoop);
    if (copyLoops.empty() || failed(sch.vectorize(copyLoops.back())))
      return failure();
    copyLoops.pop_back();
    for (ForOp l : copyLoops)
      (void)sch.unroll(l);
    return success();
  }

  /// Unrolls the loops of `block` inside `ancestor`.
  static void unrollInside(Schedule &sch, BlockOp block, ForOp ancestor) {
    for (ForOp l : getLoopsInside(block, ancestor))
      (void)sch.unroll(l);
  }

  /// dlight's pad_einsum for a GEMM whose M, N or K is no multiple of its
  /// tile (bm x bn, steps of bk): the domain padded to whole tiles. The
  /// zero-padded copies of A and B (`padInputs`, before `root`) and the copy
  /// back of C (`padOutput`, after it) are blocks of their own for the rule
  /// to inline; none when the shape divides.
  static LogicalResult padToTiles(Schedule &sch, Gemm &gemm, ForOp root,
                                  int64_t bm, int64_t bn, int64_t bk,
                                  SmallVectorImpl<BlockOp> &padInputs,
                                  BlockOp &padOutput) {
    if (gemm.m % bm == 0 && gemm.n % bn == 0 && gemm.k % bk == 0)
      return success();
    llvm::SmallPtrSet<Operation *, 8> before;
    sch.getFunc().walk([&](BlockOp b) { before.insert(b); });
    SmallVector<int64_t> padding(gemm.block.getNumIterVars(), 1);
    padding[gemm.iVar] = bm;
    padding[gemm.jVar] = bn;
    padding[gemm.kVar] = bk;
    if (failed(sch.padEinsum(gemm.block, padding)))
      return failure();
    for (Operation &op : sch.getFunc().getBody().front()) {
      SmallVector<BlockOp> nested;
      op.walk([&](BlockOp b) { nested.push_back(b); });
      if (nested.size() != 1 || before.contains(nested.front()))
        continue;
      if (op.isBeforeInBlock(root))
        padInputs.push_back(nested.front());
      else
        padOutput = nested.front();
    }
    return success();
  }

  /// dlight's Matmul rule (SIMT): a GEMM block gets a tile of (TY * VI) x
  /// (TX * VJ) outputs per thread block, VI x VJ per thread in registers
  /// (`local`), and K in steps of BK through `shared` copies of A and B
  /// that all threads of the block load together. Consumers of C in the
  /// statements after it (bias, activation) are inlined into the write-back
  /// of the register tile.
  LogicalResult applyMatmul(Schedule &sch, ForOp root) {
    std::optional<Gemm> gemm = matchGemm(root);
    if (!gemm)
      return failure();
    BlockOp block = gemm->block;
    int64_t m = gemm->m, n = gemm->n, k = gemm->k;
    if (m < 32 || n < 32 || k < 8)
      return failure();
    // 16 x 16 threads; 8 x 8 outputs each on large matrices, else 4 x 4,
    // also where 128 x 128 tiles would leave most SMs idle (a BERT layer at
    // batch 1: 128 x 768 outputs, 6 thread blocks; unmeasured on a GPU).
    // K in steps of 16 on large matrices: half the barriers of steps of 8
    // (f32 4096^3 on an H200: 5.62 -> 5.24 ms, 0.48 -> 0.51x cuBLAS).
    const int64_t ty = 16, tx = 16;
    std::optional<int64_t> batchExtent = getBatchExtent(*gemm);
    if (!batchExtent)
      return failure();
    int64_t batch = *batchExtent;
    const int64_t v =
        m >= 128 && n >= 128 &&
                batch * llvm::divideCeil(m, 128) * llvm::divideCeil(n, 128) >=
                    kMinSimtMatmulBlocks
            ? 8
            : 4;
    const int64_t bk = v == 8 && k >= 16 ? 16 : 8;
    int64_t gridY = llvm::divideCeil(m, ty * v);
    if (gridY > 65535)
      return failure();
    // Tails of large GEMMs padded to whole tiles: the zero-padded A and B
    // are kernels of their own (masked copies inlined here cost registers:
    // 48 bytes of spills at 1000 x 777 x 1023) and the copy back of C is
    // inlined into the write-back (predicated stores), so the tile loops
    // run unmasked, as on divisible shapes (masked, 1000 x 777 x 1023 ran
    // at 1.2 TFLOP/s on an H200, 4096^3 at 26). Small GEMMs keep their
    // masks rather than pay two more kernel launches.
    SmallVector<BlockOp> padInputs;
    BlockOp padOutput;
    std::optional<int64_t> macs = llvm::checkedMul(batch, m);
    for (int64_t extent : {n, k})
      macs = macs ? llvm::checkedMul(*macs, extent) : std::nullopt;
    if ((!macs || *macs >= kMinPaddedSimtMatmulMacs) &&
        failed(padToTiles(sch, *gemm, root, ty * v, tx * v, bk, padInputs,
                          padOutput)))
      return failure();

    FailureOr<SmallVector<ForOp>> iParts =
        sch.split(gemm->loopOf[gemm->iVar], {0, ty, v});
    if (failed(iParts))
      return failure();
    FailureOr<SmallVector<ForOp>> jParts =
        sch.split(gemm->loopOf[gemm->jVar], {0, tx, v});
    if (failed(jParts))
      return failure();
    FailureOr<SmallVector<ForOp>> kParts =
        sch.split(gemm->loopOf[gemm->kVar], {0, bk});
    if (failed(kParts))
      return failure();
    SmallVector<ForOp> order;
    for (unsigned s : ArrayRef<unsigned>(gemm->spatial).drop_back(2))
      order.push_back(gemm->loopOf[s]);
    order.append({(*iParts)[0], (*jParts)[0], (*iParts)[1], (*jParts)[1],
                  (*kParts)[0], (*kParts)[1], (*iParts)[2], (*jParts)[2]});
    if (failed(sch.reorder(order)) || failed(bindBatch(sch, *gemm)))
      return failure();
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
    for (unsigned r = 0; r < 2; ++r)
      if (failed(
              stageThroughShared(sch, block, r, koLoop,
                                 {{"threadIdx.y", ty}, {"threadIdx.x", tx}})))
        return failure();
    if (padOutput && failed(sch.reverseComputeInline(padOutput)))
      return failure();
    FailureOr<BlockOp> initBlock = sch.decomposeReduction(block, koLoop);
    if (failed(initBlock))
      return failure();
    // The per-thread loops unrolled, so that the tile stays in registers
    // (indexed by constants only).
    (void)sch.unroll((*kParts)[1]);
    (void)sch.unroll((*iParts)[2]);
    (void)sch.unroll((*jParts)[2]);
    unrollInside(sch, *writeBack, txLoop);
    unrollInside(sch, *initBlock, txLoop);
    inlineEpilogues(sch);
    inlineSecondOutputs(sch);
    return success();
  }

  /// The element type of `gemm`'s inputs when an f32 accumulator sums their
  /// products as `mma.sync` can: f16 or bf16 (both the same) extended to f32
  /// (C += extf(A) * extf(B), computed exactly), or f32 (C += A * B, which
  /// the tf32 form computes with 10-bit mantissas: only with allow-tf32).
  Type getTensorCoreInputType(ReductionBlock r) {
    if (!isa<arith::AddFOp>(r.combiner) ||
        !r.store.getValue().getType().isF32())
      return nullptr;
    auto mul =
        r.combiner->getOperand(1 - r.accOperand).getDefiningOp<arith::MulFOp>();
    if (!mul)
      return nullptr;
    Type inputType;
    for (Value operand : mul->getOperands()) {
      auto ext = operand.getDefiningOp<arith::ExtFOp>();
      memref::LoadOp load = matchZeroPaddedLoad(ext ? ext.getIn() : operand);
      if (!load)
        return nullptr;
      Type type = load.getType();
      bool supported = ext ? isa<Float16Type, BFloat16Type>(type)
                           : type.isF32() && allowTF32;
      if (!supported || (inputType && type != inputType))
        return nullptr;
      inputType = type;
    }
    return inputType;
  }

  /// The reduction block of an implicit GEMM (a convolution) from `root`
  /// on: the first statement holding a reduction, after the spatial
  /// statements that produce its inputs (its padding: `producers`); none
  /// when a statement holds more than one block.
  static BlockOp findImplicitGemm(ForOp root,
                                  SmallVectorImpl<BlockOp> &producers) {
    for (Operation *op = root; op; op = op->getNextNode()) {
      if (isa<AllocBufferOp>(op) || isIndexExpr(*op))
        continue;
      SmallVector<BlockOp> nested;
      if (auto loop = dyn_cast<ForOp>(op);
          loop && loop.getKind() != ForKind::thread_binding)
        loop.walk([&](BlockOp b) { nested.push_back(b); });
      if (nested.size() != 1)
        return nullptr;
      if (nested.front().hasReduceIterVars())
        return nested.front();
      producers.push_back(nested.front());
    }
    return nullptr;
  }

  /// The statement of the function's top level holding `block`.
  static ForOp getRoot(BlockOp block) {
    SmallVector<ForOp> loops = Schedule::getLoops(block);
    return loops.empty() ? ForOp() : loops.front();
  }

  /// dlight's normalize_to_matmul: a reduction block C += A * B whose
  /// buffers are indexed by combinations of its iteration variables (a
  /// convolution: P[n, c, y + ry, x + rx]) as a GEMM. Each iteration
  /// variable is classified by the buffers it indexes: C, A and B (a
  /// batch), C and A (i), C and B (j), A and B (a reduce k);
  /// transform_block_layout fuses the variables of i, j and k (block order,
  /// row-major), and reindex gives the block buffers indexed by exactly
  /// (batch.., i, k), (batch.., j, k) and (batch.., i, j), copied by blocks
  /// that `inlineReindexCopies` inlines once the GEMM is scheduled. Returns
  /// the GEMM's new root and the copy blocks.
  struct NormalizedGemm {
    ForOp root;
    SmallVector<BlockOp> readCopies;
    BlockOp writeCopy;
    /// Whether A's rows run along its innermost dimension in runs of a
    /// multiple of 8 elements (NHWC channels; 16 bytes of f16): its copies
    /// are then vector loads, else a gather of single elements.
    bool contiguousRows = false;
  };
  FailureOr<NormalizedGemm> normalizeToGemm(Schedule &sch, BlockOp block) {
    std::optional<ReductionBlock> reduction =
        matchReductionBlock(block, nullptr);
    if (!reduction || !getTensorCoreInputType(*reduction))
      return failure();
    FailureOr<AccessRegions> regions = inferAccessRegions(block);
    if (failed(regions) || regions->readBuffers.size() != 2 ||
        regions->writeBuffers.size() != 1)
      return failure();
    SmallVector<unsigned> batch, iVars, jVars, kVars;
    SmallVector<int64_t> extents;
    for (unsigned v = 0, e = block.getNumIterVars(); v < e; ++v) {
      std::optional<int64_t> extent = block.getConstantExtent(v);
      if (!extent)
        return failure();
      extents.push_back(*extent);
      bool c = regionUses(regions->writes[0], v),
           a = regionUses(regions->reads[0], v),
           b = regionUses(regions->reads[1], v);
      if (block.isReduceIterVar(v) ? (!a || !b || c) : !c)
        return failure();
      if (block.isReduceIterVar(v))
        kVars.push_back(v);
      else if (a && b)
        batch.push_back(v);
      else if (a || b)
        (a ? iVars : jVars).push_back(v);
      else
        return failure();
    }
    if (iVars.empty() || jVars.empty() || kVars.empty())
      return failure();
    // k fused in the order of A's dimensions, so that a row of the im2col
    // matrix runs along A's memory where it can: (c, ry, rx) for an NCHW
    // image, (ry, rx, c) for NHWC, whose channels are then consecutive k
    // (16-byte copies) and whose HWIO weight is the K x N matrix as stored.
    llvm::stable_sort(kVars, [&](unsigned x, unsigned y) {
      return getFirstDimUsing(regions->reads[0], {x}) <
             getFirstDimUsing(regions->reads[0], {y});
    });
    MLIRContext *ctx = &getContext();
    auto fuse = [&](ArrayRef<unsigned> vars) {
      AffineExpr fused = getAffineConstantExpr(0, ctx);
      for (unsigned v : vars)
        fused = fused * extents[v] + getAffineDimExpr(v, ctx);
      return fused;
    };
    // reindex lays its buffers out in the block's order: k goes before j
    // when B's memory does so (a K x N weight such as HWIO), so that its
    // copies read consecutive addresses.
    bool kBeforeJ = getFirstDimUsing(regions->reads[1], kVars) <
                    getFirstDimUsing(regions->reads[1], jVars);
    SmallVector<AffineExpr> results;
    for (unsigned v : batch)
      results.push_back(getAffineDimExpr(v, ctx));
    if (kBeforeJ)
      results.append({fuse(iVars), fuse(kVars), fuse(jVars)});
    else
      results.append({fuse(iVars), fuse(jVars), fuse(kVars)});
    std::string name = block.getName().str();
    if (failed(sch.transformBlockLayout(
            block, AffineMap::get(extents.size(), 0, results, ctx))))
      return failure();
    FailureOr<BlockOp> gemm = sch.getBlock(name);
    if (failed(gemm))
      return failure();
    NormalizedGemm result;
    FailureOr<BlockOp> copy = sch.reindex(*gemm, 0, /*write=*/true);
    if (failed(copy))
      return failure();
    result.writeCopy = *copy;
    for (unsigned r = 0; r < 2; ++r) {
      copy = sch.reindex(*gemm, r, /*write=*/false);
      if (failed(copy))
        return failure();
      result.readCopies.push_back(*copy);
    }
    result.root = getRoot(*gemm);
    unsigned aRank = cast<BufferRegionAttr>(regions->reads[0])
                         .getLowerBounds()
                         .getValue()
                         .getNumResults();
    result.contiguousRows =
        extents[kVars.back()] % 8 == 0 &&
        getFirstDimUsing(regions->reads[0], {kVars.back()}) + 1 == aRank;
    return result;
  }

  /// Whether the rows (innermost dimension) of the buffer that `pad`
  /// copies from can all be read in 16-byte pieces.
  static bool hasUnalignedRows(BlockOp pad) {
    WalkResult unaligned = pad.walk([](memref::LoadOp load) {
      MemRefType type = load.getMemRefType();
      if (type.getRank() == 0)
        return WalkResult::advance();
      std::optional<int64_t> rowBits =
          ShapedType::isDynamic(type.getShape().back())
              ? std::nullopt
              : llvm::checkedMul(type.getShape().back(),
                                 int64_t(type.getElementTypeBitWidth()));
      return !rowBits || *rowBits % 128 != 0 ? WalkResult::interrupt()
                                             : WalkResult::advance();
    });
    return unaligned.wasInterrupted();
  }

  /// dlight's tensor-core Matmul rule (`mma.sync.m16n8k16`, sm_80+): a GEMM
  /// block with f16 or bf16 inputs and an f32 accumulator (or f32 inputs
  /// with allow-tf32: `mma.sync.m16n8k8` in tf32) gets warps of 32
  /// threads (8 x 4: `threadIdx.y` x `threadIdx.x`) along `threadIdx.z`, a
  /// warp tile of 16 x 8 accumulator tiles in registers, and K in steps of
  /// 32 (tf32: 16) through `shared` copies of A and B. The loops are split so
  /// that each thread holds exactly the accumulator elements that `mma.sync`
  /// gives it (row g + 8h, column 2t + p of each 16 x 8 tile, lane = 4g + t),
  /// so the schedule is also a correct SIMT program (what the host
  /// emulation runs); the loop over h, annotated `mma_sync`, is what
  /// `mlc-gpu-tensorize-mma` replaces by `ldmatrix` + `mma.sync`.
  /// The kernel of relax.nn.attention as one fused flash-attention kernel
  /// on tensor cores (AttentionKernel.cpp).
  LogicalResult applyAttention(Schedule &sch, ForOp root) {
    if (!tensorCores)
      return failure();
    IRRewriter rewriter(&getContext());
    return buildFusedAttention(rewriter, sch.getFunc(), root);
  }

  /// Whether `load` reads a prim_func argument of identity layout at
  /// indices that are exactly iteration variables `vars` of `block`, in
  /// order. The argument may be bound to a constant: the runtime keeps a
  /// device copy of it for its tensor map.
  static bool isArgumentLoad(memref::LoadOp load, BlockOp block,
                             ArrayRef<unsigned> vars) {
    auto arg = dyn_cast<BlockArgument>(load.getMemRef());
    auto func =
        arg ? dyn_cast<PrimFuncOp>(arg.getOwner()->getParentOp()) : nullptr;
    if (!func || !load.getMemRefType().getLayout().isIdentity() ||
        // TMA takes static tensors of at most 5 dimensions.
        !load.getMemRefType().hasStaticShape() ||
        load.getMemRefType().getRank() > 5 ||
        load.getIndices().size() != vars.size())
      return false;
    for (auto [index, v] : llvm::zip(load.getIndices(), vars))
      if (index != block.getIterVar(v))
        return false;
    return true;
  }

  /// The Hopper Matmul rule (sm_90a, `warpgroup-mma`): a GEMM block
  /// C[b.., i, j] += extf(A[b.., i, k]) * extf(B[b.., k, j]) with f16 or
  /// bf16 prim_func arguments A and B (B's batch dimensions may be fewer:
  /// broadcast) gets a thread block of one warpgroup (128 threads) per
  /// 128 x 128 tile of C, accumulated in a `shared` buffer whose loop nest
  /// (the thread's row of the tile over all of K) is annotated
  /// `wgmma = "m64n128k16"`: mlc-gpu-tensorize-wgmma replaces it by TMA
  /// loads of A and B and wgmma, leaving the write-back (with the inlined
  /// epilogue, and the tails' predicates) to the threads. TMA needs rows
  /// of whole 16-byte pieces (K and N multiples of 8) and fills what lies
  /// past the end with zeros.
  LogicalResult applyWarpgroupMatmul(Schedule &sch, ForOp root) {
    if (!warpgroupMma)
      return failure();
    std::optional<Gemm> gemm = matchGemm(root);
    if (!gemm)
      return failure();
    Type inputType = getTensorCoreInputType(gemm->reduction);
    if (!inputType || inputType.isF32())
      return failure();
    int64_t m = gemm->m, n = gemm->n, k = gemm->k;
    if (m < 64 || n < 64 || k % 8 != 0 || n % 8 != 0 ||
        llvm::divideCeil(m, kWarpgroupTile) > 65535)
      return failure();
    // A indexed (b.., i, k), B (b'.., k, j) with b' a suffix of b.
    auto mul =
        gemm->reduction.combiner->getOperand(1 - gemm->reduction.accOperand)
            .getDefiningOp<arith::MulFOp>();
    SmallVector<memref::LoadOp> loads;
    for (Value operand : mul->getOperands())
      loads.push_back(operand.getDefiningOp<arith::ExtFOp>()
                          .getIn()
                          .getDefiningOp<memref::LoadOp>());
    ArrayRef<unsigned> batch = ArrayRef<unsigned>(gemm->spatial).drop_back(2);
    auto isA = [&](memref::LoadOp load) {
      SmallVector<unsigned> vars(batch);
      vars.append({gemm->iVar, gemm->kVar});
      return isArgumentLoad(load, gemm->block, vars);
    };
    auto isB = [&](memref::LoadOp load) {
      unsigned rank = load.getIndices().size();
      if (rank < 2 || rank - 2 > batch.size())
        return false;
      SmallVector<unsigned> vars(batch.take_back(rank - 2));
      vars.append({gemm->kVar, gemm->jVar});
      return isArgumentLoad(load, gemm->block, vars);
    };
    if (!((isA(loads[0]) && isB(loads[1])) || (isA(loads[1]) && isB(loads[0]))))
      return failure();
    return scheduleWarpgroupGemm(sch, *gemm, /*writeCopy=*/nullptr,
                                 /*gatherA=*/false);
  }

  /// The Hopper Matmul rule for an implicit GEMM (a convolution in NHWC
  /// with HWIO weights, after its padding): normalize_to_matmul, then the
  /// im2col copy, the weight's copy and the padding inlined into the GEMM
  /// block itself, which then reads A at gathered (and zero-padded)
  /// addresses, and B, the weight, as the K x N matrix it is in memory.
  /// mlc-gpu-tensorize-wgmma loads such an A (`wgmma_a = "gather"`) with
  /// the threads' cp.async, 16 bytes of k at a time, so the rule requires
  /// that each run of 8 k from a multiple of 8 is 8 consecutive elements of
  /// A's rows with one padding predicate (channels innermost, a multiple
  /// of 8), and that B's indices linearize to (k, n).
  LogicalResult applyWarpgroupConv(Schedule &sch, ForOp root) {
    if (!warpgroupMma || matchGemm(root))
      return failure();
    SmallVector<BlockOp> producers;
    BlockOp reduction = findImplicitGemm(root, producers);
    if (!reduction)
      return failure();
    FailureOr<NormalizedGemm> normalized = normalizeToGemm(sch, reduction);
    if (failed(normalized) || !normalized->contiguousRows)
      return failure();
    for (BlockOp copy : normalized->readCopies)
      if (failed(sch.computeInline(copy)))
        return failure();
    for (BlockOp producer : llvm::reverse(producers))
      if (failed(sch.computeInline(producer)))
        return failure();
    std::optional<Gemm> gemm = matchGemm(normalized->root);
    if (!gemm || gemm->spatial.size() != 2)
      return failure();
    Type inputType = getTensorCoreInputType(gemm->reduction);
    if (!inputType || inputType.isF32() || gemm->m < 64 || gemm->n < 64 ||
        gemm->k % kRun != 0 || gemm->n % kRun != 0 ||
        llvm::divideCeil(gemm->m, kWarpgroupTile) > 65535)
      return failure();
    BlockOp block = gemm->block;
    auto mul =
        gemm->reduction.combiner->getOperand(1 - gemm->reduction.accOperand)
            .getDefiningOp<arith::MulFOp>();
    Value aValue, bValue;
    for (Value operand : mul->getOperands()) {
      Value in = operand.getDefiningOp<arith::ExtFOp>().getIn();
      memref::LoadOp load = matchZeroPaddedLoad(in);
      bool usesI = llvm::any_of(load.getIndices(), [&](Value index) {
        return dependsOn(index, {block.getIterVar(gemm->iVar)});
      });
      (usesI ? aValue : bValue) = in;
    }
    if (!aValue || !bValue || !isGatherOfRuns(block, gemm->kVar, aValue) ||
        !isWeightMatrix(block, *gemm, matchZeroPaddedLoad(bValue)) ||
        bValue != matchZeroPaddedLoad(bValue).getResult())
      return failure();
    return scheduleWarpgroupGemm(sch, *gemm, normalized->writeCopy,
                                 /*gatherA=*/true);
  }

  /// Whether a prim_func argument of static shape and identity layout.
  static bool isPlainArgument(Value memref) {
    auto arg = dyn_cast<BlockArgument>(memref);
    auto type = dyn_cast<MemRefType>(memref.getType());
    return arg && isa<PrimFuncOp>(arg.getOwner()->getParentOp()) && type &&
           type.hasStaticShape() && type.getLayout().isIdentity() &&
           type.getRank() >= 1;
  }

  /// Whether the GEMM operand `a` of `block` (select(c, load, 0) or a load
  /// of a prim_func argument) reads, for each run of 8 k from a multiple
  /// of 8, 8 consecutive elements of a row whose start is 16-byte aligned,
  /// with one predicate for the run.
  static bool isGatherOfRuns(BlockOp block, unsigned kVar, Value a) {
    memref::LoadOp load = matchZeroPaddedLoad(a);
    if (!load || !isPlainArgument(load.getMemRef()) ||
        load.getMemRefType().getShape().back() % kRun != 0 ||
        load.getMemRefType().getElementTypeBitWidth() != 16)
      return false;
    RunAnalysis runs(block, block.getIterVar(kVar));
    if (auto select = a.getDefiningOp<arith::SelectOp>();
        select && runs.classify(select.getCondition()) != RunKind::Uniform)
      return false;
    for (Value index : load.getIndices().drop_back())
      if (runs.classify(index) != RunKind::Uniform)
        return false;
    return runs.classify(load.getIndices().back()) == RunKind::Lane;
  }

  /// Whether `load` reads a prim_func argument (rank <= 5, rows of whole
  /// 16-byte pieces) as a K x N matrix: its last index is the GEMM's j, and
  /// its other indices, functions of k alone, address row k of the
  /// argument with its leading dimensions collapsed (an HWIO weight read
  /// at (k / (KW C), k / C % KW, k % C, j)), checked at every k.
  static bool isWeightMatrix(BlockOp block, const Gemm &gemm,
                             memref::LoadOp load) {
    if (!load || !isPlainArgument(load.getMemRef()))
      return false;
    MemRefType type = load.getMemRefType();
    if (type.getRank() < 2 || type.getRank() > 5 ||
        type.getShape().back() * type.getElementTypeBitWidth() % 128 != 0 ||
        load.getIndices().back() != block.getIterVar(gemm.jVar))
      return false;
    int64_t rows = type.getNumElements() / type.getShape().back();
    if (rows != gemm.k)
      return false;
    // Evaluated with k alone known: an index that uses another iteration
    // variable has no value.
    return addressesRows(load, block.getIterVar(gemm.kVar), gemm.k,
                         DenseMap<Value, int64_t>());
  }

  /// The N of the Hopper rules' tiles of C (their M is 128) for `batch`
  /// GEMMs of m x n: 64 when n is at most 64 (the wider wgmma would
  /// compute zeros), or when 128 x 64 tiles (three thread blocks per SM in
  /// shared memory, against two) cut the columns that the busiest SM
  /// computes by a quarter or more. The thread blocks of a launch spread
  /// over the SMs in rounds, so the busiest SM takes ceil(tiles / SMs)
  /// tiles: 4096 x 768 (a BERT layer's projections at batch 32) makes 192
  /// tiles of 128 x 128, 2 for some SMs and 1 for others (256 columns),
  /// or 384 of 128 x 64, at most 3 per SM (192 columns). The quarter
  /// leaves room for m64n64k16's lower throughput: it reads as many shared
  /// memory bytes per multiply-add as m64n128k16 reads for two.
  /// (A model, not measured on a GPU yet.)
  static int64_t chooseWarpgroupTileN(int64_t batch, int64_t m, int64_t n) {
    if (n <= kNarrowWarpgroupTileN)
      return kNarrowWarpgroupTileN;
    auto busiestColumns = [&](int64_t tileN) -> std::optional<int64_t> {
      int64_t rows = llvm::divideCeil(m, kWarpgroupTile);
      int64_t columns = llvm::divideCeil(n, tileN);
      std::optional<int64_t> tiles = llvm::checkedMul(batch, rows);
      tiles = tiles ? llvm::checkedMul(*tiles, columns) : std::nullopt;
      if (!tiles)
        return std::nullopt;
      int64_t rounds = llvm::divideCeil(*tiles, kTargetSMs);
      return llvm::checkedMul(rounds, tileN);
    };
    std::optional<int64_t> narrow = busiestColumns(kNarrowWarpgroupTileN);
    std::optional<int64_t> wide = busiestColumns(kWarpgroupTile);
    return narrow && wide && *narrow <= *wide / 4 * 3 ? kNarrowWarpgroupTileN
                                                      : kWarpgroupTile;
  }

  /// The Hopper Matmul rule's schedule of `gemm`: a thread block of one
  /// warpgroup per 128 x 128 tile of C (128 x 64 when N is at most 64: the
  /// wider wgmma would compute zeros), accumulated in `shared` by the nest
  /// that mlc-gpu-tensorize-wgmma replaces; `writeCopy` (an implicit GEMM's
  /// copy of its result to the output) inlined into the write-back.
  LogicalResult scheduleWarpgroupGemm(Schedule &sch, Gemm &gemm,
                                      BlockOp writeCopy, bool gatherA) {
    ArrayRef<unsigned> batch = ArrayRef<unsigned>(gemm.spatial).drop_back(2);
    std::optional<int64_t> batchExtent = getBatchExtent(gemm);
    if (!batchExtent)
      return failure();
    const int64_t tileN = chooseWarpgroupTileN(*batchExtent, gemm.m, gemm.n);
    FailureOr<SmallVector<ForOp>> i =
        sch.split(gemm.loopOf[gemm.iVar], {0, kWarpgroupTile});
    if (failed(i))
      return failure();
    FailureOr<SmallVector<ForOp>> j =
        sch.split(gemm.loopOf[gemm.jVar], {0, tileN});
    if (failed(j))
      return failure();
    SmallVector<ForOp> order;
    for (unsigned s : batch)
      order.push_back(gemm.loopOf[s]);
    order.append({(*i)[0], (*j)[0], (*i)[1], (*j)[1], gemm.loopOf[gemm.kVar]});
    if (failed(sch.reorder(order)) || failed(bindBatch(sch, gemm)) ||
        failed(sch.bind((*i)[0], "blockIdx.y")) ||
        failed(sch.bind((*j)[0], "blockIdx.x")))
      return failure();
    // The tile's accumulator in shared memory, written back by the
    // warpgroup's threads (consecutive threads, consecutive columns).
    FailureOr<BlockOp> writeBack = sch.cacheWrite(gemm.block, 0, "shared");
    if (failed(writeBack) ||
        failed(sch.reverseComputeAt(*writeBack, (*j)[0])) ||
        failed(sch.bind((*i)[1], "threadIdx.x")) ||
        (writeCopy && failed(sch.reverseComputeInline(writeCopy))))
      return failure();
    SmallVector<ForOp> inner = getLoopsInside(*writeBack, (*j)[0]);
    // Each thread takes 16 bytes of the accumulator's row at a time (the
    // tile's 128 or 64 columns divide by any lane count), so that its shared
    // loads and global stores become vector accesses: with one element per
    // thread, the write-back's scalar accesses kept an H200's L1 72 % busy
    // (ncu, 4096 x 768 x 3072 f16). The lanes are split off the columns
    // before the rest is fused, so that a row's mask does not depend on
    // the lane and covers the whole vector.
    const int64_t lanes = kCopyBytes / 4;
    if (inner.empty())
      return failure();
    FailureOr<SmallVector<ForOp>> columns = sch.split(inner.back(), {0, lanes});
    if (failed(columns))
      return failure();
    inner.back() = (*columns)[0];
    FailureOr<ForOp> fused = fuseAll(sch, inner);
    if (failed(fused))
      return failure();
    FailureOr<SmallVector<ForOp>> parts =
        sch.split(*fused, {0, kWarpgroupThreads});
    if (failed(parts) || failed(sch.bind((*parts)[1], "threadIdx.x")) ||
        failed(sch.vectorize((*columns)[1])))
      return failure();
    ForOp tileLoop = (*j)[1];
    SmallVector<NamedAttribute> annotations{NamedAttribute(
        StringAttr::get(&getContext(), kWgmmaAnnotation),
        StringAttr::get(&getContext(),
                        tileN == kWarpgroupTile ? "m64n128k16" : "m64n64k16"))};
    if (gatherA)
      annotations.push_back(NamedAttribute(
          StringAttr::get(&getContext(), kWgmmaOperandAAnnotation),
          StringAttr::get(&getContext(), "gather")));
    tileLoop.setAnnotationsAttr(
        DictionaryAttr::get(&getContext(), annotations));
    inlineEpilogues(sch);
    // The thread's lanes stored after all of its loads (the epilogue's
    // bias, say).
    if (failed(storeFromRegisters(sch, *writeBack, (*parts)[1])))
      return failure();
    inlineSecondOutputs(sch);
    return success();
  }

  /// Split-K (CUTLASS's, on TVM's rfactor) for the tensor-core Matmul rule:
  /// a GEMM whose output makes few thread blocks (a batch-1 layer: BERT's
  /// FFN2 at 128 tokens is 24 blocks of 64 x 64 on 132 SMs) and whose K is
  /// long splits K into S parts, computed by S times the thread blocks into
  /// a float32 buffer [S, M, N] (the rfactor block, a batched GEMM that
  /// the tensor-core rule takes), then summed over the parts by a
  /// reduction kernel that the epilogue (bias, activation) joins. sm_80
  /// and sm_90 (mma.sync).
  LogicalResult applySplitKMatmul(Schedule &sch, ForOp root) {
    // Not with the Hopper rules, which take these GEMMs on wgmma: split,
    // they would fall to mma.sync (the Hopper rule's tensor maps do not
    // take the rfactor block's A, read at k0 * K / S + k), and a bound
    // weight would move from the host, whose copy a tensor map describes,
    // into the kernel's binary (2.4 times its bytes there).
    if (!tensorCores || warpgroupMma)
      return failure();
    std::optional<Gemm> gemm = matchGemm(root);
    if (!gemm || !getTensorCoreInputType(gemm->reduction))
      return failure();
    std::optional<int64_t> batch = getBatchExtent(*gemm);
    if (!batch)
      return failure();
    // The thread blocks of the tensor-core rule's smaller tile (64 x 64),
    // the one it takes for such GEMMs.
    std::optional<int64_t> blocks = llvm::checkedMul(
        *batch, static_cast<int64_t>(llvm::divideCeil(gemm->m, 64) *
                                     llvm::divideCeil(gemm->n, 64)));
    if (!blocks || *blocks * 2 > kTargetSMs)
      return failure();
    // Parts of at least kMinSplitK of K, a whole number of the rule's
    // steps of 32 each, until the blocks about fill the GPU (at most
    // kMaxSplitKParts, which the sum reads).
    int64_t parts = 1;
    while (parts < kMaxSplitKParts && parts * 2 * *blocks <= kTargetSMs &&
           gemm->k % (parts * 2 * 32) == 0 &&
           gemm->k / (parts * 2) >= kMinSplitK)
      parts *= 2;
    if (parts < 2)
      return failure();
    // The buffer rfactor's sum writes: an intermediate when an epilogue
    // reads it.
    auto output =
        gemm->reduction.store.getMemRef().getDefiningOp<AllocBufferOp>();
    FailureOr<SmallVector<ForOp>> k =
        sch.split(gemm->loopOf[gemm->kVar], {parts, 0});
    if (failed(k) || failed(sch.rfactor((*k)[0])))
      return failure();
    PrimFuncOp func = sch.getFunc();
    auto rfLoop = dyn_cast_or_null<ForOp>(getFirstUnscheduled(func));
    if (!rfLoop || failed(applyTensorCoreMatmul(sch, rfLoop)))
      return failure();
    // The sum over the parts: a thread per output, its parts in a serial
    // loop, then the statement after it (the epilogue) by the same thread,
    // the sum in a register.
    BlockOp sum = getNextOnlyBlock(func);
    if (!sum)
      return failure();
    // rfactor's sum: the outputs' loops, then the parts' loop, bound to
    // the last (reduce) iteration variable alone.
    SmallVector<ForOp> loops = Schedule::getLoops(sum);
    unsigned last = sum.getNumIterVars() - 1;
    if (loops.size() < 2 || !sum.isReduceIterVar(last) ||
        sum.getBindings()[last] != loops.back().getInductionVar() ||
        llvm::any_of(sum.getBindings().drop_back(), [&](Value v) {
          return dependsOn(v, {loops.back().getInductionVar()});
        }))
      return failure();
    SmallVector<ForOp> outputs(ArrayRef<ForOp>(loops).drop_back());
    FailureOr<ForOp> fused = fuseAll(sch, outputs);
    if (failed(fused))
      return failure();
    FailureOr<SmallVector<ForOp>> threads =
        sch.split(*fused, {0, kSplitKSumThreads});
    if (failed(threads) || failed(sch.bind((*threads)[0], "blockIdx.x")) ||
        failed(sch.bind((*threads)[1], "threadIdx.x")))
      return failure();
    BlockOp epilogue = getNextOnlyBlock(func);
    if (epilogue && output &&
        succeeded(sch.reverseComputeAt(epilogue, (*threads)[1])))
      output.setScope("local");
    return success();
  }

  LogicalResult applyTensorCoreMatmul(Schedule &sch, ForOp root) {
    if (!tensorCores)
      return failure();
    std::optional<Gemm> gemm = matchGemm(root);
    // An implicit GEMM (convolution), possibly after the spatial statements
    // that produce its inputs (its padding), which are then inlined into
    // its shared-memory copies too.
    std::optional<NormalizedGemm> normalized;
    SmallVector<BlockOp> producers;
    if (!gemm) {
      BlockOp reduction = findImplicitGemm(root, producers);
      if (!reduction)
        return failure();
      FailureOr<NormalizedGemm> result = normalizeToGemm(sch, reduction);
      if (failed(result))
        return failure();
      normalized = *result;
      root = normalized->root;
      gemm = matchGemm(root);
    }
    Type inputType = gemm ? getTensorCoreInputType(gemm->reduction) : nullptr;
    if (!inputType)
      return failure();
    // m16n8k16 for 16-bit inputs, m16n8k8 for tf32.
    const bool tf32 = inputType.isF32();
    const int64_t mmaK = tf32 ? 8 : 16;
    int64_t m = gemm->m, n = gemm->n, k = gemm->k;
    std::optional<int64_t> batchExtent = getBatchExtent(*gemm);
    if (!batchExtent)
      return failure();
    int64_t batch = *batchExtent;
    // Warps (threadIdx.z) along M, each with 2 x 8 accumulator tiles
    // (32 x 64 outputs): 4 warps for a 128 x 64 block tile when that fills
    // the GPU, else 2 for 64 x 64. (Warps along N too would need a fused
    // warp loop, whose div/mod the per-thread regions of reverse_compute_at
    // cannot bound yet.)
    const int64_t mTiles = 2, nTiles = 8, bn = nTiles * 8;
    // K in steps of 32 elements, 16 for tf32 (its 4-byte tiles of 3 stages
    // then fit in 48 KiB of shared memory too), two mma slices each. A K
    // that is no multiple of the step is padded to one when that adds at
    // most an eighth, else to whole mma slices (one per step).
    const int64_t kStep = tf32 ? 16 : 32;
    int64_t kPadding = 1;
    if (k % kStep != 0 &&
        (static_cast<int64_t>(llvm::alignTo(k, kStep)) - k) * 8 <= k)
      kPadding = kStep;
    else if (k % mmaK != 0)
      kPadding = mmaK;
    // Below 32 rows or columns a padded tile would mostly compute zeros (the
    // SIMT rules do better there).
    bool divisible = m % 64 == 0 && n % bn == 0;
    if (!divisible && (m < 32 || n < 32))
      return failure();
    auto countBlocks = [&](int64_t bm) {
      return batch * llvm::divideCeil(m, bm) * llvm::divideCeil(n, bn);
    };
    int64_t warps = (m % 128 == 0 || m % 64 != 0) &&
                            countBlocks(128) >= kMinTensorCoreBlocks
                        ? 4
                        : 2;
    const int64_t bm = warps * mTiles * 16;
    if (llvm::divideCeil(m, bm) > 65535)
      return failure();
    // Tails: the domain padded to whole tiles (dlight's pad_einsum). The
    // zero-padded copies of A and B are inlined into the shared-memory
    // copies (masked loads, zero-filling cp.async), and the copy back of C
    // into the write-back of the register tile (predicated stores), so the
    // mma nest itself runs unmasked on whole tiles; padded K adds products
    // of zeros.
    SmallVector<BlockOp> padInputs;
    BlockOp padOutput;
    if (failed(padToTiles(sch, *gemm, root, bm, bn, kPadding, padInputs,
                          padOutput)))
      return failure();
    m = llvm::alignTo(m, bm);
    n = llvm::alignTo(n, bn);
    k = llvm::alignTo(k, kPadding);
    const int64_t kTiles = k % kStep == 0 ? kStep / mmaK : 1;

    // i = (((bi * warps + w) * 8 + g) * mTiles + mt) * 2 + h,
    // j = ((bj * 4 + t) * nTiles + nt) * 2 + p,
    // k = (ko * kTiles + kt) * mmaK + kk: thread (g, t) of a warp owns a
    // 2 mTiles x 2 nTiles box of C, as in the SIMT rule; within the
    // mma's 16 x 8 tile (mt, nt) its elements (h, p) are rows g + 8h and
    // columns 2t + p, which mlc-gpu-tensorize-mma keeps by loading the
    // operand rows and columns in that order.
    FailureOr<SmallVector<ForOp>> i =
        sch.split(gemm->loopOf[gemm->iVar], {0, warps, 8, mTiles, 2});
    if (failed(i))
      return failure();
    FailureOr<SmallVector<ForOp>> j =
        sch.split(gemm->loopOf[gemm->jVar], {0, 4, nTiles, 2});
    if (failed(j))
      return failure();
    FailureOr<SmallVector<ForOp>> kp =
        sch.split(gemm->loopOf[gemm->kVar], {0, kTiles, mmaK});
    if (failed(kp))
      return failure();
    SmallVector<ForOp> order;
    for (unsigned s : ArrayRef<unsigned>(gemm->spatial).drop_back(2))
      order.push_back(gemm->loopOf[s]);
    order.append({(*i)[0], (*j)[0], (*i)[1], (*i)[2], (*j)[1], (*kp)[0],
                  (*kp)[1], (*i)[3], (*j)[2], (*i)[4], (*j)[3], (*kp)[2]});
    if (failed(sch.reorder(order)) || failed(bindBatch(sch, *gemm)))
      return failure();
    // The warp's lanes as threadIdx.y = g (8) x threadIdx.x = t (4): the
    // lane is 4 g + t, and the per-thread regions stay affine (no fused
    // div/mod) for reverse_compute_at.
    ForOp koLoop = (*kp)[0], gLoop = (*i)[2], tLoop = (*j)[1];
    if (failed(sch.bind((*i)[0], "blockIdx.y")) ||
        failed(sch.bind((*j)[0], "blockIdx.x")) ||
        failed(sch.bind((*i)[1], "threadIdx.z")) ||
        failed(sch.bind(gLoop, "threadIdx.y")) ||
        failed(sch.bind(tLoop, "threadIdx.x")))
      return failure();

    FailureOr<BlockOp> writeBack = sch.cacheWrite(gemm->block, 0, "local");
    if (failed(writeBack) || failed(sch.reverseComputeAt(*writeBack, tLoop)))
      return failure();
    for (unsigned r = 0; r < 2; ++r)
      if (failed(stageThroughShared(
              sch, gemm->block, r, koLoop,
              {{"threadIdx.z", warps}, {"threadIdx.y", 8}, {"threadIdx.x", 4}},
              /*unroll=*/!normalized || normalized->contiguousRows)))
        return failure();
    // A padded input is read through its shared copy (zero-filling
    // cp.async) unless its rows are no whole number of 16-byte pieces: then
    // no cp.async could read them (each copy must be aligned), so the padded
    // copy, whose rows are whole tiles, is made by a kernel of its own.
    for (BlockOp pad : padInputs)
      if (!hasUnalignedRows(pad) && failed(sch.computeInline(pad)))
        return failure();
    if (padOutput && failed(sch.reverseComputeInline(padOutput)))
      return failure();
    // An implicit GEMM's im2col copies (and the statements producing its
    // inputs, such as the padding) are inlined into whatever reads them now:
    // the shared-memory copies (or a padding kernel of their own), and the
    // copy of its output into the write-back. What cannot be inlined stays
    // a kernel of its own.
    if (normalized) {
      for (BlockOp copy : normalized->readCopies)
        (void)sch.computeInline(copy);
      for (BlockOp producer : llvm::reverse(producers))
        (void)sch.computeInline(producer);
      if (failed(sch.reverseComputeInline(normalized->writeCopy)))
        return failure();
    }
    FailureOr<BlockOp> initBlock = sch.decomposeReduction(gemm->block, koLoop);
    if (failed(initBlock))
      return failure();
    (void)sch.unroll((*kp)[1]);
    (void)sch.unroll((*i)[3]);
    (void)sch.unroll((*j)[2]);
    unrollInside(sch, *writeBack, tLoop);
    unrollInside(sch, *initBlock, tLoop);
    // The 16 x 8 x mmaK tile (h, p, kk) of one warp: one mma.sync.
    ForOp mmaLoop = (*i)[4];
    mmaLoop.setAnnotationsAttr(DictionaryAttr::get(
        &getContext(),
        {NamedAttribute(
            StringAttr::get(&getContext(), kMmaSyncAnnotation),
            StringAttr::get(&getContext(), tf32 ? "m16n8k8" : "m16n8k16"))}));
    inlineEpilogues(sch);
    inlineSecondOutputs(sch);
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
    // A second output computed from the last stage's output (relax-fuse-ops'
    // multi-output-casts: a layer norm's float16 copy) is written by that
    // stage too.
    if (blocks.size() > 2 && readsOneParameter(blocks.back()) &&
        succeeded(sch.reverseComputeInline(blocks.back(), /*keepInput=*/true)))
      blocks.pop_back();

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
      std::optional<int64_t> trailing = 1;
      for (auto [i, loop] : llvm::enumerate(loops)) {
        int64_t extent = *loop.getConstantUpperBound();
        if (i < rows.size()) {
          if (extent != rows[i] || !isSpatialLoop(loop))
            return failure();
          continue;
        }
        trailing =
            trailing ? llvm::checkedMul(*trailing, extent) : std::nullopt;
      }
      if (!trailing)
        return failure();
      widest = std::max(widest, *trailing);
    }
    // About 8 elements of the widest stage per thread: fewer threads per
    // row leave each fewer barriers and shuffles per element, more make
    // each thread's loop shorter (an H200 measured layer norm over rows of
    // 1024 at 28, 48, 67, 74 % of its copy bandwidth with 1024, 512, 256,
    // 128 threads, softmax over rows of 4096 at 64, 80, 75, 68 %).
    int64_t threads =
        getWarpAlignedThreads(llvm::divideCeil(widest, kRowElementsPerThread));

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
          std::optional<int64_t> perRow = getStaticByteSize(alloc.getType());
          if (!perRow)
            return WalkResult::interrupt();
          for (int64_t extent : rows)
            *perRow /= extent;
          if (*perRow > kMaxGeneralReductionSharedBytes)
            return WalkResult::interrupt();
          sharedBytes += *perRow;
        }
        return WalkResult::advance();
      });
      if (scoped.wasInterrupted() || failed(sch.computeAt(block, *row)) ||
          failed(bindTrailing(block)))
        return failure();
    }
    // Stages that could not be inlined keep a row each in shared memory.
    if (sharedBytes > kMaxGeneralReductionSharedBytes)
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
    std::optional<int64_t> bytes = getStaticByteSize(output.getType());
    if (!bytes || *bytes > kMaxEpilogueSharedBytes)
      return;
    BlockOp consumer = getNextOnlyBlock(sch.getFunc());
    if (!consumer)
      return;
    PrimFuncOp func = sch.getFunc();
    auto backup = cast<PrimFuncOp>(func->clone());
    auto restore = [&] {
      func.getBody().takeBody(backup.getBody());
      backup->erase();
    };
    output.setScope("shared");
    if (failed(sch.reverseComputeAt(consumer, blockLoop)))
      return restore();
    // One thread writes each output: the epilogue's loops (one iteration
    // per block) are bound to threadIdx.x, which masks the others.
    SmallVector<ForOp> inner;
    for (ForOp loop : Schedule::getLoops(consumer))
      if (loop.getKind() == ForKind::serial)
        inner.push_back(loop);
    if (inner.empty()) {
      IRRewriter rewriter(func.getContext());
      (void)applySingleThread(rewriter, consumer);
    } else {
      FailureOr<ForOp> fused = fuseAll(sch, inner);
      if (failed(fused) || fused->getConstantUpperBound() != 1 ||
          failed(sch.bind(*fused, "threadIdx.x")))
        return restore();
    }
    backup->erase();
  }

  /// Consecutive elements per thread for the Fallback rule: as many as make
  /// the widest element type's accesses 16 bytes, so that each thread's
  /// loads and stores of a contiguous row become single vector accesses
  /// (an elementwise kernel with scalar accesses reached 61 % of an H200's
  /// copy bandwidth). 1 when `band` does not reach the block (the group
  /// would span other loops) or its innermost extent has no such divisor.
  static int64_t getFallbackLanes(ArrayRef<ForOp> band) {
    if (band.empty())
      return 1;
    ForOp outer = band.front(), inner = band.back();
    bool innermost = true;
    inner.getBodyBlock()->walk([&](ForOp) { innermost = false; });
    if (!innermost)
      return 1;
    // Elements of no fixed width (index, complex) get no lanes.
    int64_t maxBits = 0;
    bool unsized = false;
    auto visit = [&](MemRefType type) {
      Type element = type.getElementType();
      if (!element.isIntOrFloat())
        unsized = true;
      else
        maxBits = std::max<int64_t>(maxBits, element.getIntOrFloatBitWidth());
    };
    outer->walk([&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op))
        visit(load.getMemRefType());
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        visit(store.getMemRefType());
    });
    if (unsized || maxBits < 8 || maxBits > kCopyBytes * 8)
      return 1;
    int64_t lanes = kCopyBytes * 8 / maxBits;
    int64_t extent = *inner.getConstantUpperBound();
    while (lanes > 1 && extent % lanes != 0)
      lanes /= 2;
    return lanes;
  }

  /// dlight's Transpose rule, through registers rather than shared memory:
  /// a spatial block that reads a buffer along another innermost dimension
  /// than the one it writes along (B[.., i, j] = f(A[.., j, i]), the weight
  /// transposes of dense layers) gets `lanes` x `lanes` elements per thread
  /// (16 bytes of the widest type along each of the two dimensions): the
  /// thread loads `lanes` rows of A with one vector load each, keeps the
  /// results in registers (`local`) and stores `lanes` rows of B with one
  /// vector store each. A warp is 8 threads along A's rows (128 bytes of
  /// f16 each) times 4 along B's, so each of its loads and stores covers
  /// whole 32-byte sectors. The Fallback rule's vector lanes run along B's
  /// rows only: every load of A then touched another row, 2 bytes of a
  /// sector each (an H200 transposed 3072 x 768 f16 in 17 us under ncu,
  /// about 550 GB/s). Fails when the two extents do not divide into whole
  /// tiles (the Fallback rules take those).
  LogicalResult applyTranspose(Schedule &sch, ForOp root) {
    SmallVector<ForOp> band = getSpatialBand(root);
    SmallVector<BlockOp> blocks;
    root->walk([&](BlockOp b) { blocks.push_back(b); });
    if (band.size() < 2 || blocks.size() != 1)
      return failure();
    BlockOp block = blocks.front();
    if (Schedule::getLoops(block).size() != band.size())
      return failure();
    // The band loop that an iteration variable is bound to directly.
    auto loopOf = [&](Value v) -> ForOp {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != block.getBodyBlock())
        return nullptr;
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
        if (block.getIterVar(i) == v)
          for (ForOp loop : band)
            if (block.getBindings()[i] == loop.getInductionVar())
              return loop;
      return nullptr;
    };
    SmallVector<memref::StoreOp> stores;
    for (Operation &op : *block.getBodyBlock())
      if (auto s = dyn_cast<memref::StoreOp>(op))
        stores.push_back(s);
    if (stores.size() != 1 || stores.front().getIndices().empty())
      return failure();
    memref::StoreOp store = stores.front();
    ForOp writeLoop = loopOf(store.getIndices().back()), readLoop;
    if (!writeLoop)
      return failure();
    int64_t maxBits = 0;
    for (Operation &op : *block.getBodyBlock()) {
      auto load = dyn_cast<memref::LoadOp>(op);
      if (!load)
        continue;
      Type element = load.getMemRefType().getElementType();
      if (!element.isIntOrFloat())
        return failure();
      maxBits = std::max<int64_t>(maxBits, element.getIntOrFloatBitWidth());
      // The transposed read: innermost along another loop, and along the
      // write's loop in an outer dimension.
      if (load.getIndices().size() < 2)
        continue;
      ForOp inner = loopOf(load.getIndices().back());
      if (!readLoop && inner && inner != writeLoop &&
          llvm::is_contained(load.getIndices().drop_back(),
                             store.getIndices().back()))
        readLoop = inner;
    }
    Type stored = store.getMemRefType().getElementType();
    if (!readLoop || !stored.isIntOrFloat())
      return failure();
    maxBits = std::max<int64_t>(maxBits, stored.getIntOrFloatBitWidth());
    if (maxBits < 8 || maxBits > kCopyBytes * 8)
      return failure();
    const int64_t lanes = kCopyBytes * 8 / maxBits, threadsX = 8;
    int64_t readExtent = *readLoop.getConstantUpperBound();
    int64_t writeExtent = *writeLoop.getConstantUpperBound();
    int64_t threadsY = 0;
    for (int64_t t = std::min<int64_t>(16, threadsPerBlock / threadsX); t >= 4;
         t /= 2)
      if (writeExtent % (lanes * t) == 0) {
        threadsY = t;
        break;
      }
    if (!threadsY || readExtent % (lanes * threadsX) != 0)
      return failure();
    FailureOr<SmallVector<ForOp>> r = sch.split(readLoop, {0, threadsX, lanes});
    if (failed(r))
      return failure();
    FailureOr<SmallVector<ForOp>> w =
        sch.split(writeLoop, {0, threadsY, lanes});
    if (failed(w))
      return failure();
    // Grid: the other loops and the tiles; then the threads, then the
    // thread's lanes x lanes elements (A's rows outer, its columns inner).
    SmallVector<ForOp> grid;
    for (ForOp loop : band)
      if (loop != readLoop && loop != writeLoop)
        grid.push_back(loop);
    grid.append({(*r)[0], (*w)[0]});
    SmallVector<ForOp> order(grid);
    order.append({(*w)[1], (*r)[1], (*w)[2], (*r)[2]});
    if (failed(sch.reorder(order)))
      return failure();
    FailureOr<ForOp> fused = fuseAll(sch, grid);
    if (failed(fused) ||
        *fused->getConstantUpperBound() > std::numeric_limits<int32_t>::max() ||
        failed(sch.bind(*fused, "blockIdx.x")) ||
        failed(sch.bind((*w)[1], "threadIdx.y")) ||
        failed(sch.bind((*r)[1], "threadIdx.x")) ||
        failed(sch.unroll((*w)[2])) || failed(sch.vectorize((*r)[2])))
      return failure();
    // The results in registers, stored along B's rows after all loads.
    return storeFromRegisters(sch, block, (*r)[1]);
  }

  /// The Fallback rule with vector lanes (getFallbackLanes): blocks x
  /// threads x lanes, each thread's results kept in registers and stored
  /// after all of its loads (a load may not move above a store to a buffer
  /// that may alias it, which kept LLVM from merging the accesses). Fails,
  /// leaving the plain rule, when there are no lanes or too few elements.
  LogicalResult applyVectorFallback(Schedule &sch, ForOp root) {
    SmallVector<ForOp> band = getSpatialBand(root);
    int64_t lanes = getFallbackLanes(band);
    SmallVector<BlockOp> blocks;
    root->walk([&](BlockOp b) { blocks.push_back(b); });
    if (lanes == 1 || blocks.size() != 1)
      return failure();
    // The whole extent (one that int64_t cannot hold is left to the plain
    // rule, whose fuse rejects it).
    std::optional<int64_t> extent = 1;
    for (ForOp loop : band)
      extent = extent ? llvm::checkedMul(*extent, *loop.getConstantUpperBound())
                      : std::nullopt;
    if (!extent || *extent / lanes <= threadsPerBlock)
      return failure();
    // Threads and lanes both split off the innermost loop, the loops above
    // fused into the grid: each thread's region is then a sum of terms of
    // the loops above it and of the lane loop, as the write-back of
    // cache_write needs (a fused index taken apart by floordiv and mod is
    // not). The threads: a multiple of 32 that divides the row.
    int64_t row = *band.back().getConstantUpperBound() / lanes, threads = 0;
    for (int64_t t = threadsPerBlock / 32 * 32; t >= 32 && !threads; t -= 32)
      if (row % t == 0)
        threads = t;
    ForOp threadLoop;
    if (threads) {
      FailureOr<SmallVector<ForOp>> parts =
          sch.split(band.back(), {0, threads, lanes});
      if (failed(parts))
        return failure();
      band.back() = (*parts)[0];
      FailureOr<ForOp> grid = fuseAll(sch, band);
      threadLoop = (*parts)[1];
      if (failed(grid) || failed(sch.bind(*grid, "blockIdx.x")) ||
          failed(sch.bind(threadLoop, "threadIdx.x")) ||
          failed(sch.vectorize((*parts)[2])))
        return failure();
    } else {
      // Rows of fewer vectors than a warp (a head dimension of 64 f16 is 8
      // of them): a thread per vector of the row along threadIdx.x and rows
      // of the loop above along threadIdx.y, so that a warp still moves 4
      // whole rows of 128 bytes and each thread's region stays a sum of
      // terms (no fused index taken apart). The copies that split and
      // merge attention heads moved 2 bytes per access before.
      if (band.size() < 2 || threadsPerBlock % row != 0)
        return failure();
      ForOp above = band[band.size() - 2];
      int64_t rows = threadsPerBlock / row;
      while (rows > 1 && *above.getConstantUpperBound() % rows != 0)
        rows /= 2;
      if (rows * row < 32)
        return failure();
      FailureOr<SmallVector<ForOp>> parts =
          sch.split(band.back(), {row, lanes});
      if (failed(parts))
        return failure();
      FailureOr<SmallVector<ForOp>> rowParts = sch.split(above, {0, rows});
      if (failed(rowParts))
        return failure();
      SmallVector<ForOp> outer(ArrayRef<ForOp>(band).drop_back(2));
      outer.push_back((*rowParts)[0]);
      FailureOr<ForOp> grid = fuseAll(sch, outer);
      threadLoop = (*parts)[0];
      if (failed(grid) || failed(sch.bind(*grid, "blockIdx.x")) ||
          failed(sch.bind((*rowParts)[1], "threadIdx.y")) ||
          failed(sch.bind(threadLoop, "threadIdx.x")) ||
          failed(sch.vectorize((*parts)[1])))
        return failure();
    }
    FailureOr<BlockOp> writeBack = sch.cacheWrite(blocks.front(), 0, "local");
    if (failed(writeBack) ||
        failed(sch.reverseComputeAt(*writeBack, threadLoop)))
      return failure();
    unrollInside(sch, *writeBack, threadLoop);
    return success();
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
