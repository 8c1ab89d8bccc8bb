//===- ScheduleTrace.cpp - Schedule primitives recorded as a trace -*- C++ -*-//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The public Schedule primitives: each runs its implementation and, when it
// succeeds, appends the `transform.tensorir.*` op that replays it to the
// trace. Operands are found again for every primitive (a block by name, a
// loop as one of the `get_loops` of a block under it) in the IR as it was
// before the primitive, so the trace holds nothing that the IR does not.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

namespace mlc::tensorir {

namespace {
constexpr llvm::StringLiteral kAnyOp = "!transform.any_op";

/// `!transform.any_op, ...` n times.
std::string anyOps(unsigned n) {
  SmallVector<std::string> types(n, kAnyOp.str());
  return llvm::join(types, ", ");
}

/// The functional type of a transform op with `numOperands` handle operands
/// and `numResults` handle results.
std::string functionalType(unsigned numOperands, unsigned numResults) {
  std::string results = anyOps(numResults);
  if (numResults != 1)
    results = "(" + results + ")";
  return "(" + anyOps(numOperands) + ") -> " + results;
}
} // namespace

/// One primitive being recorded: the ops that find its operands, then the
/// primitive's own op, appended to the trace only on success.
class TraceStep {
public:
  explicit TraceStep(Schedule &schedule) : schedule(schedule) {}

  /// A handle to `block`: `get_block "<name>"` in the function.
  std::string block(BlockOp op) {
    std::string &handle = blockHandles[op];
    if (!handle.empty())
      return handle;
    handle = fresh("b");
    lines.push_back(handle + " = transform.tensorir.get_block \"" +
                    op.getName().str() + "\" in " + function() + " : " +
                    functionalType(1, 1));
    return handle;
  }

  /// A handle to `loop`: result i of `get_loops` of the first block under
  /// it whose loops include it.
  std::string loop(ForOp op) {
    BlockOp found;
    unsigned index = 0, count = 0;
    op.walk<WalkOrder::PreOrder>([&](BlockOp candidate) {
      SmallVector<ForOp> loops = Schedule::getLoops(candidate);
      auto it = llvm::find(loops, op);
      if (it == loops.end())
        return WalkResult::advance();
      found = candidate;
      index = it - loops.begin();
      count = loops.size();
      return WalkResult::interrupt();
    });
    if (!found) {
      // No block under the loop: nothing in the IR names it.
      traceable = false;
      return "%untraceable";
    }
    std::string &handle = loopsHandles[found];
    if (handle.empty()) {
      std::string blockHandle = block(found);
      handle = fresh("l");
      lines.push_back(handle + ":" + std::to_string(count) +
                      " = transform.tensorir.get_loops " + blockHandle + " : " +
                      functionalType(1, count));
    }
    return handle + "#" + std::to_string(index);
  }

  std::string loops(ArrayRef<ForOp> ops) {
    SmallVector<std::string> handles;
    for (ForOp op : ops)
      handles.push_back(loop(op));
    return llvm::join(handles, ", ");
  }

  /// `n` fresh result handles, comma separated.
  std::string results(unsigned n, StringRef prefix) {
    SmallVector<std::string> handles;
    for (unsigned i = 0; i < n; ++i)
      handles.push_back(fresh(prefix));
    return llvm::join(handles, ", ");
  }

  /// Appends the operand lines and `op` to the trace.
  void commit(const std::string &op) {
    if (!traceable) {
      schedule.trace.push_back("// not traceable (a loop with no block "
                               "under it): " +
                               op);
      return;
    }
    if (matchesFunc)
      schedule.funcMatched = true;
    llvm::append_range(schedule.trace, lines);
    schedule.trace.push_back(op);
  }

private:
  std::string fresh(StringRef prefix) {
    return "%" + prefix.str() + std::to_string(schedule.numHandles++);
  }

  /// `%func`, matched by name in the first step that needs it.
  std::string function() {
    if (!schedule.funcMatched && !matchesFunc) {
      matchesFunc = true;
      lines.push_back(
          "%func = transform.structured.match "
          "ops{[\"tensorir.prim_func\"]} attributes {sym_name = \"" +
          schedule.func.getSymName().str() +
          "\"} in %root : " + functionalType(1, 1));
    }
    return "%func";
  }

