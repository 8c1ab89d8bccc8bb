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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

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
/// Marks a register loop whose reduction is split across vector lanes.
constexpr StringLiteral kLaneLoopMarker = "mlc.lanes";

/// The largest operand tile of a contraction copied to the stack of a
/// parallel task (OpenMP worker threads have 4 MiB stacks; a task holds an
/// rhs panel and an lhs block), and to the stack of a function.
constexpr int64_t kMaxTaskPackBytes = 512 * 1024;
constexpr int64_t kMaxStackPackBytes = 256 * 1024;
/// The largest operand tile copied to the heap (outside parallel tasks).
constexpr int64_t kMaxHeapPackBytes = 4 * 1024 * 1024;
/// Contractions with fewer multiply-adds than this run on one thread.
constexpr int64_t kMinParallelMultiplyAdds = 1 << 20;
/// Elementwise ops smaller than this run on one thread (a fork costs more).
constexpr int64_t kMinParallelElements = 1 << 15;

/// Tiles `op` with `sizes` (0: not tiled) and erases it; returns the tiled
/// op, or null when tiling failed (then `op` is left alone). `innermost`,
/// if given, is set to the innermost tile loop (null when none was made).
linalg::LinalgOp tile(RewriterBase &rewriter, linalg::LinalgOp op,
                      ArrayRef<int64_t> sizes, bool forall = false,
                      Operation **innermost = nullptr) {
  if (innermost)
    *innermost = nullptr;
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
  if (innermost && !result->loops.empty())
    *innermost = result->loops.back().getOperation();
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

/// The dimensions of a convolution-like op: out[.., m, .., n] +=
/// lhs[.., a*m + .., ..] * rhs[.., b*n + ..] where every other dimension
/// (batch, output rows, channels, kernel window) is walked one by one, so
/// that the register tile is a matmul of m rows by n (contiguous) columns.
struct ConvDims {
  unsigned m, n;
  /// Input operand numbers of the m (lhs, e.g. weights) and the n (rhs,
  /// e.g. image) operand.
  unsigned lhs, rhs;
};

/// Coefficients of `expr`'s dimensions when it is a sum of dimensions with
/// constant factors (no constant term); nullopt otherwise.
std::optional<SmallVector<int64_t>> linearForm(AffineExpr expr,
                                               unsigned numDims) {
  SmallVector<int64_t> coeffs(numDims, 0);
  std::function<bool(AffineExpr, int64_t)> visit = [&](AffineExpr e,
                                                       int64_t factor) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      coeffs[dim.getPosition()] += factor;
      return true;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return false;
    if (e.getKind() == AffineExprKind::Add)
      return visit(bin.getLHS(), factor) && visit(bin.getRHS(), factor);
    if (e.getKind() != AffineExprKind::Mul)
      return false;
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    return c && c.getValue() > 0 && visit(bin.getLHS(), factor * c.getValue());
  };
  if (!visit(expr, 1))
    return std::nullopt;
  return coeffs;
}

/// Whether the body is `out + in0 * in1` (float or integer).
bool isMulAddBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getOperations().size() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *add = yield.getOperand(0).getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add))
    return false;
  Value out = body->getArgument(2);
  Value other =
      add->getOperand(0) == out ? add->getOperand(1) : add->getOperand(0);
  if (add->getOperand(0) != out && add->getOperand(1) != out)
    return false;
  Operation *mul = other.getDefiningOp();
  if (!mul || !(isa<arith::MulFOp>(mul) == isa<arith::AddFOp>(add)) ||
      !isa<arith::MulFOp, arith::MulIOp>(mul))
    return false;
  Value in0 = body->getArgument(0), in1 = body->getArgument(1);
  return (mul->getOperand(0) == in0 && mul->getOperand(1) == in1) ||
         (mul->getOperand(0) == in1 && mul->getOperand(1) == in0);
}

