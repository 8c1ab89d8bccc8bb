//===- Schedule.h - TensorIR schedule primitives ----------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's `tvm.tir.Schedule` over a `tensorir.prim_func`: primitives that
// restructure the loops around `tensorir.block`s without changing what the
// function computes. Each primitive checks TVM's preconditions first and, when
// one does not hold, emits an error at the offending block or loop naming the
// precondition and leaves the IR unchanged. The transform ops
// (`transform.tensorir.*`) and the `tensorir-*` scheduling passes are thin
// wrappers around this class.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_TRANSFORMS_SCHEDULE_H
#define MLC_DIALECT_TENSORIR_TRANSFORMS_SCHEDULE_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace mlc::tensorir {

/// The random state of sampling instructions (TVM's `rand_state`).
using RandomEngine = std::mt19937_64;

/// TVM's SamplePerfectTile: `n` factors of `extent`, outermost first, the
/// innermost at most `maxInnermostFactor` (no limit when <= 0): the
/// innermost uniformly among the divisors within the limit, then each prime
/// factor of the rest into a uniformly chosen outer position.
llvm::SmallVector<int64_t> drawPerfectTile(int64_t extent, unsigned n,
                                           int64_t maxInnermostFactor,
                                           RandomEngine &rng);

/// Why `decision` is not a perfect tiling of `extent` with the innermost at
/// most `maxInnermostFactor` (<= 0: no limit); empty when it is one.
std::string checkPerfectTile(int64_t extent, llvm::ArrayRef<int64_t> decision,
                             int64_t maxInnermostFactor);

/// An index drawn with the (unnormalized, non-negative) weights `probs`.
int64_t drawCategorical(llvm::ArrayRef<double> probs, RandomEngine &rng);

/// Why `probs` cannot weight `numCandidates` candidates, or `decision` is
/// not an index of them; empty when valid.
std::string checkCategorical(size_t numCandidates, llvm::ArrayRef<double> probs,
                             std::optional<int64_t> decision = {});

class Schedule {
public:
  /// Schedules `func`, changing the IR through `rewriter` (whose listener,
  /// if any, sees erased ops).
  Schedule(PrimFuncOp func, mlir::RewriterBase &rewriter)
      : func(func), rewriter(rewriter) {}

  PrimFuncOp getFunc() { return func; }

  /// sch.get_block(name): the block named `name`.
  mlir::FailureOr<BlockOp> getBlock(llvm::StringRef name);

  /// sch.get_loops(block): the `tensorir.for` loops around `block` in its
  /// scope (up to the enclosing block or the function), outermost first.
  static llvm::SmallVector<ForOp> getLoops(BlockOp block);

  /// sch.split(loop, factors): replaces `loop` by a nest of loops with the
  /// given extents, outermost first. At most one factor may be 0 (TVM's
  /// None), inferred as ceil(extent / product of the others). When the
  /// product exceeds the extent, the blocks under the loop get a `where`
  /// predicate masking the tail. Requires a loop starting at 0 with step 1
  /// and a constant extent.
  mlir::FailureOr<llvm::SmallVector<ForOp>>
  split(ForOp loop, llvm::ArrayRef<int64_t> factors);

  /// sch.fuse(*loops): replaces a perfectly nested chain of loops (outermost
  /// first) by one loop over the product of their extents.
  mlir::FailureOr<ForOp> fuse(llvm::ArrayRef<ForOp> loops);

  /// sch.reorder(*loops): permutes loops of one perfectly nested chain so
  /// that they appear in the given order; loops of the chain that are not
  /// listed keep their positions. The loop ops themselves are moved, so
  /// references to them stay valid.
  mlir::LogicalResult reorder(llvm::ArrayRef<ForOp> loops);

