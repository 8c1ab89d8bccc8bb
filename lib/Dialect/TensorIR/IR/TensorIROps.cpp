//===- TensorIROps.cpp - tensorir dialect operations -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlc::tensorir;

#define GET_OP_CLASSES
#include "mlc/Dialect/TensorIR/IR/TensorIROps.cpp.inc"