/// Matches convolution-like ops (not contractions): two inputs whose
/// results are sums of dimensions, an output indexed by exactly the parallel
/// dimensions, its innermost dimension n in one input's innermost result
/// only, and a row dimension m in the other input only.
std::optional<ConvDims> matchConv(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !isMulAddBody(op))
    return std::nullopt;
  unsigned numLoops = op.getNumLoops();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap outMap = maps[2];
  if (!outMap.isProjectedPermutation() || outMap.getNumResults() == 0 ||
      outMap.getNumResults() != op.getNumParallelLoops())
    return std::nullopt;
  // coeffs[operand][result][dim]
  SmallVector<SmallVector<SmallVector<int64_t>>> coeffs(2);
  for (unsigned i = 0; i < 2; ++i) {
    if (maps[i].getNumResults() < 2)
      return std::nullopt;
    for (AffineExpr expr : maps[i].getResults()) {
      std::optional<SmallVector<int64_t>> form = linearForm(expr, numLoops);
      if (!form)
        return std::nullopt;
      coeffs[i].push_back(std::move(*form));
    }
  }
  // Results of input `i` that depend on `d`.
  auto uses = [&](unsigned i, unsigned d) {
    SmallVector<unsigned> results;
    for (auto [r, form] : llvm::enumerate(coeffs[i]))
      if (form[d] != 0)
        results.push_back(r);
    return results;
  };
  ConvDims dims;
  dims.n = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  SmallVector<unsigned> n0 = uses(0, dims.n), n1 = uses(1, dims.n);
  if (n0.size() + n1.size() != 1)
    return std::nullopt;
  dims.rhs = n0.empty() ? 1 : 0;
  dims.lhs = 1 - dims.rhs;
  // n indexes the rhs's innermost dimension (contiguous vectors).
  if ((n0.empty() ? n1 : n0).front() + 1 != maps[dims.rhs].getNumResults())
    return std::nullopt;
  // m: the innermost output dimension that only the lhs uses, in one result.
  std::optional<unsigned> m;
  for (AffineExpr expr : outMap.getResults().drop_back()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    if (uses(dims.lhs, d).size() == 1 && uses(dims.rhs, d).empty())
      m = d;
  }
  if (!m)
    return std::nullopt;
  dims.m = *m;
  // No result mixes m and n.
  for (unsigned i = 0; i < 2; ++i)
    for (ArrayRef<int64_t> form : coeffs[i])
      if (form[dims.m] != 0 && form[dims.n] != 0)
        return std::nullopt;
  return dims;
}

/// The dimension of `map`'s innermost result, the contiguous one of a
/// row-major buffer; nullopt for a scalar or a constant index.
std::optional<unsigned> innermostDim(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

/// The dimensions of a pooling-like reduction: out[.., n] = combine(out,
/// f(image[.., s * n + ..], scalars..)) over reduction dimensions that index
/// the image through sums (a window: `y * 2 + ky`), with n in the image's
/// innermost index only. The other inputs read are independent of n (one
/// value per step of the register tile, e.g. a depthwise convolution's
/// weight); unread ones must be shape-only, indexed by reduction dimensions
/// only, like the window operand that convert-tensorir-to-linalg adds.
struct WindowDims {
  unsigned n;
  /// Input operand numbers of the image and of the inputs independent of n.
  unsigned image;
  SmallVector<unsigned> scalars;
};

std::optional<WindowDims> matchWindowReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  unsigned numLoops = op.getNumLoops();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation() || outMap.getNumResults() == 0 ||
      outMap.getNumResults() != op.getNumParallelLoops())
    return std::nullopt;
  WindowDims dims;
  dims.n = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> image;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (op.getMatchingBlockArgument(input).use_empty()) {
      for (unsigned d = 0; d < numLoops; ++d)
        if (linalg::isParallelIterator(iterators[d]) && map.isFunctionOfDim(d))
          return std::nullopt;
      continue;
    }
    for (AffineExpr expr : map.getResults())
      if (!linearForm(expr, numLoops))
        return std::nullopt;
    if (!map.isFunctionOfDim(dims.n)) {
      dims.scalars.push_back(input->getOperandNumber());
      continue;
    }
    if (image || map.getNumResults() == 0)
      return std::nullopt;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      bool last = r + 1 == map.getNumResults();
      if (last != ((*linearForm(expr, numLoops))[dims.n] != 0))
        return std::nullopt;
    }
    image = input->getOperandNumber();
  }
  if (!image)
    return std::nullopt;
  dims.image = *image;
  return dims;
}

