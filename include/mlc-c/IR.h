/*===-- mlc-c/IR.h - IR helpers of mlc's C API --------------------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* What upstream's mlir-c/IR.h lacks and mlc's bindings need.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_IR_H
#define MLC_C_IR_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parses `module` as mlirModuleCreateParse does, with `sourceName` as the
/// file name of its locations (e.g. "<stdin>", as mlc-opt names its input),
/// so that diagnostics say which text they are about. Returns a null module
/// (after emitting the parser's diagnostics) on failure.
MLIR_CAPI_EXPORTED MlirModule mlcModuleCreateParseFromString(
    MlirContext context, MlirStringRef module, MlirStringRef sourceName);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_IR_H
