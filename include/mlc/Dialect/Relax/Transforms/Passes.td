//===- Passes.td - relax dialect passes ---------------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD
#define MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD
