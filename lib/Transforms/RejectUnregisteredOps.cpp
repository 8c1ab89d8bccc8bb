//===- RejectUnregisteredOps.cpp - mlc-reject-unregistered-ops ------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The pipelines lower everything to LLVM: an op of an unregistered dialect
// is an error at its location before any pass sees it (upstream's
// math-extend-to-supported-types segfaults on one).
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlc {
#define GEN_PASS_DEF_REJECTUNREGISTEREDOPSPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct RejectUnregisteredOpsPass
    : public mlc::impl::RejectUnregisteredOpsPassBase<
          RejectUnregisteredOpsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](Operation *op) {
      if (op->isRegistered())
        return WalkResult::advance();
      op->emitOpError("of an unregistered dialect cannot be lowered by mlc's "
                      "pipelines");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
