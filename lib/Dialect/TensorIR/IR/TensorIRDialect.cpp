//===- TensorIRDialect.cpp - tensorir dialect --------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

using namespace mlir;
using namespace mlc::tensorir;

#include "mlc/Dialect/TensorIR/IR/TensorIROpsDialect.cpp.inc"

void TensorIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mlc/Dialect/TensorIR/IR/TensorIROps.cpp.inc"
      >();
}
