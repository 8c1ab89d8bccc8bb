//===- relay-text-fuzzer.cpp - libFuzzer target: Relay text import --------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Any bytes through mlc::importRelayText (mlc-translate --import-relay):
// the importer must return a module or null with diagnostics; ASan and
// libFuzzer report a crash, a leak or memory misuse.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/Relay/RelayImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for all inputs, as a long-running tool would use it.
  static mlir::MLIRContext *context = [] {
    auto *created = new mlir::MLIRContext();
    created->printOpOnDiagnostic(false);
    return created;
  }();
  mlir::ScopedDiagnosticHandler quiet(
      context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.relay"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlc::importRelayText(sourceMgr, context);
  if (module)
    (void)module->verify();
  return 0;
}
