//===- ApproximateMath.cpp - polynomial approximations of f32 math -*- C++ -*-//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Vector math.exp & co. lower to one libm call per lane; upstream's
// polynomial approximations keep them as vector arithmetic.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlc {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
/// The functions whose approximation stays within 5 ulp of the exact
/// result (test/Integration/approximate-math.py). Not atan (40 ulp) nor
/// sin/cos (their range reduction fails for |x| beyond a few hundred).
constexpr StringLiteral kDefaultOps[] = {"exp",  "expm1", "log", "log1p",
                                         "log2", "tanh",  "erf"};
/// Every function upstream approximates.
constexpr StringLiteral kKnownOps[] = {"atan", "atan2", "cbrt",  "cos", "erf",
                                       "erfc", "exp",   "expm1", "log", "log1p",
                                       "log2", "sin",   "tanh"};

struct ApproximateMathPass
    : public mlc::impl::ApproximateMathPassBase<ApproximateMathPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    selected.clear();
    if (ops.empty()) {
      for (StringRef name : kDefaultOps)
        selected.insert(name);
    } else {
      for (const std::string &name : ops) {
        if (!llvm::is_contained(kKnownOps, name))
          return emitError(UnknownLoc::get(ctx))
                 << "mlc-approximate-math: no approximation of 'math." << name
                 << "' (known: "
                 << llvm::join(std::begin(kKnownOps), std::end(kKnownOps), ", ")
                 << ")";
        selected.insert(name);
      }
    }
    RewritePatternSet patterns(ctx);
    // Upstream asks by full op name ("math.exp").
    populateMathPolynomialApproximationPatterns(patterns, [&](StringRef name) {
      return name.consume_front("math.") && selected.contains(name);
    });
    frozen = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), frozen))) {
      // A pass failure always comes with an error that says which pass.
      getOperation()->emitError("mlc-approximate-math did not converge");
      return signalPassFailure();
    }
  }

  llvm::StringSet<> selected;
  FrozenRewritePatternSet frozen;
};
} // namespace
