//===- Contraction.cpp - CPU schedule of contractions ---------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Matmul, batch matmul, dense (linalg contraction dimensions m, n, k):
// GotoBLAS's loop nest of cache tiles with packed operand tiles, parallel
// row (or column) tasks and a register tile over k steps of one.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc::cpu;

/// The largest operand tile of a contraction copied to the stack of a
/// parallel task (OpenMP worker threads have 4 MiB stacks; a task holds an
/// rhs panel and an lhs block), and to the stack of a function.
constexpr int64_t kMaxTaskPackBytes = 512 * 1024;
constexpr int64_t kMaxStackPackBytes = 256 * 1024;
/// The largest operand tile copied to the heap (outside parallel tasks).
constexpr int64_t kMaxHeapPackBytes = 4 * 1024 * 1024;
/// An rhs of at most this size stays in L1 (48 KiB) beside the lhs sliver
/// and the accumulators, and is not prefetched.
constexpr int64_t kL1ResidentBytes = 32 * 1024;
/// A k x n-register sliver of the rhs of at most this size stays in L1
/// while the register rows of an lhs block stream past it (a 32 KiB one
/// filled L1 and lost to keeping the lhs rows there instead, at 2048^3).
constexpr int64_t kL1ResidentSliverBytes = 16 * 1024;
/// Contractions with fewer multiply-adds than this run on one thread.
constexpr int64_t kMinParallelMultiplyAdds = 1 << 20;

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

/// Rows per parallel task of a contraction with `extent` rows, about
/// `tile`: a divisor of `extent` (no rest runs on one thread after the
/// tasks), preferring an even number of tasks (two or four threads get
/// equal shares) and whole register tiles (`align`); a task's partial
/// register tile is peeled inside it. 0 when no divisor lies within a factor
/// 1.5 of `tile` and above 2 `align`.
static int64_t taskRows(int64_t extent, int64_t tile, int64_t align) {
  int64_t best = 0, bestScore = -1;
  for (int64_t rows = std::max(tile * 2 / 3, 2 * align); rows <= tile * 3 / 2;
       ++rows) {
    if (extent % rows != 0 || rows >= extent)
      continue;
    int64_t score = 4 * ((extent / rows) % 2 == 0) + 2 * (rows % align == 0) +
                    (rows <= tile);
    if (score > bestScore ||
        (score == bestScore && std::abs(rows - tile) < std::abs(best - tile)))
      best = rows, bestScore = score;
  }
  return best;
}

/// Columns per parallel task of a contraction with `extent` columns and
/// few rows: at most `tile`, whole vectors, an even number of tasks of
/// equal width when there is one (up to twice as many as needed); else the
/// fewest tasks of at most `tile` rounded down to whole vectors (the rest
/// becomes an op of its own). 0 when there are not two tasks of at least
/// `minWidth` columns.
static int64_t taskColumns(int64_t extent, int64_t tile, int64_t vectorWidth,
                           int64_t minWidth) {
  int64_t tasks = std::max<int64_t>(2, llvm::divideCeil(extent, tile));
  tasks += tasks % 2;
  for (int64_t t = tasks; t <= 2 * tasks; t += 2)
    if (extent % t == 0 && (extent / t) % vectorWidth == 0 &&
        extent / t >= minWidth)
      return extent / t;
  int64_t width = extent / tasks / vectorWidth * vectorWidth;
  return width >= minWidth ? width : 0;
}

static LogicalResult readSlivers(RewriterBase &rewriter,
                                 linalg::LinalgOp column,
                                 const InterleavedPanel &panel);

