//===- TranslateRegistration.cpp - register --import-relax-json -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Target/RelaxJSON/RelaxJSONImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

void mlc::registerRelaxJSONImportTranslation() {
  static TranslateToMLIRRegistration registration(
      "import-relax-json",
      "import a graph of relax ops written as JSON (docs/RelaxJSON.md)",
      TranslateRawSourceMgrToMLIRFunction(
          [](llvm::SourceMgr &sourceMgr,
             MLIRContext *context) -> OwningOpRef<Operation *> {
            const llvm::MemoryBuffer *buffer =
                sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
            OwningOpRef<ModuleOp> module = importRelaxJSON(
                buffer->getBuffer(), buffer->getBufferIdentifier(), context);
            if (!module)
              return {};
            return OwningOpRef<Operation *>(module.release().getOperation());
          }),
      [](DialectRegistry &registry) {
        registry.insert<relax::RelaxDialect, func::FuncDialect>();
      });
}
