//===- InferAccessRegions.cpp - infer tensorir.block regions ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"

namespace mlc::tensorir {
#define GEN_PASS_DEF_TENSORIRINFERACCESSREGIONS
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"
} // namespace mlc::tensorir

using namespace mlir;
using namespace mlc::tensorir;

namespace {
struct InferAccessRegionsPass
    : public mlc::tensorir::impl::TensorIRInferAccessRegionsBase<
          InferAccessRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Post-order: inner blocks get their regions first, and the outer ones
    // then use them.
    WalkResult result = getOperation().walk([&](BlockOp block) {
      bool needReads = overwrite || !block.getReads();
      bool needWrites = overwrite || !block.getWrites();
      if (!needReads && !needWrites)
        return WalkResult::advance();
      FailureOr<AccessRegions> regions = inferAccessRegions(block);
      if (failed(regions))
        return WalkResult::interrupt();
      if (needReads)
        block.setReadRegions(regions->readBuffers, regions->reads);
      if (needWrites)
        block.setWriteRegions(regions->writeBuffers, regions->writes);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
