//===- PrepackedPanels.cpp - constant rhs panels packed at compile time ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A contraction copies each k x n tile of its rhs into slivers of k x width
// before its register tiles read them (InterleavedPanel), at every call.
// When the rhs is a bound constant (a weight), the constant itself can be
// stored in that order: the kernel then reads its argument in place as
// n / width slivers of K x width, and mlc-cpu-prepack-constants reorders
// the callers' constants at compile time (TVM's AlterOpLayout, and the
// layout-rewrite preprocessing that MetaSchedule splits off its kernels and
// folds into the weights).
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/MapVector.h"

#include <numeric>

using namespace mlir;
using namespace mlc::cpu;

namespace {

/// A tile of a constant argument: the argument, the view of it the tile
/// was cut from (the argument, or its leading dimensions collapsed into
/// one: a pointwise convolution's 1 x 1 x C x F weights as C x F), and per
/// dimension of that view the terms whose sums are the tile's offsets.
/// The view's last dimension is the columns (n), the others the rows (k).
struct ArgumentTile {
  BlockArgument argument;
  SmallVector<int64_t> viewShape;
  SmallVector<SmallVector<OpFoldResult>> offsets;
};

} // namespace

static std::optional<ArgumentTile> traceArgumentTile(Value tile) {
  auto tileType = dyn_cast<MemRefType>(tile.getType());
  if (!tileType || tileType.getRank() < 2)
    return std::nullopt;
  ArgumentTile result;
  result.offsets.resize(tileType.getRank());
  Value value = tile;
  while (auto subview = value.getDefiningOp<memref::SubViewOp>()) {
    if (subview.getSourceType().getRank() != tileType.getRank() ||
        subview.getType().getRank() != tileType.getRank() ||
        !subview.hasUnitStride())
      return std::nullopt;
    for (auto [terms, offset] :
         llvm::zip(result.offsets, subview.getMixedOffsets()))
      terms.push_back(offset);
    value = subview.getSource();
  }
  auto viewType = cast<MemRefType>(value.getType());
  result.viewShape.assign(viewType.getShape().begin(),
                          viewType.getShape().end());
  if (auto collapse = value.getDefiningOp<memref::CollapseShapeOp>()) {
    int64_t rank = collapse.getSrcType().getRank();
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    if (groups.size() != 2 || groups[1] != ReassociationIndices{rank - 1})
      return std::nullopt;
    value = collapse.getSrc();
  }
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return std::nullopt;
  auto func = dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp());
  if (!func || argument.getOwner() != &func.getFunctionBody().front() ||
      !func.getArgAttr(argument.getArgNumber(), mlc::kConstantArgumentAttr))
    return std::nullopt;
  auto argumentType = dyn_cast<MemRefType>(argument.getType());
  if (!argumentType || !argumentType.hasStaticShape() ||
      !argumentType.getLayout().isIdentity() ||
      llvm::any_of(result.viewShape, ShapedType::isDynamic))
    return std::nullopt;
  result.argument = argument;
  return result;
}

bool mlc::cpu::isConstantArgumentTile(Value tile) {
  return traceArgumentTile(tile).has_value();
}

static int64_t knownFactor(OpFoldResult value, unsigned depth = 0);

/// The factor that `expr` is known to be a multiple of, given those of its
/// dimensions and symbols (0: zero, a multiple of everything).
static int64_t knownFactor(AffineExpr expr, ArrayRef<int64_t> dims,
                           ArrayRef<int64_t> symbols) {
  constexpr int64_t kCap = int64_t(1) << 40;
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return std::min(std::abs(cast<AffineConstantExpr>(expr).getValue()), kCap);
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbols[cast<AffineSymbolExpr>(expr).getPosition()];
  case AffineExprKind::Add: {
    auto add = cast<AffineBinaryOpExpr>(expr);
    return std::gcd(knownFactor(add.getLHS(), dims, symbols),
                    knownFactor(add.getRHS(), dims, symbols));
  }
  case AffineExprKind::Mul: {
    auto mul = cast<AffineBinaryOpExpr>(expr);
    int64_t lhs = knownFactor(mul.getLHS(), dims, symbols);
    int64_t rhs = knownFactor(mul.getRHS(), dims, symbols);
    if (lhs == 0 || rhs == 0)
      return 0;
    return std::min(lhs * rhs, kCap);
  }
  default:
    return 1;
  }
}

