//===- RewriteDataflowReshape.cpp - reshape kernels as views --------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXREWRITEDATAFLOWRESHAPE
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;
namespace tir = mlc::tensorir;

namespace {

struct RewriteDataflowReshapePass
    : public mlc::relax::impl::RelaxRewriteDataflowReshapeBase<
          RewriteDataflowReshapePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    // Each callee is analyzed once.
    DenseMap<Operation *, bool> isReshape;
    llvm::SetVector<Operation *> rewrittenCallees;
    SmallVector<CallTIROp> calls;
    module.walk([&](CallTIROp call) {
      if (isa<DataflowOp>(call->getParentOp()))
        calls.push_back(call);
    });
    for (CallTIROp call : calls) {
      auto callee = symbols.lookup<tir::PrimFuncOp>(call.getCallee());
      if (!callee || call.getTirVars() || call.getArgs().size() != 1 ||
          call.getNumResults() != 1)
        continue;
      auto [it, inserted] = isReshape.try_emplace(callee, false);
      if (inserted)
        it->second = tir::hasReshapePattern(callee);
      if (!it->second)
        continue;
      Value result = call.getResult(0);
      auto type = cast<RankedTensorType>(result.getType());
      rewriter.setInsertionPoint(call);
      auto reshape = ReshapeOp::create(
          rewriter, call.getLoc(), type, call.getArgs().front(),
          rewriter.getDenseI64ArrayAttr(type.getShape()));
      rewriter.replaceOp(call, reshape.getResult());
      rewrittenCallees.insert(callee);
    }
    for (Operation *callee : rewrittenCallees)
      if (SymbolTable::symbolKnownUseEmpty(callee, module))
        rewriter.eraseOp(callee);
  }
};

} // namespace
