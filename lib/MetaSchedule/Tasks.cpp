//===- Tasks.cpp - the kernels of a model as tuning tasks -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/MetaSchedule/Tasks.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::meta_schedule;

namespace {
/// Prints a copy of `func` under `name`, public, without locations.
std::string printAs(tensorir::PrimFuncOp func, StringRef name, bool inModule) {
  OpBuilder builder(func.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto copy = cast<tensorir::PrimFuncOp>(builder.clone(*func));
  copy.setSymName(name);
  copy.setSymVisibilityAttr(nullptr);
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.enableDebugInfo(false);
  if (inModule)
    module->print(os, flags);
  else
    copy->print(os, flags);
  return text;
}
} // namespace

std::string mlc::meta_schedule::computeWorkloadHash(tensorir::PrimFuncOp func) {
  std::string text = printAs(func, "main", /*inModule=*/false);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true)
      .substr(0, 32);
}

std::string mlc::meta_schedule::printWorkload(tensorir::PrimFuncOp func) {
  return printAs(func, func.getSymName(), /*inModule=*/true);
}

SmallVector<TuningTask>
mlc::meta_schedule::extractTuningTasks(ModuleOp module) {
  SmallVector<TuningTask> tasks;
  for (auto func : module.getOps<tensorir::PrimFuncOp>()) {
    TuningTask task;
    task.name = func.getSymName().str();
    task.hash = computeWorkloadHash(func);
    task.workload = printWorkload(func);
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func, module)) {
      int64_t calls = llvm::range_size(*uses);
      if (calls > 0)
        task.weight = calls;
    }
    tasks.push_back(std::move(task));
  }
  return tasks;
}
