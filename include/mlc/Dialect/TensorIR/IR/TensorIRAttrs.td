//===- TensorIRAttrs.td - tensorir attributes and enums ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_TENSORIRATTRS_TD
#define MLC_DIALECT_TENSORIR_IR_TENSORIRATTRS_TD

include "mlc/Dialect/TensorIR/IR/TensorIRDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def TensorIR_ForKind : I32EnumAttr<"ForKind", "how a tensorir.for loop runs", [
    I32EnumAttrCase<"serial", 0>,
    I32EnumAttrCase<"parallel", 1>,
    I32EnumAttrCase<"vectorized", 2>,
    I32EnumAttrCase<"unrolled", 3>,
    I32EnumAttrCase<"thread_binding", 4>
  ]> {
  let cppNamespace = "::mlc::tensorir";
  let genSpecializedAttr = 0;
}

def TensorIR_ForKindAttr
    : EnumAttr<TensorIR_Dialect, TensorIR_ForKind, "for_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def TensorIR_IterVarType
    : I32EnumAttr<"IterVarType", "kind of a tensorir.block iteration variable", [
        I32EnumAttrCase<"spatial", 0>,
        I32EnumAttrCase<"reduce", 1>
      ]> {
  let cppNamespace = "::mlc::tensorir";
  let genSpecializedAttr = 0;
}

def TensorIR_IterVarTypeAttr
    : EnumAttr<TensorIR_Dialect, TensorIR_IterVarType, "iter_var_type"> {
  let assemblyFormat = "`<` $value `>`";
}

def TensorIR_IterVarTypeArrayAttr
    : TypedArrayAttrBase<TensorIR_IterVarTypeAttr,
                         "array of tensorir iteration variable kinds">;

// TVM's OpPatternKind (include/tvm/relay/op_attr_types.h), with the same
// numbering so that kinds compare as in TVM: a larger kind is "more complex",
// and fusion combines kinds with max. 5 and 6 are unused in TVM too.
def TensorIR_OpPatternKind
    : I32EnumAttr<"OpPatternKind", "TVM operator pattern kind of a prim_func", [
        I32EnumAttrCase<"elemwise", 0>,          // kElemWise
        I32EnumAttrCase<"broadcast", 1>,         // kBroadcast
        I32EnumAttrCase<"injective", 2>,         // kInjective
        I32EnumAttrCase<"comm_reduce", 3>,       // kCommReduce
        I32EnumAttrCase<"out_ewise_fusable", 4>, // kOutEWiseFusable
        I32EnumAttrCase<"tuple", 7>,             // kTuple
        I32EnumAttrCase<"opaque", 8>             // kOpaque
      ]> {
  let cppNamespace = "::mlc::tensorir";
  let genSpecializedAttr = 0;
}

def TensorIR_OpPatternKindAttr
    : EnumAttr<TensorIR_Dialect, TensorIR_OpPatternKind, "op_pattern"> {
  let summary = "pattern kind of a prim_func (TVM's op_pattern attribute)";
  let description = [{
    How the outputs of a `tensorir.prim_func` depend on its inputs, as TVM's
    `OpPatternKind`, used by operator fusion. Attached to a prim_func as the
    discardable attribute `tensorir.op_pattern`:

    ```mlir
    tensorir.prim_func @relu(...) attributes {
        tensorir.op_pattern = #tensorir.op_pattern<elemwise>} { ... }
    ```

    | mlc | TVM | value |
    | --- | --- | --- |
    | `elemwise` | `kElemWise` | 0 |
    | `broadcast` | `kBroadcast` | 1 |
    | `injective` | `kInjective` | 2 |
    | `comm_reduce` | `kCommReduce` | 3 |
    | `out_ewise_fusable` | `kOutEWiseFusable` | 4 |
    | `tuple` | `kTuple` | 7 |
    | `opaque` | `kOpaque` | 8 |
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Buffer regions
//===----------------------------------------------------------------------===//

def TensorIR_BufferRegionAttr : AttrDef<TensorIR_Dialect, "BufferRegion"> {
  let mnemonic = "region";
  let summary = "a rectangular region of a buffer, as functions of block iter vars";
  let description = [{
    The region a `tensorir.block` reads or writes in one buffer (TVM's
    `BufferRegion`): for each buffer dimension a half-open range
    `[lower, upper)`. Both maps take the block's iteration variables as
    dimensions (in order, no symbols) and have one result per buffer
    dimension. Inside a `tensorir.block` it is printed TVMScript-style,
    `%A[%vi, 0:128]`; standalone it reads
    `#tensorir.region<affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0 + 1, 128)>>`.
  }];
  let parameters = (ins "::mlir::AffineMapAttr":$lower_bounds,
                        "::mlir::AffineMapAttr":$upper_bounds);
  let assemblyFormat = "`<` $lower_bounds `,` $upper_bounds `>`";
  let extraClassDeclaration = [{
    /// Rank of the buffer the region is of.
    unsigned getRank() const { return getLowerBounds().getValue().getNumResults(); }
    /// Number of block iteration variables the bounds are functions of.
    unsigned getNumIterVars() const { return getLowerBounds().getValue().getNumDims(); }
    /// The region covering the point `indices` (one expression per dimension).
    static BufferRegionAttr getPoint(::mlir::MLIRContext *ctx, unsigned numIterVars,
                                     ::llvm::ArrayRef<::mlir::AffineExpr> indices);
  }];
}

def TensorIR_BufferRegionArrayAttr
    : TypedArrayAttrBase<TensorIR_BufferRegionAttr, "array of buffer regions">;

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIRATTRS_TD
