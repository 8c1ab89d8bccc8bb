//===- ONNXImporter.h - ONNX models to relax --------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Imports an ONNX model (a serialized `onnx.ModelProto`) into a module with
// one `func.func` of relax ops. Each node type has converters per opset
// version; the one with the highest version not above the model's opset is
// used (TVM's `from_onnx`). Values that only depend on constants (shape
// sub-graphs: Shape -> Gather -> Unsqueeze -> Concat -> Reshape) are
// computed while importing, so ops that need static attributes (Reshape's
// target shape, Slice's bounds) get them.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TARGET_ONNX_ONNXIMPORTER_H
#define MLC_TARGET_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlc {

struct ONNXImportOptions {
  /// Keep floating-point initializers as parameters of the function (named
  /// by `relax.name`) instead of binding them as dense_resource constants.
  bool keepParamsAsInput = false;
  /// Shapes that replace the model's input shapes (TVM's `shape_dict`),
  /// e.g. to make a symbolic batch size static.
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;
  /// The default domain's opset to convert with; 0: the model's.
  int64_t opset = 0;
  /// Directory holding external tensor data; empty: the model's directory.
  std::string externalDataDir;
  /// Name of the function to create.
  std::string entryName = "main";
};

/// The node types (of the default ONNX domain) the importer converts, with
/// the lowest opset each converter needs.
llvm::SmallVector<std::pair<std::string, int64_t>> getSupportedONNXOps();

/// Imports the serialized model `bytes`; `fileName` names it in diagnostics
/// and locates external data. Errors are emitted as diagnostics; returns
/// null after any error.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModel(llvm::StringRef bytes, llvm::StringRef fileName,
                mlir::MLIRContext *context,
                const ONNXImportOptions &options = {});

/// Registers the `--import-onnx` translation and its options with
/// mlir-translate's registry.
void registerONNXImportTranslation();

} // namespace mlc

#endif // MLC_TARGET_ONNX_ONNXIMPORTER_H
