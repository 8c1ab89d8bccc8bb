//===- Passes.h - relay dialect passes --------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_TRANSFORMS_PASSES_H
#define MLC_DIALECT_RELAY_TRANSFORMS_PASSES_H

#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlir/Pass/Pass.h"

namespace mlc::relay {

#define GEN_PASS_DECL
#include "mlc/Dialect/Relay/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Dialect/Relay/Transforms/Passes.h.inc"

} // namespace mlc::relay

#endif // MLC_DIALECT_RELAY_TRANSFORMS_PASSES_H
