/*===-- mlc-c/Dialects.h - C API of mlc's dialects ---------------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Dialect handles of relay, relax and tensorir, in upstream's style          *|
|* (mlir-c/Dialect/*.h): insert one into an MlirDialectRegistry with          *|
|* mlirDialectHandleInsertDialect, or load it into a context with             *|
|* mlirDialectHandleLoadDialect.                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_DIALECTS_H
#define MLC_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// TVM's Relay dialect (`relay.*` ops on builtin tensors).
MLIR_CAPI_EXPORTED MlirDialectHandle mlcGetDialectHandle__relay__(void);

/// TVM's Relax dialect (dataflow regions, call_tir, symbolic shapes).
MLIR_CAPI_EXPORTED MlirDialectHandle mlcGetDialectHandle__relax__(void);

/// TVM's TensorIR dialect (prim_funcs of loops around blocks).
MLIR_CAPI_EXPORTED MlirDialectHandle mlcGetDialectHandle__tensorir__(void);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_DIALECTS_H