  /// Splits each of `loops` (a chain, outermost first) by its tile size and
  /// reorders the outer parts before the inner parts. Returns the outer
  /// loops followed by the inner loops.
  mlir::FailureOr<llvm::SmallVector<ForOp>> tile(llvm::ArrayRef<ForOp> loops,
                                                 llvm::ArrayRef<int64_t> sizes);

  /// sch.parallel / sch.vectorize / sch.unroll / sch.bind: set the loop
  /// kind. parallel, vectorize and binding to blockIdx/vthread require that
  /// the loop only feeds spatial iteration variables of the blocks under it
  /// (threadIdx may also feed reduce variables: a cross-thread reduction).
  mlir::LogicalResult parallel(ForOp loop);
  mlir::LogicalResult vectorize(ForOp loop);
  mlir::LogicalResult unroll(ForOp loop);
  mlir::LogicalResult bind(ForOp loop, llvm::StringRef threadTag);

  /// sch.decompose_reduction(block, loop): moves the `tensorir.init` of the
  /// reduction `block` into a new block "<name>_init" placed right before
  /// `loop` (an ancestor of `block`), under copies of the loops between
  /// `loop` and `block` that feed spatial iteration variables. `block` is
  /// renamed "<name>_update". Returns the init block.
  mlir::FailureOr<BlockOp> decomposeReduction(BlockOp block, ForOp loop);

  /// sch.reverse_compute_at(block, loop): moves the spatial consumer `block`
  /// (alone in its loop nest, after `loop`) to the end of the body of
  /// `loop`, under new loops covering, for one iteration of `loop`, the
  /// region of its input that the blocks under `loop` produce.
  mlir::LogicalResult reverseComputeAt(BlockOp block, ForOp loop);

  /// sch.compute_at(block, loop): moves the producer `block` (alone in its
  /// loop nest, before `loop`, writing only `tensorir.alloc_buffer`s that
  /// no block outside `loop` reads) to the start of the body of `loop`,
  /// under new loops covering, for one iteration of `loop`, the region that
  /// the blocks under `loop` read. Reduce iteration variables keep their
  /// whole domain.
  mlir::LogicalResult computeAt(BlockOp block, ForOp loop);

  /// sch.compute_inline(block): replaces every load of the buffer that the
  /// spatial `block` (a single store, at its iteration variables, of a side
  /// effect free computation to a `tensorir.alloc_buffer`) writes by that
  /// computation, and removes the block, its loops and the buffer.
  mlir::LogicalResult computeInline(BlockOp block);

  /// sch.reverse_compute_inline(block): the spatial `block` reads one
  /// intermediate buffer, at its iteration variables, from a producer block
  /// of the same single-store form; the producer's store is replaced by the
  /// block's computation, and the block, its loops and the buffer go away.
  /// When the block's domain is a prefix of the producer's (the copy back
  /// of pad_einsum), the producer gets a predicate masking the rest.
  ///
  /// mlc's `keepInput` (not TVM's): the buffer the block reads may be an
  /// output of the function, which the producer still writes; the block's
  /// computation follows the producer's store instead of replacing it (a
  /// second output computed from the first, e.g. its float16 copy, in the
  /// same write-back). The block must cover the producer's whole domain.
  mlir::LogicalResult reverseComputeInline(BlockOp block,
                                           bool keepInput = false);

  /// sch.cache_read(block, index, scope): a new `tensorir.alloc_buffer`
  /// "<buffer>_<scope>" that `block` reads instead of its read buffer #index,
  /// filled right before the block's loop nest by a copy block (of the same
  /// name) over the region the nest reads. Only `block` is redirected. The
  /// scope only names the buffer for now. Returns the copy block.
  mlir::FailureOr<BlockOp> cacheRead(BlockOp block, unsigned readIndex,
                                     llvm::StringRef storageScope);

