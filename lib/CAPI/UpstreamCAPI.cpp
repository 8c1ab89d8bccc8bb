//===- UpstreamCAPI.cpp - upstream's C API as a shared library --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// libMLCMLIRCAPI.so is upstream's C API archives (IR, passes, diagnostics,
// the transform interpreter), whole, over libMLIR.so; this file only gives
// the target a source. See CMakeLists.txt for why it is a library apart from
// libMLC-C.so.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
