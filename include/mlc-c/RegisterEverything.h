/*===-- mlc-c/RegisterEverything.h - register all of mlc ----------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* What every mlc tool registers, for C embedders and language bindings      *|
|* (upstream's mlir-c/RegisterEverything.h, for mlc).                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_REGISTEREVERYTHING_H
#define MLC_C_REGISTEREVERYTHING_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds mlc's dialects (relay, relax, tensorir, with their interface
/// implementations) to `registry`.
MLIR_CAPI_EXPORTED void mlcRegisterAllDialects(MlirDialectRegistry registry);

/// Adds upstream MLIR's dialects and extensions and mlc's: what the context
/// of mlc-opt knows (its input may use any of them).
MLIR_CAPI_EXPORTED void
mlcRegisterAllDialectsWithUpstream(MlirDialectRegistry registry);

/// Registers every mlc pass and pipeline (and upstream's passes) with the
/// global registry, so that mlirParsePassPipeline /
/// mlirOpPassManagerAddPipeline know them by name.
MLIR_CAPI_EXPORTED void mlcRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_REGISTEREVERYTHING_H
