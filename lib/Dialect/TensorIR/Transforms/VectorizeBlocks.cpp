//===- VectorizeBlocks.cpp - tensorir-vectorize pass ---------------*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/IR/Diagnostics.h"

namespace mlc::tensorir {
#define GEN_PASS_DEF_TENSORIRVECTORIZE
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"
} // namespace mlc::tensorir

using namespace mlir;
using namespace mlc::tensorir;

namespace {
struct VectorizeBlocksPass
    : public mlc::tensorir::impl::TensorIRVectorizeBase<VectorizeBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    PrimFuncOp func = getOperation();
    SmallVector<BlockOp> targets;
    if (failed(schedutil::selectBlocks(func, blocks, targets)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    Schedule sch(func, rewriter);
    bool named = !blocks.empty();
    for (BlockOp block : targets) {
      SmallVector<ForOp> loops = Schedule::getLoops(block);
      if (loops.empty()) {
        if (!named)
          continue;
        block.emitError("cannot vectorize block '")
            << block.getName() << "': it has no loops";
        return signalPassFailure();
      }
      ForOp loop = loops.back();
      // Already done (e.g. for another block of the same nest).
      if (loop.getKind() == ForKind::vectorized)
        continue;
      // Unnamed blocks only when the primitive applies; its diagnostic is
      // dropped for them.
      std::optional<ScopedDiagnosticHandler> quiet;
      if (!named)
        quiet.emplace(&getContext(), [](Diagnostic &) { return success(); });
      if (failed(sch.vectorize(loop)) && named)
        return signalPassFailure();
    }
    if (printTrace)
      schedutil::printTrace(sch);
  }
};
} // namespace
