//===- RelayNNOps.td - relay nn.* operations -------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Relay's neural-network operators (`relay.nn.conv2d`, `relay.nn.dense`, ...).
// Included from RelayOps.td so that the dialect has one op list.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYNNOPS_TD
#define MLC_DIALECT_RELAY_IR_RELAYNNOPS_TD

#endif // MLC_DIALECT_RELAY_IR_RELAYNNOPS_TD
