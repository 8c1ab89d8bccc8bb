//===- Convolution.cpp - CPU schedule of convolutions ---------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Convolution-like ops (two inputs indexed by sums of dimensions such as
// `y * stride + ky * dilation`, a mul-add body): parallel tasks over output
// channels and rows, an m x n register tile carried across the reduction
// dimensions, each step rewritten into a rank-1 matmul on (strided) subviews
// that the vectorizer takes as a contraction.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc::cpu;

/// The most bytes of a channels-last convolution's weight columns that a
/// task packs at a time (a quarter of a 2 MiB L2: the image stays beside).
constexpr uint64_t kConvPanelBytes = 256 * 1024;

/// The fewest parallel tasks of a channels-last convolution before its
/// output rows are split too (enough for 2 to 8 threads).
constexpr int64_t kMinConvTasks = 8;

/// Whether the body is `out + in0 * in1` (float or integer).
static bool isMulAddBody(linalg::LinalgOp op) {
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

std::optional<ConvDims> mlc::cpu::matchConv(linalg::LinalgOp op) {
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

/// Copies a channels-last image whose register tile's pixels lie a multiple
/// of 1 KiB apart (256 float channels, or 128 at stride 2) into a buffer
/// with one more cache line per pixel, which `op` then reads through a
/// subview; an image that the kernel allocates gets that layout in place. The
/// register tile reads a channel of up to 16 pixels per step, and pixels 1 or 2
/// KiB apart fall into 4 or 2 of L1's 64 sets: 256 channels at 28x28, 3x3 at
/// stride 2 ran at 42 GFLOP/s, 240 channels at 107.
void KernelScheduler::padImagePixels(RewriterBase &rewriter,
                                     linalg::LinalgOp op, unsigned image,
                                     int64_t pixelStride) {
  OpOperand *operand = op.getDpsInputOperand(image);
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      !type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat())
    return;
  int64_t bytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  int64_t channels = type.getShape().back();
  if ((channels * bytes * pixelStride) % 1024 != 0 || 64 % bytes != 0)
    return;
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
  shape.back() += 64 / bytes;
  SmallVector<int64_t> zeros(shape.size(), 0), ones(shape.size(), 1);
  // The padded buffer before `point`, and its view of the image's shape.
  auto allocatePadded = [&](Operation *point) {
    rewriter.setInsertionPoint(point);
    Value buffer = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(shape, type.getElementType()),
        rewriter.getI64IntegerAttr(64));
    Value view = memref::SubViewOp::create(rewriter, loc, buffer, zeros,
                                           type.getShape(), ones);
    return std::make_pair(buffer, view);
  };
  // An image that the kernel allocates (a padded convolution's bordered
  // copy of its input) is allocated with the padded pixels itself, its
  // writers and readers taking the view: a second copy cost more than the
  // conflicts it avoids (56x56x128 at stride 2: 1.93 ms with it, 1.80 ms
  // unpadded; in another run 2.97 with it, 2.77 unpadded, 2.78 in place).
  if (auto alloc = operand->get().getDefiningOp<memref::AllocOp>();
      alloc && alloc.getDynamicSizes().empty() &&
      alloc.getSymbolOperands().empty() &&
      llvm::all_of(alloc->getUsers(), [](Operation *user) {
        if (auto subview = dyn_cast<memref::SubViewOp>(user))
          return canRetype(subview.getResult());
        return isa<memref::DeallocOp, linalg::LinalgOp>(user);
      })) {
    Value buffer, view;
    std::tie(buffer, view) = allocatePadded(alloc);
    for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
      Operation *user = use.getOwner();
      if (auto subview = dyn_cast<memref::SubViewOp>(user))
        retypeSubview(rewriter, subview, view);
      else
        rewriter.modifyOpInPlace(user, [&] {
          use.set(isa<memref::DeallocOp>(user) ? buffer : view);
        });
    }
    rewriter.eraseOp(alloc);
    return;
  }
  Value buffer, view;
  std::tie(buffer, view) = allocatePadded(op);
  auto copy = linalg::CopyOp::create(rewriter, loc, operand->get(), view);
  rewriter.modifyOpInPlace(op, [&] { operand->set(view); });
  rewriter.setInsertionPoint(op->getBlock()->getTerminator());
  memref::DeallocOp::create(rewriter, loc, buffer);
  scheduleElementwise(rewriter, cast<linalg::LinalgOp>(copy.getOperation()));
}

