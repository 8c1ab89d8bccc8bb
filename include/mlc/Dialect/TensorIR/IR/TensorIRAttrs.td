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
