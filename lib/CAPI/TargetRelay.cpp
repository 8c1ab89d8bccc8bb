//===- TargetRelay.cpp - C API of the Relay text importer -----------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/Target/Relay.h"

#include "mlc/Target/Relay/RelayImporter.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

MlirModule mlcImportRelayFromString(MlirContext context, MlirStringRef text,
                                    MlirStringRef sourceName,
                                    MlirStringRef metaPath) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(text), unwrap(sourceName)),
      llvm::SMLoc());
  mlc::RelayImportOptions options;
  options.metaPath = unwrap(metaPath).str();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlc::importRelayText(sourceMgr, unwrap(context), options);
  if (!module)
    return MlirModule{nullptr};
  return wrap(module.release());
}
