//===- RelayOps.td - relay dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYOPS_TD
#define MLC_DIALECT_RELAY_IR_RELAYOPS_TD

include "mlc/Dialect/Relay/IR/RelayDialect.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Relay_ConstantOp : Relay_InferredOp<"constant", [ConstantLike]> {
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
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

def Relay_TupleOp : Relay_InferredOp<"tuple"> {
  let summary = "builds a first-class tuple (Relay `Tuple`)";
  let description = [{
    Packs its operands into one value of the builtin `tuple<...>` type. Ops
    that return a tuple in Relay (`split`, `nn.batch_norm`) have several
    results instead; `relay.tuple` is for tuples passed around whole.

    ```mlir
    %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<3xi32>) -> tuple<tensor<2xf32>, tensor<3xi32>>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fields);
  let results = (outs AnyTuple:$result);
  let assemblyFormat =
      "($fields^)? attr-dict `:` functional-type($fields, results)";
}

def Relay_TupleGetItemOp : Relay_InferredOp<"tuple_get_item"> {
  let summary = "extracts one field of a tuple (Relay `TupleGetItem`)";
  let description = [{
    Returns field `index` of a `tuple<...>` value; `index` must be in
    `[0, number of fields)`.

    ```mlir
    %1 = relay.tuple_get_item %t {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
    ```
  }];
  let arguments = (ins AnyTuple:$tuple, I64Attr:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$tuple attr-dict `:` functional-type($tuple, results)";
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops with broadcasting
//===----------------------------------------------------------------------===//

class Relay_ArithBinaryOp<string mnemonic, string tvmDoc, list<Trait> traits = []>
    : Relay_ElementwiseBinaryOp<mnemonic, 0, traits> {
  let summary = "elementwise " # tvmDoc # " with broadcasting";
  let description = [{
    Elementwise }] # tvmDoc # [{ of `lhs` and `rhs` with numpy broadcasting
    (Relay's BroadcastRel): shapes are right-aligned, a dimension of size 1
    stretches to the other size and `?` takes the other size unless that is
    1. Both operands must have the same element type, which is also the
    result's.

    ```mlir
    %0 = relay.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
}

def Relay_AddOp : Relay_ArithBinaryOp<"add", "addition", [Commutative]> {
  let hasFolder = 1;
}
def Relay_SubtractOp : Relay_ArithBinaryOp<"subtract", "subtraction"> {
  let hasFolder = 1;
}
def Relay_MultiplyOp
    : Relay_ArithBinaryOp<"multiply", "multiplication", [Commutative]> {
  let hasFolder = 1;
}
def Relay_DivideOp : Relay_ArithBinaryOp<"divide", "division"> {
  let hasFolder = 1;
}
def Relay_PowerOp : Relay_ArithBinaryOp<"power", "power (`lhs ** rhs`)">;
def Relay_MaximumOp
    : Relay_ArithBinaryOp<"maximum", "maximum", [Commutative]>;
def Relay_MinimumOp
    : Relay_ArithBinaryOp<"minimum", "minimum", [Commutative]>;

class Relay_CompareOp<string mnemonic, string tvmDoc, list<Trait> traits = []>
    : Relay_ElementwiseBinaryOp<mnemonic, 1, traits> {
  let summary = "elementwise `" # tvmDoc # "` comparison with broadcasting";
  let description = [{
    Elementwise `lhs }] # tvmDoc # [{ rhs` with numpy broadcasting (Relay's
    BroadcastRel). Both operands must have the same element type; the result
    is a boolean (`i1`) tensor of the broadcast shape.

    ```mlir
    %0 = relay.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
    ```
  }];
}

def Relay_LessOp : Relay_CompareOp<"less", "<">;
def Relay_GreaterOp : Relay_CompareOp<"greater", ">">;
def Relay_EqualOp : Relay_CompareOp<"equal", "==", [Commutative]>;
def Relay_LessEqualOp : Relay_CompareOp<"less_equal", "<=">;
def Relay_GreaterEqualOp : Relay_CompareOp<"greater_equal", ">=">;
def Relay_NotEqualOp : Relay_CompareOp<"not_equal", "!=", [Commutative]>;

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Relay_MathUnaryOp<string mnemonic, string tvmDoc,
                        Type operandType = Relay_FloatTensor>
    : Relay_ElementwiseUnaryOp<mnemonic, operandType> {
  let summary = "elementwise " # tvmDoc;
  let description = [{
    Elementwise }] # tvmDoc # [{. The result has the operand's type.

    ```mlir
    %0 = relay.}] # mnemonic # [{ %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
}

def Relay_NegativeOp
    : Relay_MathUnaryOp<"negative", "negation (`-x`)", Relay_Tensor>;
def Relay_AbsOp : Relay_MathUnaryOp<"abs", "absolute value", Relay_Tensor>;
def Relay_ExpOp : Relay_MathUnaryOp<"exp", "exponential (floats only)">;
def Relay_LogOp : Relay_MathUnaryOp<"log", "natural logarithm (floats only)">;
def Relay_SqrtOp : Relay_MathUnaryOp<"sqrt", "square root (floats only)">;
def Relay_RsqrtOp
    : Relay_MathUnaryOp<"rsqrt", "reciprocal square root (floats only)">;
def Relay_TanhOp
    : Relay_MathUnaryOp<"tanh", "hyperbolic tangent (floats only)">;
def Relay_SigmoidOp
    : Relay_MathUnaryOp<"sigmoid", "logistic sigmoid `1 / (1 + exp(-x))` "
                                   "(floats only)">;
def Relay_ErfOp : Relay_MathUnaryOp<"erf", "Gauss error function (floats only)">;

def Relay_ClipOp : Relay_InferredOp<"clip"> {
  let summary = "clamps every element into [a_min, a_max]";
  let description = [{
    Elementwise `min(max(x, a_min), a_max)`. `a_min` and `a_max` are `f64`
    attributes as in TVM's ClipAttrs, whatever the tensor's element type.

    ```mlir
    %0 = relay.clip %x {a_max = 6.0 : f64, a_min = 0.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, F64Attr:$a_min, F64Attr:$a_max);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relay_CastOp : Relay_InferredOp<"cast"> {
  let summary = "converts the element type";
  let description = [{
    Converts every element to `dtype` (an integer or floating-point type).
    The shape is unchanged. A cast to the operand's own type folds away.

    ```mlir
    %0 = relay.cast %x {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, TypeAttr:$dtype);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Relay_WhereOp : Relay_InferredOp<"where"> {
  let summary = "selects elements of x or y by a boolean condition";
  let description = [{
    `condition ? x : y` elementwise. `condition` is an `i1` tensor, `x` and
    `y` have the same element type; all three broadcast together (numpy
    rules) to the result shape.

    ```mlir
    %0 = relay.where %c, %x, %y : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Relay_BoolTensor:$condition, Relay_Tensor:$x,
                       Relay_Tensor:$y);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat =
      "$condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Tensor transformations
//===----------------------------------------------------------------------===//

def Relay_ReshapeOp : Relay_InferredOp<"reshape"> {
  let summary = "reshapes a tensor, with Relay's special newshape values";
  let description = [{
    Gives the data a new shape with the same number of elements. Besides
    positive sizes, `newshape` may contain Relay's special values:

    - `0`: copy the corresponding input dimension (a literal 0 with
      `allowzero = true`);
    - `-1`: infer this dimension from the remaining size (at most once);
    - `-2`: copy all remaining input dimensions;
    - `-3`: merge the next two input dimensions into one;
    - `-4`: split the next input dimension into the two following
      `newshape` values, one of which may be `-1`.

    Reshape of a reshape becomes one reshape and a reshape to the operand's
    own type folds away.

    ```mlir
    %0 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, DenseI64ArrayAttr:$newshape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def Relay_TransposeOp : Relay_InferredOp<"transpose"> {
  let summary = "permutes the dimensions";
  let description = [{
    Result dimension `i` is input dimension `axes[i]`. `axes` must be a
    permutation (negative axes count from the end); without `axes` the
    dimensions are reversed. An identity permutation folds away.

    ```mlir
    %0 = relay.transpose %x {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Relay_ExpandDimsOp : Relay_InferredOp<"expand_dims"> {
  let summary = "inserts size-1 dimensions";
  let description = [{
    Inserts `num_newaxis` (default 1) dimensions of size 1 at position
    `axis`, which lies in `[-rank-1, rank]`.

    ```mlir
    %0 = relay.expand_dims %x {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x1x1x3xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, I64Attr:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$num_newaxis);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relay_SqueezeOp : Relay_InferredOp<"squeeze"> {
  let summary = "removes size-1 dimensions";
  let description = [{
    Removes the dimensions listed in `axis` (each must have size 1, or be
    `?`), or, without `axis`, every dimension of size 1; as in TVM, `axis`
    is then required if the shape has unknown dimensions.

    ```mlir
    %0 = relay.squeeze %x {axis = array<i64: 0>} : (tensor<1x3x1xf32>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, OptionalAttr<DenseI64ArrayAttr>:$axis);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relay_ConcatenateOp : Relay_InferredOp<"concatenate"> {
  let summary = "joins tensors along an axis";
  let description = [{
    Concatenates its operands (Relay's tuple argument, one operand per
    field) along `axis` (default 0, negative counts from the end). All
    operands have the same rank and element type and equal sizes off the
    axis.

    ```mlir
    %0 = relay.concatenate %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Relay_Tensor>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type($inputs, results)";
}

def Relay_SplitOp : Relay_InferredOp<"split"> {
  let summary = "splits a tensor into several along an axis";
  let description = [{
    `indices_or_sections` is either an integer `n` (split into `n` equal
    parts; the axis size must be divisible by `n`) or a strictly ascending
    list of indices at which to split (giving one more part than indices).
    Relay returns a tuple; here each part is one result.

    ```mlir
    %0:3 = relay.split %x {indices_or_sections = 3 : i64, axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
    %1:2 = relay.split %x {indices_or_sections = array<i64: 4>, axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>)
    ```
  }];
  let arguments = (ins Relay_Tensor:$data,
                       AnyAttrOf<[I64Attr, DenseI64ArrayAttr]>:$indices_or_sections,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Variadic<Relay_Tensor>:$results);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relay_StridedSliceOp : Relay_InferredOp<"strided_slice"> {
  let summary = "slices a tensor with begin/end/strides";
  let description = [{
    Numpy-style slicing as Relay's StridedSliceRel. Without `axes`,
    `begin`/`end`/`strides` address the leading dimensions (dimensions
    without an entry are taken whole, missing strides are 1, `strides`
    defaults to `[1]`). With `axes`, all four lists have one entry per listed
    axis. Negative indices count from the end and out-of-range indices are
    clamped. With `slice_mode = "size"`, `end` holds slice sizes (`-1`: to
    the end) and strides are ignored.

    ```mlir
    %0 = relay.strided_slice %x {begin = array<i64: 1, -3>, end = array<i64: 100, -1>, strides = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedStrAttr<StrAttr, "end">:$slice_mode);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relay_TakeOp : Relay_InferredOp<"take"> {
  let summary = "gathers elements along an axis";
  let description = [{
    Takes the elements of `data` at `indices` (an integer tensor) along
    `axis`; without `axis` the data is flattened first and the result has
    the indices' shape. With `batch_dims` the leading dimensions of data and
    indices are batch dimensions. `mode` is `"clip"` (default), `"wrap"` or
    `"fast"`.

    ```mlir
    %0 = relay.take %x, %i {axis = 1 : i64} : (tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, Relay_IntTensor:$indices,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedStrAttr<StrAttr, "clip">:$mode);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Relay_BroadcastToOp : Relay_InferredOp<"broadcast_to"> {
  let summary = "broadcasts a tensor to a given shape";
  let description = [{
    Broadcasts `data` (numpy rules) to exactly `shape`.

    ```mlir
    %0 = relay.broadcast_to %x {shape = array<i64: 4, 3>} : (tensor<1x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data, DenseI64ArrayAttr:$shape);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Relay_ReduceOp<string mnemonic, string tvmDoc>
    : Relay_InferredOp<mnemonic> {
  let summary = tvmDoc # " over axes";
  let description = [{
    Reduces `data` by }] # tvmDoc # [{ over `axis` (Relay's ReduceAttrs):
    all axes when `axis` is absent or empty; with `exclude = true`, all
    axes except the listed ones. Reduced dimensions are removed, or kept with
    size 1 when `keepdims = true`. The element type is unchanged.

    ```mlir
    %0 = relay.}] # mnemonic # [{ %x {axis = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude);
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return ::mlc::relay::detail::inferReduceType(
          getOperationName(), location, adaptor.getData().getType(),
          adaptor.getAxis(), adaptor.getKeepdims(), adaptor.getExclude(),
          /*resultElementType=*/nullptr, inferredReturnTypes);
    }
  }];
}

def Relay_SumOp : Relay_ReduceOp<"sum", "summation">;
def Relay_MeanOp : Relay_ReduceOp<"mean", "the arithmetic mean">;
def Relay_MaxOp : Relay_ReduceOp<"max", "the maximum">;
def Relay_MinOp : Relay_ReduceOp<"min", "the minimum">;
def Relay_ProdOp : Relay_ReduceOp<"prod", "the product">;

class Relay_ArgReduceOp<string mnemonic, string tvmDoc>
    : Relay_InferredOp<mnemonic> {
  let summary = "index of the " # tvmDoc # " over axes";
  let description = [{
    The index of the }] # tvmDoc # [{ element along the reduced axes (Relay's
    ArgReduceAttrs: `axis`, `keepdims`, `exclude` as for `relay.sum`;
    `select_last_index` picks the last of equal candidates). The result is
    an `i32` tensor, as in TVM.

    ```mlir
    %0 = relay.}] # mnemonic # [{ %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xi32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude,
                       DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return ::mlc::relay::detail::inferArgReduceType(
          getOperationName(), location, adaptor.getData().getType(),
          adaptor.getAxis(), adaptor.getKeepdims(), adaptor.getExclude(),
          inferredReturnTypes);
    }
  }];
}

def Relay_ArgmaxOp : Relay_ArgReduceOp<"argmax", "largest">;
def Relay_ArgminOp : Relay_ArgReduceOp<"argmin", "smallest">;

include "mlc/Dialect/Relay/IR/RelayNNOps.td"

#endif // MLC_DIALECT_RELAY_IR_RELAYOPS_TD
