/*===-- mlc-c/Target/RelaxJSON.h - relax graph JSON import --------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* mlc-translate --import-relax-json in process (mlc::importRelaxJSON): the  *|
|* graphs Python front ends write (docs/RelaxJSON.md).                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_TARGET_RELAXJSON_H
#define MLC_C_TARGET_RELAXJSON_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports the JSON graph `text` into a module of the relax dialect.
/// `fileName` names it in diagnostics, and a relative parameter file in it
/// is resolved against its directory. Returns a null module after any
/// error (emitted as diagnostics).
MLIR_CAPI_EXPORTED MlirModule mlcImportRelaxJSONFromString(
    MlirContext context, MlirStringRef text, MlirStringRef fileName);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_TARGET_RELAXJSON_H
