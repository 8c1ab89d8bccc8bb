//===- SplitPaddedWindows.cpp - window reductions without padded copies ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A padded depthwise convolution or pooling reads a zero- (or -inf-) bordered
// copy of its image that the kernel makes first. For MobileNet-v2's
// expanded 112 x 112 x 96 images that copy took twice as long as the
// convolution itself. This splits such a window reduction into the part
// whose windows lie inside the image, which then reads the image itself,
// and border parts, which read the bordered buffer; the copy into that
// buffer shrinks to the frame that the border parts read. The border parts
// are marked to run on one thread (kSingleThreadMarker).
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"
#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlc {
#define GEN_PASS_DEF_CPUSPLITPADDEDWINDOWSPASS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc::cpu;

namespace {

/// An image buffer allocated in the kernel that holds `source` at `offsets`
/// (one linalg.copy) and fill values elsewhere (linalg.fill of subviews).
struct PaddedImage {
  memref::AllocOp buffer;
  linalg::CopyOp copy;
  Value source;
  SmallVector<int64_t> offsets;
};

/// Whether `op` may write memory that `root` holds (conservatively: any
/// write of an unknown value, or of a view of `root`).
bool mayWrite(Operation *op, Value root) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
           op->getNumRegions() != 0;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Write>(e.getEffect()))
      return false;
    Value written = e.getValue();
    return !written || rootBuffer(written) == root;
  });
}

std::optional<PaddedImage> matchPaddedImage(Value image, Operation *reader) {
  auto buffer = image.getDefiningOp<memref::AllocOp>();
  if (!buffer || !buffer.getType().hasStaticShape() ||
      !buffer.getType().getLayout().isIdentity())
    return std::nullopt;
  PaddedImage result;
  result.buffer = buffer;
  for (Operation *user : buffer->getUsers()) {
    if (user == reader || isa<memref::DeallocOp>(user))
      continue;
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view || !view->hasOneUse())
      return std::nullopt;
    Operation *writer = *view->getUsers().begin();
    if (writer->getBlock() != reader->getBlock() ||
        !writer->isBeforeInBlock(reader))
      return std::nullopt;
    if (auto fill = dyn_cast<linalg::FillOp>(writer)) {
      if (fill.getOutputs()[0] != view.getResult())
        return std::nullopt;
      continue;
    }
    auto copy = dyn_cast<linalg::CopyOp>(writer);
    if (!copy || result.copy || copy.getOutputs()[0] != view.getResult())
      return std::nullopt;
    auto sourceType = dyn_cast<MemRefType>(copy.getInputs()[0].getType());
    if (!sourceType || !sourceType.hasStaticShape() ||
        ShapedType::isDynamicShape(view.getStaticOffsets()) ||
        !llvm::all_of(view.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) ||
        view.getType().getRank() != buffer.getType().getRank() ||
        !llvm::equal(view.getStaticSizes(), sourceType.getShape()))
      return std::nullopt;
    result.copy = copy;
    result.source = copy.getInputs()[0];
    result.offsets = llvm::to_vector(view.getStaticOffsets());
  }
  if (!result.copy)
    return std::nullopt;
  // The reader will read the source where it read the copy: nothing in
  // between may write the source.
  Value root = rootBuffer(result.source);
  for (Operation *op = result.copy->getNextNode(); op != reader;
       op = op->getNextNode())
    if (mayWrite(op, root))
      return std::nullopt;
  return result;
}

/// A part of the iteration space: offsets and sizes of every loop.
struct Part {
  SmallVector<int64_t> offsets, sizes;
  bool interior = false;
};

