//===- Tasks.h - the kernels of a model as tuning tasks ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's task extraction (`relax_integration.extract_tasks`): after fusion and
// deduplication every distinct prim_func of a module is one task, weighted by
// the number of calls to it, and identified by a structural hash that does
// not depend on its name, so that a kernel tuned in one model is found in
// another.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_METASCHEDULE_TASKS_H
#define MLC_METASCHEDULE_TASKS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlc::tensorir {
class PrimFuncOp;
} // namespace mlc::tensorir

namespace mlc::meta_schedule {

/// The structural hash of a kernel: 32 hex digits of the SHA-256 of its
/// printed form (no locations) under the name `main`, public.
std::string computeWorkloadHash(tensorir::PrimFuncOp func);

/// The kernel alone as the module text a tuning run takes: a public
/// prim_func under its own name.
std::string printWorkload(tensorir::PrimFuncOp func);

struct TuningTask {
  std::string name;
  std::string hash;
  /// Calls to the kernel in the module (1 for a kernel nothing calls).
  int64_t weight = 1;
  std::string workload;
  /// When the model passes the kernel a constant (a bound weight) at the
  /// same positions in every call: a public `func.func` named
  /// `harnessEntry` that calls the kernel with those constants (the first
  /// call's values, printed inline) and takes its other inputs as
  /// arguments. Measured with the kernel made private beside it, the
  /// kernel sees its weights as the model's compile does (prepacked by
  /// mlc-default-schedule, not packed on every call). Empty otherwise.
  std::string harness;
  std::string harnessEntry;
};

/// One task per prim_func of `module` (a module after fusion, e.g. from
/// `mlc-graph-to-kernels`), in the module's order.
llvm::SmallVector<TuningTask> extractTuningTasks(mlir::ModuleOp module);

/// Registers `--export-tuning-tasks` with mlc-translate.
void registerExportTuningTasksTranslation();

} // namespace mlc::meta_schedule

#endif // MLC_METASCHEDULE_TASKS_H
