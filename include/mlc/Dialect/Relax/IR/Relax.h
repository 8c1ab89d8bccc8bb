//===- Relax.h - relax dialect ----------------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAX_H
#define MLC_DIALECT_RELAX_IR_RELAX_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlc/Dialect/Utils/SymbolicShape.h"

#include <string>

#include "mlc/Dialect/Relax/IR/RelaxOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mlc/Dialect/Relax/IR/RelaxAttrs.h.inc"

namespace mlc::relax::detail {
/// Result types are compatible when they are the same tensor up to the
/// `#relax.shape` encoding, which either side may omit (a type without it is
/// just less precise). Every inferred relax op uses this.
bool areCompatibleResultTypes(mlir::TypeRange lhs, mlir::TypeRange rhs);
} // namespace mlc::relax::detail

#define GET_OP_CLASSES
#include "mlc/Dialect/Relax/IR/RelaxOps.h.inc"

namespace mlc::relax {

/// Name of the argument attribute holding a Relax parameter's name.
inline constexpr llvm::StringLiteral kParamNameAttr = "relax.name";
/// A relax function's number of inputs (TVM's `num_input` attribute): the
/// parameters after them are weights (relax-lift-transform-params).
inline constexpr llvm::StringLiteral kNumInputAttr = "relax.num_input";

/// The symbolic shape of a ranked tensor type in `scope`: its
/// `#relax.shape` encoding if it has one, otherwise its static sizes (with
/// `?` unknown).
SymShape getSymbolicShape(mlir::RankedTensorType type, SymbolScope &scope);

/// A ranked tensor type for `dims` (over `scope`): constant dims are static,
/// others `?`, and a `#relax.shape` encoding is attached when some dim is
/// symbolic.
mlir::RankedTensorType getSymbolicTensorType(llvm::ArrayRef<SymDim> dims,
                                             mlir::Type elementType,
                                             const SymbolScope &scope);

/// `type` with its dimensions named by `symbols`: dimension i becomes symbol
/// `symbols[i]` (in `scope`) unless that is empty. Importers give graph
/// inputs with named dynamic dimensions these types.
mlir::RankedTensorType getNamedSymbolicType(mlir::RankedTensorType type,
                                            llvm::ArrayRef<std::string> symbols,
                                            SymbolScope &scope);

/// The value of a constant's `ElementsAttr` as a DenseElementsAttr: dense
/// attributes as they are, dense_resource blobs decoded (not i1, whose blob
/// layout differs); null otherwise.
mlir::DenseElementsAttr getDenseElements(mlir::Attribute value);

} // namespace mlc::relax

#endif // MLC_DIALECT_RELAX_IR_RELAX_H
