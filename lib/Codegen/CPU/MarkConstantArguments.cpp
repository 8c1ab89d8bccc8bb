//===- MarkConstantArguments.cpp - kernel arguments bound to constants ----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Marks the arguments of private functions that every caller passes a
// constant global (a bound weight), so that the default schedule may read
// them in a layout of its own (PrepackedPanels.cpp).
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlc {
#define GEN_PASS_DEF_CPUMARKCONSTANTARGUMENTSPASS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The constant global with an initial value that `value` reads, if any.
memref::GlobalOp constantGlobal(Value value, SymbolTableCollection &symbols) {
  auto get = value.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return {};
  auto global =
      symbols.lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      global.isExternal())
    return {};
  return global;
}

struct CPUMarkConstantArgumentsPass
    : public mlc::impl::CPUMarkConstantArgumentsPassBase<
          CPUMarkConstantArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPrivate() || func.isExternal())
        continue;
      std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
      if (!uses || uses->empty())
        continue;
      SmallVector<func::CallOp> calls;
      bool onlyCalls = true;
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call || call.getNumOperands() != func.getNumArguments()) {
          onlyCalls = false;
          break;
        }
        calls.push_back(call);
      }
      if (!onlyCalls)
        continue;
      for (auto [i, argument] : llvm::enumerate(func.getArguments())) {
        auto type = dyn_cast<MemRefType>(argument.getType());
        if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
          continue;
        if (llvm::all_of(calls, [&](func::CallOp call) {
              return static_cast<bool>(
                  constantGlobal(call.getOperand(i), symbols));
            }))
          func.setArgAttr(i, mlc::kConstantArgumentAttr, unit);
      }
    }
  }
};

} // namespace