/// The factor that `value` is known to be a multiple of, from the loops
/// and affine maps that compute it (tile offsets); 1 when nothing is known.
static int64_t knownFactor(OpFoldResult value, unsigned depth) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return std::abs(*constant);
  if (depth > 8)
    return 1;
  auto factorOf = [&](OpFoldResult v) { return knownFactor(v, depth + 1); };
  Value v = cast<Value>(value);
  if (auto argument = dyn_cast<BlockArgument>(v)) {
    Operation *owner = argument.getOwner()->getParentOp();
    unsigned i = argument.getArgNumber();
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && argument == loop.getInductionVar())
      return std::gcd(factorOf(loop.getLowerBound()), factorOf(loop.getStep()));
    if (auto forall = dyn_cast<scf::ForallOp>(owner);
        forall && i < forall.getRank())
      return std::gcd(factorOf(forall.getMixedLowerBound()[i]),
                      factorOf(forall.getMixedStep()[i]));
    return 1;
  }
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    SmallVector<int64_t> factors;
    for (Value operand : apply.getMapOperands())
      factors.push_back(factorOf(operand));
    ArrayRef<int64_t> all(factors);
    return knownFactor(map.getResult(0), all.take_front(map.getNumDims()),
                       all.drop_front(map.getNumDims()));
  }
  return 1;
}

static OpFoldResult sum(RewriterBase &rewriter, Location loc,
                        ArrayRef<OpFoldResult> terms) {
  AffineExpr expr = rewriter.getAffineConstantExpr(0);
  for (unsigned i = 0; i < terms.size(); ++i)
    expr = expr + rewriter.getAffineDimExpr(i);
  return affine::makeComposedFoldedAffineApply(
      rewriter, loc, AffineMap::get(terms.size(), 0, expr), terms);
}

/// The argument, read as slivers: N / width x (the view's rows) x width.
static SmallVector<int64_t> sliversShape(const ArgumentTile &tile,
                                         int64_t width) {
  SmallVector<int64_t> shape = {tile.viewShape.back() / width};
  shape.append(tile.viewShape.begin(), tile.viewShape.end() - 1);
  shape.push_back(width);
  return shape;
}

/// The static offset of the sum of `terms`, or ShapedType::kDynamic when
/// one of them is not a constant.
static int64_t staticSum(ArrayRef<OpFoldResult> terms) {
  int64_t total = 0;
  for (OpFoldResult term : terms) {
    std::optional<int64_t> constant = getConstantIntValue(term);
    if (!constant)
      return ShapedType::kDynamic;
    total += *constant;
  }
  return total;
}

/// The offsets of the panel's view in the slivers: static where the tile's
/// are (the readers' types depend on it).
static SmallVector<int64_t> staticOffsets(const ArgumentTile &tile,
                                          int64_t width) {
  int64_t column = staticSum(tile.offsets.back());
  SmallVector<int64_t> offsets = {
      ShapedType::isDynamic(column) ? column : column / width};
  for (const SmallVector<OpFoldResult> &terms :
       ArrayRef(tile.offsets).drop_back())
    offsets.push_back(staticSum(terms));
  offsets.push_back(0);
  return offsets;
}

/// The sizes and type of the view of the slivers that holds the tile
/// `copy` packs, in its buffer's shape: a sliver dimension first unless the
/// buffer is one sliver wide without it (a convolution task's columns).
struct PanelView {
  SmallVector<int64_t> sizes;
  MemRefType type;
};