void KernelScheduler::scheduleConv(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const ConvDims &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  unsigned m = dims.m, n = dims.n;
  // Read before the first tiling, which replaces `op`.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // When the vectors come from the weights (the rhs uses no parallel
  // dimension but n: a channels-last output, NHWC with HWIO weights), the
  // schedule differs in three ways below: tasks are columns, their weight
  // panel is packed, and short rows get wider tiles.
  AffineMap rhsMap = op.getIndexingMapsArray()[dims.rhs];
  Type rhsElementType =
      getElementTypeOrSelf(op.getDpsInputs()[dims.rhs].getType());
  bool weightColumns = llvm::all_of(llvm::seq(numLoops), [&](unsigned d) {
    return d == n || !linalg::isParallelIterator(iterators[d]) ||
           !rhsMap.isFunctionOfDim(d);
  });
  // The register tile: conv-m-register pixels, one vector wide (measured:
  // 16x16 beats 8x32 on every resnet18 layer, and ResNet-50 was slower
  // with 24x16). Channels-last rows shorter than that (7 pixels) get two
  // vectors instead, which reuse each broadcast pixel twice (7x32: 109-116
  // GFLOP/s on 512 channels at 7x7, 7x16 79; 14x32 spills, 14x16 runs at
  // 147).
  int64_t rows = convMRegister;
  int64_t columns = std::min<int64_t>(vectorWidth, ranges[n]);
  if (weightColumns && ranges[m] < rows) {
    int64_t vectors = std::clamp<int64_t>(
        llvm::bit_floor<uint64_t>(rows * 7 / 8 / ranges[m]), 1, 2);
    columns = std::min<int64_t>(vectors * vectorWidth, ranges[n]);
  } else if (weightColumns && ranges[m] >= 4 * mRegister &&
             ranges[n] >= nRegister && nRegister % vectorWidth == 0) {
    // Rows of four or more contraction tiles take the contraction's
    // register tile: 6 x 64 loads 6 pixels and 4 weight vectors per 24
    // FMAs where 16 x 16 loads 17 per 16 (in-process A/B, 1 thread:
    // 56x56x64 3x3 1.72 -> 1.55 ms, 28x28x128 1.71 -> 1.60, the 7x7
    // stem on 3 channels 3.16 -> 2.13; 14-pixel rows lost, 1.70 -> 1.84).
    rows = mRegister;
    columns = nRegister;
  }
  rows = std::min<int64_t>(rows, ranges[m]);
  // Parallel tasks. With weight columns, each task is a column of the
  // register tile's width over every output row, so that its weight panel
  // stays in L2 for all of them (tasks by output rows streamed all the
  // weights once per row). Otherwise m by m-parallel rows and every other
  // parallel dimension (batch, output rows) one by one.
  if (weightColumns) {
    // The register tile's pixels lie `stride` pixels apart.
    int64_t stride = 1;
    for (AffineExpr expr : op.getIndexingMapsArray()[dims.lhs].getResults())
      if (std::optional<SmallVector<int64_t>> form = linearForm(expr, numLoops))
        if ((*form)[m] != 0)
          stride = (*form)[m];
    padImagePixels(rewriter, op, dims.lhs, stride);
  }
  SmallVector<int64_t> sizes(numLoops, 0);
  // Every parallel dimension but m and n one by one.
  auto otherParallelOneByOne = [&] {
    for (unsigned d = 0; d < numLoops; ++d)
      if (d != m && d != n && linalg::isParallelIterator(iterators[d]))
        sizes[d] = clampTile(1, ranges[d]);
  };
  if (weightColumns) {
    sizes[n] = clampTile(columns, ranges[n]);
    // Fewer column tasks than kMinConvTasks (64 output channels in 64-wide
    // columns: one) also split the output rows, so that every thread gets
    // work; the row tasks of a column read the same weight columns.
    int64_t columnTasks = llvm::divideCeil(ranges[n], columns);
    for (unsigned d = 0; d < numLoops && columnTasks < kMinConvTasks; ++d) {
      if (d == m || d == n || !linalg::isParallelIterator(iterators[d]) ||
          ranges[d] == 1)
        continue;
      int64_t rowTasks = llvm::divideCeil(kMinConvTasks, columnTasks);
      sizes[d] = clampTile(llvm::divideCeil(ranges[d], rowTasks), ranges[d]);
      break;
    }
  } else {
    otherParallelOneByOne();
    if (ranges[m] >= 2 * mParallel)
      sizes[m] = mParallel;
  }
  linalg::LinalgOp current = tile(rewriter, op, sizes, /*forall=*/true);
  if (!current)
    return giveUp();
  // A task's weight columns are rows `columns` wide and a whole weight row
  // apart (2 KiB at 512 channels): every other k step would touch another
  // page, and the 9 * 512 rows of a 3x3 kernel overflow the TLB on every
  // output row. They are packed per task, in chunks of the channel
  // reduction that fit in L2 beside the image (the accumulators go back to
  // the output between chunks, as a contraction's k cache tile).
  scf::ForOp channelChunks;
  if (weightColumns) {
    std::optional<unsigned> channels;
    uint64_t panelBytes =
        rhsElementType.isIntOrFloat()
            ? llvm::divideCeil(rhsElementType.getIntOrFloatBitWidth(), 8) *
                  static_cast<uint64_t>(columns)
            : 0;
    for (unsigned d = 0; d < numLoops; ++d) {
      if (!linalg::isReductionIterator(iterators[d]))
        continue;
      panelBytes = llvm::SaturatingMultiply(panelBytes,
                                            static_cast<uint64_t>(ranges[d]));
      if (!channels || ranges[d] > ranges[*channels])
        channels = d;
    }
    int64_t chunks = static_cast<int64_t>(std::min<uint64_t>(
        llvm::divideCeil(panelBytes, kConvPanelBytes), INT64_MAX));
    if (channels && chunks > 1) {
      int64_t chunk = ranges[*channels] / chunks;
      while (chunk > 1 && ranges[*channels] % chunk != 0)
        --chunk;
      sizes.assign(numLoops, 0);
      sizes[*channels] = chunk;
      Operation *loop = nullptr;
      if (!(current = tile(rewriter, current, sizes, /*forall=*/false, &loop)))
        return giveUp();
      channelChunks = dyn_cast_or_null<scf::ForOp>(loop);
    }
    (void)packTile(rewriter, current, n, /*contiguousDim=*/true,
                   /*sliverWidth=*/0, /*padRows=*/false);
  }
  sizes.assign(numLoops, 0);
  if (weightColumns)
    otherParallelOneByOne();
  sizes[m] = rows;
  sizes[n] = columns;
  if (!(current = tile(rewriter, current, sizes)))
    return giveUp();
  // The reduction dimensions one by one, outermost first, around the
  // register tile: its accumulators stay in registers across all of them.
  Operation *reductionNest = nullptr;
  for (unsigned d = 0; d < numLoops; ++d) {
    if (!linalg::isReductionIterator(iterators[d]) || ranges[d] == 1)
      continue;
    sizes.assign(numLoops, 0);
    sizes[d] = 1;
    Operation *loop = nullptr;
    if (!(current = tile(rewriter, current, sizes, /*forall=*/false, &loop)))
      return giveUp();
    if (!reductionNest)
      reductionNest = loop;
    current->getParentOfType<scf::ForOp>()->setAttr(kRegisterLoopMarker,
                                                    rewriter.getUnitAttr());
  }
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
  if (registerTiles)
    registerTiles->push_back(
        {current, reductionNest, channelChunks, /*flatten=*/true});
}

