//===- SchedulePadEinsum.cpp - TensorIR pad_einsum primitive ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's sch.pad_einsum: pads the iteration domain of an einsum block up to
// multiples of given factors, so that later tiling divides it. The block then
// reads zero-padded copies of its inputs and writes a padded copy of its
// output, which a block after it copies back; schedules inline both copies
// into their cache_read/cache_write copies (a masked load, a predicated
// store), as dlight's GPU matmul rules do.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlc::tensorir;
using namespace mlc::tensorir::schedutil;

namespace {
/// A buffer of the block whose padded shape is larger than its shape.
struct PaddedBuffer {
  Value buffer;
  MemRefType type;
  SmallVector<int64_t> paddedShape;
  bool written = false;
  Value replacement;
};
} // namespace

LogicalResult Schedule::padEinsumImpl(BlockOp block,
                                      ArrayRef<int64_t> padding) {
  auto error = [&]() {
    return block.emitError("cannot pad_einsum ") << describe(block) << ": ";
  };
  unsigned numIterVars = block.getNumIterVars();
  if (padding.size() != numIterVars)
    return error() << "expected " << numIterVars
                   << " padding factors (one per iteration variable), got "
                   << padding.size();
  for (auto [v, factor] : llvm::enumerate(padding))
    if (factor < 1)
      return error() << "the padding factor of iteration variable "
                     << block.getIterVarDisplayName(v)
                     << " must be positive, got " << factor;
  // Statements beside the block would run in the padded iterations too.
  if (failed(checkAloneInNest(block, error, /*allowInit=*/true)))
    return failure();
  Operation *top = getTopInScope(block);
  if (failed(checkCoversDomain(block, top, error)))
    return failure();

  // The padded extents.
  SmallVector<int64_t> extents, padded;
  for (unsigned v = 0; v < numIterVars; ++v) {
    std::optional<int64_t> extent = block.getConstantExtent(v);
    if (!extent || ShapedType::isDynamic(block.getStaticExtents()[v]))
      return error() << "iteration variable " << block.getIterVarDisplayName(v)
                     << " does not have a constant extent";
    extents.push_back(*extent);
    int64_t rounded;
    if (llvm::MulOverflow<int64_t>(llvm::divideCeil(*extent, padding[v]),
                                   padding[v], rounded))
      return error() << "the padded extent of iteration variable "
                     << block.getIterVarDisplayName(v)
                     << " overflows a 64-bit integer";
    padded.push_back(rounded);
  }
  if (padded == extents)
    return success();

  // Every access indexes each dimension by an iteration variable or a
  // constant (the einsum form); a dimension indexed by a padded iteration
  // variable grows to its padded extent.
  llvm::MapVector<Value, PaddedBuffer> buffers;
  Block *body = block.getBodyBlock();
  auto access = [&](Operation *op, Value buffer, ValueRange indices,
                    bool write) -> LogicalResult {
    auto type = cast<MemRefType>(buffer.getType());
    PaddedBuffer info{buffer, type, llvm::to_vector(type.getShape())};
    for (auto [d, index] : llvm::enumerate(indices)) {
      if (matchPattern(index, m_Constant()))
        continue;
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg || arg.getOwner() != body) {
        InFlightDiagnostic diag =
            error() << "dimension " << d << " of buffer '"
                    << getBufferName(buffer)
                    << "' is not indexed by an iteration variable or a "
                       "constant (not an einsum)";
        diag.attachNote(op->getLoc()) << "access is here";
        return diag;
      }
      int64_t grown = padded[arg.getArgNumber()];
      if (grown != extents[arg.getArgNumber()] &&
          (type.isDynamicDim(d) || grown > type.getDimSize(d))) {
        if (type.isDynamicDim(d))
          return error() << "buffer '" << getBufferName(buffer)
                         << "' to pad has a dynamic dimension " << d;
        info.paddedShape[d] = std::max(info.paddedShape[d], grown);
      }
    }
    if (info.paddedShape == type.getShape())
      return success();
    auto [it, inserted] = buffers.try_emplace(buffer, info);
    if (!inserted)
      for (auto [a, b] : llvm::zip(it->second.paddedShape, info.paddedShape))
        a = std::max(a, b);
    it->second.written |= write;
    return success();
  };
  WalkResult walked = block.getBody().walk([&](Operation *op) {
    LogicalResult result = success();
    if (auto load = dyn_cast<memref::LoadOp>(op))
      result = access(op, load.getMemRef(), load.getIndices(), false);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      result = access(op, store.getMemRef(), store.getIndices(), true);
    else if (llvm::any_of(op->getOperandTypes(),
                          [](Type t) { return isa<MemRefType>(t); })) {
      InFlightDiagnostic diag = error() << "its body accesses a buffer with '"
                                        << op->getName() << "'";
      diag.attachNote(op->getLoc()) << "op is here";
      result = diag;
    }
    return failed(result) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  for (auto &[buffer, info] : buffers) {
    Type element = info.type.getElementType();
    if (!isa<FloatType, IntegerType>(element))
      return error() << "buffer '" << getBufferName(buffer)
                     << "' has element type " << element
                     << ", which has no zero to pad with";
    // The padded output starts uninitialised: only its init and its own
    // updates may be read.
    if (info.written && !block.getInitOp())
      return error() << "it writes buffer '" << getBufferName(buffer)
                     << "' without a tensorir.init (the padded copy would "
                        "start uninitialised)";
  }

  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  // The padded buffers; inputs are filled before the nest with zeros beyond
  // the original shape, outputs copied back after it.
  for (auto &[buffer, info] : buffers) {
    std::string name = getBufferName(buffer) + "_pad";
    rewriter.setInsertionPoint(top);
    auto type = MemRefType::get(info.paddedShape, info.type.getElementType());
    info.replacement = AllocBufferOp::create(rewriter, loc, type, {}, name);
    std::string blockName = getUniqueBlockName(block, name);
    if (info.written) {
      rewriter.setInsertionPointAfter(top);
      Value src = info.replacement, dst = buffer;
      createSpatialNest(rewriter, loc, blockName, info.type.getShape(),
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
                          Value v = memref::LoadOp::create(b, loc, src, ivs);
                          memref::StoreOp::create(b, loc, v, dst, ivs);
                        });
      continue;
    }
    Value src = buffer, dst = info.replacement;
    ArrayRef<int64_t> shape = info.type.getShape();
    createSpatialNest(
        rewriter, loc, blockName, info.paddedShape,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          // Loads at indices clamped into the buffer, so that the masked
          // lanes read memory that exists; the mask selects zero there.
          SmallVector<Value> indices(ivs);
          Value inside;
          for (auto [d, size] : llvm::enumerate(shape)) {
            if (info.paddedShape[d] == size)
              continue;
            Value bound = arith::ConstantIndexOp::create(b, loc, size);
            Value last = arith::ConstantIndexOp::create(b, loc, size - 1);
            Value cmp = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              ivs[d], bound);
            inside = inside ? arith::AndIOp::create(b, loc, inside, cmp) : cmp;
            indices[d] = arith::MinUIOp::create(b, loc, ivs[d], last);
          }
          Value v = memref::LoadOp::create(b, loc, src, indices);
          Type element = info.type.getElementType();
          Value zero = arith::ConstantOp::create(b, loc, element,
                                                 b.getZeroAttr(element));
          Value masked = arith::SelectOp::create(b, loc, inside, v, zero);
          memref::StoreOp::create(b, loc, masked, dst, ivs);
        });
  }
  // The block over the padded domain, on the padded buffers.
  for (auto &[buffer, info] : buffers)
    rewriter.replaceUsesWithIf(buffer, info.replacement, [&](OpOperand &use) {
      return block->isAncestor(use.getOwner());
    });
  rewriter.modifyOpInPlace(block, [&] {
    SmallVector<int64_t> staticExtents =
        llvm::to_vector(block.getStaticExtents());
    for (unsigned v = 0; v < numIterVars; ++v)
      staticExtents[v] = padded[v];
    block.setStaticExtents(staticExtents);
  });
  for (unsigned v = 0; v < numIterVars; ++v) {
    auto loop = cast<ForOp>(
        cast<BlockArgument>(block.getBindings()[v]).getOwner()->getParentOp());
    rewriter.modifyOpInPlace(loop, [&] {
      SmallVector<int64_t> bounds = llvm::to_vector(loop.getStaticBounds());
      bounds[1] = padded[v];
      loop.setStaticBounds(bounds);
    });
  }
  refreshAccessRegions(rewriter, block, /*force=*/false);
  return success();
}
