//===- InferredOpBuilder.h - build ops by name, types inferred --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The ODS builders of ops with inferred result types abort the process
// (report_fatal_error) when inference fails. Inputs reach those builders in
// two ways, and both get a failable form here:
// - importers (Relay text, ONNX, relax JSON) build ops from a name, operands
//   and attributes from the user's file: createInferredOp turns every
//   problem (unknown op, unknown attribute, wrong operand count, failed
//   inference, failed verification) into a diagnostic;
// - patterns and passes build typed ops from values of the IR they rewrite:
//   createInferred<OpTy> infers first and returns failure (inference emits
//   its diagnostic at the location) before anything is created.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_INFERREDOPBUILDER_H
#define MLC_DIALECT_UTILS_INFERREDOPBUILDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace mlc {

/// Creates the registered op `fullName` (which must implement
/// InferTypeOpInterface) at `builder`'s insertion point, with result types
/// from its inference, and verifies it. Returns failure after emitting an
/// error at `location`.
mlir::FailureOr<mlir::Operation *>
createInferredOp(mlir::OpBuilder &builder, mlir::Location location,
                 llvm::StringRef fullName, mlir::ValueRange operands,
                 llvm::ArrayRef<mlir::NamedAttribute> attrs);

/// Infers the result types of `op` as it is now (operands and attributes
/// possibly changed in place), into `types`; an op without
/// InferTypeOpInterface keeps its types. Returns failure after emitting an
/// error at the op's location.
mlir::LogicalResult inferResultTypes(mlir::Operation *op,
                                     llvm::SmallVectorImpl<mlir::Type> &types);

namespace detail {
/// Runs `infer`; when it fails without having emitted an error, emits one
/// at `location` naming `name`.
mlir::LogicalResult
inferWithDiagnostic(mlir::Location location, mlir::OperationName name,
                    llvm::function_ref<mlir::LogicalResult()> infer);
} // namespace detail

/// Creates `OpTy` (an op with inferred result types) from the arguments of
/// its inferring ODS builder, e.g. `createInferred<relax::ReshapeOp>(b, loc,
/// value, shapeAttr)`. Where that builder would abort because inference
/// fails, this returns failure after inference has emitted an error at
/// `location`, with nothing created.
template <typename OpTy, typename... Args>
mlir::FailureOr<OpTy> createInferred(mlir::OpBuilder &builder,
                                     mlir::Location location, Args &&...args) {
  mlir::OperationState state(location, OpTy::getOperationName());
  // The builder with an explicit result type fills operands, attributes and
  // properties exactly like the inferring one; its placeholder type is
  // replaced by the inferred ones.
  OpTy::build(builder, state, mlir::Type(), std::forward<Args>(args)...);
  state.types.clear();
  llvm::SmallVector<mlir::Type, 1> types;
  if (mlir::failed(detail::inferWithDiagnostic(location, state.name, [&] {
        return OpTy::inferReturnTypes(
            builder.getContext(), location, state.operands,
            state.attributes.getDictionary(builder.getContext()),
            state.getRawProperties(), state.regions, types);
      })))
    return mlir::failure();
  state.addTypes(types);
  return llvm::cast<OpTy>(builder.create(state));
}

} // namespace mlc

#endif // MLC_DIALECT_UTILS_INFERREDOPBUILDER_H