linalg::LinalgOp mlc::cpu::flattenConvTile(RewriterBase &rewriter,
                                           linalg::LinalgOp op,
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

namespace {
/// How a generic op's loops are collapsed: `dropped` loops (of extent one)
/// go away, `inner` merges into `outer` (the next one, in every operand
/// that uses either), and the inputs are reordered by `inputOrder`.
struct LoopCollapse {
  linalg::GenericOp op;
  SmallVector<unsigned> dropped;
  unsigned outer, inner;
  SmallVector<unsigned> inputOrder;
  /// Operand maps to plan with instead of the op's (by operand number).
  llvm::SmallDenseMap<unsigned, AffineMap> mapOverrides;
  /// Per operand (in the op's order): its new map and the groups of its
  /// dimensions that become one.
  SmallVector<AffineMap> maps;
  SmallVector<SmallVector<ReassociationIndices>> groups;
};
} // namespace

/// Plans `collapse` (its op, loops and input order set): without the
/// dropped loops (0 in every result), each operand's unit dimensions indexed
/// by 0 join a neighbour and `inner`'s result joins `outer`'s. Fails when
/// that is no view of the operand: `outer` and `inner` not adjacent results
/// (a stride, a window), a buffer with a non-identity layout, an operand of
/// unit dimensions only.
static LogicalResult planCollapse(LoopCollapse &collapse) {
  linalg::GenericOp op = collapse.op;
  if (op.hasIndexSemantics() || !op.hasPureBufferSemantics())
    return failure();
  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  // First without the dropped loops (numbering kept), then renumbered.
  SmallVector<AffineExpr> withoutDropped, renumber;
  unsigned next = 0;
  for (unsigned d = 0; d < numLoops; ++d) {
    bool dropped = llvm::is_contained(collapse.dropped, d);
    withoutDropped.push_back(dropped ? getAffineConstantExpr(0, ctx)
                                     : getAffineDimExpr(d, ctx));
    // `inner` is never left in a result by then.
    renumber.push_back(dropped || d == collapse.inner
                           ? getAffineConstantExpr(0, ctx)
                           : getAffineDimExpr(next++, ctx));
  }
  unsigned numNewLoops = next;
  AffineExpr outer = getAffineDimExpr(collapse.outer, ctx),
             inner = getAffineDimExpr(collapse.inner, ctx);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = collapse.mapOverrides.lookup(operand.getOperandNumber());
    if (!map)
      map = op.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getLayout().isIdentity())
      return failure();
    SmallVector<AffineExpr> reduced;
    for (AffineExpr expr : map.getResults())
      reduced.push_back(simplifyAffineExpr(expr.replaceDims(withoutDropped),
                                           numLoops, /*numSymbols=*/0));
    SmallVector<ReassociationIndices> groups;
    SmallVector<AffineExpr> results;
    // Results of dropped loops only, before the first group.
    ReassociationIndices leading;
    for (auto [r, expr] : llvm::enumerate(reduced)) {
      // `inner` right after `outer`, and nowhere else.
      if (expr == inner) {
        if (r == 0 || reduced[r - 1] != outer)
          return failure();
        groups.back().push_back(r);
        continue;
      }
      if (expr.isFunctionOfDim(collapse.inner) ||
          (expr.isFunctionOfDim(collapse.outer) &&
           (expr != outer || r + 1 == reduced.size() ||
            reduced[r + 1] != inner)))
        return failure();
      // A unit dimension (a batch of one, the window position of a 1x1
      // kernel) joins its neighbour.
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (constant && constant.getValue() == 0 && type.getDimSize(r) == 1) {
        if (groups.empty())
          leading.push_back(r);
        else
          groups.back().push_back(r);
        continue;
      }
      groups.push_back(leading);
      leading.clear();
      groups.back().push_back(r);
      results.push_back(expr.replaceDims(renumber));
    }
    if (!leading.empty())
      return failure();
    collapse.maps.push_back(AffineMap::get(numNewLoops, 0, results, ctx));
    collapse.groups.push_back(std::move(groups));
  }
  return success();
}

