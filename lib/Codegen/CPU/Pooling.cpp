//===- Pooling.cpp - CPU schedule of window reductions --------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Pooling and depthwise convolutions (one image input indexed by sums such
// as `x * stride + kx`): a vector of output columns carried in registers
// across the window loops, each step an elementwise op on (strided) views.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlc::cpu;

std::optional<WindowDims> mlc::cpu::matchWindowReduction(linalg::LinalgOp op) {
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
    // Read along n like the output (a channels-last depthwise convolution's
    // weights: one vector per step of the register tile).
    if (map.isProjectedPermutation(/*allowZeroInResults=*/true) &&
        map.getResults().back() == getAffineDimExpr(dims.n, op.getContext()) &&
        llvm::count_if(map.getResults(), [&](AffineExpr expr) {
          return expr.isFunctionOfDim(dims.n);
        }) == 1) {
      dims.vectors.push_back(input->getOperandNumber());
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

linalg::LinalgOp mlc::cpu::flattenWindowTile(RewriterBase &rewriter,
                                             linalg::LinalgOp op,
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
  for (unsigned number : dims.vectors) {
    inputs.push_back(view(op->getOpOperand(number), true));
    maps.push_back(identity);
  }
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
        for (auto [i, number] : llvm::enumerate(dims.vectors))
          mapping.map(body->getArgument(number), args[i + 1]);
        for (auto [i, number] : llvm::enumerate(dims.scalars))
          mapping.map(body->getArgument(number),
                      args[i + 1 + dims.vectors.size()]);
        mapping.map(op.getMatchingBlockArgument(init), args.back());
        for (Operation &inner : body->getOperations())
          b.clone(inner, mapping);
      });
  rewriter.eraseOp(op);
  return generic;
}

void KernelScheduler::schedulePooling(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      const WindowDims &dims) {
  // A fused fill and epilogue (a depthwise convolution's bias, batch norm
  // and activation) run on the register tile, not as passes over the
  // buffer.
  RegisterTile tile =
      tileReductionRegisters(rewriter, op, dims.n, vectorWidth, /*lanes=*/-1);
  if (registerTiles)
    registerTiles->push_back(tile);
}
