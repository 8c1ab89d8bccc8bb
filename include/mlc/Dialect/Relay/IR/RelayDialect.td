//===- RelayDialect.td - relay dialect definition ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYDIALECT_TD
#define MLC_DIALECT_RELAY_IR_RELAYDIALECT_TD

include "mlir/IR/OpBase.td"

def Relay_Dialect : Dialect {
  let name = "relay";
  let cppNamespace = "::mlc::relay";
  let summary = "TVM Relay: a functional graph IR over tensors";
  let description = [{
    Relay is TVM's first-generation graph IR. In mlc its operators are
    ops on builtin ranked tensor types (`relay.add`, `relay.nn.conv2d`, ...),
    with TVM's attribute names and defaults and result types inferred by
    Relay's type relations. Relay functions are `func.func` ops; parameter
    names are kept in the `relay.name` argument attribute so that
    parameters can be bound by name.
  }];
  let hasConstantMaterializer = 1;
}

include "mlc/Dialect/Utils/DTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Shared building blocks for relay ops (core and nn).
//===----------------------------------------------------------------------===//

// Tensor types. Relay tensors are ranked, of TVM's dtypes (DTypes.td); `?`
// is Relay's `Any`.
def Relay_Tensor : RankedTensorOf<[MLC_DType]>;
def Relay_FloatTensor : RankedTensorOf<[MLC_FloatDType]>;
def Relay_IntTensor : RankedTensorOf<[MLC_IntDType]>;
def Relay_BoolTensor : RankedTensorOf<[I1]>;

// Verifies the declared result types against `inferReturnTypes` and reports
// "result #i has type X, but the operands and attributes give Y". It runs
// after the ODS operand/attribute checks and before the op's own verifier,
// so type-relation errors are reported once, with the op's own message.
def Relay_InferredResultTypes : NativeOpTrait<"InferredResultTypes"> {
  let cppNamespace = "::mlc::relay::OpTrait";
}

// A pure relay op whose result types are inferred from its operands and
// attributes. The op defines
//   static LogicalResult inferReturnTypes(MLIRContext *, std::optional<Location>,
//                                         Adaptor, SmallVectorImpl<Type> &);
// (InferTypeOpAdaptor); errors go through emitOptionalError(location, ...).
class Relay_InferredOp<string mnemonic, list<Trait> traits = []>
    : Relay_Op<mnemonic,
               traits # [Pure, InferTypeOpAdaptor, Relay_InferredResultTypes]>;

// Elementwise binary op with numpy broadcasting (Relay's BroadcastRel). Both
// operands have the same element type; the result has it too, or i1 for
// comparisons.
class Relay_ElementwiseBinaryOp<string mnemonic, bit isComparison = 0,
                                list<Trait> traits = []>
    : Relay_InferredOp<mnemonic, traits> {
  let arguments = (ins Relay_Tensor:$lhs, Relay_Tensor:$rhs);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return ::mlc::relay::detail::inferBroadcastBinaryType(
          getOperationName(), location, adaptor.getLhs().getType(),
          adaptor.getRhs().getType(), /*isComparison=*/}] # isComparison # [{,
          inferredReturnTypes);
    }
  }];
}

// Elementwise unary op: the result has the operand's type.
class Relay_ElementwiseUnaryOp<string mnemonic, Type operandType = Relay_Tensor,
                               list<Trait> traits = []>
    : Relay_InferredOp<mnemonic, traits> {
  let arguments = (ins operandType:$data);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return ::mlc::relay::detail::inferSameAsOperandType(
          getOperationName(), location, adaptor.getData().getType(),
          inferredReturnTypes);
    }
  }];
}

#endif // MLC_DIALECT_RELAY_IR_RELAYDIALECT_TD