/// The collapsed op of a planned `collapse`, on collapse_shape views of its
/// operands (one per buffer and grouping, kept in `views`); erases the old.
static linalg::GenericOp applyCollapse(
    RewriterBase &rewriter, const LoopCollapse &collapse,
    DenseMap<Value, std::pair<SmallVector<ReassociationIndices>, Value>>
        &views) {
  linalg::GenericOp op = collapse.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    const SmallVector<ReassociationIndices> &groups =
        collapse.groups[operand.getOperandNumber()];
    Value value = operand.get();
    if (static_cast<int64_t>(groups.size()) ==
        cast<MemRefType>(value.getType()).getRank()) {
      operands.push_back(value);
      continue;
    }
    auto cached = views.find(value);
    if (cached != views.end() && cached->second.first == groups) {
      operands.push_back(cached->second.second);
      continue;
    }
    // Before the first use, so that every op of the group can read it.
    OpBuilder::InsertionGuard guard(rewriter);
    if (Operation *def = value.getDefiningOp())
      rewriter.setInsertionPointAfter(def);
    else
      rewriter.setInsertionPointToStart(value.getParentBlock());
    Value view = memref::CollapseShapeOp::create(rewriter, loc, value, groups);
    views[value] = {groups, view};
    operands.push_back(view);
  }
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (unsigned i : collapse.inputOrder) {
    inputs.push_back(operands[i]);
    maps.push_back(collapse.maps[i]);
  }
  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<Value> outputs(operands.begin() + numInputs, operands.end());
  maps.append(collapse.maps.begin() + numInputs, collapse.maps.end());
  SmallVector<utils::IteratorType> iterators;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (!llvm::is_contained(collapse.dropped, d) && d != collapse.inner)
      iterators.push_back(iterator);
  auto collapsed = linalg::GenericOp::create(rewriter, loc, TypeRange(), inputs,
                                             outputs, maps, iterators);
  // The body, its arguments in the new order.
  Block *body = op.getBlock();
  Block *newBody = rewriter.createBlock(&collapsed.getRegion());
  IRMapping mapping;
  for (unsigned i : collapse.inputOrder)
    mapping.map(body->getArgument(i),
                newBody->addArgument(body->getArgument(i).getType(), loc));
  for (BlockArgument arg : body->getArguments().drop_front(numInputs))
    mapping.map(arg, newBody->addArgument(arg.getType(), loc));
  rewriter.setInsertionPointToStart(newBody);
  for (Operation &inner : body->getOperations()) {
    Operation *copy = rewriter.clone(inner, mapping);
    // The vectorizer's contraction takes the mul's operand order (a * b =
    // b * a).
    if (isa<arith::MulFOp, arith::MulIOp>(copy) && numInputs == 2 &&
        llvm::all_of(copy->getOperands(), [&](Value v) {
          return llvm::is_contained(newBody->getArguments().take_front(2), v);
        }))
      copy->setOperands(newBody->getArguments().take_front(2));
  }
  rewriter.eraseOp(op);
  return collapsed;
}