  Schedule &schedule;
  SmallVector<std::string> lines;
  // Within one step the IR does not change: one handle per block and one
  // get_loops per block suffice.
  llvm::DenseMap<Operation *, std::string> blockHandles, loopsHandles;
  bool matchesFunc = false;
  bool traceable = true;
};

std::string Schedule::getTraceScript() const {
  std::string script;
  llvm::raw_string_ostream os(script);
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(%root: " << kAnyOp
     << " {transform.readonly}) {\n";
  for (const std::string &line : trace)
    os << "    " << line << "\n";
  os << "    transform.yield\n  }\n}\n";
  return script;
}

void schedutil::printTrace(const Schedule &schedule) {
  if (schedule.getTrace().empty())
    return;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  llvm::outs() << schedule.getTraceScript();
  llvm::outs().flush();
}

FailureOr<SmallVector<ForOp>> Schedule::split(ForOp loop,
                                              ArrayRef<int64_t> factors) {
  TraceStep step(*this);
  std::string operand = step.loop(loop);
  FailureOr<SmallVector<ForOp>> result = splitImpl(loop, factors);
  if (succeeded(result)) {
    SmallVector<std::string> text;
    for (int64_t factor : factors)
      text.push_back(factor == 0 ? "?" : std::to_string(factor));
    step.commit(step.results(factors.size(), "l") +
                " = transform.tensorir.split " + operand + " by [" +
                llvm::join(text, ", ") +
                "] : " + functionalType(1, factors.size()));
  }
  return result;
}

FailureOr<ForOp> Schedule::fuse(ArrayRef<ForOp> loops) {
  TraceStep step(*this);
  std::string operands = step.loops(loops);
  FailureOr<ForOp> result = fuseImpl(loops);
  if (succeeded(result))
    step.commit(step.results(1, "l") + " = transform.tensorir.fuse " +
                operands + " : " + functionalType(loops.size(), 1));
  return result;
}

LogicalResult Schedule::reorder(ArrayRef<ForOp> loops) {
  TraceStep step(*this);
  std::string operands = step.loops(loops);
  if (failed(reorderImpl(loops)))
    return failure();
  step.commit("transform.tensorir.reorder " + operands + " : " +
              anyOps(loops.size()));
  return success();
}

FailureOr<SmallVector<ForOp>> Schedule::tile(ArrayRef<ForOp> loops,
                                             ArrayRef<int64_t> sizes) {
  TraceStep step(*this);
  std::string operands = step.loops(loops);
  FailureOr<SmallVector<ForOp>> result = tileImpl(loops, sizes);
  if (succeeded(result)) {
    SmallVector<std::string> text;
    for (int64_t size : sizes)
      text.push_back(std::to_string(size));
    step.commit(step.results(2 * loops.size(), "l") +
                " = transform.tensorir.tile " + operands + " by [" +
                llvm::join(text, ", ") +
                "] : " + functionalType(loops.size(), 2 * loops.size()));
  }
  return result;
}

FailureOr<SmallVector<int64_t>>
Schedule::samplePerfectTile(ForOp loop, unsigned n, int64_t maxInnermostFactor,
                            std::optional<ArrayRef<int64_t>> decision) {
  TraceStep step(*this);
  std::string operand = step.loop(loop);
  FailureOr<SmallVector<int64_t>> result =
      samplePerfectTileImpl(loop, n, maxInnermostFactor, decision);
  if (succeeded(result)) {
    SmallVector<std::string> params(n, "!transform.param<i64>");
    std::string resultTypes = llvm::join(params, ", ");
    if (n != 1)
      resultTypes = "(" + resultTypes + ")";
    step.commit(
        step.results(n, "v") + " = transform.tensorir.sample_perfect_tile " +
        operand + " {max_innermost_factor = " +
        std::to_string(std::max<int64_t>(maxInnermostFactor, 0)) +
        " : i64, decision = array<i64: " +
        llvm::join(llvm::map_range(*result,
                                   [](int64_t f) { return std::to_string(f); }),
                   ", ") +
        ">} : (" + kAnyOp.str() + ") -> " + resultTypes);
  }
  return result;
}

FailureOr<int64_t>
Schedule::sampleCategorical(ArrayRef<int64_t> candidates,
                            ArrayRef<double> probs,
                            std::optional<int64_t> decision) {
  std::string error = checkCategorical(candidates.size(), probs, decision);
  if (!error.empty())
    return func.emitError("cannot sample a categorical: ") << error;
  int64_t index = decision ? *decision : drawCategorical(probs, rng);
  TraceStep step(*this);
  std::string candidateText, probText;
  llvm::raw_string_ostream candidateOs(candidateText), probOs(probText);
  llvm::interleaveComma(candidates, candidateOs);
  llvm::interleaveComma(probs, probOs, [&](double p) {
    // Every digit, and a point: an MLIR float literal.
    std::string text = llvm::formatv("{0}", llvm::format("%.17g", p)).str();
    if (text.find_first_of(".e") == std::string::npos)
      text += ".0";
    probOs << text;
  });
  step.commit(step.results(1, "v") +
              " = transform.tensorir.sample_categorical [" + candidateText +
              "] probs [" + probText + "] {decision = " +
              std::to_string(index) + " : i64} : !transform.param<i64>");
  return candidates[index];
}

FailureOr<std::pair<int64_t, ForOp>>
Schedule::sampleComputeLocation(BlockOp block,
                                std::optional<int64_t> decision) {
  TraceStep step(*this);
  std::string operand = step.block(block);
  FailureOr<std::pair<int64_t, ForOp>> result =
      sampleComputeLocationImpl(block, decision);
  if (succeeded(result))
    step.commit(step.results(1, "l") +
                " = transform.tensorir.sample_compute_location " + operand +
                " {decision = " + std::to_string(result->first) +
                " : i64} : " + functionalType(1, 1));
  return result;
}

/// parallel, vectorize, unroll: `transform.tensorir.<kind> %loop`.
static LogicalResult setKind(Schedule &schedule, TraceStep &step, ForOp loop,
                             StringRef kind,
                             function_ref<LogicalResult()> apply) {
  std::string operand = step.loop(loop);
  if (failed(apply()))
    return failure();
  step.commit("transform.tensorir." + kind.str() + " " + operand + " : " +
              kAnyOp.str());
  return success();
}

LogicalResult Schedule::parallel(ForOp loop) {
  TraceStep step(*this);
  return setKind(*this, step, loop, "parallel",
                 [&] { return parallelImpl(loop); });
}

LogicalResult Schedule::vectorize(ForOp loop) {
  TraceStep step(*this);
  return setKind(*this, step, loop, "vectorize",
                 [&] { return vectorizeImpl(loop); });
}

LogicalResult Schedule::unroll(ForOp loop) {
  TraceStep step(*this);
  return setKind(*this, step, loop, "unroll", [&] { return unrollImpl(loop); });
}

LogicalResult Schedule::bind(ForOp loop, StringRef threadTag) {
  TraceStep step(*this);
  std::string operand = step.loop(loop);
  if (failed(bindImpl(loop, threadTag)))
    return failure();
  step.commit("transform.tensorir.bind " + operand + " \"" + threadTag.str() +
              "\" : " + kAnyOp.str());
  return success();
}

FailureOr<BlockOp> Schedule::decomposeReduction(BlockOp block, ForOp loop) {
  TraceStep step(*this);
  std::string blockHandle = step.block(block);
  std::string loopHandle = step.loop(loop);
  FailureOr<BlockOp> result = decomposeReductionImpl(block, loop);
  if (succeeded(result))
    step.commit(step.results(1, "b") +
                " = transform.tensorir.decompose_reduction " + blockHandle +
                " at " + loopHandle + " : " + functionalType(2, 1));
  return result;
}

/// compute_at, reverse_compute_at: `transform.tensorir.<name> %b at %l`.
static LogicalResult moveUnder(TraceStep &step, BlockOp block, ForOp loop,
                               StringRef name,
                               function_ref<LogicalResult()> apply) {
  std::string blockHandle = step.block(block);
  std::string loopHandle = step.loop(loop);
  if (failed(apply()))
    return failure();
  step.commit("transform.tensorir." + name.str() + " " + blockHandle + " at " +
              loopHandle + " : " + anyOps(2));
  return success();
}

LogicalResult Schedule::reverseComputeAt(BlockOp block, ForOp loop) {
  TraceStep step(*this);
  return moveUnder(step, block, loop, "reverse_compute_at",
                   [&] { return reverseComputeAtImpl(block, loop); });
}

LogicalResult Schedule::computeAt(BlockOp block, ForOp loop) {
  TraceStep step(*this);
  return moveUnder(step, block, loop, "compute_at",
                   [&] { return computeAtImpl(block, loop); });
}

/// compute_inline, reverse_compute_inline: `transform.tensorir.<name> %b`.
static LogicalResult inlineBlock(TraceStep &step, BlockOp block, StringRef name,
                                 function_ref<LogicalResult()> apply,
                                 StringRef attributes = "") {
  std::string handle = step.block(block);
  if (failed(apply()))
    return failure();
  step.commit("transform.tensorir." + name.str() + " " + handle +
              attributes.str() + " : " + kAnyOp.str());
  return success();
}

LogicalResult Schedule::computeInline(BlockOp block) {
  TraceStep step(*this);
  return inlineBlock(step, block, "compute_inline",
                     [&] { return computeInlineImpl(block); });
}

LogicalResult Schedule::reverseComputeInline(BlockOp block, bool keepInput) {
  TraceStep step(*this);
  return inlineBlock(
      step, block, "reverse_compute_inline",
      [&] { return reverseComputeInlineImpl(block, keepInput); },
      keepInput ? " {keep_input}" : "");
}

/// cache_read, cache_write: `%c = transform.tensorir.<name> %b i "scope"`.
static FailureOr<BlockOp> cacheBlock(TraceStep &step, BlockOp block,
                                     unsigned index, StringRef scope,
                                     StringRef name,
                                     function_ref<FailureOr<BlockOp>()> apply) {
  std::string handle = step.block(block);
  FailureOr<BlockOp> result = apply();
  if (succeeded(result))
    step.commit(step.results(1, "b") + " = transform.tensorir." + name.str() +
                " " + handle + " " + std::to_string(index) + " \"" +
                scope.str() + "\" : " + functionalType(1, 1));
  return result;
}

FailureOr<BlockOp> Schedule::cacheRead(BlockOp block, unsigned readIndex,
                                       StringRef storageScope) {
  TraceStep step(*this);
  return cacheBlock(step, block, readIndex, storageScope, "cache_read", [&] {
    return cacheReadImpl(block, readIndex, storageScope);
  });
}

FailureOr<BlockOp> Schedule::cacheWrite(BlockOp block, unsigned writeIndex,
                                        StringRef storageScope) {
  TraceStep step(*this);
  return cacheBlock(step, block, writeIndex, storageScope, "cache_write", [&] {
    return cacheWriteImpl(block, writeIndex, storageScope);
  });
}

FailureOr<BlockOp> Schedule::rfactor(ForOp loop) {
  TraceStep step(*this);
  std::string operand = step.loop(loop);
  FailureOr<BlockOp> result = rfactorImpl(loop);
  if (succeeded(result))
    step.commit(step.results(1, "b") + " = transform.tensorir.rfactor " +
                operand + " : " + functionalType(1, 1));
  return result;
}

LogicalResult Schedule::padEinsum(BlockOp block, ArrayRef<int64_t> padding) {
  TraceStep step(*this);
  std::string handle = step.block(block);
  if (failed(padEinsumImpl(block, padding)))
    return failure();
  SmallVector<std::string> factors;
  for (int64_t factor : padding)
    factors.push_back(std::to_string(factor));
  step.commit("transform.tensorir.pad_einsum " + handle + " [" +
              llvm::join(factors, ", ") + "] : " + kAnyOp.str());
  return success();
}

LogicalResult Schedule::transformBlockLayout(BlockOp block,
                                             AffineMap indexMap) {
  TraceStep step(*this);
  std::string handle = step.block(block);
  if (failed(transformBlockLayoutImpl(block, indexMap)))
    return failure();
  std::string map;
  llvm::raw_string_ostream os(map);
  os << indexMap;
  step.commit("transform.tensorir.transform_block_layout " + handle + " " +
              map + " : " + kAnyOp.str());
  return success();
}

FailureOr<BlockOp> Schedule::reindex(BlockOp block, unsigned bufferIndex,
                                     bool write) {
  TraceStep step(*this);
  std::string handle = step.block(block);
  FailureOr<BlockOp> result = reindexImpl(block, bufferIndex, write);
  if (succeeded(result))
    step.commit(step.results(1, "b") + " = transform.tensorir.reindex " +
                handle + " \"" + (write ? "write" : "read") + "\" " +
                std::to_string(bufferIndex) + " : " + functionalType(1, 1));
  return result;
}

} // namespace mlc::tensorir