/// The parts of `op`'s iteration space (border parts, then the interior),
/// or nothing when the windows of no output lie inside the source, or of
/// all of them.
SmallVector<Part> partition(linalg::LinalgOp op, OpOperand &image,
                            const PaddedImage &padded) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  ArrayRef<int64_t> sourceShape =
      cast<MemRefType>(padded.source.getType()).getShape();
  // The interior range of each parallel loop: [0, range) when no image
  // index depends on it.
  SmallVector<int64_t> lo(numLoops, 0), hi(ranges);
  SmallVector<bool> seen(numLoops, false);
  AffineMap map = op.getMatchingIndexingMap(&image);
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    std::optional<SmallVector<int64_t>> form = linearForm(expr, numLoops);
    if (!form)
      return {};
    std::optional<unsigned> parallel;
    int64_t reach = 0; // the largest offset that the reductions add
    for (unsigned d = 0; d < numLoops; ++d) {
      int64_t c = (*form)[d];
      if (c == 0)
        continue;
      if (c < 0)
        return {};
      if (linalg::isParallelIterator(iterators[d])) {
        if (parallel || seen[d])
          return {};
        parallel = d;
      } else {
        reach += c * (ranges[d] - 1);
      }
    }
    int64_t begin = padded.offsets[r], size = sourceShape[r];
    if (!parallel) {
      if (begin > 0 || reach >= begin + size)
        return {};
      continue;
    }
    unsigned d = *parallel;
    seen[d] = true;
    int64_t stride = (*form)[d];
    // stride * y >= begin and stride * y + reach <= begin + size - 1.
    lo[d] = std::max<int64_t>(0, llvm::divideCeilSigned(begin, stride));
    hi[d] = std::min<int64_t>(
        ranges[d],
        llvm::divideFloorSigned(begin + size - 1 - reach, stride) + 1);
    if (lo[d] >= hi[d])
      return {};
  }
  SmallVector<Part> parts;
  Part remaining{SmallVector<int64_t>(numLoops, 0), ranges};
  for (unsigned d = 0; d < numLoops; ++d) {
    if (lo[d] == 0 && hi[d] == ranges[d])
      continue;
    if (lo[d] > 0) {
      Part part = remaining;
      part.sizes[d] = lo[d];
      parts.push_back(part);
    }
    if (hi[d] < ranges[d]) {
      Part part = remaining;
      part.offsets[d] = hi[d];
      part.sizes[d] = ranges[d] - hi[d];
      parts.push_back(part);
    }
    remaining.offsets[d] = lo[d];
    remaining.sizes[d] = hi[d] - lo[d];
  }
  if (parts.empty())
    return {};
  remaining.interior = true;
  parts.push_back(remaining);
  return parts;
}

/// `op` on the part (offsets, sizes) of its iteration space, at the
/// rewriter's insertion point.
FailureOr<linalg::LinalgOp> tilePart(RewriterBase &rewriter,
                                     linalg::LinalgOp op,
                                     ArrayRef<int64_t> offsets,
                                     ArrayRef<int64_t> sizes) {
  FailureOr<TilingResult> tiled =
      cast<TilingInterface>(op.getOperation())
          .getTiledImplementation(
              rewriter, getAsIndexOpFoldResult(op.getContext(), offsets),
              getAsIndexOpFoldResult(op.getContext(), sizes));
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  auto part = dyn_cast<linalg::LinalgOp>(tiled->tiledOps.front());
  if (!part)
    return failure();
  return part;
}

/// A static view of `buffer` at `offsets` with `sizes` and unit strides.
Value staticView(RewriterBase &rewriter, Location loc, Value buffer,
                 ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> strides(offsets.size(), 1);
  return memref::SubViewOp::create(rewriter, loc, buffer, offsets, sizes,
                                   strides);
}

