//===- DiagnosedError.cpp - errors already reported as diagnostics --------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/DiagnosedError.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlc;

char DiagnosedError::ID = 0;

void DiagnosedError::log(llvm::raw_ostream &os) const {
  os << "the error was reported as a diagnostic";
}

std::error_code DiagnosedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error mlc::createDiagnosedError() {
  return llvm::make_error<DiagnosedError>();
}

llvm::Error mlc::createError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

mlir::LogicalResult mlc::reportToolError(llvm::Error error,
                                         llvm::StringRef tool) {
  if (!error)
    return mlir::success();
  llvm::handleAllErrors(
      std::move(error), [](const DiagnosedError &) {},
      [&](const llvm::ErrorInfoBase &info) {
        llvm::errs() << tool << ": error: " << info.message() << "\n";
      });
  return mlir::failure();
}

mlir::LogicalResult mlc::emitErrorDiagnostic(llvm::Error error,
                                             mlir::Location loc) {
  if (!error)
    return mlir::success();
  llvm::handleAllErrors(
      std::move(error), [](const DiagnosedError &) {},
      [&](const llvm::ErrorInfoBase &info) {
        mlir::emitError(loc) << info.message();
      });
  return mlir::failure();
}
