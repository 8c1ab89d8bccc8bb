//===- Elementwise.cpp - CPU schedule of elementwise ops ------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Ops without a reduction dimension (elementwise, injective, copies): the
// outermost dimension in parallel when the op is large, the innermost one
// vectorized.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlc::cpu;

void KernelScheduler::scheduleElementwise(RewriterBase &rewriter,
                                          linalg::LinalgOp op,
                                          bool inParallelTask) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  linalg::LinalgOp current = op;
  if (!inParallelTask && numLoops > 1 && elements >= kMinParallelElements &&
      ranges[0] > 1) {
    // About 16 tasks: enough to balance a few threads.
    SmallVector<int64_t> parallel(numLoops, 0);
    parallel[0] = clampTile(llvm::divideCeil(ranges[0], 16), ranges[0]);
    if (!(current = tile(rewriter, current, parallel, /*forall=*/true)))
      return;
  }
  // One innermost vector per step; a short innermost dimension is one
  // vector as it is.
  SmallVector<int64_t> sizes(numLoops, 1);
  sizes.back() = clampTile(vectorWidth, ranges.back());
  for (unsigned d = 0; d + 1 < numLoops; ++d)
    sizes[d] = clampTile(1, ranges[d]);
  if (!(current = tile(rewriter, current, sizes)))
    return;
  current->setAttr(kVectorizeMarker, rewriter.getUnitAttr());
}
