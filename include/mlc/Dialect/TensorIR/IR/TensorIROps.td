//===- TensorIROps.td - tensorir dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_TENSORIROPS_TD
#define MLC_DIALECT_TENSORIR_IR_TENSORIROPS_TD

include "mlc/Dialect/TensorIR/IR/TensorIRDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIROPS_TD
