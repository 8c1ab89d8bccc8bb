//===- RelayImporter.h - TVM Relay text to MLIR ----------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TARGET_RELAY_RELAYIMPORTER_H
#define MLC_TARGET_RELAY_RELAYIMPORTER_H

namespace mlc {

/// Registers the `--import-relay` translation with mlir-translate's registry.
void registerRelayImportTranslation();

} // namespace mlc

#endif // MLC_TARGET_RELAY_RELAYIMPORTER_H
