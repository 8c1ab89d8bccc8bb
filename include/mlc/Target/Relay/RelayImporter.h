//===- RelayImporter.h - TVM Relay text to MLIR ----------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Imports TVM's Relay text format (version 0.0.5, as `IRModule.astext()`
// prints it) into a module of `func.func`s of relay ops. Every op is built
// generically by name (`"relay." + op`) and typed by its own type inference;
// attributes follow the fixed TVM→MLIR table of docs/architecture.md.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TARGET_RELAY_RELAYIMPORTER_H
#define MLC_TARGET_RELAY_RELAYIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlc {

struct RelayImportOptions {
  /// `.npz` or `.safetensors` file holding `meta[relay.Constant][N]` under the
  /// key "N". Empty: the program may not reference constants.
  std::string metaPath;
};

/// Imports the main buffer of `sourceMgr`. Errors are emitted as diagnostics
/// (with `file:line:col` locations); returns null after any error.
mlir::OwningOpRef<mlir::ModuleOp>
importRelayText(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context,
                const RelayImportOptions &options = {});

/// Registers the `--import-relay` translation (and its `--relay-meta` option)
/// with mlir-translate's registry.
void registerRelayImportTranslation();

} // namespace mlc

#endif // MLC_TARGET_RELAY_RELAYIMPORTER_H