namespace {
/// An image read at strides: `strides[r]` of each result (1 but for the
/// rows and columns), `denseMap` its map on the subsampled buffer, `shape`
/// that buffer's shape.
struct StridedImage {
  SmallVector<int64_t> strides, shape;
  AffineMap denseMap;
};
} // namespace

/// Matches an image operand whose results are, without the `dropped` loops,
/// dimensions but for `s * outer` and `t * inner` (adjacent, not both of
/// stride one).
static std::optional<StridedImage>
matchStridedImage(linalg::GenericOp op, unsigned input,
                  ArrayRef<unsigned> dropped, unsigned outer, unsigned inner) {
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(input));
  auto type =
      dyn_cast<MemRefType>(op.getDpsInputOperand(input)->get().getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  StridedImage image;
  SmallVector<AffineExpr> results;
  bool stridedAxis = false;
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    std::optional<SmallVector<int64_t>> form = linearForm(expr, numLoops);
    if (!form)
      return std::nullopt;
    for (unsigned d : dropped)
      (*form)[d] = 0;
    SmallVector<unsigned> used;
    for (unsigned d = 0; d < numLoops; ++d)
      if ((*form)[d] != 0)
        used.push_back(d);
    // A result of dropped loops only (a batch of one) is kept as it is.
    if (used.empty()) {
      image.strides.push_back(1);
      image.shape.push_back(type.getDimSize(r));
      results.push_back(expr);
      continue;
    }
    if (used.size() != 1)
      return std::nullopt;
    unsigned d = used.front();
    int64_t stride = (*form)[d];
    if ((d == outer || d == inner) && stride != 1)
      stridedAxis = true;
    else if (stride != 1)
      return std::nullopt;
    image.strides.push_back(stride);
    image.shape.push_back(stride == 1 ? type.getDimSize(r) : ranges[d]);
    results.push_back(getAffineDimExpr(d, ctx));
  }
  if (!stridedAxis)
    return std::nullopt;
  image.denseMap = AffineMap::get(numLoops, 0, results, ctx);
  return image;
}

