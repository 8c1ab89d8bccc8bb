//===- mlc-translate.cpp - mlc translation driver --------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlir-translate's upstream translations (LLVM IR import/export, ...) plus
// mlc's own (Relay text import).
//
//===----------------------------------------------------------------------===//

#include "mlc/InitAll.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  mlc::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "mlc translation driver\n"));
}
