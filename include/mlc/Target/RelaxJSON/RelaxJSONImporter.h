//===- RelaxJSONImporter.h - relax graphs written as JSON -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Imports a dataflow graph of relax ops written as JSON (format
// "mlc-relax-graph", docs/RelaxJSON.md) into a module with one `func.func`.
// Front ends written in Python (the PyTorch importer) map their operations to
// relax op names and MLIR attribute text and leave the rest to this importer:
// result types are inferred op by op (createInferredOp), symbolic input
// dimensions become `#relax.shape` symbols, and parameters are bound from a
// `.npz` / `.safetensors` file as dense_resource constants or kept as named
// function parameters.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TARGET_RELAXJSON_RELAXJSONIMPORTER_H
#define MLC_TARGET_RELAXJSON_RELAXJSONIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlc {

/// Imports the JSON graph `text`; `fileName` names it in diagnostics, and
/// relative file names in it (the parameter file) are resolved against its
/// directory. Errors are emitted as diagnostics; returns null after any.
mlir::OwningOpRef<mlir::ModuleOp> importRelaxJSON(llvm::StringRef text,
                                                  llvm::StringRef fileName,
                                                  mlir::MLIRContext *context);

/// Registers the `--import-relax-json` translation.
void registerRelaxJSONImportTranslation();

} // namespace mlc

#endif // MLC_TARGET_RELAXJSON_RELAXJSONIMPORTER_H