/// A dense buffer of `image`'s strided elements, copied before `first` and
/// freed after `last`.
static Value subsample(RewriterBase &rewriter, Value image,
                       const StridedImage &strided, Operation *first,
                       Operation *last) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = first->getLoc();
  auto type = cast<MemRefType>(image.getType());
  rewriter.setInsertionPoint(first);
  auto denseType = MemRefType::get(strided.shape, type.getElementType());
  Value dense = memref::AllocOp::create(rewriter, loc, denseType,
                                        rewriter.getI64IntegerAttr(64));
  unsigned rank = strided.shape.size();
  SmallVector<AffineExpr> read;
  for (auto [r, stride] : llvm::enumerate(strided.strides))
    read.push_back(getAffineDimExpr(r, ctx) * stride);
  linalg::GenericOp::create(
      rewriter, loc, ValueRange{image}, ValueRange{dense},
      ArrayRef<AffineMap>{AffineMap::get(rank, 0, read, ctx),
                          AffineMap::getMultiDimIdentityMap(rank, ctx)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &b, Location loc, ValueRange args) {
        linalg::YieldOp::create(b, loc, args[0]);
      });
  rewriter.setInsertionPointAfter(last);
  memref::DeallocOp::create(rewriter, loc, dense);
  return dense;
}

/// The loops of extent one but `keep`.
static SmallVector<unsigned> unitLoops(linalg::LinalgOp op,
                                       ArrayRef<unsigned> keep) {
  SmallVector<unsigned> loops;
  for (auto [d, range] : llvm::enumerate(op.getStaticLoopRanges()))
    if (range == 1 && !llvm::is_contained(keep, d))
      loops.push_back(d);
  return loops;
}

