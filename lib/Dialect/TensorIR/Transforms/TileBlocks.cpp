//===- TileBlocks.cpp - tensorir-tile pass ----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/IR/Diagnostics.h"

namespace mlc::tensorir {
#define GEN_PASS_DEF_TENSORIRTILE
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"
} // namespace mlc::tensorir

using namespace mlir;
using namespace mlc::tensorir;

namespace {
struct TileBlocksPass
    : public mlc::tensorir::impl::TensorIRTileBase<TileBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    PrimFuncOp func = getOperation();
    if (sizes.empty())
      return;
    for (int64_t size : sizes)
      if (size <= 0) {
        func.emitError("tensorir-tile: tile size ")
            << size << " is not positive";
        return signalPassFailure();
      }
    SmallVector<BlockOp> targets;
    if (failed(schedutil::selectBlocks(func, blocks, targets)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    Schedule sch(func, rewriter);
    bool named = !blocks.empty();
    for (BlockOp block : targets) {
      SmallVector<ForOp> loops = Schedule::getLoops(block);
      if (loops.size() < sizes.size()) {
        if (!named)
          continue;
        block.emitError("cannot tile block '")
            << block.getName() << "': it has " << loops.size()
            << " loops, fewer than the " << sizes.size() << " tile sizes";
        return signalPassFailure();
      }
      loops.resize(sizes.size());
      // Unnamed blocks are tiled only when the primitive applies (it checks
      // everything before changing the IR); its diagnostic is dropped.
      std::optional<ScopedDiagnosticHandler> quiet;
      if (!named)
        quiet.emplace(&getContext(), [](Diagnostic &) { return success(); });
      if (failed(sch.tile(loops, sizes)) && named)
        return signalPassFailure();
    }
    if (printTrace)
      schedutil::printTrace(sch);
  }
};
} // namespace
