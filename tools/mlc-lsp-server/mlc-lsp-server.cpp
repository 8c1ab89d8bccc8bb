//===- mlc-lsp-server.cpp - MLIR language server with mlc's dialects ------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlir-lsp-server with the relay, relax and tensorir dialects registered next
// to upstream's, so that editors (the MLIR VS Code extension, any LSP client)
// give diagnostics, hover, go-to-definition and completion for `.mlir` files
// that use mlc's ops. Point the client's server path at this binary.
//
//===----------------------------------------------------------------------===//

#include "mlc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlc::registerAllDialectsWithUpstream(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
