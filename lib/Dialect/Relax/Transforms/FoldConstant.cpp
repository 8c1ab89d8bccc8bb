//===- FoldConstant.cpp - relax-fold-constant -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Folds operations with constant operands: through their fold hooks, and by
// interpreting the tensorir kernel of the op (its legalization, or the
// callee of a relax.call_tir).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlc/Dialect/Relax/Utils/ConstantEvaluator.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXFOLDCONSTANT
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

namespace {

struct RelaxFoldConstantPass
    : mlc::relax::impl::RelaxFoldConstantBase<RelaxFoldConstantPass> {
  using RelaxFoldConstantBase::RelaxFoldConstantBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConstantEvaluator evaluator(context, maxElements, maxSteps);
    // No patterns: the greedy driver folds, materializes constants, merges
    // equal constants and removes dead ones.
    FrozenRewritePatternSet patterns{RewritePatternSet(context)};
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Each evaluation round replaces ops by constants in program order,
      // so chains fold in one round; the folders may expose more.
      llvm::DenseSet<Operation *> failedOps;
      bool changed = true;
      while (changed) {
        if (failed(applyPatternsGreedily(func.getBody(), patterns, config))) {
          func.emitError("relax-fold-constant did not converge");
          return signalPassFailure();
        }
        changed = evaluateConstantOps(func, evaluator, failedOps);
      }
    }
  }

  /// Replaces every evaluable op with constant operands in `func`; returns
  /// whether anything changed. Ops whose kernel failed to run are warned
  /// about once and recorded in `failedOps`.
  bool evaluateConstantOps(func::FuncOp func, ConstantEvaluator &evaluator,
                           llvm::DenseSet<Operation *> &failedOps) {
    SmallVector<Operation *> worklist;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!failedOps.contains(op) && evaluator.canEvaluate(op))
        worklist.push_back(op);
    });
    bool changed = false;
    for (Operation *op : worklist) {
      SmallVector<std::pair<Location, std::string>> errors;
      std::string kernel;
      FailureOr<SmallVector<ElementsAttr>> values =
          evaluator.evaluate(op, errors, &kernel);
      if (failed(values)) {
        if (errors.empty())
          continue;
        // The kernel's errors become notes of one warning at the op.
        InFlightDiagnostic diag =
            op->emitWarning("relax-fold-constant: cannot evaluate the kernel @")
            << kernel << " of these constant operands; left unfolded";
        for (auto &[loc, message] : errors)
          diag.attachNote(loc) << message;
        failedOps.insert(op);
        continue;
      }
      OpBuilder builder(op);
      SmallVector<Value> replacements;
      for (ElementsAttr value : *values)
        replacements.push_back(
            ConstantOp::create(builder, op->getLoc(), value));
      op->replaceAllUsesWith(replacements);
      op->erase();
      changed = true;
    }
    return changed;
  }
};

} // namespace
