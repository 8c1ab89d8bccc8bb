//===- IR.cpp - IR helpers of mlc's C API -----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/IR.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

MlirModule mlcModuleCreateParseFromString(MlirContext context,
                                          MlirStringRef module,
                                          MlirStringRef sourceName) {
  mlir::ParserConfig config(unwrap(context));
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(unwrap(module), config,
                                              unwrap(sourceName));
  if (!parsed)
    return MlirModule{nullptr};
  return wrap(parsed.release());
}
