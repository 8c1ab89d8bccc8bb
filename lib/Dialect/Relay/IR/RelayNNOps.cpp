//===- RelayNNOps.cpp - relay nn.* operations ------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Verifiers, type inference and folders of the nn.* operators. The op classes
// themselves are generated into RelayOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"

using namespace mlir;
using namespace mlc::relay;