/// Rewrites a pooling register tile (every dimension but n of extent one,
/// static) into a one-dimensional elementwise generic over n on rank-reduced
/// (for strides, strided) views of the image and the output, and 0-d views
/// of the inputs independent of n; the shape-only operands go away.
linalg::LinalgOp flattenWindowTile(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const WindowDims &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, r] : llvm::enumerate(ranges))
    if (ShapedType::isDynamic(r) || (d != dims.n && r != 1))
      return nullptr;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // The element(s) of `operand` in the tile: along n (1-D) or one (0-d).
  auto view = [&](OpOperand &operand, bool alongN) -> Value {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = cast<MemRefType>(operand.get().getType());
    unsigned rank = map.getNumResults();
    SmallVector<int64_t> offsets(rank, 0), sizes(rank, 1), strides(rank, 1);
    SmallVector<int64_t> shape;
    if (alongN) {
      SmallVector<int64_t> form =
          *linearForm(map.getResults().back(), ranges.size());
      sizes.back() = ranges[dims.n];
      strides.back() = form[dims.n];
      shape.push_back(ranges[dims.n]);
    }
    MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
        shape, type, offsets, sizes, strides);
    return memref::SubViewOp::create(rewriter, loc, viewType, operand.get(),
                                     offsets, sizes, strides);
  };
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap scalar = AffineMap::get(1, 0, {}, ctx);
  SmallVector<Value> inputs = {view(op->getOpOperand(dims.image), true)};
  SmallVector<AffineMap> maps = {identity};
  for (unsigned number : dims.scalars) {
    inputs.push_back(view(op->getOpOperand(number), false));
    maps.push_back(scalar);
  }
  OpOperand *init = op.getDpsInitOperand(0);
  Value output = view(*init, true);
  maps.push_back(identity);
  Block *body = op.getBlock();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, inputs, ValueRange{output}, maps,
      {utils::IteratorType::parallel},
      [&](OpBuilder &b, Location, ValueRange args) {
        IRMapping mapping;
        mapping.map(body->getArgument(dims.image), args[0]);
        for (auto [i, number] : llvm::enumerate(dims.scalars))
          mapping.map(body->getArgument(number), args[i + 1]);
        mapping.map(op.getMatchingBlockArgument(init), args.back());
        for (Operation &inner : body->getOperations())
          b.clone(inner, mapping);
      });
  rewriter.eraseOp(op);
  return generic;
}

/// Whether every indexing map of `op` is a projected permutation (constant
/// zero results allowed), the only maps the vectorizer takes.
bool hasProjectedPermutationMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
}

struct DefaultSchedulePass
    : public mlc::impl::DefaultSchedulePassBase<DefaultSchedulePass> {
  using Base::Base;

  void runOnOperation() override;

  /// Contractions: parallel m (or n) tiles, k and n cache tiles, an
  /// m-register x n-register tile over k steps of one.
  void scheduleContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                           const linalg::ContractionDimensions &dims);
  /// Convolutions: parallel m tiles and output rows, an m x n register tile
  /// over the reduction dimensions one by one.
  void scheduleConv(RewriterBase &rewriter, linalg::LinalgOp op,
                    const ConvDims &dims);
  /// The tiling that reductions and pooling windows share: about 16
  /// parallel tasks over the outermost parallel dimension of a large op;
  /// every parallel dimension one by one but `n`, tiled by `columns`; the
  /// reduction dimensions one by one around the register tile, with the
  /// accumulators in registers, `lanes` by the vector width with its
  /// reduction split across vector lanes. -1: no such dimension.
  void tileReductionRegisters(RewriterBase &rewriter, linalg::LinalgOp op,
                              int64_t n, int64_t columns, int64_t lanes);
  /// Pooling windows: parallel outer dimensions, a vector of output columns
  /// carried in registers across the window, each step an elementwise op on
  /// (strided) views.
  void schedulePooling(RewriterBase &rewriter, linalg::LinalgOp op,
                       const WindowDims &dims);
  /// Packs an operand tile of a contraction (see the definition).
  void packTile(RewriterBase &rewriter, linalg::LinalgOp op, unsigned dim,
                bool contiguousDim);
  /// No reduction: parallel outermost dimension (unless `inParallelTask`),
  /// vectorized innermost.
  void scheduleElementwise(RewriterBase &rewriter, linalg::LinalgOp op,
                           bool inParallelTask = false);
  /// Other reductions (sum, max, mean, the stages of softmax and norms):
  /// parallel outermost dimension, vectorized along the contiguous
  /// dimension, be it the output's or the reduced one.
  void scheduleReduction(RewriterBase &rewriter, linalg::LinalgOp op);
};

