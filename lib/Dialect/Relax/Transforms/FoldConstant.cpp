//===- FoldConstant.cpp - relax-fold-constant -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Folds operations with constant operands through their fold hooks.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXFOLDCONSTANT
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

struct RelaxFoldConstantPass
    : mlc::relax::impl::RelaxFoldConstantBase<RelaxFoldConstantPass> {
  using RelaxFoldConstantBase::RelaxFoldConstantBase;

  void runOnOperation() override {
    // No patterns: the greedy driver folds, materializes constants, merges
    // equal constants and removes dead ones.
    FrozenRewritePatternSet patterns{RewritePatternSet(&getContext())};
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(applyPatternsGreedily(func.getBody(), patterns, config))) {
        func.emitError("relax-fold-constant did not converge");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
