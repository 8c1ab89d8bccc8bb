//===- TargetONNX.cpp - C API of the ONNX importer ------------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/Target/ONNX.h"

#ifdef MLC_HAS_ONNX
#include "mlc/Target/ONNX/ONNXImporter.h"
#endif

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

MlcONNXImportOptions mlcONNXImportOptionsGetDefault(void) {
  MlcONNXImportOptions options;
  options.keepParamsAsInput = false;
  options.opset = 0;
  options.externalDataDir = mlirStringRefCreate(nullptr, 0);
  options.numInputShapes = 0;
  options.inputShapeNames = nullptr;
  options.inputShapeRanks = nullptr;
  options.inputShapeDims = nullptr;
  return options;
}

bool mlcHasONNXImporter(void) {
#ifdef MLC_HAS_ONNX
  return true;
#else
  return false;
#endif
}

MlirModule mlcImportONNXFromBytes(MlirContext context, MlirStringRef bytes,
                                  MlirStringRef fileName,
                                  const MlcONNXImportOptions *options) {
#ifdef MLC_HAS_ONNX
  MlcONNXImportOptions given =
      options ? *options : mlcONNXImportOptionsGetDefault();
  mlc::ONNXImportOptions parsed;
  parsed.keepParamsAsInput = given.keepParamsAsInput;
  parsed.opset = given.opset;
  parsed.externalDataDir = unwrap(given.externalDataDir).str();
  const int64_t *dims = given.inputShapeDims;
  for (intptr_t i = 0; i < given.numInputShapes; ++i) {
    intptr_t rank = given.inputShapeRanks[i];
    parsed.inputShapes[unwrap(given.inputShapeNames[i])].assign(dims,
                                                                dims + rank);
    dims += rank;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module = mlc::importONNXModel(
      unwrap(bytes), unwrap(fileName), unwrap(context), parsed);
  if (!module)
    return MlirModule{nullptr};
  return wrap(module.release());
#else
  (void)bytes;
  (void)options;
  mlir::emitError(
      mlir::FileLineColLoc::get(unwrap(context), unwrap(fileName), 0, 0))
      << "this build of mlc has no ONNX importer (Debian's libonnx-dev was "
         "not found when it was configured)";
  return MlirModule{nullptr};
#endif
}