/// A cache tile of at most about `tile` (a multiple of `align`) that
/// divides `extent` into equal parts when it can (784 by 256 -> 196), so that
/// no partial tile is left; else `tile` itself, aligned.
static int64_t balancedTile(int64_t extent, int64_t tile, int64_t align) {
  if (extent <= tile)
    return extent;
  int64_t parts = llvm::divideCeil(extent, tile);
  int64_t size = llvm::alignTo(llvm::divideCeil(extent, parts), align);
  return extent % size == 0 ? size : llvm::alignTo(tile, align);
}

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

  uint64_t work = 1;
  for (int64_t extent : ranges)
    work = llvm::SaturatingMultiply(work, static_cast<uint64_t>(extent));
  bool parallel = work >= static_cast<uint64_t>(kMinParallelMultiplyAdds);
  // GotoBLAS's loop nest: a k cache tile; an n cache tile whose rhs panel
  // is packed once, before the parallel tasks, and read by all of them;
  // m tasks, each an lhs block packed once and read by every register
  // column tile; register columns outermost, so that the k x n-register
  // sliver of the panel stays in L1 for every register row tile. With too
  // few rows for two tasks of two register tiles, the tasks are columns
  // (a quarter of the n cache tile) instead, each packing its own panel.
  int64_t kc = balancedTile(ranges[k], kTile, 1);
  int64_t nc = balancedTile(ranges[n], nCacheTile, nRegister);
  int64_t mc = balancedTile(ranges[m], mParallel, mRegister);
  if (ranges[m] < 2 * mParallel)
    mc = llvm::alignTo(llvm::divideCeil(ranges[m], 2), mRegister);
  bool rowTasks = parallel && mc >= 2 * mRegister && mc < ranges[m];
  bool columnTasks = false;
  if (!rowTasks) {
    mc = ranges[m];
    int64_t taskColumns = balancedTile(
        ranges[n], std::max<int64_t>(nCacheTile / 4, nRegister), nRegister);
    if (parallel && ranges[n] >= 2 * taskColumns) {
      nc = taskColumns;
      columnTasks = true;
    }
  }
  // A partial tile would have dynamic sizes all the way down to the
  // register tile (peeling the inner loops cannot make them static again)
  // and could not be packed: the whole tiles and the rest are scheduled as
  // two ops (for k, the second accumulates onto the first's result).
  for (auto [d, size] : {std::pair(m, mc), {n, nc}, {k, kc}}) {
    if (size >= ranges[d] || ranges[d] % size == 0)
      continue;
    int64_t whole = ranges[d] - ranges[d] % size;
    rewriter.setInsertionPoint(op);
    auto [first, rest] =
        linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), d,
                        rewriter.getIndexAttr(whole));
    auto firstOp = dyn_cast_or_null<linalg::LinalgOp>(first.getOperation());
    auto restOp = dyn_cast_or_null<linalg::LinalgOp>(rest.getOperation());
    if (!firstOp || !restOp || firstOp.hasDynamicShape() ||
        restOp.hasDynamicShape())
      return;
    scheduleContraction(rewriter, firstOp, dims);
    scheduleContraction(rewriter, restOp, dims);
    return;
  }
  // Batch dimensions run in parallel unless the tasks are rows.
  SmallVector<int64_t> sizes = ones;
  if (columnTasks)
    sizes[n] = nc;
  linalg::LinalgOp current =
      tile(rewriter, op, sizes, /*forall=*/parallel && !rowTasks);
  if (!current)
    return;
  sizes.assign(numLoops, 0);
  sizes[k] = clampTile(kc, ranges[k]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  sizes.assign(numLoops, 0);
  sizes[n] = clampTile(nc, ranges[n]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  // Packing pays off when the packed tile is read by several register
  // tiles: the rhs panel by every register row tile, the lhs block by every
  // register column tile.
  if (ranges[m] >= 2 * mRegister)
    packTile(rewriter, current, n, /*contiguousDim=*/true);
  sizes.assign(numLoops, 0);
  sizes[m] = clampTile(mc, ranges[m]);
  if (!(current = tile(rewriter, current, sizes, /*forall=*/rowTasks)))
    return;
  if (ranges[n] >= 2 * nRegister)
    packTile(rewriter, current, m, /*contiguousDim=*/false);
  // With fewer rows than a register tile (a batch-1 dense layer), the tile
  // is as many accumulators wide instead: each k step then reads a longer
  // contiguous piece of a rhs row.
  int64_t rows = std::min<int64_t>(mRegister, ranges[m]);
  int64_t columns = nRegister * (mRegister / rows);
  sizes.assign(numLoops, 0);
  sizes[n] = std::min<int64_t>({columns, nc, ranges[n]});
  if (!(current = tile(rewriter, current, sizes)))
    return;
  sizes.assign(numLoops, 0);
  sizes[m] = rows;
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

/// Copies the tile of `op`'s input that holds dimension `dim` (the lhs or
/// rhs of a contraction tile) into a buffer and makes `op` read it:
/// the rows of the original are N floats apart, so that at N = 1024 all the
/// rows map to the same L1 set and the tile never stays in L1. Rows whose
/// size is an even number of cache lines are padded by one line, so that
/// consecutive rows of the buffer fall into different sets too. With
/// `contiguousDim`, only when `dim` is the input's innermost dimension (an
/// rhs panel the register tile reads by rows). Only for static tiles; the
/// buffer is allocated once per parallel task (on its stack) or function
/// (large ones on the heap, freed at the exit) and the copy is vectorized
/// like an elementwise op.
void DefaultSchedulePass::packTile(RewriterBase &rewriter, linalg::LinalgOp op,
                                   unsigned dim, bool contiguousDim) {
  OpOperand *tileInput = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isFunctionOfDim(dim)) {
      if (tileInput || (contiguousDim && innermostDim(map) != dim))
        return;
      tileInput = input;
    }
  }
  if (!tileInput)
    return;
  auto panelType = dyn_cast<MemRefType>(tileInput->get().getType());
  if (!panelType || !panelType.hasStaticShape() || panelType.getRank() == 0 ||
      !panelType.getElementType().isIntOrFloat())
    return;
  constexpr int64_t kCacheLineBytes = 64;
  int64_t elementBytes =
      llvm::divideCeil(panelType.getElementTypeBitWidth(), 8);
  SmallVector<int64_t> bufferShape(panelType.getShape());
  int64_t rowBytes = bufferShape.back() * elementBytes;
  if (panelType.getRank() > 1 && rowBytes % (2 * kCacheLineBytes) == 0 &&
      kCacheLineBytes % elementBytes == 0)
    bufferShape.back() += kCacheLineBytes / elementBytes;
  int64_t bufferBytes = elementBytes;
  for (int64_t extent : bufferShape)
    bufferBytes *= extent;
  // Outside every loop of the task (or function), so that the stack is not
  // grown per iteration. A heap buffer is freed before the entry block's
  // terminator, which must then be the function's only exit.
  auto forall = op->getParentOfType<scf::ForallOp>();
  Region &body = op->getParentOfType<FunctionOpInterface>().getFunctionBody();
  bool heap = !forall && bufferBytes > kMaxStackPackBytes;
  int64_t limit = forall ? kMaxTaskPackBytes
                         : (heap ? kMaxHeapPackBytes : kMaxStackPackBytes);
  if (bufferBytes > limit || (heap && !body.hasOneBlock()))
    return;
  Block *entry = forall ? forall.getBody() : &body.front();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(entry);
  Location loc = op.getLoc();
  auto bufferType = MemRefType::get(bufferShape, panelType.getElementType());
  IntegerAttr alignment = rewriter.getI64IntegerAttr(64);
  Value packed;
  if (heap) {
    packed = memref::AllocOp::create(rewriter, loc, bufferType, alignment);
    rewriter.setInsertionPoint(entry->getTerminator());
    memref::DeallocOp::create(rewriter, loc, packed);
    rewriter.setInsertionPointAfterValue(packed);
  } else {
    packed = memref::AllocaOp::create(rewriter, loc, bufferType, alignment);
  }
  if (bufferShape != panelType.getShape()) {
    unsigned rank = panelType.getRank();
    packed = memref::SubViewOp::create(
        rewriter, loc, packed, SmallVector<int64_t>(rank, 0),
        panelType.getShape(), SmallVector<int64_t>(rank, 1));
  }
  rewriter.setInsertionPoint(op);
  auto copy = linalg::CopyOp::create(rewriter, loc, tileInput->get(), packed);
  rewriter.modifyOpInPlace(op, [&] { tileInput->set(packed); });
  // A copy outside the tasks (a shared rhs panel) is parallel itself.
  scheduleElementwise(rewriter, cast<linalg::LinalgOp>(copy.getOperation()),
                      /*inParallelTask=*/forall != nullptr);
}

