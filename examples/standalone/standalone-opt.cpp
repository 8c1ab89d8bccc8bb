//===- standalone-opt.cpp - an optimizer that embeds mlc's dialects -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// What an MLIR compiler outside mlc's tree does to use relax and tensorir:
// load the dialects it needs into its registry and register the mlc passes
// it wants, here only relax-dce; next to them, a dialect of its own whose ODS
// builds on mlc's TableGen files (StandaloneOps.td).
//
//===----------------------------------------------------------------------===//

#include "StandaloneDialect.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlc::relax::registerRelaxDCE();
  mlir::DialectRegistry registry;
  registry.insert<mlc::relax::RelaxDialect, mlc::tensorir::TensorIRDialect,
                  mlir::func::FuncDialect, standalone::StandaloneDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "optimizer with mlc's relax and tensorir dialects\n",
      registry));
}
