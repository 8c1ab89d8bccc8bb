//===- RelayDialect.cpp - relay dialect -------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"

using namespace mlir;
using namespace mlc::relay;

#include "mlc/Dialect/Relay/IR/RelayOpsDialect.cpp.inc"

void RelayDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mlc/Dialect/Relay/IR/RelayOps.cpp.inc"
      >();
}

Operation *RelayDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