void DefaultSchedulePass::schedulePooling(RewriterBase &rewriter,
                                          linalg::LinalgOp op,
                                          const WindowDims &dims) {
  tileReductionRegisters(rewriter, op, dims.n, vectorWidth, /*lanes=*/-1);
}

void DefaultSchedulePass::scheduleConv(RewriterBase &rewriter,
                                       linalg::LinalgOp op,
                                       const ConvDims &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  unsigned m = dims.m, n = dims.n;
  // Parallel tasks: m by m-parallel rows and every other parallel
  // dimension (batch, output rows) one by one.
  SmallVector<int64_t> sizes(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != m && d != n &&
        linalg::isParallelIterator(op.getIteratorTypesArray()[d]))
      sizes[d] = clampTile(1, ranges[d]);
  if (ranges[m] >= 2 * mParallel)
    sizes[m] = mParallel;
  linalg::LinalgOp current = tile(rewriter, op, sizes, /*forall=*/true);
  if (!current)
    return;
  // The register tile: as many accumulator vectors as the matmul's, one
  // vector wide (measured: 16x16 beats 8x32 on every resnet18 layer).
  int64_t columns = std::min<int64_t>(vectorWidth, ranges[n]);
  int64_t rows = llvm::divideCeil(nRegister, vectorWidth) * mRegister;
  sizes.assign(numLoops, 0);
  sizes[m] = std::min<int64_t>(rows, ranges[m]);
  sizes[n] = columns;
  if (!(current = tile(rewriter, current, sizes)))
    return;
  // The reduction dimensions one by one, outermost first, around the
  // register tile: its accumulators stay in registers across all of them.
  for (unsigned d = 0; d < numLoops; ++d) {
    if (!linalg::isReductionIterator(op.getIteratorTypesArray()[d]) ||
        ranges[d] == 1)
      continue;
    sizes.assign(numLoops, 0);
    sizes[d] = 1;
    if (!(current = tile(rewriter, current, sizes)))
      return;
    current->getParentOfType<scf::ForOp>()->setAttr(kRegisterLoopMarker,
                                                    rewriter.getUnitAttr());
  }
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
}

