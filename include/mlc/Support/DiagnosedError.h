//===- DiagnosedError.h - errors already reported as diagnostics -*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlc's compile and run libraries return llvm::Errors. An error at a place
// in the IR is emitted as an MLIR diagnostic there (the context's handler
// prints or collects it) and returned as a DiagnosedError, which carries no
// message of its own; every other error carries its message. A tool prints
// the latter as `<tool>: error: <message>` (reportToolError); the C API
// emits it as a diagnostic, so that callers see every error in one stream.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_DIAGNOSEDERROR_H
#define MLC_SUPPORT_DIAGNOSEDERROR_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

namespace mlc {

/// An error already emitted as an MLIR diagnostic.
class DiagnosedError : public llvm::ErrorInfo<DiagnosedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
};

/// Returns a DiagnosedError.
llvm::Error createDiagnosedError();

/// An error whose message is `message`.
llvm::Error createError(const llvm::Twine &message);

/// Consumes `error`: a message is printed to stderr as
/// `<tool>: error: <message>`, a DiagnosedError is dropped (it was printed).
/// Returns failure when there was an error.
mlir::LogicalResult reportToolError(llvm::Error error, llvm::StringRef tool);

/// Consumes `error`: a message is emitted as an error diagnostic at `loc`,
/// a DiagnosedError is dropped. Returns failure when there was an error.
mlir::LogicalResult emitErrorDiagnostic(llvm::Error error, mlir::Location loc);

} // namespace mlc

#endif // MLC_SUPPORT_DIAGNOSEDERROR_H
