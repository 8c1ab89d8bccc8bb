//===- StandaloneOps.td - a downstream dialect on mlc's TableGen ----------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A dialect of the consumer's own whose ODS builds on mlc's installed
// TableGen files: its operand types are mlc's TVM dtype constraints
// (mlc/Dialect/Utils/DTypes.td), so it accepts exactly the element types
// relax does and says so in its verifier's message.
//
//===----------------------------------------------------------------------===//

#ifndef STANDALONE_OPS_TD
#define STANDALONE_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlc/Dialect/Utils/DTypes.td"

def Standalone_Dialect : Dialect {
  let name = "standalone";
  let summary = "An out-of-tree dialect built on mlc's TableGen files";
  let cppNamespace = "::standalone";
}

def Standalone_ScaleOp : Op<Standalone_Dialect, "scale",
    [Pure, SameOperandsAndResultType]> {
  let summary = "Multiplies a float tensor of a TVM dtype by a constant";
  let arguments = (ins RankedTensorOf<[MLC_FloatDType]>:$input,
                       F64Attr:$factor);
  let results = (outs RankedTensorOf<[MLC_FloatDType]>:$output);
  let assemblyFormat = "$input `by` $factor attr-dict `:` type($input)";
}

#endif // STANDALONE_OPS_TD
