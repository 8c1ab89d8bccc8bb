//===- TranslateRegistration.cpp - register --import-relay -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Target/Relay/RelayImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

void mlc::registerRelayImportTranslation() {
  static llvm::cl::opt<std::string> relayMeta(
      "relay-meta",
      llvm::cl::desc("With --import-relay: .npz or .safetensors file holding "
                     "meta[relay.Constant][N] under the key \"N\""),
      llvm::cl::value_desc("file"), llvm::cl::init(""));
  static TranslateToMLIRRegistration registration(
      "import-relay", "import TVM Relay text (version 0.0.5) to relay ops",
      TranslateRawSourceMgrToMLIRFunction(
          [](llvm::SourceMgr &sourceMgr,
             MLIRContext *context) -> OwningOpRef<Operation *> {
            RelayImportOptions options;
            options.metaPath = relayMeta;
            OwningOpRef<ModuleOp> module =
                importRelayText(sourceMgr, context, options);
            if (!module)
              return {};
            return OwningOpRef<Operation *>(module.release().getOperation());
          }),
      [](DialectRegistry &registry) {
        registry.insert<relay::RelayDialect, func::FuncDialect>();
      });
}