/// Prefetches the accumulator tile of the next register tile (the columns
/// after `accumulator`'s, a subview taken in the innermost register loop)
/// before `kLoop` of this one. The register tile reads its accumulators
/// before its k loop; C is too large for L2 (each k cache tile walks over
/// all of it), so without the prefetch every register tile started with a
/// miss per row, rows 8 KiB apart (at 2048 x 2048). Measured with 4 KiB
/// pages at 1 thread: 2048^3 0.85x -> 0.91x OpenBLAS. Nothing when the tile
/// is not such a subview.
static void prefetchNextAccumulator(RewriterBase &rewriter, Value accumulator,
                                    Operation *kLoop) {
  auto view = accumulator.getDefiningOp<memref::SubViewOp>();
  auto tileLoop = kLoop->getParentOfType<scf::ForOp>();
  if (!view || !tileLoop || !view.hasUnitStride() ||
      view->getParentOp() != tileLoop.getOperation())
    return;
  MemRefType source = view.getSourceType();
  int64_t elementBytes = source.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (elementBytes < 1 || failed(source.getStridesAndOffset(strides, offset)) ||
      strides.empty() || strides.back() != 1)
    return;
  // The dimension the tile loop walks: its offset is the loop's variable.
  SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
  Value iv = tileLoop.getInductionVar();
  auto tileDim = llvm::find_if(
      offsets, [&](OpFoldResult ofr) { return dyn_cast<Value>(ofr) == iv; });
  std::optional<int64_t> step = getConstantIntValue(tileLoop.getStep());
  std::optional<int64_t> upper = getConstantIntValue(tileLoop.getUpperBound());
  if (tileDim == offsets.end() || !step || !upper || *upper < *step ||
      llvm::any_of(view.getStaticSizes(), ShapedType::isDynamic))
    return;
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  // Cache lines along the innermost dimension, every index of the others.
  int64_t line = std::max<int64_t>(1, kCacheLineBytes / elementBytes);
  int64_t lines = llvm::divideCeil(sizes.back(), line);
  uint64_t prefetches = lines;
  for (int64_t size : sizes.drop_back())
    prefetches *= size;
  if (prefetches > 64)
    return;

  Location loc = kLoop->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(kLoop);
  // The last tile prefetches itself (in cache already): no branch, and
  // every address stays inside the view.
  Value next = arith::MinSIOp::create(
      rewriter, loc,
      arith::AddIOp::create(
          rewriter, loc, iv,
          arith::ConstantIndexOp::create(rewriter, loc, *step)),
      arith::ConstantIndexOp::create(rewriter, loc, *upper - *step));
  SmallVector<int64_t> position(sizes.size(), 0);
  // Each dimension's index at each position, made once.
  llvm::DenseMap<std::pair<size_t, int64_t>, Value> indexOf;
  for (uint64_t p = 0; p < prefetches; ++p) {
    // position: the index in the tile, innermost in lines.
    uint64_t rest = p;
    position.back() = static_cast<int64_t>(rest % lines) * line;
    rest /= lines;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d) {
      position[d] = static_cast<int64_t>(rest % sizes[d]);
      rest /= sizes[d];
    }
    SmallVector<Value> indices;
    for (auto [d, ofr] : llvm::enumerate(offsets)) {
      Value &index = indexOf[{d, position[d]}];
      if (!index) {
        Value base = d == static_cast<size_t>(tileDim - offsets.begin())
                         ? next
                         : getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
        index = position[d]
                    ? arith::AddIOp::create(rewriter, loc, base,
                                            arith::ConstantIndexOp::create(
                                                rewriter, loc, position[d]))
                          .getResult()
                    : base;
      }
      indices.push_back(index);
    }
    memref::PrefetchOp::create(rewriter, loc, view.getSource(), indices,
                               /*isWrite=*/true, /*localityHint=*/3,
                               /*isDataCache=*/true);
  }
}

