//===- NNShapeFunctions.cpp - result shapes of neural-network operators (conv, pool, dense, matmul, norms) -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/NNShapeFunctions.h"

using namespace mlir;