static std::optional<PanelView> panelView(const ConstantPanelCopy &copy,
                                          const ArgumentTile &tile) {
  auto buffer = cast<MemRefType>(copy.slivers.getType());
  auto tileType = cast<MemRefType>(copy.tile.getType());
  int64_t width = copy.width;
  int64_t columns = tileType.getShape().back();
  if (columns % width != 0)
    return std::nullopt;
  SmallVector<int64_t> sizes = {columns / width};
  sizes.append(tileType.getShape().begin(), tileType.getShape().end() - 1);
  sizes.push_back(width);
  ArrayRef<int64_t> kept(sizes);
  if (buffer.getRank() + 1 == static_cast<int64_t>(sizes.size()) &&
      sizes.front() == 1)
    kept = kept.drop_front();
  if (buffer.getShape() != kept)
    return std::nullopt;
  SmallVector<int64_t> shape = sliversShape(tile, width);
  auto sliversType = MemRefType::get(shape, buffer.getElementType());
  auto type = memref::SubViewOp::inferRankReducedResultType(
      buffer.getShape(), sliversType, staticOffsets(tile, width), sizes,
      SmallVector<int64_t>(shape.size(), 1));
  return PanelView{sizes, type};
}

/// Whether every reader of `argument` is one of `copies`, each of a tile
/// whose columns start at a multiple of the sliver width, and whose buffer
/// only the register tiles read after it (for a contraction's slivers:
/// readSlivers succeeded), through subviews that can be cut from the
/// argument's slivers instead (canRetype where their layout changes).
static bool
canReadInPlace(BlockArgument argument,
               ArrayRef<std::pair<ConstantPanelCopy, ArgumentTile>> copies,
               DominanceInfo &dominance) {
  int64_t width = copies.front().first.width;
  ArrayRef<int64_t> viewShape = copies.front().second.viewShape;
  if (width <= 0 || viewShape.back() % width != 0)
    return false;
  llvm::SmallPtrSet<Operation *, 8> copyOps;
  for (auto [copy, tile] : copies) {
    if (copy.width != width || ArrayRef<int64_t>(tile.viewShape) != viewShape)
      return false;
    std::optional<PanelView> view = panelView(copy, tile);
    if (!view)
      return false;
    int64_t factor = 0;
    for (OpFoldResult offset : tile.offsets.back())
      factor = std::gcd(factor, knownFactor(offset));
    if (factor % width != 0)
      return false;
    copyOps.insert(copy.copy);
    Operation *buffer = copy.slivers.getDefiningOp();
    if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(buffer))
      return false;
    for (Operation *user : buffer->getUsers()) {
      if (isa<memref::DeallocOp>(user) || user == copy.copy.getOperation())
        continue;
      if (auto transpose = dyn_cast<memref::TransposeOp>(user)) {
        if (!transpose->hasOneUse() ||
            *transpose->getUsers().begin() != copy.copy.getOperation())
          return false;
        continue;
      }
      auto subview = dyn_cast<memref::SubViewOp>(user);
      if (!subview || !dominance.properlyDominates(copy.copy, subview))
        return false;
      auto replacement = memref::SubViewOp::inferRankReducedResultType(
          subview.getType().getShape(), view->type, subview.getMixedOffsets(),
          subview.getMixedSizes(), subview.getMixedStrides());
      if (replacement != subview.getType() && !canRetype(subview.getResult()))
        return false;
    }
  }
  // Every reader of the argument (through views) is one of the copies.
  SmallVector<Value> worklist = {argument};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::SubViewOp, memref::CollapseShapeOp,
              memref::ExpandShapeOp>(user))
        worklist.push_back(user->getResult(0));
      else if (!copyOps.contains(user))
        return false;
    }
  }
  return true;
}

/// Erases `value`'s defining view ops that nothing uses any more, up to
/// the function argument.
static void eraseDeadViews(RewriterBase &rewriter, Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(
            op) ||
        !op->use_empty())
      return;
    value = op->getOperand(0);
    rewriter.eraseOp(op);
  }
}

