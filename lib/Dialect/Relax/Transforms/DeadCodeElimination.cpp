//===- DeadCodeElimination.cpp - relax-dce ----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Removes unused pure operations (also inside dataflow blocks, dropping
// unused block results) and private symbols unreachable from the entry.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXDCE
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

/// Removes dead operations in the body of `func`. The greedy driver erases
/// trivially dead operations; the dataflow pattern drops unused block
/// results. Folding and constant CSE are off: this pass only deletes.
LogicalResult eliminateDeadOps(func::FuncOp func,
                               const FrozenRewritePatternSet &patterns) {
  if (func.isExternal())
    return success();
  GreedyRewriteConfig config;
  config.enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  bool changed = false;
  if (failed(applyPatternsGreedily(func.getBody(), patterns, config, &changed)))
    return func.emitError("relax-dce did not converge");
  return success();
}

/// Erases private symbols of `module` that no root reaches.
void eliminateDeadSymbols(ModuleOp module, Operation *entry) {
  SymbolTableCollection tables;
  llvm::SetVector<Operation *> reached;
  SmallVector<Operation *> worklist;
  auto reach = [&](Operation *op) {
    if (op && reached.insert(op))
      worklist.push_back(op);
  };
  reach(entry);
  for (Operation &op : module.getBody()->getOperations())
    if (auto symbol = dyn_cast<SymbolOpInterface>(op);
        symbol && !symbol.isPrivate())
      reach(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      reach(tables.lookupSymbolIn(module, use.getSymbolRef()));
  }
  for (Operation &op :
       llvm::make_early_inc_range(module.getBody()->getOperations()))
    if (auto symbol = dyn_cast<SymbolOpInterface>(op);
        symbol && symbol.isPrivate() && !reached.contains(&op))
      op.erase();
}

struct RelaxDCEPass : mlc::relax::impl::RelaxDCEBase<RelaxDCEPass> {
  using RelaxDCEBase::RelaxDCEBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    DataflowOp::getCanonicalizationPatterns(set, context);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // An empty entry: the public symbols are the only roots.
    Operation *entryOp =
        entry.empty() ? nullptr : SymbolTable::lookupSymbolIn(module, entry);
    if (!entryOp && !entry.empty()) {
      module.emitError("relax-dce: entry function '@")
          << entry << "' not found (set the 'entry' option)";
      return signalPassFailure();
    }
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(eliminateDeadOps(func, patterns)))
        return signalPassFailure();
    eliminateDeadSymbols(module, entryOp);
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
