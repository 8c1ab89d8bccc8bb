//===- TranslateRegistration.cpp - --export-tuning-tasks --------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// `mlc-translate --export-tuning-tasks kernels.mlir` writes the tuning tasks
// of a module (after `mlc-graph-to-kernels`) and the host's target key as
// JSON, for `mlc.meta_schedule`:
//
//   {"target": {"kind": "llvm", "cpu": ..., "features": [...], "mlc": ...},
//    "tasks": [{"name": ..., "workload_hash": ..., "weight": N,
//               "mod": "<module text>",
//               "harness": "<func.func text>", "harness_entry": ...}, ...]}
//
// `harness` (only for a kernel the model passes constants, its bound
// weights) calls the kernel with them; see TuningTask.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/MetaSchedule/Database.h"
#include "mlc/MetaSchedule/Tasks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlc::meta_schedule;

static LogicalResult exportTuningTasks(Operation *op, raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("--export-tuning-tasks expects a builtin.module");
  llvm::json::Array tasks;
  for (const TuningTask &task : extractTuningTasks(module)) {
    llvm::json::Object object{{"name", task.name},
                              {"workload_hash", task.hash},
                              {"weight", task.weight},
                              {"mod", task.workload}};
    if (!task.harness.empty()) {
      object["harness"] = task.harness;
      object["harness_entry"] = task.harnessEntry;
    }
    tasks.push_back(std::move(object));
  }
  llvm::json::Object result{
      {"target", getHostTargetKey(/*numCores=*/0).toJSON()},
      {"tasks", std::move(tasks)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(result))) << "\n";
  return success();
}

void mlc::meta_schedule::registerExportTuningTasksTranslation() {
  static TranslateFromMLIRRegistration registration(
      "export-tuning-tasks",
      "write the kernels of a module as tuning tasks (JSON: name, structural "
      "hash, number of calls, module text) with the host's target key",
      exportTuningTasks, [](DialectRegistry &registry) {
        mlir::registerAllDialects(registry);
        registry.insert<mlc::relay::RelayDialect, mlc::relax::RelaxDialect,
                        mlc::tensorir::TensorIRDialect>();
      });
}