/// A register loop nest that reads a panel: its k loop and the tile loops
/// around it up to the panel's block or a parallel task, innermost first,
/// each with its trip count.
struct PanelReader {
  SmallVector<scf::ForOp> loops;
  SmallVector<int64_t> trips;

  /// The k steps the nest takes in all.
  int64_t getSteps() const {
    int64_t steps = 1;
    for (int64_t trip : trips)
      steps *= trip;
    return steps;
  }
};

/// The reader nest of the register tile `tileOp`; none unless every loop
/// has constant bounds and step (the prefetch index is affine in them).
static std::optional<PanelReader> panelReader(Operation *tileOp,
                                              Operation *panelOp) {
  auto kLoop = tileOp->getParentOfType<scf::ForOp>();
  if (!kLoop || !kLoop->hasAttr(kRegisterLoopMarker))
    return std::nullopt;
  PanelReader reader;
  for (Operation *op = kLoop;; op = op->getParentOp()) {
    if (!op || isa<FunctionOpInterface>(op))
      return std::nullopt;
    if (isa<scf::ForallOp, scf::ParallelOp>(op))
      break;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!getConstantIntValue(loop.getLowerBound()) ||
          !getConstantIntValue(loop.getStep()) || !trips || trips->isZero())
        return std::nullopt;
      reader.loops.push_back(loop);
      reader.trips.push_back(trips->getSExtValue());
    }
    if (op->getBlock() == panelOp->getBlock())
      break;
  }
  return reader;
}

/// The reader nest that takes the most k steps in `panel`, and in
/// `elementsRead` how many elements all of them read (each k step a row of
/// its tile).
static std::optional<PanelReader> mainPanelReader(memref::SubViewOp panel,
                                                  int64_t &elementsRead) {
  std::optional<PanelReader> reader;
  elementsRead = 0;
  SmallVector<Value> worklist = {panel.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
        worklist.push_back(subview.getResult());
        continue;
      }
      if (!user->hasAttr(kVectorizeMarker))
        continue;
      std::optional<PanelReader> candidate = panelReader(user, panel);
      if (!candidate)
        continue;
      elementsRead += candidate->getSteps() *
                      cast<MemRefType>(value.getType()).getShape().back();
      if (!reader || candidate->getSteps() > reader->getSteps())
        reader = candidate;
    }
  }
  return reader;
}

/// The offset in the argument of the panel read after `panel` (whose
/// offset is the sum of `offsets` times `strides`): the offset at the next
/// iteration of the innermost loop around `panel` that moves it. Null when
/// no loop does. Made after `panel`.
static Value nextPanelOffset(RewriterBase &rewriter, memref::SubViewOp panel,
                             ArrayRef<int64_t> strides,
                             ArrayRef<OpFoldResult> offsets) {
  Location loc = panel.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPointAfter(panel);
  AffineExpr linear = getAffineConstantExpr(0, ctx);
  for (auto [d, stride] : llvm::enumerate(strides))
    linear = linear + getAffineDimExpr(d, ctx) * stride;
  OpFoldResult offset = affine::makeComposedFoldedAffineApply(
      rewriter, loc, AffineMap::get(strides.size(), 0, linear), offsets);
  auto apply = dyn_cast_or_null<affine::AffineApplyOp>(
      dyn_cast<Value>(offset) ? cast<Value>(offset).getDefiningOp() : nullptr);
  if (!apply)
    return nullptr;
  std::optional<std::pair<Value, int64_t>> mover;
  for (Operation *op = panel->getParentOp();
       op && !isa<FunctionOpInterface>(op) && !mover; op = op->getParentOp()) {
    SmallVector<std::pair<Value, std::optional<int64_t>>> ivs;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      ivs.push_back(
          {loop.getInductionVar(), getConstantIntValue(loop.getStep())});
    if (auto forall = dyn_cast<scf::ForallOp>(op))
      for (auto [iv, step] :
           llvm::zip(forall.getInductionVars(), forall.getMixedStep()))
        ivs.push_back({iv, getConstantIntValue(step)});
    for (auto [iv, step] : ivs)
      if (step && llvm::is_contained(apply.getMapOperands(), iv))
        mover = {iv, *step};
  }
  if (!mover)
    return nullptr;
  // The same map with the mover's operand one step further.
  AffineMap map = apply.getAffineMap();
  SmallVector<AffineExpr> dims, symbols;
  for (unsigned i = 0; i < map.getNumDims(); ++i)
    dims.push_back(getAffineDimExpr(i, ctx));
  for (unsigned i = 0; i < map.getNumSymbols(); ++i)
    symbols.push_back(getAffineSymbolExpr(i, ctx));
  for (auto [i, operand] : llvm::enumerate(apply.getMapOperands())) {
    if (operand != mover->first)
      continue;
    AffineExpr &expr =
        i < map.getNumDims() ? dims[i] : symbols[i - map.getNumDims()];
    expr = expr + mover->second;
  }
  return affine::AffineApplyOp::create(
      rewriter, loc,
      map.replaceDimsAndSymbols(dims, symbols, map.getNumDims(),
                                map.getNumSymbols()),
      apply.getMapOperands());
}