/// Prefetches the rhs rows that the register tile `tile` (in `kLoop`, k
/// steps of one) reads about 2 KiB ahead in k, one prefetch per cache line
/// of the row; the row index is clamped to the view (the last steps
/// prefetch their own rows). The rhs slivers stream from L2, and L2's
/// prefetchers do not fill L1: 2048^3 +2-5 %, 1024^3 and 1600x768x3072
/// +5-15 % at 1 thread. Nothing when the rhs is not a static subview.
static void prefetchRhsAhead(RewriterBase &rewriter, linalg::LinalgOp tile,
                             unsigned m, unsigned n, unsigned k) {
  for (OpOperand *input : tile.getDpsInputOperands()) {
    AffineMap map = tile.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(n) || map.isFunctionOfDim(m))
      continue;
    auto view = input->get().getDefiningOp<memref::SubViewOp>();
    std::optional<unsigned> kPos =
        map.getResultPosition(getAffineDimExpr(k, tile.getContext()));
    std::optional<unsigned> nPos =
        map.getResultPosition(getAffineDimExpr(n, tile.getContext()));
    if (!view || !kPos || !nPos ||
        view.getSourceType().getRank() !=
            static_cast<int64_t>(map.getNumResults()))
      return;
    MemRefType source = view.getSourceType();
    int64_t elementBytes = source.getElementTypeBitWidth() / 8;
    ArrayRef<int64_t> sizes = view.getStaticSizes();
    if (elementBytes < 1 || !source.hasStaticShape() ||
        ShapedType::isDynamic(sizes[*nPos]))
      return;
    // An rhs that fits in L1 stays there; its prefetches would only cost
    // issue slots (6 instructions per k step of a 6x16 tile, as many as its
    // FMAs).
    if (static_cast<int64_t>(mlc::countElements(source.getShape())) *
            elementBytes <=
        kL1ResidentBytes)
      return;
    int64_t rowBytes = sizes[*nPos] * elementBytes;
    int64_t ahead = std::max<int64_t>(8, 2048 / std::max<int64_t>(rowBytes, 1));
    int64_t line = std::max<int64_t>(1, kCacheLineBytes / elementBytes);
    Location loc = tile.getLoc();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(tile);
    SmallVector<Value> indices;
    for (OpFoldResult offset : view.getMixedOffsets())
      indices.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, offset));
    indices[*kPos] = arith::MinSIOp::create(
        rewriter, loc,
        arith::AddIOp::create(
            rewriter, loc, indices[*kPos],
            arith::ConstantIndexOp::create(rewriter, loc, ahead)),
        arith::ConstantIndexOp::create(rewriter, loc,
                                       source.getDimSize(*kPos) - 1));
    Value column = indices[*nPos];
    for (int64_t c = 0; c < sizes[*nPos]; c += line) {
      if (c)
        indices[*nPos] = arith::AddIOp::create(
            rewriter, loc, column,
            arith::ConstantIndexOp::create(rewriter, loc, c));
      memref::PrefetchOp::create(rewriter, loc, view.getSource(), indices,
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
    return;
  }
}

