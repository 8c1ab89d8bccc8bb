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
// Where the border parts hold much of the work (small images: on 7x7 half
// of the outputs), a channels-last op is first cut into channel tasks
// (scf.forall), each with a bordered image and parts of its own: one fork
// for the whole kernel, every part in parallel.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"
#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
  Operation *buffer; // memref.alloc, or memref.alloca in a channel task
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
  Operation *buffer = image.getDefiningOp();
  auto type = dyn_cast<MemRefType>(image.getType());
  if (!buffer || !isa<memref::AllocOp, memref::AllocaOp>(buffer) ||
      !type.hasStaticShape() || !type.getLayout().isIdentity())
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
        view.getType().getRank() != type.getRank() ||
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

/// Whether the border parts of `parts` (all but the last, the interior) hold
/// at least an eighth of the iterations: 7x7 outputs half, 14x14 a quarter,
/// 28x28 an eighth, 56x56 7 %. Run on one thread, they keep a kernel from
/// scaling (1 -> 2 threads: 7x7x960 1.08x, 14x14x384 and 28x28x192 1.4x).
bool hasHeavyBorders(linalg::LinalgOp op, ArrayRef<Part> parts) {
  uint64_t border = 0;
  for (const Part &part : parts.drop_back())
    border += mlc::countElements(part.sizes);
  return 8 * border >= mlc::countElements(op.getStaticLoopRanges());
}

/// The loop of `op` that is the innermost dimension of each of its buffers,
/// and in no other dimension of them, with `extent` iterations like that
/// dimension: the channels of a channels-last window reduction, and of the
/// fills, copies and epilogues around it.
std::optional<unsigned> channelLoop(linalg::LinalgOp op, int64_t extent) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  std::optional<unsigned> loop;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue; // a scalar
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (type.getRank() == 0 || type.getShape().back() != extent ||
        map.getNumResults() != type.getRank())
      return std::nullopt;
    // The innermost index is the loop, plus loops of one iteration (a
    // depthwise convolution's channel multiplier: c + m).
    std::optional<SmallVector<int64_t>> form =
        linearForm(map.getResults().back(), ranges.size());
    if (!form)
      return std::nullopt;
    std::optional<unsigned> last;
    for (auto [d, c] : llvm::enumerate(*form)) {
      if (c == 0 || ranges[d] == 1)
        continue;
      if (c != 1 || last)
        return std::nullopt;
      last = d;
    }
    if (!last || (loop && *loop != *last))
      return std::nullopt;
    loop = *last;
    if (llvm::any_of(map.getResults().drop_back(),
                     [&](AffineExpr e) { return e.isFunctionOfDim(*loop); }))
      return std::nullopt;
  }
  if (!loop || op.getStaticLoopRanges()[*loop] != extent)
    return std::nullopt;
  return loop;
}

/// `type` with `channels` elements in its innermost dimension.
MemRefType withChannels(MemRefType type, int64_t channels) {
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = channels;
  return MemRefType::get(shape, type.getElementType());
}