/// Prefetches into L2, from the register loop nest that reads `panel`
/// most, the panel of the argument (`flatten`: as one dimension) read after
/// it (nextPanelOffset: the next k tile of a column task's sliver; past the
/// last, the next sliver). One or a few cache lines per k step, spread over
/// all the steps, so that memory streams the next panel while this one is
/// computed: a weight that is not in cache (a model's layers evict each
/// other's) otherwise streams at the memory's pace while the FMAs wait (a
/// 7x7 layer of 320 -> 1280 channels, 1.6 MB of weights: 0.37 ms from L2,
/// 0.57 ms from memory).
static void prefetchNextPanel(RewriterBase &rewriter,
                              llvm::function_ref<Value()> flatten,
                              memref::SubViewOp panel,
                              ArrayRef<int64_t> sliversShape,
                              ArrayRef<OpFoldResult> offsets) {
  auto panelType = cast<MemRefType>(panel.getType());
  int64_t elementBytes = panelType.getElementTypeBitWidth() / 8;
  if (elementBytes < 1 || kCacheLineBytes % elementBytes != 0)
    return;
  int64_t lineElements = kCacheLineBytes / elementBytes;
  // The panel is a box of the argument: contiguous chunks along its inner
  // dimensions (those after the first it cuts, which are whole, and that
  // one), one per index of its outer ones.
  ArrayRef<int64_t> sizes = panel.getStaticSizes();
  SmallVector<int64_t> strides = computeStrides(sliversShape);
  int64_t cut = sliversShape.size() - 1;
  while (cut > 0 && sizes[cut] == sliversShape[cut])
    --cut;
  int64_t chunkElements = sizes[cut] * strides[cut];
  int64_t chunkLines = llvm::divideCeil(chunkElements, lineElements);
  int64_t chunks = 1;
  for (int64_t d = 0; d < cut; ++d)
    chunks *= sizes[d];
  int64_t lines = chunks * chunkLines;

  // A panel that many register rows read is computed long enough for the
  // hardware to fetch the next one; one read by a few rows (a 7x7 image) is
  // not. And two panels of the next one's size must fit in L2 beside each
  // other: a BERT layer's 786 KB panels (64-row tasks) lost 5 % to the
  // prefetches.
  constexpr int64_t kMaxPanelReuse = 16;
  constexpr int64_t kMaxPrefetchedPanelBytes = 256 * 1024;
  int64_t panelElements = chunks * chunkElements;
  int64_t elementsRead;
  std::optional<PanelReader> reader = mainPanelReader(panel, elementsRead);
  if (!reader || reader->loops.empty() ||
      elementsRead > kMaxPanelReuse * panelElements ||
      panelElements * elementBytes > kMaxPrefetchedPanelBytes)
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  Value next = nextPanelOffset(rewriter, panel, strides, offsets);
  if (!next)
    return;

  // The prefetches go into the outermost loop of the nest that runs often
  // enough to issue them a few at a time: a convolution's channel loop, not
  // the window loops inside it (fully unrolled, with 7 FMAs per step).
  constexpr int64_t kMaxPrefetchesPerStep = 4;
  size_t outermost = reader->loops.size() - 1, first = outermost;
  int64_t runs = reader->trips[first];
  while (first > 0 && runs * kMaxPrefetchesPerStep < lines)
    runs *= reader->trips[--first];
  // The linear index of the iteration among the nest's, innermost first.
  scf::ForOp firstLoop = reader->loops[first];
  rewriter.setInsertionPointToStart(firstLoop.getBody());
  Location loc = firstLoop.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr stepIndex = getAffineConstantExpr(0, ctx);
  SmallVector<Value> ivs;
  int64_t inner = 1;
  for (size_t i = first; i <= outermost; ++i) {
    scf::ForOp loop = reader->loops[i];
    int64_t lower = *getConstantIntValue(loop.getLowerBound());
    int64_t step = *getConstantIntValue(loop.getStep());
    stepIndex =
        stepIndex +
        (getAffineDimExpr(ivs.size(), ctx) - lower).floorDiv(step) * inner;
    inner *= reader->trips[i];
    ivs.push_back(loop.getInductionVar());
  }
  int64_t perStep =
      std::min<int64_t>(kMaxPrefetchesPerStep, llvm::divideCeil(lines, runs));
  Value flat = flatten();
  int64_t total = cast<MemRefType>(flat.getType()).getNumElements();
  AffineExpr line = getAffineDimExpr(0, ctx);
  AffineExpr chunk = line.floorDiv(chunkLines);
  AffineExpr address =
      getAffineDimExpr(1, ctx) + (line % chunkLines) * lineElements;
  for (int64_t d = cut - 1, inner = 1; d >= 0; inner *= sizes[d--])
    address = address + (chunk.floorDiv(inner) % sizes[d]) * strides[d];
  for (int64_t j = 0; j < perStep; ++j) {
    Value index = affine::AffineApplyOp::create(
        rewriter, loc, AffineMap::get(ivs.size(), 0, stepIndex * perStep + j),
        ivs);
    index = arith::MinSIOp::create(
        rewriter, loc, index,
        arith::ConstantIndexOp::create(rewriter, loc, lines - 1));
    Value at = affine::AffineApplyOp::create(
        rewriter, loc, AffineMap::get(2, 0, address), ValueRange{index, next});
    at = arith::MinSIOp::create(
        rewriter, loc, at,
        arith::ConstantIndexOp::create(rewriter, loc, total - 1));
    memref::PrefetchOp::create(rewriter, loc, flat, ValueRange{at},
                               /*isWrite=*/false, /*localityHint=*/2,
                               /*isDataCache=*/true);
  }
}

static void
readInPlace(RewriterBase &rewriter, FunctionOpInterface func,
            BlockArgument argument,
            ArrayRef<std::pair<ConstantPanelCopy, ArgumentTile>> copies) {
  auto type = cast<MemRefType>(argument.getType());
  int64_t width = copies.front().first.width;
  SmallVector<int64_t> shape = sliversShape(copies.front().second, width);
  Location loc = argument.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(argument.getOwner());
  Value slivers = memref::ReinterpretCastOp::create(
      rewriter, loc, MemRefType::get(shape, type.getElementType()), argument,
      /*offset=*/0, shape, computeStrides(shape));
  Value flat;
  for (auto [copy, tile] : copies) {
    PanelView view = *panelView(copy, tile);
    rewriter.setInsertionPoint(copy.copy);
    Location copyLoc = copy.copy.getLoc();
    SmallVector<OpFoldResult> offsets;
    for (auto &terms : tile.offsets)
      offsets.push_back(sum(rewriter, copyLoc, terms));
    OpFoldResult column = offsets.pop_back_val();
    offsets.insert(offsets.begin(),
                   affine::makeComposedFoldedAffineApply(
                       rewriter, copyLoc,
                       rewriter.getAffineDimExpr(0).floorDiv(width), {column}));
    offsets.push_back(rewriter.getIndexAttr(0));
    // Dynamic where the type (checked by canReadInPlace) says so, even if
    // folding found a constant.
    for (auto [offset, known] : llvm::zip(offsets, staticOffsets(tile, width)))
      if (ShapedType::isDynamic(known))
        offset = getValueOrCreateConstantIndexOp(rewriter, copyLoc, offset);
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), view.sizes);
    SmallVector<OpFoldResult> unitStrides(sizes.size(),
                                          rewriter.getIndexAttr(1));
    Value panel = memref::SubViewOp::create(
        rewriter, copyLoc, view.type, slivers, offsets, sizes, unitStrides);
    Operation *bufferOp = copy.slivers.getDefiningOp();
    Value copySource = copy.copy.getInputs().front();
    rewriter.eraseOp(copy.copy);
    eraseDeadViews(rewriter, copySource);
    for (Operation *user : llvm::make_early_inc_range(bufferOp->getUsers())) {
      if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
        retypeSubview(rewriter, subview, panel);
      } else {
        // The transposed view the copy wrote through, and the dealloc.
        rewriter.eraseOp(user);
      }
    }
    rewriter.eraseOp(bufferOp);
    // The argument as one dimension, for the prefetches' addresses; made
    // once, where the first panel needs it.
    auto flatten = [&]() -> Value {
      if (!flat) {
        OpBuilder::InsertionGuard entryGuard(rewriter);
        rewriter.setInsertionPointAfterValue(slivers);
        int64_t total = type.getNumElements();
        flat = memref::ReinterpretCastOp::create(
            rewriter, loc, MemRefType::get({total}, type.getElementType()),
            argument, /*offset=*/0, ArrayRef<int64_t>{total},
            ArrayRef<int64_t>{1});
      }
      return flat;
    };
    prefetchNextPanel(rewriter, flatten,
                      cast<memref::SubViewOp>(panel.getDefiningOp()), shape,
                      offsets);
  }
  func.setArgAttr(argument.getArgNumber(), mlc::kPackedSliversAttr,
                  rewriter.getI64IntegerAttr(width));
}