void KernelScheduler::scheduleContraction(
    RewriterBase &rewriter, linalg::LinalgOp op,
    const linalg::ContractionDimensions &dims,
    std::optional<bool> parallelTasks) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
  // Every other dimension (batch, extra m/n/k) is walked one by one.
  SmallVector<int64_t> ones(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != m && d != n && d != k)
      ones[d] = clampTile(1, ranges[d]);

  uint64_t work = countElements(ranges);
  bool parallel = parallelTasks.value_or(
      work >= static_cast<uint64_t>(kMinParallelMultiplyAdds));
  // GotoBLAS's loop nest: a k cache tile; an n cache tile whose rhs panel
  // is packed once, before the parallel tasks, and read by all of them;
  // m tasks, each an lhs block packed once and read by every register
  // column tile; register rows outermost, so that the m-register x k
  // sliver of the lhs block stays in L1 while the contiguous k x
  // n-register slivers of the panel stream from L2 (BLIS's order; with
  // columns outermost, the 32 KiB rhs sliver filled L1 and the lhs rows
  // were the stream: 2048^3 ran at 0.87x OpenBLAS, now 0.95x). With few
  // rows (a 7x7 image, a batch-1 dense layer), the tasks are columns
  // instead, each packing its own part of the panel: the threads then
  // share the reading of the rhs, which is the larger operand, and a
  // partial register row tile is peeled inside each task instead of
  // running on one thread after them.
  int64_t kc = balancedTile(ranges[k], kTile, 1);
  int64_t nc = balancedTile(ranges[n], nCacheTile, nRegister);
  int64_t mc = balancedTile(ranges[m], mParallel, mRegister);
  bool rowTasks = false, columnTasks = false;
  auto chooseRowTasks = [&](bool allowTaskRows) {
    int64_t rows =
        allowTaskRows ? taskRows(ranges[m], mParallel, mRegister) : 0;
    if (rows)
      mc = rows;
    else if (ranges[m] < 2 * mParallel)
      // Two tasks only of whole tiles: a partial one becomes an op of its
      // own (below), so 49 rows as 32 + 17 ran on one thread after the
      // other; as 24 + 24 and one row apart they run in parallel.
      mc = ranges[m] % 2 == 0 ? ranges[m] / 2
                              : ranges[m] / 2 / mRegister * mRegister;
    rowTasks = mc >= 2 * mRegister && mc < ranges[m];
  };
  if (parallel && ranges[m] >= mParallel / 2)
    chooseRowTasks(/*allowTaskRows=*/true);
  if (parallel && !rowTasks) {
    int64_t columns =
        taskColumns(ranges[n], std::max<int64_t>(nCacheTile / 4, nRegister),
                    vectorWidth, std::min<int64_t>(nRegister, 2 * vectorWidth));
    if (columns) {
      nc = columns;
      columnTasks = true;
    } else {
      chooseRowTasks(/*allowTaskRows=*/false);
    }
  }
  if (!rowTasks)
    mc = ranges[m];
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
      return giveUp();
    // Two parts of the reduction: neither finishes a tile by itself.
    if (d == k)
      giveUp();
    // The whole tiles keep the tasks chosen for the op; the rest chooses
    // its own.
    scheduleContraction(rewriter, firstOp, dims, parallel);
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
    return giveUp();
  sizes.assign(numLoops, 0);
  sizes[k] = clampTile(kc, ranges[k]);
  Operation *kCacheLoop = nullptr;
  if (!(current =
            tile(rewriter, current, sizes, /*forall=*/false, &kCacheLoop)))
    return giveUp();
  sizes.assign(numLoops, 0);
  sizes[n] = clampTile(nc, ranges[n]);
  if (!(current = tile(rewriter, current, sizes)))
    return giveUp();
  // Packing pays off when the packed tile is read by several register
  // tiles: the rhs panel by every register row tile, the lhs block by every
  // register column tile.
  std::optional<InterleavedPanel> panel;
  if (ranges[m] >= 2 * mRegister)
    panel = packTile(rewriter, current, n, /*contiguousDim=*/true,
                     /*sliverWidth=*/nRegister);
  // Until the register columns read the slivers, the panel must be
  // materialized in its placeholder for the contraction to stay correct.
  llvm::scope_exit materializePanel([&] {
    if (panel)
      scheduleElementwise(
          rewriter, cast<linalg::LinalgOp>(panel->materialize.getOperation()),
          panel->materialize->getParentOfType<scf::ForallOp>() != nullptr);
  });
  sizes.assign(numLoops, 0);
  sizes[m] = clampTile(mc, ranges[m]);
  if (!(current = tile(rewriter, current, sizes, /*forall=*/rowTasks)))
    return giveUp();
  if (ranges[n] >= 2 * nRegister)
    packTile(rewriter, current, m, /*contiguousDim=*/false);
  // With fewer rows than a register tile (a batch-1 dense layer), the tile
  // is as many accumulators wide instead: each k step then reads a longer
  // contiguous piece of a rhs row.
  int64_t rows = std::min<int64_t>(mRegister, ranges[m]);
  int64_t columns =
      std::min<int64_t>({nRegister * (mRegister / rows), nc, ranges[n]});
  // A whole number of vectors: 24 columns are a 16- and an 8-wide tile, not
  // one 24-wide tile whose accumulators LLVM rebuilds element by element
  // every k step (a 3136x144x24 matmul ran at 3 GFLOP/s).
  // And a power of two of them: LLVM legalizes a vector of 3 or 15 (48 or
  // 240 floats) element by element too (a 49x160x960 layer ran 28x slower
  // with 48-column tiles, a 1x1280x1000 classifier 3x with 240).
  if (columns > vectorWidth)
    columns = llvm::bit_floor(static_cast<uint64_t>(columns / vectorWidth)) *
              vectorWidth;
  // Columns that no register tile divides are split off as ops of their
  // own: whole vectors, in tiles of a power of two of them, then the rest.
  // A peeled remainder tile would be as wide as the remainder (17 of 49
  // columns), and LLVM legalizes such vectors element by element (10
  // GFLOP/s at N = 49). Each segment: (register tile width, columns).
  SmallVector<std::pair<int64_t, int64_t>> segments;
  int64_t extent = current.getStaticLoopRanges()[n];
  int64_t rest = extent % columns, vectorRest = rest % vectorWidth;
  if (extent - rest > 0)
    segments.push_back({columns, extent - rest});
  for (int64_t vectors = (rest - vectorRest) / vectorWidth; vectors > 0;) {
    int64_t width = llvm::bit_floor(static_cast<uint64_t>(vectors));
    segments.push_back({width * vectorWidth, width * vectorWidth});
    vectors -= width;
  }
  if (vectorRest > 0)
    segments.push_back({vectorRest, vectorRest});
  SmallVector<std::pair<linalg::LinalgOp, int64_t>> parts;
  for (auto [i, segment] : llvm::enumerate(segments)) {
    if (i + 1 == segments.size()) {
      parts.push_back({current, segment.first});
      break;
    }
    rewriter.setInsertionPoint(current);
    auto [first, second] =
        linalg::splitOp(rewriter, cast<TilingInterface>(current.getOperation()),
                        n, rewriter.getIndexAttr(segment.second));
    auto firstOp = dyn_cast_or_null<linalg::LinalgOp>(first.getOperation());
    auto secondOp = dyn_cast_or_null<linalg::LinalgOp>(second.getOperation());
    if (!firstOp || !secondOp || firstOp.hasDynamicShape() ||
        secondOp.hasDynamicShape())
      return giveUp();
    parts.push_back({firstOp, segment.first});
    current = secondOp;
  }
  // A part narrower than the tile holds fewer accumulators (the 8-column
  // rest of 24 columns: 6, not 6x64's 24), too few to hide the FMA latency:
  // it takes more rows, up to twice the tile's (a 3136x144x24 layer
  // 0.35 -> 0.30 ms).
  int64_t accumulators = mRegister * llvm::divideCeil(nRegister, vectorWidth);
  for (auto [part, width] : parts) {
    int64_t partRows = rows;
    if (rows == mRegister)
      partRows =
          std::min(std::clamp<int64_t>(accumulators /
                                           llvm::divideCeil(width, vectorWidth),
                                       rows, 2 * rows),
                   part.getStaticLoopRanges()[m]);
    scheduleRegisterTiles(rewriter, part, dims, partRows, width, panel,
                          kCacheLoop);
  }
}