/// Splits `op` (see the file comment). Fails, and changes nothing, when it
/// does not apply.
LogicalResult splitPaddedWindow(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(op) || matchConv(op))
    return failure();
  std::optional<WindowDims> window = matchWindowReduction(op);
  if (!window)
    return failure();
  OpOperand &image = op->getOpOperand(window->image);
  std::optional<PaddedImage> padded = matchPaddedImage(image.get(), op);
  if (!padded)
    return failure();
  SmallVector<Part> parts = partition(op, image, *padded);
  if (parts.empty())
    return failure();

  // With a fused fill and epilogue around a buffer of its own, each part
  // gets the three on a buffer of its own, so that the schedule still
  // computes them on the register tiles.
  // (matchEpilogue checks that the epilogue reads the buffer at its own
  // index, so the epilogue's part is the op's output box.)
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation())
    return failure();
  std::optional<Epilogue> epilogue = matchEpilogue(op);
  // The output dimensions' offsets and sizes of a part.
  auto outputBox = [&](const Part &part) {
    SmallVector<int64_t> offsets, sizes;
    for (AffineExpr expr : outMap.getResults()) {
      unsigned d = cast<AffineDimExpr>(expr).getPosition();
      offsets.push_back(part.offsets[d]);
      sizes.push_back(part.sizes[d]);
    }
    return std::make_pair(offsets, sizes);
  };

  Location loc = op.getLoc();
  Value accumulator = op.getDpsInits()[0];
  // Everything made so far goes again when a part cannot be made (parts
  // accumulating into the output beside the whole op would count twice).
  SmallVector<Operation *> made;
  auto rollback = [&] {
    for (Operation *created : llvm::reverse(made)) {
      created->dropAllUses();
      rewriter.eraseOp(created);
    }
    return failure();
  };
  auto track = [&](Operation *created) {
    // The views that tiling made for it first.
    for (Value operand : created->getOperands())
      if (auto view = operand.getDefiningOp<memref::SubViewOp>())
        if (view->hasOneUse())
          made.push_back(view);
    made.push_back(created);
  };
  Type elementType = getElementTypeOrSelf(accumulator.getType());
  SmallVector<linalg::LinalgOp> borderParts;
  for (const Part &part : parts) {
    auto [outOffsets, outSizes] = outputBox(part);
    Value partBuffer;
    if (epilogue) {
      rewriter.setInsertionPoint(op);
      partBuffer = memref::AllocOp::create(
          rewriter, loc, MemRefType::get(outSizes, elementType));
      made.push_back(partBuffer.getDefiningOp());
      Operation *fill = rewriter.clone(*epilogue->fill);
      fill->replaceUsesOfWith(accumulator, partBuffer);
      made.push_back(fill);
    }
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgOp> tiled =
        tilePart(rewriter, op, part.offsets, part.sizes);
    if (failed(tiled))
      return rollback();
    track(*tiled);
    if (epilogue)
      (*tiled)->setOperand(op.getDpsInitOperand(0)->getOperandNumber(),
                           partBuffer);
    OpOperand &tiledImage = (*tiled)->getOpOperand(window->image);
    auto imageView = tiledImage.get().getDefiningOp<memref::SubViewOp>();
    if (!imageView ||
        ShapedType::isDynamicShape(imageView.getStaticOffsets()) ||
        ShapedType::isDynamicShape(imageView.getStaticSizes()))
      return rollback();
    if (part.interior) {
      SmallVector<int64_t> offsets;
      for (auto [offset, begin] :
           llvm::zip(imageView.getStaticOffsets(), padded->offsets))
        offsets.push_back(offset - begin);
      rewriter.setInsertionPoint(*tiled);
      Value view = staticView(rewriter, loc, padded->source, offsets,
                              imageView.getStaticSizes());
      made.push_back(view.getDefiningOp());
      tiledImage.set(view);
    } else {
      // A row or column of the output: its own parallel loop cost more
      // than it computes (a 14x14x384 depthwise convolution at 2 threads
      // 98 -> 68 us with the four border parts on one thread).
      (*tiled)->setAttr(kSingleThreadMarker, rewriter.getUnitAttr());
      borderParts.push_back(*tiled);
    }
    if (!epilogue)
      continue;
    // Its views before the part, which the schedule computes it in; the op
    // right after the part: nothing between the three touches memory.
    rewriter.setInsertionPoint(*tiled);
    FailureOr<linalg::LinalgOp> epi =
        tilePart(rewriter, epilogue->epilogue, outOffsets, outSizes);
    if (failed(epi))
      return rollback();
    track(*epi);
    rewriter.moveOpAfter(*epi, *tiled);
    for (OpOperand *input : epi->getDpsInputOperands())
      if (rootBuffer(input->get()) == accumulator)
        input->set(partBuffer);
    rewriter.setInsertionPointAfter(*epi);
    memref::DeallocOp::create(rewriter, loc, partBuffer);
  }

  // The frame of the source that the border parts read, copied where the
  // whole source was.
  ArrayRef<int64_t> sourceShape =
      cast<MemRefType>(padded->source.getType()).getShape();
  rewriter.setInsertionPoint(padded->copy);
  for (linalg::LinalgOp part : borderParts) {
    auto view =
        part->getOperand(window->image).getDefiningOp<memref::SubViewOp>();
    SmallVector<int64_t> from, to, sizes;
    bool empty = false;
    for (auto [offset, size, begin, extent] :
         llvm::zip(view.getStaticOffsets(), view.getStaticSizes(),
                   padded->offsets, sourceShape)) {
      int64_t first = std::max(offset, begin);
      int64_t last = std::min(offset + size, begin + extent);
      empty |= first >= last;
      to.push_back(first);
      from.push_back(first - begin);
      sizes.push_back(last - first);
    }
    if (empty)
      continue;
    Value src = staticView(rewriter, loc, padded->source, from, sizes);
    Value dst = staticView(rewriter, loc, padded->buffer, to, sizes);
    linalg::CopyOp::create(rewriter, loc, src, dst);
  }

  // The whole op, copy, fill and epilogue go, and with them the buffer.
  Operation *copyView = padded->copy.getOutputs()[0].getDefiningOp();
  rewriter.eraseOp(padded->copy);
  rewriter.eraseOp(copyView);
  rewriter.eraseOp(op);
  for (Operation *user : llvm::make_early_inc_range(padded->buffer->getUsers()))
    if (isa<memref::SubViewOp>(user) && user->use_empty())
      rewriter.eraseOp(user);
  if (epilogue) {
    rewriter.eraseOp(epilogue->fill);
    rewriter.eraseOp(epilogue->epilogue);
    Operation *buffer = accumulator.getDefiningOp();
    for (Operation *user : llvm::make_early_inc_range(buffer->getUsers()))
      rewriter.eraseOp(user);
    rewriter.eraseOp(buffer);
  }
  return success();
}

struct CPUSplitPaddedWindowsPass
    : public mlc::impl::CPUSplitPaddedWindowsPassBase<
          CPUSplitPaddedWindowsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    // Only reductions: the fills and epilogues that a split erases are not.
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() != 0)
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops)
      (void)splitPaddedWindow(rewriter, op);
  }
};

} // namespace
