//===- Relay.h - relay dialect ----------------------------------*- C++ -*-===//
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
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace mlc::relay {
namespace detail {
/// Checks an op's result types against its InferTypeOpInterface inference;
/// the verifier of the Relay_InferredResultTypes trait.
mlir::LogicalResult verifyInferredResultTypes(mlir::Operation *op);

/// Type inference shared by the op classes of RelayDialect.td. `opName` is
/// used in diagnostics, which go to `location` when it is set.
mlir::LogicalResult
inferBroadcastBinaryType(llvm::StringRef opName,
                         std::optional<mlir::Location> location, mlir::Type lhs,
                         mlir::Type rhs, bool isComparison,
                         llvm::SmallVectorImpl<mlir::Type> &inferred);
mlir::LogicalResult inferSameAsOperandType(
    llvm::StringRef opName, std::optional<mlir::Location> location,
    mlir::Type operand, llvm::SmallVectorImpl<mlir::Type> &inferred);
mlir::LogicalResult
inferReduceType(llvm::StringRef opName, std::optional<mlir::Location> location,
                mlir::Type data, std::optional<llvm::ArrayRef<int64_t>> axis,
                bool keepdims, bool exclude, mlir::Type resultElementType,
                llvm::SmallVectorImpl<mlir::Type> &inferred);
/// argmax/argmin: a reduction (inferReduceType, i32 indices) whose reduced
/// axes are not empty (the index of an extremum of no elements is undefined).
mlir::LogicalResult
inferArgReduceType(llvm::StringRef opName,
                   std::optional<mlir::Location> location, mlir::Type data,
                   std::optional<llvm::ArrayRef<int64_t>> axis, bool keepdims,
                   bool exclude, llvm::SmallVectorImpl<mlir::Type> &inferred);
} // namespace detail

namespace OpTrait {
/// See Relay_InferredResultTypes in RelayDialect.td.
template <typename ConcreteType>
class InferredResultTypes
    : public mlir::OpTrait::TraitBase<ConcreteType, InferredResultTypes> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifyInferredResultTypes(op);
  }
};
} // namespace OpTrait
} // namespace mlc::relay

#include "mlc/Dialect/Relay/IR/RelayOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "mlc/Dialect/Relay/IR/RelayOps.h.inc"

#endif // MLC_DIALECT_RELAY_IR_RELAY_H