void KernelScheduler::scheduleRegisterTiles(
    RewriterBase &rewriter, linalg::LinalgOp current,
    const linalg::ContractionDimensions &dims, int64_t rows, int64_t columns,
    std::optional<InterleavedPanel> &panel, Operation *kCacheLoop) {
  unsigned numLoops = current.getNumLoops();
  unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
  // Register rows outermost (see scheduleContraction), unless the k x
  // columns sliver of the rhs fits in L1 beside the lhs rows and is much
  // wider than the tile is tall (a 1x1 convolution on 64 channels, 6x64
  // tiles): then the columns are, the sliver stays in L1 for all the rows
  // of the lhs block, and the lhs rows (6 floats per k step instead of 64)
  // are the stream. A 3136x64x256 layer 1.09 -> 1.00 ms; with AVX2's 6x16
  // tiles, 1024^3 lost 6 % that way.
  int64_t elementBytes =
      getElementTypeOrSelf(current.getDpsInputOperand(1)->get().getType())
          .getIntOrFloatBitWidth() /
      8;
  bool columnsOuter =
      current.getStaticLoopRanges()[k] * columns * elementBytes <=
          kL1ResidentSliverBytes &&
      columns >= 4 * rows;
  SmallVector<int64_t> sizes(numLoops, 0);
  for (unsigned d : columnsOuter ? std::array{n, m} : std::array{m, n}) {
    sizes.assign(numLoops, 0);
    sizes[d] = d == m ? rows : columns;
    if (!(current = tile(rewriter, current, sizes)))
      return giveUp();
  }
  if (panel && succeeded(readSlivers(rewriter, current, *panel)))
    panel.reset();
  Value accumulator = current.getDpsInits().front();
  sizes.assign(numLoops, 0);
  sizes[k] = 1;
  Operation *kLoop = nullptr;
  if (!(current = tile(rewriter, current, sizes, /*forall=*/false, &kLoop)))
    return giveUp();
  if (kLoop) {
    prefetchNextAccumulator(rewriter, accumulator, kLoop);
    if (!columnsOuter)
      prefetchRhsAhead(rewriter, current, m, n, k);
  }
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
  if (auto loop = current->getParentOfType<scf::ForOp>())
    loop->setAttr(kRegisterLoopMarker, rewriter.getUnitAttr());
  if (registerTiles)
    registerTiles->push_back(
        {current, kLoop, dyn_cast_or_null<scf::ForOp>(kCacheLoop)});
}