/// Rewrites a convolution's register tile (every dimension but m and n of
/// extent one, static) into a matmul-shaped generic over (m, n, k) with k of
/// extent one, on rank-reduced (and for strides, strided) views of its
/// operands: its maps become projected permutations that the vectorizer
/// takes as a contraction.
linalg::LinalgOp flattenConvTile(RewriterBase &rewriter, linalg::LinalgOp op,
                                 const ConvDims &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, r] : llvm::enumerate(ranges))
    if (ShapedType::isDynamic(r) || (d != dims.m && d != dims.n && r != 1))
      return nullptr;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  AffineExpr dm = getAffineDimExpr(0, ctx), dn = getAffineDimExpr(1, ctx),
             dk = getAffineDimExpr(2, ctx);
  rewriter.setInsertionPoint(op);
  SmallVector<Value> views;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = cast<MemRefType>(operand.get().getType());
    SmallVector<int64_t> offsets(map.getNumResults(), 0),
        sizes(map.getNumResults(), 1), strides(map.getNumResults(), 1), shape;
    SmallVector<AffineExpr> results;
    bool needK = operand.getOperandNumber() < 2;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      SmallVector<int64_t> form = *linearForm(expr, ranges.size());
      if (form[dims.m] != 0 || form[dims.n] != 0) {
        unsigned d = form[dims.m] != 0 ? dims.m : dims.n;
        sizes[r] = ranges[d];
        strides[r] = form[d];
        shape.push_back(ranges[d]);
        results.push_back(d == dims.m ? dm : dn);
      } else if (needK) {
        needK = false;
        shape.push_back(1);
        results.push_back(dk);
      }
    }
    MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
        shape, type, offsets, sizes, strides);
    views.push_back(memref::SubViewOp::create(
        rewriter, loc, viewType, operand.get(), offsets, sizes, strides));
    maps.push_back(AffineMap::get(3, 0, results, ctx));
  }
  // lhs first: the outer-product lowering then broadcasts its elements and
  // vectorizes along n. The body (out + a * b) is cloned with its inputs
  // mapped to their new places (a * b = b * a).
  Block *body = op.getBlock();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, ValueRange{views[dims.lhs], views[dims.rhs]},
      ValueRange{views[2]}, {maps[dims.lhs], maps[dims.rhs], maps[2]},
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](OpBuilder &b, Location, ValueRange args) {
        IRMapping mapping;
        mapping.map(body->getArgument(dims.lhs), args[0]);
        mapping.map(body->getArgument(dims.rhs), args[1]);
        mapping.map(body->getArgument(2), args[2]);
        for (Operation &inner : body->getOperations()) {
          Operation *copy = b.clone(inner, mapping);
          // The vectorizer's contraction takes the mul's operand order.
          if (isa<arith::MulFOp, arith::MulIOp>(copy))
            copy->setOperands({args[0], args[1]});
        }
      });
  rewriter.eraseOp(op);
  return generic;
}

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

