//===- TargetRelaxJSON.cpp - C API of the relax graph JSON importer -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/Target/RelaxJSON.h"

#include "mlc/Target/RelaxJSON/RelaxJSONImporter.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

MlirModule mlcImportRelaxJSONFromString(MlirContext context, MlirStringRef text,
                                        MlirStringRef fileName) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlc::importRelaxJSON(unwrap(text), unwrap(fileName), unwrap(context));
  if (!module)
    return MlirModule{nullptr};
  return wrap(module.release());
}
