//===- InitAll.h - register every mlc dialect and pass ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The one entry point that tools and embedders call to make mlc's dialects,
// passes and translations known, next to upstream MLIR's registerAll*.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_INITALL_H
#define MLC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlc {

/// Adds the relay, relax and tensorir dialects (and their interface
/// implementations) to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Adds upstream MLIR's dialects and extensions (mlir::registerAllDialects,
/// mlir::registerAllExtensions) and mlc's: what the context of every mlc
/// tool knows.
void registerAllDialectsWithUpstream(mlir::DialectRegistry &registry);

/// Registers every mlc pass and pass pipeline with the global registry.
void registerAllPasses();

/// Registers mlc's translations (Relay text import, ...) for mlc-translate.
void registerAllTranslations();

} // namespace mlc

#endif // MLC_INITALL_H