/// Copies the tile of `op`'s input that holds dimension `dim` (the lhs or
/// rhs of a contraction tile) into a buffer and makes `op` read it:
/// the rows of the original are N floats apart, so that at N = 1024 all the
/// rows map to the same L1 set and the tile never stays in L1. Rows whose
/// size is an even number of cache lines are padded by one line, so that
/// consecutive rows of the buffer fall into different sets too. With
/// `contiguousDim`, only when `dim` is the input's innermost dimension (an
/// rhs panel the register tile reads by rows). With `sliverWidth` (a
/// divisor of a 2-d panel's columns), the panel is packed as column slivers
/// instead (InterleavedPanel). Only for static tiles; the buffer is
/// allocated once per parallel task (on its stack) or function (large ones
/// on the heap, freed at the exit) and the copy is vectorized like an
/// elementwise op.
std::optional<InterleavedPanel>
KernelScheduler::packTile(RewriterBase &rewriter, linalg::LinalgOp op,
                          unsigned dim, bool contiguousDim, int64_t sliverWidth,
                          bool padRows) {
  OpOperand *tileInput = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isFunctionOfDim(dim)) {
      if (tileInput || (contiguousDim && innermostDim(map) != dim))
        return std::nullopt;
      tileInput = input;
    }
  }
  if (!tileInput)
    return std::nullopt;
  auto panelType = dyn_cast<MemRefType>(tileInput->get().getType());
  if (!panelType || !panelType.hasStaticShape() || panelType.getRank() == 0 ||
      !panelType.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t elementBytes =
      llvm::divideCeil(panelType.getElementTypeBitWidth(), 8);
  SmallVector<int64_t> bufferShape(panelType.getShape());
  // A constant's tile is not padded, so that it can be a view of the
  // constant stored in its order (usePrepackedPanels).
  bool constantTile =
      constantPanelCopies && isConstantArgumentTile(tileInput->get());
  // No larger tile is packed (and no size below overflows).
  if (llvm::SaturatingMultiply(static_cast<uint64_t>(elementBytes),
                               countElements(bufferShape)) >
      static_cast<uint64_t>(kMaxHeapPackBytes))
    return std::nullopt;
  bool slivers = sliverWidth > 0 && panelType.getRank() == 2 &&
                 bufferShape[1] > sliverWidth &&
                 bufferShape[1] % sliverWidth == 0;
  int64_t rowBytes = bufferShape.back() * elementBytes;
  if (padRows && !slivers && !constantTile && panelType.getRank() > 1 &&
      rowBytes % (2 * kCacheLineBytes) == 0 &&
      kCacheLineBytes % elementBytes == 0)
    bufferShape.back() += kCacheLineBytes / elementBytes;
  int64_t bufferBytes =
      elementBytes * static_cast<int64_t>(countElements(bufferShape));
  // Outside every loop of the task (or function), so that the stack is not
  // grown per iteration. A heap buffer is freed before the entry block's
  // terminator, which must then be the function's only exit.
  auto forall = op->getParentOfType<scf::ForallOp>();
  Region &body = op->getParentOfType<FunctionOpInterface>().getFunctionBody();
  bool heap = !forall && bufferBytes > kMaxStackPackBytes;
  int64_t limit = forall ? kMaxTaskPackBytes
                         : (heap ? kMaxHeapPackBytes : kMaxStackPackBytes);
  if (bufferBytes > limit || (heap && !body.hasOneBlock()))
    return std::nullopt;
  Block *entry = forall ? forall.getBody() : &body.front();
  Location loc = op.getLoc();
  auto allocate = [&](ArrayRef<int64_t> shape) -> Value {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(entry);
    auto type = MemRefType::get(shape, panelType.getElementType());
    IntegerAttr alignment = rewriter.getI64IntegerAttr(64);
    if (!heap)
      return memref::AllocaOp::create(rewriter, loc, type, alignment);
    Value buffer = memref::AllocOp::create(rewriter, loc, type, alignment);
    rewriter.setInsertionPoint(entry->getTerminator());
    memref::DeallocOp::create(rewriter, loc, buffer);
    return buffer;
  };
  // A copy outside the tasks (a shared rhs panel) is parallel itself.
  auto scheduleCopy = [&](linalg::CopyOp copy) {
    scheduleElementwise(rewriter, cast<linalg::LinalgOp>(copy.getOperation()),
                        /*inParallelTask=*/forall != nullptr);
  };
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  if (slivers) {
    // slivers[j][k][c] = panel[k][j * width + c], written through a
    // (k, j, c) view of both.
    int64_t rows = bufferShape[0], columns = bufferShape[1];
    SmallVector<int64_t> sliverShape = {columns / sliverWidth, rows,
                                        sliverWidth};
    SmallVector<int64_t> expandedShape = {rows, columns / sliverWidth,
                                          sliverWidth};
    Value buffer = allocate(sliverShape);
    Value placeholder = allocate(bufferShape);
    SmallVector<ReassociationIndices> reassociation = {{0}, {1, 2}};
    Value source = memref::ExpandShapeOp::create(
        rewriter, loc, expandedShape, tileInput->get(), reassociation);
    auto permutation = AffineMapAttr::get(AffineMap::getPermutationMap(
        ArrayRef<unsigned>{1, 0, 2}, rewriter.getContext()));
    Value view =
        memref::TransposeOp::create(rewriter, loc, buffer, permutation);
    auto copy = linalg::CopyOp::create(rewriter, loc, source, view);
    Value placeholderView = memref::ExpandShapeOp::create(
        rewriter, loc, expandedShape, placeholder, reassociation);
    auto materialize =
        linalg::CopyOp::create(rewriter, loc, view, placeholderView);
    Value tile = tileInput->get();
    rewriter.modifyOpInPlace(op, [&] { tileInput->set(placeholder); });
    if (constantPanelCopies && isConstantArgumentTile(tile))
      constantPanelCopies->push_back(
          {copy, buffer, tile, sliverWidth, forall != nullptr});
    else
      scheduleCopy(copy);
    return InterleavedPanel{placeholder, buffer, materialize, sliverWidth};
  }
  Value packed = allocate(bufferShape);
  if (bufferShape != panelType.getShape()) {
    OpBuilder::InsertionGuard viewGuard(rewriter);
    rewriter.setInsertionPointAfterValue(packed);
    unsigned rank = panelType.getRank();
    packed = memref::SubViewOp::create(
        rewriter, loc, packed, SmallVector<int64_t>(rank, 0),
        panelType.getShape(), SmallVector<int64_t>(rank, 1));
  }
  Value tile = tileInput->get();
  auto copy = linalg::CopyOp::create(rewriter, loc, tile, packed);
  rewriter.modifyOpInPlace(op, [&] { tileInput->set(packed); });
  // An unpadded tile, as one sliver as wide as it (a convolution task's
  // weight columns, a column task's panel), can be a view of a prepacked
  // constant too.
  if (constantTile && isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(
                          packed.getDefiningOp()))
    constantPanelCopies->push_back(
        {copy, packed, tile, bufferShape.back(), forall != nullptr});
  else
    scheduleCopy(copy);
  return std::nullopt;
}