void DefaultSchedulePass::scheduleElementwise(RewriterBase &rewriter,
                                              linalg::LinalgOp op,
                                              bool inParallelTask) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  linalg::LinalgOp current = op;
  if (!inParallelTask && numLoops > 1 && elements >= kMinParallelElements &&
      ranges[0] > 1) {
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

void DefaultSchedulePass::scheduleReduction(RewriterBase &rewriter,
                                            linalg::LinalgOp op) {
  // The vectorizer takes projected permutations only (pooling windows are
  // schedulePooling's).
  if (!hasProjectedPermutationMaps(op))
    return;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  // Whether every input that reads dimension `d` reads it contiguously, and
  // at least one does.
  auto contiguousInInputs = [&](unsigned d) {
    bool any = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isFunctionOfDim(d))
        continue;
      if (innermostDim(map) != d)
        return false;
      any = true;
    }
    return any;
  };
  // Along the output: its innermost dimension n is a vector of independent
  // accumulators (column sums, reductions over outer axes). Along the
  // reduction: its innermost dimension r is split across vector lanes that
  // are combined once at the end (row sums, softmax, norms). -1: none.
  std::optional<unsigned> outputInnermost =
      innermostDim(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  int64_t n = outputInnermost ? static_cast<int64_t>(*outputInnermost) : -1;
  int64_t r = -1;
  if (n < 0 || ranges[n] < 4 || !contiguousInInputs(n)) {
    n = -1;
    for (unsigned d = 0; d < numLoops; ++d)
      if (linalg::isReductionIterator(iterators[d]))
        r = d;
    if (r < 0 || ranges[r] < vectorWidth || !contiguousInInputs(r))
      return;
  }

  int64_t columns =
      n >= 0
          ? std::min<int64_t>(llvm::alignTo(nRegister, vectorWidth), ranges[n])
          : 0;
  tileReductionRegisters(rewriter, op, n, columns, r);
}

void DefaultSchedulePass::tileReductionRegisters(RewriterBase &rewriter,
                                                 linalg::LinalgOp op, int64_t n,
                                                 int64_t columns,
                                                 int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  linalg::LinalgOp current = op;
  int64_t elements = 1;
  for (int64_t extent : ranges)
    elements *= extent;
  // About 16 tasks over the outermost parallel dimension that is not 1.
  for (unsigned d = 0; d < numLoops && elements >= kMinParallelElements; ++d) {
    if (!linalg::isParallelIterator(iterators[d]) || ranges[d] == 1)
      continue;
    int64_t chunk = llvm::divideCeil(ranges[d], 16);
    if (d == n)
      chunk = llvm::alignTo(chunk, columns);
    SmallVector<int64_t> parallel(numLoops, 0);
    parallel[d] = clampTile(chunk, ranges[d]);
    if (!(current = tile(rewriter, current, parallel, /*forall=*/true)))
      return;
    break;
  }
  // Every parallel dimension but n one by one.
  SmallVector<int64_t> sizes(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d)
    if (linalg::isParallelIterator(iterators[d]))
      sizes[d] = clampTile(d == n ? columns : 1, ranges[d]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  // The reduction dimensions, outermost first, around the register tile:
  // its accumulators stay in registers across all of them.
  for (unsigned d = 0; d < numLoops; ++d) {
    if (!linalg::isReductionIterator(iterators[d]))
      continue;
    bool split = d == lanes;
    if (!split && ranges[d] == 1)
      continue;
    sizes.assign(numLoops, 0);
    sizes[d] = split ? vectorWidth : 1;
    Operation *loop = nullptr;
    if (!(current = tile(rewriter, current, sizes, /*forall=*/false, &loop)))
      return;
    if (!loop)
      continue;
    loop->setAttr(kRegisterLoopMarker, rewriter.getUnitAttr());
    if (split)
      loop->setAttr(kLaneLoopMarker, rewriter.getUnitAttr());
  }
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
}

/// The neutral element of `kind` on `type`, if there is one.
static TypedAttr reductionIdentity(vector::CombiningKind kind, Type type) {
  using Kind = vector::CombiningKind;
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(type));
  std::optional<arith::AtomicRMWKind> rmw;
  switch (kind) {
  case Kind::ADD:
    rmw = isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
    break;
  case Kind::MUL:
    rmw = isFloat ? arith::AtomicRMWKind::mulf : arith::AtomicRMWKind::muli;
    break;
  case Kind::MAXIMUMF:
    rmw = arith::AtomicRMWKind::maximumf;
    break;
  case Kind::MINIMUMF:
    rmw = arith::AtomicRMWKind::minimumf;
    break;
  case Kind::MAXNUMF:
    rmw = arith::AtomicRMWKind::maxnumf;
    break;
  case Kind::MINNUMF:
    rmw = arith::AtomicRMWKind::minnumf;
    break;
  case Kind::MAXSI:
    rmw = arith::AtomicRMWKind::maxs;
    break;
  case Kind::MINSI:
    rmw = arith::AtomicRMWKind::mins;
    break;
  case Kind::MAXUI:
    rmw = arith::AtomicRMWKind::maxu;
    break;
  case Kind::MINUI:
    rmw = arith::AtomicRMWKind::minu;
    break;
  case Kind::AND:
    rmw = arith::AtomicRMWKind::andi;
    break;
  case Kind::OR:
    rmw = arith::AtomicRMWKind::ori;
    break;
  default:
    return nullptr;
  }
  OpBuilder builder(type.getContext());
  auto scalar = arith::getIdentityValueAttr(*rmw, getElementTypeOrSelf(type),
                                            builder, builder.getUnknownLoc());
  if (!scalar)
    return nullptr;
  return SplatElementsAttr::get(cast<ShapedType>(type), scalar);
}

