//===- ForwardLoopAnnotations.cpp - loop annotations to !llvm.loop -*- C++ -*-//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/LoopAnnotations.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlc {
#define GEN_PASS_DEF_FORWARDLOOPANNOTATIONSPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

template <typename BranchOp> void forward(BranchOp branch) {
  auto annotation = dyn_cast_or_null<LLVM::LoopAnnotationAttr>(
      branch->getDiscardableAttr(mlc::kLoopAnnotationAttrName));
  if (!annotation)
    return;
  branch->removeDiscardableAttr(mlc::kLoopAnnotationAttrName);
  if (!branch.getLoopAnnotationAttr())
    branch.setLoopAnnotationAttr(annotation);
}

struct ForwardLoopAnnotationsPass
    : public mlc::impl::ForwardLoopAnnotationsPassBase<
          ForwardLoopAnnotationsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        forward(br);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        forward(condBr);
    });
  }
};
} // namespace
