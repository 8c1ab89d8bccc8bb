//===- mlc-reduce.cpp - test-case reducer with mlc's dialects and passes --===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlir-reduce with mlc's dialects and passes: shrinks a module that makes an
// "interestingness" script succeed (a crash, a wrong result), e.g.
//
//   mlc-reduce bug.mlir --test=./still-fails.sh \
//       --reduction-tree='traversal-mode=0 test=./still-fails.sh'
//
// Reduction passes (opt-reduction-pass) may run any mlc or upstream pass.
//
//===----------------------------------------------------------------------===//

#include "mlc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlc::registerAllPasses();
  mlir::DialectRegistry registry;
  mlc::registerAllDialectsWithUpstream(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}
