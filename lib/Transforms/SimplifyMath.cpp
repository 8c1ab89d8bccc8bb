//===- SimplifyMath.cpp - upstream math algebraic simplification ----------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_SIMPLIFYMATHPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct SimplifyMathPass
    : public mlc::impl::SimplifyMathPassBase<SimplifyMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathAlgebraicSimplificationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      // A pass failure always comes with an error that says which pass.
      getOperation()->emitError("mlc-simplify-math did not converge");
      return signalPassFailure();
    }
  }
};
} // namespace