LogicalResult mlc::cpu::collapsePointwiseConv(RewriterBase &rewriter,
                                              linalg::LinalgOp linalgOp) {
  auto op = dyn_cast<linalg::GenericOp>(linalgOp.getOperation());
  std::optional<ConvDims> dims;
  if (!op || op.getNumDpsInits() != 1 || !(dims = matchConv(op)))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned rank = outMap.getNumResults();
  if (rank < 2)
    return failure();
  LoopCollapse conv;
  conv.op = op;
  // The output's pixels (rows, then columns) become one dimension: n, the
  // vectors' (NCHW: the image is the rhs), or m when the output channels
  // are innermost (NHWC with HWIO weights: the image is the lhs, m the
  // columns; the weights' columns stay the vectors).
  auto outDim = [&](unsigned r) {
    return cast<AffineDimExpr>(outMap.getResult(r)).getPosition();
  };
  bool channelsLast = outDim(rank - 2) == dims->m;
  if (channelsLast && rank < 3)
    return failure();
  unsigned pixelsFrom = channelsLast ? rank - 3 : rank - 2;
  conv.outer = outDim(pixelsFrom);
  conv.inner = outDim(pixelsFrom + 1);
  unsigned image = channelsLast ? dims->lhs : dims->rhs;
  conv.dropped = unitLoops(op, {dims->m, dims->n, conv.outer});
  // The contraction's lhs (m rows) first: the weights, or the image when
  // channels are last.
  conv.inputOrder = {dims->lhs, dims->rhs};
  // A 1x1 kernel at a stride (ResNet's downsampling shortcuts) reads every
  // s-th row and column: the image is subsampled into a dense buffer first
  // (a copy of 1/s^2 of it, small next to the contraction), which the
  // contraction then reads as a pointwise convolution would.
  std::optional<StridedImage> strided =
      matchStridedImage(op, image, conv.dropped, conv.outer, conv.inner);
  if (strided)
    conv.mapOverrides[image] = strided->denseMap;
  if (failed(planCollapse(conv)) || !llvm::all_of(conv.maps, [](AffineMap map) {
        return map.isProjectedPermutation();
      }))
    return failure();
  // The fill and the epilogue of a fused kernel collapse alike, so that the
  // epilogue still runs on the register tile.
  SmallVector<LoopCollapse, 3> group = {conv};
  if (std::optional<Epilogue> epilogue = matchEpilogue(op)) {
    for (linalg::LinalgOp other : {epilogue->fill, epilogue->epilogue}) {
      LoopCollapse collapse;
      collapse.op = dyn_cast<linalg::GenericOp>(other.getOperation());
      if (!collapse.op)
        return failure();
      collapse.outer = pixelsFrom;
      collapse.inner = pixelsFrom + 1;
      collapse.dropped =
          unitLoops(collapse.op, {collapse.outer, collapse.inner});
      collapse.inputOrder = llvm::to_vector(
          llvm::seq<unsigned>(0, collapse.op.getNumDpsInputs()));
      if (failed(planCollapse(collapse)))
        return failure();
      group.push_back(std::move(collapse));
    }
  }
  if (strided) {
    Operation *first = group.size() > 1 ? group[1].op.getOperation() : op;
    Operation *last = group.size() > 1 ? group[2].op.getOperation() : op;
    Value dense = subsample(rewriter, op.getDpsInputOperand(image)->get(),
                            *strided, first, last);
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(image, dense);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[image] = strided->denseMap;
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
  }
  DenseMap<Value, std::pair<SmallVector<ReassociationIndices>, Value>> views;
  for (const LoopCollapse &collapse : group)
    applyCollapse(rewriter, collapse, views);
  // A temporary buffer that is only read through its collapsed view is
  // allocated in that shape.
  for (auto &[buffer, view] : views) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (!alloc || !alloc.getDynamicSizes().empty() ||
        !llvm::all_of(buffer.getUsers(), [&](Operation *user) {
          return user == view.second.getDefiningOp() ||
                 isa<memref::DeallocOp>(user);
        }))
      continue;
    rewriter.setInsertionPoint(alloc);
    auto newAlloc = memref::AllocOp::create(
        rewriter, alloc.getLoc(), cast<MemRefType>(view.second.getType()),
        alloc.getAlignmentAttr());
    for (Operation *user : llvm::to_vector(buffer.getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.modifyOpInPlace(user, [&] { user->setOperand(0, newAlloc); });
    rewriter.replaceAllUsesWith(view.second, newAlloc);
    rewriter.eraseOp(view.second.getDefiningOp());
    rewriter.eraseOp(alloc);
  }
  return success();
}