  /// sch.cache_write(block, index, scope): `block` writes a new
  /// `tensorir.alloc_buffer` instead of its write buffer #index, copied back
  /// right after its loop nest over the region the nest writes. A block that
  /// reads the buffer must be a reduction with an init. Returns the copy
  /// block.
  mlir::FailureOr<BlockOp> cacheWrite(BlockOp block, unsigned writeIndex,
                                      llvm::StringRef storageScope);

  /// sch.rfactor(loop, factor_axis=0): `loop` feeds a reduce iteration
  /// variable of the only block under it, a reduction `Y[s] = combine(Y[s],
  /// v)` whose init stores the combiner's identity. The block becomes
  /// "<name>_rf", accumulating into a new buffer "<Y>_rf"[rf, s...] with
  /// `loop` as the spatial rf axis; a new block "<name>" after its nest
  /// combines the partial results into Y. Returns the rfactor block.
  mlir::FailureOr<BlockOp> rfactor(ForOp loop);

  /// sch.pad_einsum(block, padding): pads the iteration domain of the einsum
  /// `block` (each buffer dimension indexed by an iteration variable or a
  /// constant, each iteration variable its own loop) up to multiples of
  /// `padding` (one factor per iteration variable). The block then reads
  /// copies "<buffer>_pad" of its inputs, filled before its nest by blocks
  /// "<buffer>_pad" with zeros beyond the original shape, and writes a
  /// padded copy of its output, which a block "<buffer>_pad" after its nest
  /// copies back over the original shape. Does nothing when every extent is
  /// a multiple already.
  mlir::LogicalResult padEinsum(BlockOp block, llvm::ArrayRef<int64_t> padding);

  /// sch.transform_block_layout(block, index_map): `block`, alone in a
  /// nest of one loop per iteration variable, gets the iteration variables
  /// `indexMap` maps its old ones to, each a row-major fusion of old
  /// variables of one kind (spatial or reduce), e.g.
  /// (n, y, x, f) -> (n * 196 + y * 14 + x, f); the nest is replaced by one
  /// loop per new variable, and the body computes the old variables from
  /// the new ones (floordiv, mod).
  mlir::LogicalResult transformBlockLayout(BlockOp block,
                                           mlir::AffineMap indexMap);

  /// sch.reindex(block, (kind, index)): `block` accesses its read (or
  /// write, with `write`) buffer #`bufferIndex` through a new buffer
  /// "<buffer>_reindex" with one dimension per iteration variable the
  /// access indices use (in the block's order), indexed by exactly those
  /// variables; a block of the same name before (read) or after (write)
  /// its nest copies between the two. Returns the copy block.
  mlir::FailureOr<BlockOp> reindex(BlockOp block, unsigned bufferIndex,
                                   bool write);

  /// sch.seed(seed): restarts the random state of the sampling methods.
  void seed(uint64_t value) { rng.seed(value); }

  /// sch.sample_perfect_tile(loop, n, max_innermost_factor, decision): `n`
  /// factors, outermost first, whose product is the constant extent of
  /// `loop`, the innermost at most `maxInnermostFactor` (<= 0: no limit).
  /// A given `decision` is checked and returned; otherwise one is drawn
  /// from the schedule's random state. The trace records the decision.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  samplePerfectTile(ForOp loop, unsigned n, int64_t maxInnermostFactor,
                    std::optional<llvm::ArrayRef<int64_t>> decision = {});

  /// sch.sample_categorical(candidates, probs, decision): the candidate at
  /// index `decision`, drawn with the weights `probs` when not given. The
  /// trace records the decision.
  mlir::FailureOr<int64_t>
  sampleCategorical(llvm::ArrayRef<int64_t> candidates,
                    llvm::ArrayRef<double> probs,
                    std::optional<int64_t> decision = {});

  /// sch.sample_compute_location(block, decision): where compute_at may
  /// move `block`. Decision -1 is where it is (TVM's root location); i >= 0
  /// is the i-th of `collectComputeLocations(block)`. A given decision is
  /// checked; otherwise one is drawn uniformly among all of them. Returns
  /// the decision and its loop (null for -1); the trace records the
  /// decision.
  mlir::FailureOr<std::pair<int64_t, ForOp>>
  sampleComputeLocation(BlockOp block, std::optional<int64_t> decision = {});

  /// The loops of the function, in pre-order, at which compute_at of
  /// `block` succeeds (tried on a copy of the function; the IR is not
  /// changed).
  llvm::SmallVector<ForOp> collectComputeLocations(BlockOp block);

  /// The primitives applied through this object so far, one
  /// `transform.tensorir.*` op each, preceded by the `get_block` /
  /// `get_loops` ops that find its operands in the IR as it was then:
  /// TVM's `sch.trace`. Failed primitives leave no trace.
  llvm::ArrayRef<std::string> getTrace() const { return trace; }

  /// The trace as a transform script (a `transform.named_sequence
  /// @__transform_main` on the module) that replays the schedule on the
  /// original module with `mlc-opt --transform-interpreter`.
  std::string getTraceScript() const;

