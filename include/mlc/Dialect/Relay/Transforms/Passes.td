//===- Passes.td - relay dialect passes ---------------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD
#define MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD
