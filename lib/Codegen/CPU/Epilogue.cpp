//===- Epilogue.cpp - epilogues computed on the register tile -------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// In a fused kernel, a contraction or convolution accumulates into a
// temporary buffer that one elementwise op zeroes before and another (bias,
// activation, residual: the epilogue) reads after. Scheduled apart, each of
// the three passes over the whole output, and the epilogue reads it back from
// memory. As TVM's schedules do (the epilogue reverse_compute_at the register
// tile), the zeroing and the epilogue here run on each register tile, just
// before and after its reduction; the pass then forwards the tile through
// registers, so that the temporary buffer is often never touched at all.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;
using namespace mlc::cpu;

static bool isAllParallel(linalg::LinalgOp op) {
  return op.getNumParallelLoops() == op.getNumLoops();
}

std::optional<Epilogue> mlc::cpu::matchEpilogue(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  Value accumulator = op.getDpsInits()[0];
  Operation *alloc = accumulator.getDefiningOp();
  auto type = dyn_cast<MemRefType>(accumulator.getType());
  if (!alloc || !isa<memref::AllocOp, memref::AllocaOp>(alloc) || !type ||
      !type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  // The buffer is the op's alone: zeroed before, read once after.
  Epilogue result;
  for (Operation *user : accumulator.getUsers()) {
    if (user == op.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || user->getBlock() != op->getBlock())
      return std::nullopt;
    linalg::LinalgOp &slot =
        llvm::is_contained(linalgOp.getDpsInits(), accumulator)
            ? result.fill
            : result.epilogue;
    if (slot)
      return std::nullopt;
    slot = linalgOp;
  }
  linalg::LinalgOp fill = result.fill, epilogue = result.epilogue;
  if (!fill || !epilogue || !fill->isBeforeInBlock(op) ||
      !op->isBeforeInBlock(epilogue))
    return std::nullopt;

  // The fill writes every element with a value that does not depend on the
  // buffer (a constant).
  if (!isAllParallel(fill) || fill.getNumDpsInits() != 1 ||
      !fill.getMatchingIndexingMap(fill.getDpsInitOperand(0)).isIdentity() ||
      fill.payloadUsesValueFromOperand(fill.getDpsInitOperand(0)) ||
      llvm::any_of(fill.getDpsInputOperands(), [](OpOperand *input) {
        return isa<ShapedType>(input->get().getType());
      }))
    return std::nullopt;

  // The epilogue is elementwise over the buffer's elements: it reads the
  // buffer once, at its own index (or 0 in a dimension of extent one), and
  // writes its output at that index.
  if (!isAllParallel(epilogue) || epilogue.getNumDpsInits() != 1 ||
      !epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0))
           .isIdentity() ||
      !llvm::equal(epilogue.getStaticLoopRanges(), type.getShape()))
    return std::nullopt;
  OpOperand *accumulatorInput = nullptr;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (input->get() != accumulator)
      continue;
    if (accumulatorInput)
      return std::nullopt;
    accumulatorInput = input;
  }
  if (!accumulatorInput)
    return std::nullopt;
  AffineMap map = epilogue.getMatchingIndexingMap(accumulatorInput);
  if (map.getNumResults() != type.getRank())
    return std::nullopt;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!(dim && dim.getPosition() == i) &&
        !(constant && constant.getValue() == 0 && type.getDimSize(i) == 1))
      return std::nullopt;
  }

  // The epilogue writes its output tile by tile while the op still reads
  // its inputs and the epilogue its other inputs (through broadcasts, say):
  // none of them may be the output.
  Value output = rootBuffer(epilogue.getDpsInits()[0]);
  if (output == accumulator)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (rootBuffer(operand.get()) == output)
      return std::nullopt;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (rootBuffer(input->get()) == output)
      return std::nullopt;
  // Nothing between them reads or writes memory.
  for (Operation *between = fill->getNextNode(); between != epilogue;
       between = between->getNextNode())
    if (between != op.getOperation() && !isMemoryEffectFree(between))
      return std::nullopt;
  return result;
}

/// Whether `view` is `base` or a chain of unit-stride subviews of it that
/// keep the rank, each defined outside `outside` (if given), so that the
/// tile's offsets can be used before and after `outside`.
static bool isTileOfBuffer(Value view, Value base, Operation *outside) {
  while (view != base) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    if (!subview || (outside && outside->isAncestor(subview)) ||
        subview.getSourceType().getRank() != subview.getType().getRank() ||
        !llvm::all_of(subview.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      return false;
    view = subview.getSource();
  }
  return true;
}

/// The offsets of `view` in `base` (see isTileOfBuffer).
static SmallVector<OpFoldResult> offsetsInBuffer(OpBuilder &b, Location loc,
                                                 Value view, Value base) {
  auto rank = cast<MemRefType>(base.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  AffineExpr d0, d1;
  bindDims(b.getContext(), d0, d1);
  while (view != base) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    for (auto [total, offset] :
         llvm::zip_equal(offsets, subview.getMixedOffsets()))
      total = affine::makeComposedFoldedAffineApply(b, loc, d0 + d1,
                                                    {total, offset});
    view = subview.getSource();
  }
  return offsets;
}

/// `op` restricted to the elements `offsets` + `sizes` of its iteration
/// space, with its use of the buffer `buffer` replaced by `tile` (a view of
/// those elements of it) when the types agree; marked for vectorization
/// (and with `flatten`, for flattenUnitLoops).
static LogicalResult createTile(OpBuilder &b, linalg::LinalgOp op,
                                ArrayRef<OpFoldResult> offsets,
                                ArrayRef<OpFoldResult> sizes, Value buffer,
                                Value tile, bool flatten) {
  FailureOr<TilingResult> tiled =
      cast<TilingInterface>(op.getOperation())
          .getTiledImplementation(b, offsets, sizes);
  if (failed(tiled) || tiled->tiledOps.empty())
    return failure();
  Operation *tiledOp = tiled->tiledOps.back();
  for (OpOperand &operand : tiledOp->getOpOperands()) {
    if (operand.getOperandNumber() >= op->getNumOperands() ||
        op->getOperand(operand.getOperandNumber()) != buffer ||
        operand.get().getType() != tile.getType())
      continue;
    Operation *view = operand.get().getDefiningOp();
    operand.set(tile);
    if (view && view->use_empty())
      view->erase();
  }
  tiledOp->setAttr(kVectorizeMarker, b.getUnitAttr());
  if (flatten)
    tiledOp->setAttr(kFlattenMarker, b.getUnitAttr());
  return success();
}

/// Inserts an scf.if at `b`'s insertion point that holds what is built next
/// (the builder is moved into it): `loop`'s first iteration or its last.
static void guardIteration(OpBuilder &b, Location loc, scf::ForOp loop,
                           bool first) {
  Value iv = loop.getInductionVar();
  Value condition;
  if (first) {
    condition = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, iv,
                                      loop.getLowerBound());
  } else {
    Value next = arith::AddIOp::create(b, loc, iv, loop.getStep());
    condition = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, next,
                                      loop.getUpperBound());
  }
  auto guard = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  b.setInsertionPoint(guard.thenBlock()->getTerminator());
}

LogicalResult mlc::cpu::fuseEpilogue(RewriterBase &rewriter, Epilogue epilogue,
                                     ArrayRef<RegisterTile> tiles) {
  if (tiles.empty())
    return failure();
  Value buffer = epilogue.fill.getDpsInits()[0];
  Location loc = epilogue.epilogue.getLoc();
  // Every register tile must take the fill and the epilogue, or none does.
  // The views of the buffer that the tiles write are hoisted out of their
  // reduction loops, around which the fill and the epilogue go.
  for (RegisterTile tile : tiles) {
    if (!tile.op)
      return failure();
    for (Operation *loop = tile.op->getParentOp();
         tile.reductionNest && loop != tile.reductionNest->getParentOp();
         loop = loop->getParentOp())
      if (auto loopLike = dyn_cast<LoopLikeOpInterface>(loop))
        (void)moveLoopInvariantCode(loopLike);
    if (!isTileOfBuffer(tile.op.getDpsInits()[0], buffer, tile.reductionNest))
      return failure();
  }
  for (RegisterTile tile : tiles) {
    Operation *nest =
        tile.reductionNest ? tile.reductionNest : tile.op.getOperation();
    Value view = tile.op.getDpsInits()[0];
    OpBuilder b(nest);
    SmallVector<OpFoldResult> offsets = offsetsInBuffer(b, loc, view, buffer);
    SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, view);
    {
      OpBuilder::InsertionGuard guard(b);
      if (tile.splitReduction)
        guardIteration(b, loc, tile.splitReduction, /*first=*/true);
      if (failed(createTile(b, epilogue.fill, offsets, sizes, buffer, view,
                            tile.flatten)))
        return failure();
    }
    b.setInsertionPointAfter(nest);
    if (tile.splitReduction)
      guardIteration(b, loc, tile.splitReduction, /*first=*/false);
    // The tiles made so far only repeat what the whole ops compute: with
    // those kept, the result is still right.
    if (failed(createTile(b, epilogue.epilogue, offsets, sizes, buffer, view,
                          tile.flatten)))
      return failure();
  }
  rewriter.eraseOp(epilogue.fill);
  rewriter.eraseOp(epilogue.epilogue);
  return success();
}
