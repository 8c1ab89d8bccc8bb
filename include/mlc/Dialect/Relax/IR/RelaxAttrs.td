//===- RelaxAttrs.td - relax dialect attributes ------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAXATTRS_TD
#define MLC_DIALECT_RELAX_IR_RELAXATTRS_TD

include "mlc/Dialect/Relax/IR/RelaxDialect.td"
include "mlir/IR/TensorEncoding.td"

def Relax_ShapeAttr : Relax_Attr<"Shape", "shape",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "symbolic shape of a tensor (tensor encoding)";
  let description = [{
    The symbolic shape of a ranked tensor, used as the tensor type's
    `encoding`. It lists one expression per dimension:

    ```mlir
    tensor<?x784xf32, #relax.shape<[n, 784]>>
    tensor<?x?xf32, #relax.shape<[n, n * 4 + 1]>>
    tensor<?x?xf32, #relax.shape<[b floordiv 2, ?]>>
    ```

    An expression is built from names (symbolic dimensions, bound by
    `relax.match_cast` or by a function parameter's type), integer constants,
    `+`, `-`, `*`, `floordiv`, `ceildiv`, `mod` and parentheses; `?` is an
    unknown dimension without a name. Internally each expression is an
    `AffineExpr` over symbols `s0, s1, ...`, which index the sorted list of
    names used by the attribute, so the attribute is uniqued canonically:
    `#relax.shape<[n + n]>` and `#relax.shape<[2 * n]>` are the same
    attribute and the same tensor type. Each expression is also put in a
    normal form (sums flattened, like terms combined, terms and factors in a
    fixed order, by name), so `[n * 2 + m]` and `[m + n * 2]` are one
    attribute, printed `[m + n * 2]`.

    The tensor type must agree with the encoding: a dimension whose expression
    is a constant is that static size, every other dimension is `?`. An
    encoding must name at least one symbol (otherwise the tensor type alone
    says it all), so every shape has exactly one spelling as a type.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "sorted names of the symbols s0, s1, ...">:$names,
    ArrayRefParameter<"::mlir::AffineExpr", "one expression per dimension (null: unknown)">:$dims
  );
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::StringAttr>":$names,
                     "::llvm::ArrayRef<::mlir::AffineExpr>":$dims)>
  ];
  let extraClassDeclaration = [{
    /// Rank of the shape.
    unsigned getRank() const { return getDims().size(); }
    /// True if some dimension is not a constant.
    bool hasSymbols() const { return !getNames().empty(); }
  }];
}

#endif // MLC_DIALECT_RELAX_IR_RELAXATTRS_TD
