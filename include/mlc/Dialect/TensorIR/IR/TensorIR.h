//===- TensorIR.h - tensorir dialect ----------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_TENSORIR_H
#define MLC_DIALECT_TENSORIR_IR_TENSORIR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlc/Dialect/TensorIR/IR/TensorIROpsDialect.h.inc"

#include "mlc/Dialect/TensorIR/IR/TensorIREnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mlc/Dialect/TensorIR/IR/TensorIRAttrs.h.inc"

namespace mlc::tensorir {
class BlockOp;
class InitOp;
} // namespace mlc::tensorir

#define GET_OP_CLASSES
#include "mlc/Dialect/TensorIR/IR/TensorIROps.h.inc"

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIR_H