/// Makes the register column `column` (tiled from a contraction that read
/// `panel.placeholder`) read its sliver of `panel.slivers` instead, and
/// erases the placeholder and its copy. Fails, changing nothing, unless the
/// column reads the placeholder through one subview of `width` columns and
/// nothing else reads it.
static LogicalResult readSlivers(RewriterBase &rewriter,
                                 linalg::LinalgOp column,
                                 const InterleavedPanel &panel) {
  // The column reads the placeholder through a subview of `width` columns,
  // possibly of whole views of it (which tiling leaves), used by nothing
  // else.
  auto wholeView = [](memref::SubViewOp view) {
    return view.getSourceType().getShape() == view.getType().getShape() &&
           view.hasUnitStride() && view.hasZeroOffset() && view->hasOneUse();
  };
  OpOperand *rhs = nullptr;
  memref::SubViewOp sliver;
  // Whole views between the column and the sliver (left by tiling the rows
  // inside the columns), and between the sliver and the placeholder.
  SmallVector<memref::SubViewOp> above, views;
  for (OpOperand *input : column.getDpsInputOperands()) {
    SmallVector<memref::SubViewOp> chainAbove, chain;
    memref::SubViewOp candidate;
    Value source = input->get();
    while (source && source != panel.placeholder) {
      auto view = source.getDefiningOp<memref::SubViewOp>();
      if (!view)
        break;
      if (!wholeView(view)) {
        if (candidate)
          break;
        candidate = view;
      } else {
        (candidate ? chain : chainAbove).push_back(view);
      }
      source = view.getSource();
    }
    // All whole views (a panel of one sliver): the column's own is the
    // sliver.
    if (!candidate && !chainAbove.empty()) {
      candidate = chainAbove.front();
      chain.assign(chainAbove.begin() + 1, chainAbove.end());
      chainAbove.clear();
    }
    if (candidate && source == panel.placeholder) {
      rhs = input;
      sliver = candidate;
      above = std::move(chainAbove);
      views = std::move(chain);
    }
  }
  auto panelType = cast<MemRefType>(panel.placeholder.getType());
  if (!rhs || !sliver->hasOneUse() || !sliver.hasUnitStride() ||
      sliver.getStaticSizes() !=
          ArrayRef<int64_t>{panelType.getDimSize(0), panel.width} ||
      !isZeroInteger(sliver.getMixedOffsets()[0]))
    return failure();
  Operation *top = views.empty() ? sliver.getOperation() : views.back();
  for (Operation *user : panel.placeholder.getUsers())
    if (user != top && !isa<memref::DeallocOp>(user) &&
        !(isa<memref::ExpandShapeOp>(user) && user->hasOneUse() &&
          *user->getUsers().begin() == panel.materialize))
      return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(sliver);
  Location loc = sliver.getLoc();
  AffineExpr d0 = rewriter.getAffineDimExpr(0);
  OpFoldResult index = affine::makeComposedFoldedAffineApply(
      rewriter, loc, d0.floorDiv(panel.width), {sliver.getMixedOffsets()[1]});
  SmallVector<OpFoldResult> offsets = {index, rewriter.getIndexAttr(0),
                                       rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {
      rewriter.getIndexAttr(1), rewriter.getIndexAttr(panelType.getDimSize(0)),
      rewriter.getIndexAttr(panel.width)};
  SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
  auto slivers = cast<MemRefType>(panel.slivers.getType());
  auto type = memref::SubViewOp::inferRankReducedResultType(
      {panelType.getDimSize(0), panel.width}, slivers, offsets, sizes, strides);
  Value read = memref::SubViewOp::create(rewriter, loc, type, panel.slivers,
                                         offsets, sizes, strides);
  rewriter.modifyOpInPlace(column, [&] { rhs->set(read); });
  for (memref::SubViewOp view : above)
    rewriter.eraseOp(view);
  rewriter.eraseOp(sliver);
  for (memref::SubViewOp view : views)
    rewriter.eraseOp(view);
  linalg::CopyOp materialize = panel.materialize;
  Operation *view = materialize.getDpsInitOperand(0)->get().getDefiningOp();
  rewriter.eraseOp(materialize);
  rewriter.eraseOp(view);
  for (Operation *user :
       llvm::make_early_inc_range(panel.placeholder.getUsers()))
    rewriter.eraseOp(user);
  rewriter.eraseOp(panel.placeholder.getDefiningOp());
  return success();
}
