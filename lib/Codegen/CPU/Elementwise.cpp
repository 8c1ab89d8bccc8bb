//===- Elementwise.cpp - CPU schedule of elementwise ops ------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Ops without a reduction dimension (elementwise, injective, copies): the
// outermost dimension that is not a unit one in parallel when the op is
// large, the innermost one vectorized.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlc/Transforms/LoopAnnotations.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc::cpu;

/// The loop that is innermost in an input of `op` when that is not `op`'s
/// innermost loop (the input is read transposed), or nothing.
static std::optional<unsigned> getTransposedDim(linalg::LinalgOp op) {
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() < 2 || !map.isFunctionOfDim(innermost))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (last && last.getPosition() != innermost &&
        op.getIteratorTypesArray()[last.getPosition()] ==
            utils::IteratorType::parallel)
      return last.getPosition();
  }
  return std::nullopt;
}

void KernelScheduler::scheduleElementwise(RewriterBase &rewriter,
                                          linalg::LinalgOp op,
                                          bool inParallelTask) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  // An op of many operands (a Winograd transform reads and writes 36
  // planes) does as much per element as several of few operands.
  uint64_t elements =
      countElements(ranges) * std::max<uint64_t>(1, op->getNumOperands() / 4);
  // Before tiling, which replaces `op`.
  std::optional<unsigned> transposedDim = getTransposedDim(op);
  Operation *parent = op->getParentOp();
  SmallVector<int64_t> taskRanges = ranges;
  linalg::LinalgOp current = op;
  // The tasks split the outermost dimension that is not a unit one (the
  // batch of a batch-1 NCHW tensor is: the channels then are), never the
  // innermost, which is vectorized.
  Operation *tasks = nullptr;
  unsigned taskDim = 0;
  inParallelTask |= isInParallelTask(op);
  while (taskDim + 1 < numLoops && ranges[taskDim] == 1)
    ++taskDim;
  if (!inParallelTask && taskDim + 1 < numLoops &&
      elements >= static_cast<uint64_t>(kMinParallelElements) &&
      ranges[taskDim] > 1) {
    // About 16 tasks: enough to balance a few threads.
    SmallVector<int64_t> parallel(numLoops, 0);
    parallel[taskDim] =
        clampTile(llvm::divideCeil(ranges[taskDim], 16), ranges[taskDim]);
    if (!(current = tile(rewriter, current, parallel, /*forall=*/true, &tasks)))
      return;
    taskRanges[taskDim] = parallel[taskDim];
  }
  // One innermost vector per step; a short innermost dimension is one
  // vector as it is.
  SmallVector<int64_t> sizes(numLoops, 1);
  sizes.back() = clampTile(vectorWidth, ranges.back());
  for (unsigned d = 0; d + 1 < numLoops; ++d)
    sizes[d] = clampTile(1, ranges[d]);
  // A transposing copy (an input whose innermost dimension is another loop,
  // e.g. permute_dims of a weight): square tiles of vectorWidth x
  // vectorWidth, read as whole rows of the input and transposed in
  // registers, instead of one gather of vectorWidth rows per vector.
  if (transposedDim && taskRanges[*transposedDim] >= vectorWidth &&
      taskRanges.back() >= vectorWidth)
    sizes[*transposedDim] = vectorWidth;
  if (!(current = tile(rewriter, current, sizes)))
    return;
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
  // The outer loops have small constant trip counts (9 channels x 58 rows
  // of a padded MobileNet-v2 tensor in a task; the 57 border pixels of a
  // bordered convolution image), which LLVM unrolled completely: 500
  // memsets in one block, 7 of MobileNet-v2's 10 s of instruction selection
  // and scheduling, and 1.7 s of ResNet-50's code generation for one
  // kernel's border fills. Only the innermost (vector) loop may be unrolled.
  SmallVector<scf::ForOp> loops;
  for (Operation *loop = current->getParentOp(); loop && loop != parent;
       loop = loop->getParentOp())
    if (auto forOp = dyn_cast<scf::ForOp>(loop))
      loops.push_back(forOp);
  if (loops.size() < 2)
    return;
  MLIRContext *ctx = rewriter.getContext();
  auto noUnroll = LLVM::LoopAnnotationAttr::get(
      ctx, {}, {}, {},
      LLVM::LoopUnrollAttr::get(ctx, /*disable=*/BoolAttr::get(ctx, true), {},
                                {}, {}, {}, {}, {}),
      {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
  // loops[0] is the innermost: it keeps LLVM's unrolling.
  for (scf::ForOp loop : llvm::drop_begin(loops))
    loop->setAttr(mlc::kLoopAnnotationAttrName, noUnroll);
}
