//===- RelaxOps.cpp - relax dialect operations -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlc::relax;

#define GET_OP_CLASSES
#include "mlc/Dialect/Relax/IR/RelaxOps.cpp.inc"
