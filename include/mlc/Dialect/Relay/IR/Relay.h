//===- Relay.h - relay dialect -----------------------------------*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAY_H
#define MLC_DIALECT_RELAY_IR_RELAY_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlc/Dialect/Relay/IR/RelayOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "mlc/Dialect/Relay/IR/RelayOps.h.inc"

#endif // MLC_DIALECT_RELAY_IR_RELAY_H
