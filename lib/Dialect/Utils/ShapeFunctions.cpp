//===- ShapeFunctions.cpp - result shapes of elementwise, broadcast, reduction and tensor-manipulation operators -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/ShapeFunctions.h"

using namespace mlir;
