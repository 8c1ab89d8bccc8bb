//===- RelayOpPattern.h - TVM's TOpPattern of relay ops ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The fusion pattern kind of every relay op, as TVM registers it with
// `.set_attr<TOpPattern>(...)` (src/relay/op/...) or `register_pattern`
// (python/tvm/relay/op/...). Like TVM's attribute registry this is one side
// table rather than a method of each op, so that it can be checked against
// TVM's in one place; ops it does not list are opaque, as TVM's FuseOps
// treats an op without TOpPattern.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYOPPATTERN_H
#define MLC_DIALECT_RELAY_IR_RELAYOPPATTERN_H

#include "mlc/Dialect/Utils/GraphPartitioner.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace mlc::relay {

/// TVM's TOpPattern of `op`; `Opaque` for an op that is not a relay op or
/// has no pattern in TVM. `relay.tuple` is `Tuple`; `relay.constant` and
/// `relay.tuple_get_item` are not TVM ops and are `Opaque` here (FuseOps
/// gives them their kind from their operands and type).
FusionPattern getOpPattern(mlir::Operation *op);

} // namespace mlc::relay

#endif // MLC_DIALECT_RELAY_IR_RELAYOPPATTERN_H
