//===- RelayOps.td - relay dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYOPS_TD
#define MLC_DIALECT_RELAY_IR_RELAYOPS_TD

include "mlc/Dialect/Relay/IR/RelayDialect.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Relay_ConstantOp : Relay_Op<"constant",
    [ConstantLike, Pure,
     DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "constant tensor (Relay `Constant`)";
  let description = [{
    A tensor constant. `value` is any `ElementsAttr`: small constants are
    usually `dense<...>`, large ones (imported `meta[relay.Constant]`, bound
    parameters) `dense_resource<...>` blobs. The result type is the
    attribute's type. The op folds to its value, so it is what the dialect
    materializes for folded relay ops.

    Example:

    ```mlir
    %0 = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %1 = relay.constant dense_resource<w1> : tensor<64x3x7x7xf32>
    ```
  }];

  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);

  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

include "mlc/Dialect/Relay/IR/RelayNNOps.td"

#endif // MLC_DIALECT_RELAY_IR_RELAYOPS_TD
