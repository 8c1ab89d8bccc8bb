//===- TensorIRTransformOps.h - tensorir schedule transform ops -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_TRANSFORMOPS_TENSORIRTRANSFORMOPS_H
#define MLC_DIALECT_TENSORIR_TRANSFORMOPS_TENSORIRTRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "mlc/Dialect/TensorIR/TransformOps/TensorIRTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlc::tensorir {
/// Registers the `transform.tensorir.*` ops with the transform dialect.
void registerTransformDialectExtension(mlir::DialectRegistry &registry);
} // namespace mlc::tensorir

#endif // MLC_DIALECT_TENSORIR_TRANSFORMOPS_TENSORIRTRANSFORMOPS_H
