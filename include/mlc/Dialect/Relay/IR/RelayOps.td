//===- RelayOps.td - relay dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYOPS_TD
#define MLC_DIALECT_RELAY_IR_RELAYOPS_TD

include "mlc/Dialect/Relay/IR/RelayDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

include "mlc/Dialect/Relay/IR/RelayNNOps.td"

#endif // MLC_DIALECT_RELAY_IR_RELAYOPS_TD
