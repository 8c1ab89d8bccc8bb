//===- RelaxOps.td - relax dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAXOPS_TD
#define MLC_DIALECT_RELAX_IR_RELAXOPS_TD

include "mlc/Dialect/Relax/IR/RelaxDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

#endif // MLC_DIALECT_RELAX_IR_RELAXOPS_TD
