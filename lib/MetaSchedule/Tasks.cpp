//===- Tasks.cpp - the kernels of a model as tuning tasks -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/MetaSchedule/Tasks.h"
#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallBitVector.h"
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

/// Sets `task.harness` (see TuningTask) when every call of `func` in
/// `module` passes relax.constant values at the same argument positions.
void buildHarness(tensorir::PrimFuncOp func, ModuleOp module,
                  TuningTask &task) {
  SmallVector<relax::CallTIROp> calls;
  module.walk([&](relax::CallTIROp call) {
    if (call.getCallee() == func.getSymName())
      calls.push_back(call);
  });
  if (calls.empty())
    return;
  relax::CallTIROp first = calls.front();
  unsigned numArgs = first.getArgs().size();
  llvm::SmallBitVector constant(numArgs, true);
  for (relax::CallTIROp call : calls) {
    if (call.getArgs().size() != numArgs || call.getTirVars())
      return;
    for (auto [i, arg] : llvm::enumerate(call.getArgs()))
      if (!arg.getDefiningOp<relax::ConstantOp>())
        constant.reset(i);
  }
  if (constant.none())
    return;
  auto isStatic = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.hasStaticShape() && !tensor.getEncoding();
  };
  if (!llvm::all_of(first.getArgs().getTypes(), isStatic) ||
      !llvm::all_of(first.getResultTypes(), isStatic))
    return;

  MLIRContext *ctx = func.getContext();
  OpBuilder builder(ctx);
  Location loc = UnknownLoc::get(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(scratch->getBody());
  SmallVector<Type> inputs;
  for (auto [i, arg] : llvm::enumerate(first.getArgs()))
    if (!constant.test(i))
      inputs.push_back(arg.getType());
  std::string entry = (func.getSymName() + "__with_weights").str();
  auto harness = func::FuncOp::create(
      builder, loc, entry,
      builder.getFunctionType(inputs, first.getResultTypes()));
  Block *body = harness.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  SmallVector<Value> args;
  unsigned next = 0;
  for (auto [i, arg] : llvm::enumerate(first.getArgs())) {
    if (!constant.test(i)) {
      args.push_back(body->getArgument(next++));
      continue;
    }
    // Inline (a bound weight's dense_resource blob cannot travel with a
    // function printed alone).
    DenseElementsAttr value = relax::getDenseElements(
        arg.getDefiningOp<relax::ConstantOp>().getValue());
    if (!value || value.getType() != arg.getType())
      return;
    args.push_back(relax::ConstantOp::create(builder, loc, value));
  }
  auto call = relax::CallTIROp::create(builder, loc, first.getResultTypes(),
                                       first.getCalleeAttr(), args,
                                       /*tir_vars=*/nullptr);
  func::ReturnOp::create(builder, loc, call.getResults());
  llvm::raw_string_ostream os(task.harness);
  OpPrintingFlags flags;
  flags.enableDebugInfo(false);
  // The callee is not in the scratch module: the call does not verify
  // there, which would make the printer fall back to the generic form.
  flags.assumeVerified();
  harness->print(os, flags);
  task.harnessEntry = entry;
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
    buildHarness(func, module, task);
    tasks.push_back(std::move(task));
  }
  return tasks;
}
