//===- DeduplicateFunctions.cpp - merge identical private functions -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Functions are compared by their printed generic form with the symbol name
// replaced: that covers the op, every attribute, the signature and the body
// exactly, at the cost of one printing per function (far below what the
// later passes spend on each duplicate).
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlc {
#define GEN_PASS_DEF_DEDUPLICATEFUNCTIONSPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The printed form of `func` under a fixed name: equal for functions that
/// differ in their symbol name only.
std::string getFingerprint(FunctionOpInterface func) {
  StringAttr name = SymbolTable::getSymbolName(func);
  SymbolTable::setSymbolName(func, "__mlc_deduplicate_functions");
  std::string text;
  llvm::raw_string_ostream os(text);
  func->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  SymbolTable::setSymbolName(func, name);
  return text;
}

struct DeduplicateFunctionsPass
    : public mlc::impl::DeduplicateFunctionsPassBase<DeduplicateFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<FunctionOpInterface> kept;
    SmallVector<std::pair<FunctionOpInterface, FunctionOpInterface>> merged;
    for (Operation &op : module.getBody()->getOperations()) {
      auto func = dyn_cast<FunctionOpInterface>(op);
      if (!func || func.isExternal() ||
          SymbolTable::getSymbolVisibility(func) !=
              SymbolTable::Visibility::Private)
        continue;
      auto [it, inserted] = kept.try_emplace(getFingerprint(func), func);
      if (!inserted)
        merged.push_back({func, it->second});
    }
    for (auto [duplicate, original] : merged) {
      if (failed(SymbolTable::replaceAllSymbolUses(
              duplicate, SymbolTable::getSymbolName(original), module))) {
        duplicate.emitError("mlc-deduplicate-functions: cannot redirect the "
                            "uses of this function to @")
            << SymbolTable::getSymbolName(original).getValue();
        return signalPassFailure();
      }
      duplicate.erase();
      ++numErased;
    }
  }
};

} // namespace
