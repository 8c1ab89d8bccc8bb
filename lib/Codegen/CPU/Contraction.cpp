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

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
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

void KernelScheduler::scheduleContraction(
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

  uint64_t work = countElements(ranges);
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
      return giveUp();
    // Two parts of the reduction: neither finishes a tile by itself.
    if (d == k)
      giveUp();
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
  if (ranges[m] >= 2 * mRegister)
    packTile(rewriter, current, n, /*contiguousDim=*/true);
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
  int64_t columns = nRegister * (mRegister / rows);
  sizes.assign(numLoops, 0);
  sizes[n] = std::min<int64_t>({columns, nc, ranges[n]});
  if (!(current = tile(rewriter, current, sizes)))
    return giveUp();
  sizes.assign(numLoops, 0);
  sizes[m] = rows;
  if (!(current = tile(rewriter, current, sizes)))
    return giveUp();
  sizes.assign(numLoops, 0);
  sizes[k] = 1;
  Operation *kLoop = nullptr;
  if (!(current = tile(rewriter, current, sizes, /*forall=*/false, &kLoop)))
    return giveUp();
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
/// rhs panel the register tile reads by rows). Only for static tiles; the
/// buffer is allocated once per parallel task (on its stack) or function
/// (large ones on the heap, freed at the exit) and the copy is vectorized
/// like an elementwise op.
void KernelScheduler::packTile(RewriterBase &rewriter, linalg::LinalgOp op,
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
  // No larger tile is packed (and no size below overflows).
  if (llvm::SaturatingMultiply(static_cast<uint64_t>(elementBytes),
                               countElements(bufferShape)) >
      static_cast<uint64_t>(kMaxHeapPackBytes))
    return;
  int64_t rowBytes = bufferShape.back() * elementBytes;
  if (panelType.getRank() > 1 && rowBytes % (2 * kCacheLineBytes) == 0 &&
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
