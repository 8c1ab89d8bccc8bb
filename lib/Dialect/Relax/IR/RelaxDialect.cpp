//===- RelaxDialect.cpp - relax dialect --------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"

using namespace mlir;
using namespace mlc::relax;

#include "mlc/Dialect/Relax/IR/RelaxOpsDialect.cpp.inc"

void RelaxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mlc/Dialect/Relax/IR/RelaxOps.cpp.inc"
      >();
}
