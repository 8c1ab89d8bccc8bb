/*===-- mlc-c/Target/ONNX.h - ONNX import -------------------------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* mlc-translate --import-onnx in process (mlc::importONNXModel).            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_TARGET_ONNX_H
#define MLC_C_TARGET_ONNX_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct MlcONNXImportOptions {
  /// Floating-point initializers stay parameters of `main` (relax.name).
  bool keepParamsAsInput;
  /// The default domain's opset to convert with; 0: the model's.
  int64_t opset;
  /// Directory of external tensor data; empty: the model's.
  MlirStringRef externalDataDir;
  /// Input shapes replacing the model's (TVM's shape_dict): input i is
  /// named inputShapeNames[i] and has inputShapeRanks[i] dimensions, taken
  /// in order from inputShapeDims.
  intptr_t numInputShapes;
  const MlirStringRef *inputShapeNames;
  const intptr_t *inputShapeRanks;
  const int64_t *inputShapeDims;
} MlcONNXImportOptions;

/// The defaults of mlc-translate --import-onnx.
MLIR_CAPI_EXPORTED MlcONNXImportOptions mlcONNXImportOptionsGetDefault(void);

/// Whether this build of mlc has the ONNX importer (Debian's libonnx).
MLIR_CAPI_EXPORTED bool mlcHasONNXImporter(void);

/// Imports the serialized ONNX model `bytes` into a module of the relax
/// dialect; `fileName` names it in diagnostics and locates external data.
/// Returns a null module after any error (emitted as diagnostics).
MLIR_CAPI_EXPORTED MlirModule mlcImportONNXFromBytes(
    MlirContext context, MlirStringRef bytes, MlirStringRef fileName,
    const MlcONNXImportOptions *options);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_TARGET_ONNX_H