void mlc::cpu::usePrepackedPanels(RewriterBase &rewriter,
                                  FunctionOpInterface func,
                                  ArrayRef<ConstantPanelCopy> copies,
                                  KernelScheduler &scheduler) {
  auto schedule = [&](ConstantPanelCopy copy) {
    scheduler.scheduleElementwise(
        rewriter, cast<linalg::LinalgOp>(copy.copy.getOperation()),
        copy.inParallelTask);
  };
  llvm::MapVector<Value,
                  SmallVector<std::pair<ConstantPanelCopy, ArgumentTile>>>
      byArgument;
  for (const ConstantPanelCopy &copy : copies) {
    if (std::optional<ArgumentTile> tile = traceArgumentTile(copy.tile))
      byArgument[tile->argument].push_back({copy, *tile});
    else
      schedule(copy);
  }
  // Every argument is checked before any is rewritten (the rewrites erase
  // ops that the dominance information knows).
  DominanceInfo dominance(func);
  SmallVector<Value> inPlace;
  for (auto &[argument, group] : byArgument) {
    if (canReadInPlace(cast<BlockArgument>(argument), group, dominance)) {
      inPlace.push_back(argument);
      continue;
    }
    for (auto &entry : group)
      schedule(entry.first);
  }
  for (Value argument : inPlace)
    readInPlace(rewriter, func, cast<BlockArgument>(argument),
                byArgument[argument]);
}
