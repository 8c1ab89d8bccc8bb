//===- PassFailureDiagnostics.cpp - no silent pass failures ---------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/PassFailureDiagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include <atomic>
#include <memory>

using namespace mlir;

namespace {
class PassFailureDiagnostics : public PassInstrumentation {
public:
  explicit PassFailureDiagnostics(MLIRContext *context)
      : errors(std::make_shared<std::atomic<unsigned>>(0)),
        // Counts errors and lets them through to the tool's handler. Passes
        // may run on several threads; the count is shared and atomic.
        handler(context, [counter = errors](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            ++*counter;
          return failure();
        }) {}

  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (*errors != 0)
      return;
    StringRef name = pass->getArgument();
    if (name.empty())
      name = pass->getName();
    op->emitError() << "pass '" << name << "' failed on '" << op->getName()
                    << "' without saying why (a bug in the pass: please "
                       "report it with this input)";
  }

private:
  std::shared_ptr<std::atomic<unsigned>> errors;
  ScopedDiagnosticHandler handler;
};
} // namespace

void mlc::addPassFailureDiagnostics(PassManager &pm) {
  pm.addInstrumentation(
      std::make_unique<PassFailureDiagnostics>(pm.getContext()));
}