/// Splits the reduction of a register loop across vector lanes: a
/// loop-carried accumulator that each step reduces a vector into
/// (`acc = multi_reduction(v, acc)`, a horizontal reduction per step)
/// becomes a vector of partial results combined lane by lane (`lanes =
/// lanes + v`), reduced once after the loop. Like TVM's rfactor, this
/// reassociates the reduction.
static void splitReductionAcrossLanes(RewriterBase &rewriter, scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
    BlockArgument acc = loop.getRegionIterArgs()[i];
    auto reduction =
        yield.getOperand(i).getDefiningOp<vector::MultiDimReductionOp>();
    if (!reduction || reduction.getAcc() != acc || !acc.hasOneUse() ||
        !reduction->hasOneUse() || reduction->getBlock() != loop.getBody())
      continue;
    VectorType sourceType = reduction.getSourceVectorType();
    TypedAttr identity = reductionIdentity(reduction.getKind(), sourceType);
    if (!identity)
      continue;
    rewriter.setInsertionPoint(loop);
    Value init = arith::ConstantOp::create(rewriter, loop.getLoc(), identity);
    vector::CombiningKind kind = reduction.getKind();
    Value source = reduction.getSource();
    FailureOr<LoopLikeOpInterface> newLoop = loop.replaceWithAdditionalYields(
        rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &builder, Location loc, ArrayRef<BlockArgument> args) {
          builder.setInsertionPoint(reduction);
          return SmallVector<Value>{vector::makeArithReduction(
              builder, loc, kind, source, args.front())};
        });
    if (failed(newLoop))
      return;
    loop = cast<scf::ForOp>(newLoop->getOperation());
    // The old accumulator passes through; its result is combined with the
    // lanes after the loop.
    rewriter.replaceOp(reduction, loop.getRegionIterArgs()[i]);
    rewriter.setInsertionPointAfter(loop);
    Value result = loop.getResult(i);
    auto combined = vector::MultiDimReductionOp::create(
        rewriter, loop.getLoc(), loop.getResults().back(), result,
        reduction.getReductionMask(), kind);
    rewriter.replaceAllUsesExcept(result, combined.getResult(), combined);
    yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  }
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
    if (!linalg::isaContractionOpInterface(op)) {
      if (std::optional<ConvDims> dims = matchConv(op)) {
        scheduleConv(rewriter, op, *dims);
      } else if (hasProjectedPermutationMaps(op)) {
        scheduleReduction(rewriter, op);
      } else if (std::optional<WindowDims> window = matchWindowReduction(op)) {
        schedulePooling(rewriter, op, *window);
      }
      continue;
    }
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
  for (linalg::LinalgOp &op : toVectorize) {
    // A convolution's register tile becomes a matmul-shaped generic first,
    // a pooling window step an elementwise one.
    if (!linalg::isaContractionOpInterface(op) &&
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
  {
    RewritePatternSet patterns(ctx);
    populateCanonicalization(patterns);
    applyBounded(func, std::move(patterns));
  }
}

} // namespace
