/*===-- mlc-c/Target/Relay.h - TVM Relay text import --------------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* mlc-translate --import-relay in process (mlc::importRelayText).           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_TARGET_RELAY_H
#define MLC_C_TARGET_RELAY_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports TVM Relay text (`mod.astext()`) into a module of the relay
/// dialect. `metaPath` names an .npz or .safetensors file holding
/// `meta[relay.Constant][N]` under the key "N", or is empty. Errors are
/// diagnostics at `sourceName:line:col`; returns a null module after any.
MLIR_CAPI_EXPORTED MlirModule mlcImportRelayFromString(MlirContext context,
                                                       MlirStringRef text,
                                                       MlirStringRef sourceName,
                                                       MlirStringRef metaPath);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_TARGET_RELAY_H
