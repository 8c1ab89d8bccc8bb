//===- DefaultSchedule.cpp - default GPU schedule of TensorIR -------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM dlight's rule-based default GPU schedule, on tensorir prim_funcs with
// the TensorIR schedule primitives. Each rule is a function that schedules
// one top-level statement or declines; the first that applies wins.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_GPUDEFAULTSCHEDULEPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

namespace {

/// Whether `value` is `iv` or computed from it.
bool dependsOn(Value value, Value iv) {
  if (value == iv)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value operand) { return dependsOn(operand, iv); });
}

/// Whether `loop` only feeds spatial iteration variables of the blocks in it.
bool isSpatialLoop(ForOp loop) {
  Value iv = loop.getInductionVar();
  WalkResult result = loop.walk([&](BlockOp block) {
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
      if (block.isReduceIterVar(i) && dependsOn(block.getBindings()[i], iv))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

bool startsAtZero(ForOp loop) {
  std::optional<int64_t> lb = loop.getConstantLowerBound();
  std::optional<int64_t> step = loop.getConstantStep();
  return lb && *lb == 0 && step && *step == 1;
}

/// Side-effect free, region-free ops (index computations between loops).
bool isIndexExpr(Operation &op) {
  return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
}

/// The only loop in `loop`'s body besides index computations, if any.
ForOp getOnlyNestedLoop(ForOp loop) {
  ForOp nested;
  for (Operation &op : loop.getBodyBlock()->without_terminator()) {
    if (isIndexExpr(op))
      continue;
    auto inner = dyn_cast<ForOp>(op);
    if (!inner || nested)
      return nullptr;
    nested = inner;
  }
  return nested;
}

/// The leading perfectly nested serial spatial loops of `root` that start
/// at 0 with constant extents (what `fuse` takes).
SmallVector<ForOp> getSpatialBand(ForOp root) {
  SmallVector<ForOp> band;
  for (ForOp loop = root; loop; loop = getOnlyNestedLoop(loop)) {
    if (loop.getKind() != ForKind::serial || !startsAtZero(loop) ||
        !loop.getConstantUpperBound() || !isSpatialLoop(loop))
      break;
    band.push_back(loop);
  }
  return band;
}

struct GPUDefaultSchedulePass
    : public mlc::impl::GPUDefaultSchedulePassBase<GPUDefaultSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    PrimFuncOp func = getOperation();
    if (threadsPerBlock < 1 || threadsPerBlock > 1024) {
      func.emitError("mlc-gpu-default-schedule: threads-per-block must be "
                     "in [1, 1024], got ")
          << threadsPerBlock;
      return signalPassFailure();
    }
    // Hand-scheduled for the GPU already (dlight skips these too).
    WalkResult bound = func.walk([](ForOp loop) {
      return loop.getKind() == ForKind::thread_binding ? WalkResult::interrupt()
                                                       : WalkResult::advance();
    });
    if (bound.wasInterrupted())
      return;

    IRRewriter rewriter(&getContext());
    Schedule sch(func, rewriter);
    SmallVector<Operation *> statements;
    for (Operation &op : func.getBody().front().without_terminator())
      if (isa<ForOp, BlockOp>(op))
        statements.push_back(&op);
    for (Operation *statement : statements) {
      auto loop = dyn_cast<ForOp>(statement);
      if (loop) {
        // A rule that does not apply is no error: the next one is tried.
        ScopedDiagnosticHandler quiet(&getContext(),
                                      [](Diagnostic &) { return success(); });
        if (succeeded(applyFallback(sch, loop)))
          continue;
      }
      if (failed(applySingleThread(rewriter, statement)))
        return signalPassFailure();
    }
  }

  /// dlight's Fallback: fuse the spatial band, split it into blocks x
  /// threads.
  LogicalResult applyFallback(Schedule &sch, ForOp root) {
    SmallVector<ForOp> band = getSpatialBand(root);
    ForOp fused;
    int64_t extent;
    if (!band.empty()) {
      if (band.size() == 1) {
        fused = band.front();
      } else {
        FailureOr<ForOp> result = sch.fuse(band);
        if (failed(result))
          return failure();
        fused = *result;
      }
      extent = *fused.getConstantUpperBound();
    } else if (root.getKind() == ForKind::serial && startsAtZero(root) &&
               !root.getConstantUpperBound() && isSpatialLoop(root)) {
      // A dynamic extent: the grid is ceil(n / threads), computed on the host.
      fused = root;
      extent = ShapedType::kDynamic;
    } else {
      return failure();
    }
    if (extent != ShapedType::kDynamic && extent <= threadsPerBlock)
      return sch.bind(fused, "threadIdx.x");
    FailureOr<SmallVector<ForOp>> parts =
        sch.split(fused, {0, static_cast<int64_t>(threadsPerBlock)});
    if (failed(parts))
      return failure();
    if (failed(sch.bind((*parts)[0], "blockIdx.x")))
      return failure();
    return sch.bind((*parts)[1], "threadIdx.x");
  }

  /// Runs `statement` in one thread of one block.
  LogicalResult applySingleThread(RewriterBase &rewriter,
                                  Operation *statement) {
    rewriter.setInsertionPoint(statement);
    auto unit =
        ForOp::create(rewriter, statement->getLoc(), rewriter.getIndexAttr(0),
                      rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
                      ForKind::thread_binding, "threadIdx.x");
    unit.setIvNameAttr(rewriter.getStringAttr("unit"));
    rewriter.moveOpBefore(statement, unit.getBodyBlock()->getTerminator());
    return success();
  }
};

} // namespace