/// Moves the channels-last window reduction `op`, with the fills and the
/// copy that make its bordered image and its fused fill and epilogue, into
/// an scf.forall over tasks of a few cache lines of channels (at most 16
/// tasks, at least 2). Each task fills and copies a bordered image of its
/// channels on its stack and accumulates into a buffer of its own there.
/// Returns the task's window reduction; fails, changing nothing, when an
/// op is not independent across channels or nothing but views and
/// allocations lies between them.
FailureOr<linalg::LinalgOp>
splitIntoChannelTasks(RewriterBase &rewriter, linalg::LinalgOp op,
                      const PaddedImage &padded,
                      const std::optional<Epilogue> &epilogue) {
  auto imageType = cast<MemRefType>(padded.buffer->getResult(0).getType());
  int64_t channels = imageType.getShape().back();
  int64_t line = kCacheLineBytes /
                 std::max<int64_t>(1, imageType.getElementTypeBitWidth() / 8);
  int64_t chunk = 0;
  for (int64_t size = llvm::alignTo(llvm::divideCeil(channels, 16), line);
       2 * size <= channels; size += line) {
    if (channels % size == 0) {
      chunk = size;
      break;
    }
  }
  if (!chunk)
    return failure();

  // The ops that move, in order, each with its channel loop.
  SmallVector<linalg::FillOp> fills;
  for (Operation *user : padded.buffer->getUsers())
    if (auto view = dyn_cast<memref::SubViewOp>(user))
      if (auto fill = dyn_cast<linalg::FillOp>(*view->getUsers().begin()))
        fills.push_back(fill);
  SmallVector<Operation *> group(fills.begin(), fills.end());
  group.push_back(padded.copy);
  if (epilogue)
    group.append({epilogue->fill, epilogue->epilogue});
  group.push_back(op);
  for (Operation *member : group)
    if (member->getBlock() != op->getBlock() ||
        !channelLoop(cast<linalg::LinalgOp>(member), channels))
      return failure();
  llvm::sort(group,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // Between them: views, allocations, constants, and other ops
  // independent across channels (the fill of the kernel's output that the
  // op accumulates into), which move with them.
  SmallVector<Operation *> ordered;
  for (Operation *between = group.front();; between = between->getNextNode()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(between);
    if (llvm::is_contained(group, between) ||
        (linalgOp && channelLoop(linalgOp, channels)))
      ordered.push_back(between);
    else if (!isa<memref::SubViewOp, memref::AllocOp, arith::ConstantOp>(
                 between))
      return failure();
    if (between == group.back())
      break;
  }
  group = std::move(ordered);

  Location loc = op.getLoc();
  Value bordered = padded.buffer->getResult(0);
  // The buffer of a fused fill and epilogue; without them the op writes
  // the kernel's output, at the task's channels like any other buffer.
  Value accumulator = epilogue ? op.getDpsInits()[0] : Value();
  // The buffers that the tasks make their own: a view of them must be the
  // buffer or a static unit-stride view of it.
  auto ownView = [&](Value operand) -> std::optional<SmallVector<int64_t>> {
    unsigned rank = cast<MemRefType>(operand.getType()).getRank();
    if (operand == bordered || operand == accumulator)
      return SmallVector<int64_t>(rank, 0);
    auto view = operand.getDefiningOp<memref::SubViewOp>();
    if (!view ||
        (view.getSource() != bordered && view.getSource() != accumulator) ||
        ShapedType::isDynamicShape(view.getStaticOffsets()) ||
        !llvm::all_of(view.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) ||
        view.getStaticOffsets().back() != 0)
      return std::nullopt;
    return llvm::to_vector(view.getStaticOffsets());
  };
  for (Operation *member : group)
    for (Value operand : member->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          (rootBuffer(operand) == bordered ||
           rootBuffer(operand) == accumulator) &&
          !ownView(operand))
        return failure();

  rewriter.setInsertionPointAfter(group.back());
  auto forall = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(channels)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(chunk)}, ValueRange{},
      std::nullopt);
  rewriter.setInsertionPointToStart(forall.getBody());
  Value offset = forall.getInductionVar(0);
  Value image =
      memref::AllocaOp::create(rewriter, loc, withChannels(imageType, chunk));
  Value taskAccumulator;
  if (epilogue)
    taskAccumulator = memref::AllocaOp::create(
        rewriter, loc,
        withChannels(cast<MemRefType>(accumulator.getType()), chunk));
  // Each op on the task's channels: views of the bordered image and of the
  // accumulator become views of the task's own, the other buffers are read
  // and written at the task's channels.
  // All views first: the split of the task's op computes the epilogue's
  // parts before the op's.
  SmallVector<SmallVector<Value>> memberOperands;
  for (Operation *member : group) {
    SmallVector<Value> &operands = memberOperands.emplace_back();
    for (Value operand : member->getOperands()) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type) {
        operands.push_back(operand);
        continue;
      }
      SmallVector<int64_t> sizes(type.getShape());
      sizes.back() = chunk;
      Value root = rootBuffer(operand);
      if (operand == bordered || operand == accumulator) {
        // The op's own buffer, as the split and the epilogue match it.
        operands.push_back(operand == bordered ? image : taskAccumulator);
        continue;
      }
      if (root == bordered || root == accumulator) {
        operands.push_back(staticView(
            rewriter, loc, root == bordered ? image : taskAccumulator,
            *ownView(operand), sizes));
        continue;
      }
      SmallVector<OpFoldResult> offsets(sizes.size(), rewriter.getIndexAttr(0));
      offsets.back() = offset;
      operands.push_back(memref::SubViewOp::create(
          rewriter, loc, operand, offsets,
          getAsIndexOpFoldResult(rewriter.getContext(), sizes),
          SmallVector<OpFoldResult>(sizes.size(), rewriter.getIndexAttr(1))));
    }
  }
  linalg::LinalgOp task;
  for (auto [member, operands] : llvm::zip(group, memberOperands)) {
    Operation *copy = rewriter.clone(*member);
    copy->setOperands(operands);
    if (member == op.getOperation())
      task = cast<linalg::LinalgOp>(copy);
  }

  // The originals go, and the buffers that only they used.
  for (Operation *member : llvm::reverse(group))
    rewriter.eraseOp(member);
  for (Value buffer : {bordered, accumulator}) {
    Operation *alloc = buffer ? buffer.getDefiningOp() : nullptr;
    if (!alloc)
      continue;
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::SubViewOp>(user) && user->use_empty())
        rewriter.eraseOp(user);
    if (llvm::all_of(alloc->getUsers(),
                     [](Operation *u) { return isa<memref::DeallocOp>(u); })) {
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        rewriter.eraseOp(user);
      rewriter.eraseOp(alloc);
    }
  }
  return task;
}

/// Splits `op` (see the file comment). Fails, and changes nothing, when it
/// does not apply.
LogicalResult splitPaddedWindow(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(op) || matchConv(op))
    return failure();
  // An empty loop (a 0 x 0 window) computes nothing to split, and tiling it
  // by zero crashed upstream's tile size computation.
  if (llvm::is_contained(op.getStaticLoopRanges(), 0))
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
  bool inTask = isInParallelTask(op);
  if (!inTask && hasHeavyBorders(op, parts)) {
    FailureOr<linalg::LinalgOp> task =
        splitIntoChannelTasks(rewriter, op, *padded, epilogue);
    if (succeeded(task)) {
      // Without parts, the task's op reads its whole bordered image.
      (void)splitPaddedWindow(rewriter, *task);
      return success();
    }
  }
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
      // A channel task's part buffers are its own, on its stack.
      MemRefType partType = MemRefType::get(outSizes, elementType);
      partBuffer =
          inTask ? memref::AllocaOp::create(rewriter, loc, partType).getResult()
                 : memref::AllocOp::create(rewriter, loc, partType).getResult();
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
    if (!inTask) {
      rewriter.setInsertionPointAfter(*epi);
      memref::DeallocOp::create(rewriter, loc, partBuffer);
    }
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
    Value dst =
        staticView(rewriter, loc, padded->buffer->getResult(0), to, sizes);
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
