//===- MetaScheduleApplyDatabase.cpp - replay tuning records ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Schedules each kernel of a module by the best tuning record of its workload
// (TVM's MetaScheduleApplyDatabase). The record's trace is replayed on a copy
// of the kernel renamed as the tuned workload was, since the trace may match
// the function by that name; the result replaces the kernel.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/MetaSchedule/Database.h"
#include "mlc/MetaSchedule/Tasks.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXMETASCHEDULEAPPLYDATABASE
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc;
using namespace mlc::meta_schedule;

namespace {

/// The scheduled kernel of `record`, replayed on a copy of `func`, or a
/// failure with the reason in `reason`.
FailureOr<OwningOpRef<ModuleOp>> replayRecord(tensorir::PrimFuncOp func,
                                              const TuningRecord &record,
                                              const Workload &workload,
                                              std::string &reason) {
  MLIRContext *context = func.getContext();
  // The errors of parsing and replaying become the reason of one warning.
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error && reason.empty())
      reason = diagnostic.str();
    return success();
  });
  ParserConfig config(context);
  OwningOpRef<ModuleOp> tuned =
      parseSourceString<ModuleOp>(workload.text, config, "workload");
  if (!tuned)
    return failure();
  auto tunedFuncs = tuned->getOps<tensorir::PrimFuncOp>();
  if (!llvm::hasSingleElement(tunedFuncs)) {
    reason = "the stored workload is not one prim_func";
    return failure();
  }
  StringRef tunedName = (*tunedFuncs.begin()).getSymName();

  OwningOpRef<ModuleOp> script =
      parseSourceString<ModuleOp>(record.trace, config, "trace");
  if (!script)
    return failure();
  Operation *entry = transform::detail::findTransformEntryPoint(
      script.get(), script.get(),
      transform::TransformDialect::kTransformEntryPointSymbolName);
  if (!entry) {
    reason = "the trace has no @__transform_main";
    return failure();
  }

  OwningOpRef<ModuleOp> payload = ModuleOp::create(func.getLoc());
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(payload->getBody());
  auto copy = cast<tensorir::PrimFuncOp>(builder.clone(*func));
  copy.setSymName(tunedName);
  copy.setSymVisibilityAttr(nullptr);
  if (failed(transform::applyTransformNamedSequence(
          payload.get(), entry, script.get(), transform::TransformOptions())))
    return failure();
  if (!llvm::hasSingleElement(payload->getOps<tensorir::PrimFuncOp>()) ||
      !llvm::hasSingleElement(payload->getBody()->getOperations())) {
    reason = "the trace does not leave one prim_func";
    return failure();
  }
  if (failed(verify(payload.get())))
    return failure();
  return payload;
}

struct RelaxMetaScheduleApplyDatabasePass
    : relax::impl::RelaxMetaScheduleApplyDatabaseBase<
          RelaxMetaScheduleApplyDatabasePass> {
  using RelaxMetaScheduleApplyDatabaseBase::RelaxMetaScheduleApplyDatabaseBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (workDir.empty()) {
      emitError(module.getLoc(),
                "relax-meta-schedule-apply-database needs the "
                "'work-dir' option (the tuning database's directory)");
      return signalPassFailure();
    }
    if (numCores < 0) {
      emitError(module.getLoc(), "relax-meta-schedule-apply-database: "
                                 "num-cores ")
          << static_cast<int64_t>(numCores) << " is negative";
      return signalPassFailure();
    }
    llvm::Expected<JSONDatabase> database = JSONDatabase::open(workDir);
    if (!database) {
      emitError(module.getLoc(), llvm::toString(database.takeError()));
      return signalPassFailure();
    }
    TargetKey target = getHostTargetKey(numCores);
    for (auto func :
         llvm::make_early_inc_range(module.getOps<tensorir::PrimFuncOp>())) {
      std::string hash = computeWorkloadHash(func);
      const TuningRecord *record = database->queryBest(hash, target);
      if (!record)
        continue;
      std::string reason;
      FailureOr<OwningOpRef<ModuleOp>> tuned =
          replayRecord(func, *record, database->getWorkload(*record), reason);
      if (failed(tuned)) {
        ++numFailed;
        func.emitWarning("the tuning record of '")
            << func.getSymName() << "' (workload " << hash << " in '" << workDir
            << "') does not apply, the kernel keeps the default "
            << "schedule: " << (reason.empty() ? "unknown reason" : reason);
        continue;
      }
      auto scheduled =
          cast<tensorir::PrimFuncOp>(tuned->get().getBody()->front());
      scheduled->remove();
      scheduled.setSymName(func.getSymName());
      scheduled.setSymVisibilityAttr(func.getSymVisibilityAttr());
      module.getBody()->getOperations().insert(func->getIterator(), scheduled);
      func->erase();
      ++numApplied;
    }
  }
};

} // namespace
