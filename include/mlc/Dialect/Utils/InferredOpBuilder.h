//===- InferredOpBuilder.h - build ops by name, types inferred --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Importers (Relay text, ONNX) build ops from a name, operands and
// attributes that come from the user's file. The ODS builders of ops with
// inferred result types abort when inference fails; this builds through
// OperationState instead and turns every problem (unknown op, unknown
// attribute, wrong operand count, failed inference, failed verification)
// into a diagnostic at the given location.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_INFERREDOPBUILDER_H
#define MLC_DIALECT_UTILS_INFERREDOPBUILDER_H

#include "mlir/IR/Builders.h"

namespace mlc {

/// Creates the registered op `fullName` (which must implement
/// InferTypeOpInterface) at `builder`'s insertion point, with result types
/// from its inference, and verifies it. Returns failure after emitting an
/// error at `location`.
mlir::FailureOr<mlir::Operation *>
createInferredOp(mlir::OpBuilder &builder, mlir::Location location,
                 llvm::StringRef fullName, mlir::ValueRange operands,
                 llvm::ArrayRef<mlir::NamedAttribute> attrs);

} // namespace mlc

#endif // MLC_DIALECT_UTILS_INFERREDOPBUILDER_H
