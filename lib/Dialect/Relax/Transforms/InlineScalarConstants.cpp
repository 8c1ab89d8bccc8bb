//===- InlineScalarConstants.cpp - scalar call_tir operands as constants --===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXINLINESCALARCONSTANTS
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;
namespace tir = mlc::tensorir;

namespace {

/// The value of `operand` if it is a rank-0 dense integer or float
/// relax.constant.
TypedAttr getScalarConstant(Value operand) {
  auto constant = operand.getDefiningOp<mlc::relax::ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!constant || !type || type.getRank() != 0 ||
      !type.getElementType().isIntOrFloat())
    return nullptr;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense)
    return nullptr;
  return dense.getSplatValue<TypedAttr>();
}

/// Whether the prim_func parameter `param` is only loaded or listed in the
/// access regions of blocks.
bool isOnlyRead(BlockArgument param) {
  return llvm::all_of(param.getUsers(), [&](Operation *user) {
    if (auto load = dyn_cast<memref::LoadOp>(user))
      return load.getMemRef() == param;
    return isa<tir::BlockOp>(user);
  });
}

struct InlineScalarConstantsPass
    : public mlc::relax::impl::RelaxInlineScalarConstantsBase<
          InlineScalarConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    SmallVector<CallTIROp> calls;
    module.walk([&](CallTIROp call) { calls.push_back(call); });
    llvm::SetVector<Operation *> constants;
    for (CallTIROp call : calls) {
      auto prim = symbols.lookup<tir::PrimFuncOp>(call.getCallee());
      if (!prim || prim.isExternal())
        continue;
      SmallVector<std::pair<unsigned, TypedAttr>> scalars;
      for (auto [i, operand] : llvm::enumerate(call.getArgs()))
        if (TypedAttr value = getScalarConstant(operand);
            value && isOnlyRead(prim.getArgument(i)))
          scalars.push_back({static_cast<unsigned>(i), value});
      if (scalars.empty())
        continue;

      // The callee becomes this call's own.
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(prim, module);
      if (!uses || !llvm::hasSingleElement(*uses)) {
        auto clone = cast<tir::PrimFuncOp>(prim->clone());
        clone.setPrivate();
        symbols.insert(clone, std::next(prim->getIterator()));
        prim = clone;
      }

      llvm::BitVector erased(prim.getNumArguments());
      for (auto [i, value] : scalars) {
        BlockArgument param = prim.getArgument(i);
        llvm::SetVector<tir::BlockOp> blocks;
        for (Operation *user : llvm::make_early_inc_range(param.getUsers())) {
          if (auto block = dyn_cast<tir::BlockOp>(user)) {
            blocks.insert(block);
            continue;
          }
          rewriter.setInsertionPoint(user);
          rewriter.replaceOpWithNewOp<arith::ConstantOp>(user, value);
        }
        for (tir::BlockOp block : blocks)
          tir::refreshAccessRegions(rewriter, block);
        if (!param.use_empty()) {
          // A block whose regions cannot be recomputed still lists it.
          continue;
        }
        erased.set(i);
        constants.insert(call.getArgs()[i].getDefiningOp());
      }
      if (erased.none())
        continue;
      if (failed(prim.eraseArguments(erased))) {
        prim.emitOpError("relax-inline-scalar-constants: cannot remove "
                         "its scalar parameters");
        return signalPassFailure();
      }
      SmallVector<Value> args;
      for (auto [i, operand] : llvm::enumerate(call.getArgs()))
        if (!erased.test(i))
          args.push_back(operand);
      rewriter.setInsertionPoint(call);
      auto newCall =
          CallTIROp::create(rewriter, call.getLoc(), call.getResultTypes(),
                            FlatSymbolRefAttr::get(prim.getSymNameAttr()), args,
                            call.getTirVarsAttr());
      rewriter.replaceOp(call, newCall.getResults());
    }
    for (Operation *constant : constants)
      if (constant->use_empty())
        rewriter.eraseOp(constant);
  }
};

} // namespace
