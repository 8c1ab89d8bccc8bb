//===- RegisterEverything.cpp - register all of mlc from C ------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/RegisterEverything.h"

#include "mlc/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlcRegisterAllDialects(MlirDialectRegistry registry) {
  mlc::registerAllDialects(*unwrap(registry));
}

void mlcRegisterAllDialectsWithUpstream(MlirDialectRegistry registry) {
  mlc::registerAllDialectsWithUpstream(*unwrap(registry));
  // As mlc-opt: gpu-module-to-binary translates GPU modules to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(*unwrap(registry));
}

void mlcRegisterAllPasses() {
  // Registration is global and not idempotent: once per process.
  static bool registered = [] {
    mlir::registerAllPasses();
    mlc::registerAllPasses();
    return true;
  }();
  (void)registered;
}
