//===- Relax.h - relax dialect -----------------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAX_H
#define MLC_DIALECT_RELAX_IR_RELAX_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlc/Dialect/Relax/IR/RelaxOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "mlc/Dialect/Relax/IR/RelaxOps.h.inc"

#endif // MLC_DIALECT_RELAX_IR_RELAX_H
