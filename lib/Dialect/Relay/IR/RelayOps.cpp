//===- RelayOps.cpp - relay dialect operations -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlc::relay;

#define GET_OP_CLASSES
#include "mlc/Dialect/Relay/IR/RelayOps.cpp.inc"