private:
  // The primitives; the public methods record them in the trace.
  mlir::FailureOr<llvm::SmallVector<ForOp>>
  splitImpl(ForOp loop, llvm::ArrayRef<int64_t> factors);
  mlir::FailureOr<ForOp> fuseImpl(llvm::ArrayRef<ForOp> loops);
  mlir::LogicalResult reorderImpl(llvm::ArrayRef<ForOp> loops);
  mlir::FailureOr<llvm::SmallVector<ForOp>>
  tileImpl(llvm::ArrayRef<ForOp> loops, llvm::ArrayRef<int64_t> sizes);
  mlir::LogicalResult parallelImpl(ForOp loop);
  mlir::LogicalResult vectorizeImpl(ForOp loop);
  mlir::LogicalResult unrollImpl(ForOp loop);
  mlir::LogicalResult bindImpl(ForOp loop, llvm::StringRef threadTag);
  mlir::FailureOr<BlockOp> decomposeReductionImpl(BlockOp block, ForOp loop);
  mlir::LogicalResult reverseComputeAtImpl(BlockOp block, ForOp loop);
  mlir::LogicalResult computeAtImpl(BlockOp block, ForOp loop);
  mlir::LogicalResult computeInlineImpl(BlockOp block);
  mlir::LogicalResult reverseComputeInlineImpl(BlockOp block, bool keepInput);
  mlir::FailureOr<BlockOp> cacheReadImpl(BlockOp block, unsigned readIndex,
                                         llvm::StringRef storageScope);
  mlir::FailureOr<BlockOp> cacheWriteImpl(BlockOp block, unsigned writeIndex,
                                          llvm::StringRef storageScope);
  mlir::FailureOr<BlockOp> rfactorImpl(ForOp loop);
  mlir::LogicalResult transformBlockLayoutImpl(BlockOp block,
                                               mlir::AffineMap indexMap);
  mlir::FailureOr<BlockOp> reindexImpl(BlockOp block, unsigned bufferIndex,
                                       bool write);
  mlir::LogicalResult padEinsumImpl(BlockOp block,
                                    llvm::ArrayRef<int64_t> padding);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  samplePerfectTileImpl(ForOp loop, unsigned n, int64_t maxInnermostFactor,
                        std::optional<llvm::ArrayRef<int64_t>> decision);
  mlir::FailureOr<std::pair<int64_t, ForOp>>
  sampleComputeLocationImpl(BlockOp block, std::optional<int64_t> decision);

  friend class TraceStep;

  PrimFuncOp func;
  mlir::RewriterBase &rewriter;
  std::vector<std::string> trace;
  /// Whether the trace has matched `func` by name yet (as `%func`).
  bool funcMatched = false;
  unsigned numHandles = 0;
  RandomEngine rng;
};

} // namespace mlc::tensorir

#endif // MLC_DIALECT_TENSORIR_TRANSFORMS_SCHEDULE_H
