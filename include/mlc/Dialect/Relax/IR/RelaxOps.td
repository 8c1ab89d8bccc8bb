//===- RelaxOps.td - relax dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAXOPS_TD
#define MLC_DIALECT_RELAX_IR_RELAXOPS_TD

include "mlc/Dialect/Relax/IR/RelaxDialect.td"
include "mlc/Dialect/Relax/IR/RelaxAttrs.td"
include "mlc/Dialect/Utils/DTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Structure: dataflow / output
//===----------------------------------------------------------------------===//

def Relax_DataflowOp : Relax_Op<"dataflow", [
    RecursiveMemoryEffects, SingleBlock,
    SingleBlockImplicitTerminator<"OutputOp">]> {
  let summary = "a dataflow block: a region of pure operations";
  let description = [{
    TVM's `R.dataflow()` block. The single region holds side-effect-free
    operations only and ends with `relax.output`, whose operands become the
    results of `relax.dataflow`. Values defined inside the region cannot be
    used outside it (MLIR's region scoping), so "dataflow variables do not
    escape except through `R.output`" holds by construction. Values defined
    before the block may be used inside it. Blocks do not nest (as in TVM).

    ```mlir
    %gv = relax.dataflow -> tensor<?x10xf32, #relax.shape<[n, 10]>> {
      %lv0 = relax.call_tir @linear0(%x, %w0, %b0) : (...) -> tensor<...>
      %lv1 = relax.call_dps_packed "env.relu"(%lv0) : (...) -> tensor<...>
      relax.output %lv1 : tensor<?x10xf32, #relax.shape<[n, 10]>>
    }
    ```

    The verifier rejects operations that have memory effects (per
    `MemoryEffectOpInterface`, recursively) and names the offending one.
    The op itself has exactly the (no) effects of its contents, so an unused
    block is dead code. Canonicalization drops results that are not used
    (and their `relax.output` operands).
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` type($results)^)? attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes)>
  ];
  let extraClassDeclaration = [{
    /// The block's terminator.
    OutputOp getOutput();
  }];
}

def Relax_OutputOp : Relax_Op<"output", [
    Pure, HasParent<"DataflowOp">, Terminator, ReturnLike]> {
  let summary = "terminates a dataflow block, yielding its results";
  let description = [{
    TVM's `R.output(...)`: the values listed become the results of the
    enclosing `relax.dataflow`, in order, with the same types.

    ```mlir
    relax.output %a, %b : tensor<4xf32>, tensor<2xi32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* no values */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

def Relax_CallTIROp : Relax_Op<"call_tir", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "destination-passing call of a tensor-level (TensorIR) function";
  let description = [{
    TVM's `R.call_tir(func, args, out_sinfo)`. Calls `@callee`, normally a
    `tensorir.prim_func`, passing one buffer per argument followed by one
    freshly allocated output buffer per result; the results are the output
    buffers viewed as tensors. Because the outputs are fresh, the call is pure
    (as in TVM) and may appear in `relax.dataflow`.

    ```mlir
    %y = relax.call_tir @linear0(%x, %w, %b)
        : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>,
           tensor<128xf32>) -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    ```

    TVM's `tir_vars`: symbolic sizes the callee needs as scalars (a
    `prim_func` over `memref<?xf32>` with an `%n: index` parameter) are
    listed after the arguments as symbolic expressions; they are passed after
    the output buffers. Every name they use must be bound by the shape of an
    operand (so its value is known at the call).

    ```mlir
    %y = relax.call_tir @scale(%x) tir_vars [n, n * 2]
        : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n]>>
    ```

    The verifier checks that `@callee` exists and is a function (e.g.
    `tensorir.prim_func`, or a `func.func` declaration) taking exactly
    `#args + #results + #tir_vars` parameters: a ranked memref (TensorIR
    buffer) or tensor for each argument and result, with the same element
    type and a compatible shape (`?` matches any size), then an integer or
    `index` per `tir_vars` entry.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyRankedTensor>:$args,
                       OptionalAttr<Relax_ShapeAttr>:$tir_vars);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` `` custom<TirVars>($tir_vars) attr-dict `:`
    functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Relax_CallDPSPackedOp : Relax_Op<"call_dps_packed", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "destination-passing call of an external (packed) function";
  let description = [{
    TVM's `R.call_dps_packed("env.linear", args, out_sinfo)`: calls the
    runtime function registered under `callee`, passing the arguments and one
    freshly allocated output tensor per result.

    Purity mirrors TVM, which registers `call_dps_packed` with
    `FPurity = true` ("there is little reason to use DPS with an impure op"):
    by default the op has no memory effects, may appear inside
    `relax.dataflow` and is removed when unused. A call that really has side
    effects is marked `has_side_effects`; it then reports read and write
    effects, must stay outside dataflow blocks and is never removed.

    ```mlir
    %y = relax.call_dps_packed "env.linear"(%x, %w, %b)
        : (tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>)
        -> tensor<1x128xf32>
    relax.call_dps_packed "env.print"(%y) {has_side_effects}
        : (tensor<1x128xf32>) -> tensor<1xi32>
    ```
  }];
  let arguments = (ins StrAttr:$callee, Variadic<AnyType>:$args,
                       UnitAttr:$has_side_effects);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Bindings and constants
//===----------------------------------------------------------------------===//

def Relax_MatchCastOp : Relax_Op<"match_cast", [Pure]> {
  let summary = "checks a tensor's shape at run time and binds symbolic dims";
  let description = [{
    TVM's `R.match_cast(x, R.Tensor((n, 784), "float32"))`. The result is
    `value` with the more precise type: dimensions that are `?` in the
    operand may become static or get names in the result's
    `#relax.shape<...>` encoding; a name appearing here for the first time in
    the function is bound to the run-time size. The run-time check is part of
    the operation's semantics (lowering emits it); static knowledge must not
    contradict it.

    ```mlir
    %x1 = relax.match_cast %x : tensor<?x784xf32>
            to tensor<?x784xf32, #relax.shape<[n, 784]>>
    ```

    The verifier requires equal element types and ranks, and static sizes
    that agree where both types have them (a static operand dimension may
    become `?`, possibly named: `tensor<4xf32>` to `tensor<?xf32,
    #relax.shape<[n]>>` binds `n` to 4).
  }];
  let arguments = (ins AnyRankedTensor:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Relax_ConstantOp : Relax_Op<"constant", [ConstantLike, Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "constant tensor";
  let description = [{
    TVM's `R.const(...)` / a bound parameter: a tensor with a compile-time
    value. `value` is any `ElementsAttr`; large tensors (bound parameters,
    imported weights) are `dense_resource` blobs so they are not printed
    inline. The result type is the type of `value`.

    ```mlir
    %c = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %w = relax.constant dense_resource<w1> : tensor<128x784xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// High-level operators (examples of symbolic shape propagation)
//===----------------------------------------------------------------------===//

// Tensors of TVM's dtypes (DTypes.td). call_tir, match_cast and constants
// take any ranked tensor: kernels are the user's, and the others only move
// values.
def Relax_Tensor : RankedTensorOf<[MLC_DType]>;

class Relax_InferredOp<string mnemonic, list<Trait> traits = []>
    : Relax_Op<mnemonic, traits # [Pure,
        DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let extraClassDeclaration = [{
    /// Declared result types may omit the inferred `#relax.shape` encoding.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs) {
      return ::mlc::relax::detail::areCompatibleResultTypes(lhs, rhs);
    }
  }];
}

def Relax_AddOp : Relax_InferredOp<"add", [Commutative]> {
  let summary = "elementwise addition with NumPy broadcasting";
  let description = [{
    TVM's `R.add(a, b)`. Shapes are broadcast NumPy-style (aligned from the
    right; a dimension of static size 1 stretches). Symbolic dimensions
    propagate: `(n, 1) + (1, m) -> (n, m)`. Two dimensions that are not
    provably equal and neither is 1 are a conflict, reported with both
    expressions (`dimension 1: n vs m`) -- stricter than TVM, which falls
    back to an unknown shape; insert `relax.match_cast` to assert equality.
    Element types must be equal. Folds when both operands are constants
    (`dense` or `dense_resource`) with integer or float elements and the
    result has at most 2^20 elements.

    ```mlir
    %z = relax.add %x, %b : (tensor<?x128xf32, #relax.shape<[n, 128]>>,
                              tensor<128xf32>)
                          -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$lhs, Relax_Tensor:$rhs);
  let results = (outs Relax_Tensor:$result);
  let hasFolder = 1;
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_MatmulOp : Relax_InferredOp<"matmul"> {
  let summary = "NumPy-style matrix multiplication";
  let description = [{
    TVM's `R.matmul(a, b, out_dtype)`, with `numpy.matmul` semantics: a 1-D
    `a` is treated as a row and a 1-D `b` as a column (the added dimension is
    removed from the result), leading (batch) dimensions broadcast, and the
    contraction dimensions `a[-1]` and `b[-2]` must be equal:
    `(n, 784) x (784, 128) -> (n, 128)`. `out_dtype`, when present, is the
    result element type; otherwise operand element types must be equal.
    Folds when both operands are constants with integer or float elements,
    `out_dtype` is absent or equal to them, and the product needs at most
    2^24 multiply-adds.

    ```mlir
    %y = relax.matmul %x, %w : (tensor<?x784xf32, #relax.shape<[n, 784]>>,
                                 tensor<784x128xf32>)
                             -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$lhs, Relax_Tensor:$rhs,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs Relax_Tensor:$result);
  let hasFolder = 1;
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise operators (shared classes)
//===----------------------------------------------------------------------===//

/// With `isCompare`, the result element type is `i1` (TVM's bool).
class Relax_BinaryBroadcastOp<string mnemonic, string tvmDoc,
                              list<Trait> traits = [], bit isCompare = 0>
    : Relax_InferredOp<mnemonic, traits> {
  let summary = "elementwise " # tvmDoc # " with NumPy broadcasting";
  let description = [{
    TVM's `R.}] # mnemonic # [{(a, b)`: elementwise }] # tvmDoc # [{ with
    the broadcasting and symbolic shape propagation of `relax.add` (equal
    element types, `(n, 1) op (1, m) -> (n, m)`, a conflict between two
    dimensions that are not provably equal is an error)}] #
    !if(isCompare, [{; the result is a boolean (`i1`) tensor}], "") # [{.

    ```mlir
    %z = relax.}] # mnemonic # [{ %x, %y : (tensor<?x4xf32, #relax.shape<[n, 4]>>,
                              tensor<4xf32>)
                          -> tensor<?x4x}] # !if(isCompare, "i1", "f32") #
                          [{, #relax.shape<[n, 4]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$lhs, Relax_Tensor:$rhs);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return inferBroadcastBinary(context, location, operands[0].getType(),
                                  operands[1].getType(), inferredReturnTypes,
                                  /*boolResult=*/}] #
                                  !if(isCompare, "true", "false") # [{);
    }
  }];
}

def Relax_SubtractOp : Relax_BinaryBroadcastOp<"subtract", "subtraction">;
def Relax_MultiplyOp
    : Relax_BinaryBroadcastOp<"multiply", "multiplication", [Commutative]>;
def Relax_DivideOp : Relax_BinaryBroadcastOp<"divide", "division">;
def Relax_PowerOp : Relax_BinaryBroadcastOp<"power", "power (`a ** b`)">;
def Relax_MaximumOp
    : Relax_BinaryBroadcastOp<"maximum", "maximum", [Commutative]>;
def Relax_MinimumOp
    : Relax_BinaryBroadcastOp<"minimum", "minimum", [Commutative]>;
def Relax_FloorModOp
    : Relax_BinaryBroadcastOp<"floor_mod", "remainder of floor division "
      "(`a - floor(a / b) * b`: the sign of `b`, as Python's `%`)">;
def Relax_ModOp
    : Relax_BinaryBroadcastOp<"mod", "remainder of truncated division "
      "(the sign of `a`, as C's `fmod` and `%`)">;

def Relax_LessOp : Relax_BinaryBroadcastOp<"less", "`a < b`", [], 1>;
def Relax_GreaterOp : Relax_BinaryBroadcastOp<"greater", "`a > b`", [], 1>;
def Relax_LessEqualOp
    : Relax_BinaryBroadcastOp<"less_equal", "`a <= b`", [], 1>;
def Relax_GreaterEqualOp
    : Relax_BinaryBroadcastOp<"greater_equal", "`a >= b`", [], 1>;
def Relax_EqualOp
    : Relax_BinaryBroadcastOp<"equal", "`a == b`", [Commutative], 1>;
def Relax_NotEqualOp
    : Relax_BinaryBroadcastOp<"not_equal", "`a != b`", [Commutative], 1>;

/// An operator whose result has the type of `data` (shape, encoding and
/// element type). With `hasAxis`, an `axis` attribute (default -1, as TVM)
/// must be a valid axis of `data`.
class Relax_UnaryOp<string mnemonic, string tvmDoc, bit hasAxis = 0,
                    Type dataType = Relax_Tensor>
    : Relax_InferredOp<mnemonic> {
  let summary = tvmDoc;
  let description = [{
    TVM's `R.}] # mnemonic # [{`: }] # tvmDoc # [{. The result has the type
    of `data`, symbolic shape included}] #
    !if(hasAxis, [{; `axis` (default -1) may be negative and must be in
    range}], "") # [{.

    ```mlir
    %y = relax.}] # mnemonic # [{ %x : (tensor<?x10xf32, #relax.shape<[n, 10]>>)
                               -> tensor<?x10xf32, #relax.shape<[n, 10]>>
    ```
  }];
  let arguments = !if(hasAxis,
      (ins dataType:$data, DefaultValuedAttr<I64Attr, "-1">:$axis),
      (ins dataType:$data));
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      $cppClass::Adaptor adaptor(operands, attributes, properties, regions);
      return inferSameType(location, adaptor.getData().getType(), }] #
      !if(hasAxis, "adaptor.getAxis()", "std::nullopt") # [{,
                           inferredReturnTypes);
    }
  }];
}

def Relax_ReluOp : Relax_UnaryOp<"nn.relu", "rectified linear unit, max(x, 0)">;

def Relax_LeakyReluOp : Relax_InferredOp<"nn.leaky_relu"> {
  let summary = "leaky rectified linear unit";
  let description = [{
    TVM's `R.nn.leaky_relu(x, alpha)`: `x` where positive, `alpha * x`
    elsewhere (`alpha` default 0.01). The result has the type of `data`.

    ```mlir
    %y = relax.nn.leaky_relu %x {alpha = 2.0e-01 : f64}
        : (tensor<?x4xf32, #relax.shape<[n, 4]>>)
        -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       DefaultValuedAttr<F64Attr, "0.01">:$alpha);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return inferSameType(location, operands[0].getType(), std::nullopt,
                           inferredReturnTypes);
    }
  }];
}

/// Elementwise math on floating-point tensors (as Relay's).
class Relax_FloatUnaryOp<string mnemonic, string tvmDoc>
    : Relax_UnaryOp<mnemonic, "elementwise " # tvmDoc # " (floats only)", 0,
                    RankedTensorOf<[MLC_FloatDType]>>;

def Relax_ExpOp : Relax_FloatUnaryOp<"exp", "exponential">;
def Relax_LogOp : Relax_FloatUnaryOp<"log", "natural logarithm">;
def Relax_SqrtOp : Relax_FloatUnaryOp<"sqrt", "square root">;
def Relax_RsqrtOp : Relax_FloatUnaryOp<"rsqrt", "reciprocal square root">;
def Relax_TanhOp : Relax_FloatUnaryOp<"tanh", "hyperbolic tangent">;
def Relax_SigmoidOp
    : Relax_FloatUnaryOp<"sigmoid", "logistic sigmoid `1 / (1 + exp(-x))`">;
def Relax_ErfOp : Relax_FloatUnaryOp<"erf", "Gauss error function">;
def Relax_FloorOp : Relax_FloatUnaryOp<"floor", "rounding down">;
def Relax_CeilOp : Relax_FloatUnaryOp<"ceil", "rounding up">;
def Relax_RoundOp
    : Relax_FloatUnaryOp<"round", "rounding to the nearest integer, halves to "
                                  "even (as TVM's `round`, `llvm.nearbyint`)">;
def Relax_TruncOp : Relax_FloatUnaryOp<"trunc", "rounding toward zero">;
def Relax_SinOp : Relax_FloatUnaryOp<"sin", "sine">;
def Relax_CosOp : Relax_FloatUnaryOp<"cos", "cosine">;
def Relax_TanOp : Relax_FloatUnaryOp<"tan", "tangent">;
def Relax_AsinOp : Relax_FloatUnaryOp<"asin", "arc sine">;
def Relax_AcosOp : Relax_FloatUnaryOp<"acos", "arc cosine">;
def Relax_AtanOp : Relax_FloatUnaryOp<"atan", "arc tangent">;
def Relax_SinhOp : Relax_FloatUnaryOp<"sinh", "hyperbolic sine">;
def Relax_CoshOp : Relax_FloatUnaryOp<"cosh", "hyperbolic cosine">;
def Relax_AsinhOp : Relax_FloatUnaryOp<"asinh", "inverse hyperbolic sine">;
def Relax_AcoshOp : Relax_FloatUnaryOp<"acosh", "inverse hyperbolic cosine">;
def Relax_AtanhOp : Relax_FloatUnaryOp<"atanh", "inverse hyperbolic tangent">;

/// A test of each element of a floating-point tensor; the result is a
/// boolean (`i1`) tensor of the same shape.
class Relax_FloatPredicateOp<string mnemonic, string tvmDoc>
    : Relax_InferredOp<mnemonic> {
  let summary = "elementwise test: " # tvmDoc # " (floats only)";
  let description = [{
    TVM's `R.}] # mnemonic # [{(x)`: true where the element is }] # tvmDoc #
    [{. The result is a boolean (`i1`) tensor with the shape of `data`,
    symbolic shape included.

    ```mlir
    %m = relax.}] # mnemonic # [{ %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>)
                               -> tensor<?x4xi1, #relax.shape<[n, 4]>>
    ```
  }];
  let arguments = (ins RankedTensorOf<[MLC_FloatDType]>:$data);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      auto type = ::llvm::dyn_cast<::mlir::RankedTensorType>(
          operands[0].getType());
      if (!type)
        return ::mlir::emitOptionalError(location,
                                         "operand must be a ranked tensor");
      inferredReturnTypes.push_back(
          type.clone(::mlir::IntegerType::get(context, 1)));
      return ::mlir::success();
    }
  }];
}

def Relax_IsNaNOp : Relax_FloatPredicateOp<"isnan", "NaN">;
def Relax_IsInfOp : Relax_FloatPredicateOp<"isinf", "+inf or -inf">;
def Relax_IsFiniteOp
    : Relax_FloatPredicateOp<"isfinite", "neither infinite nor NaN">;
def Relax_AbsOp : Relax_UnaryOp<"abs", "elementwise absolute value">;
def Relax_NegativeOp : Relax_UnaryOp<"negative", "elementwise negation (`-x`)">;
def Relax_SoftmaxOp : Relax_UnaryOp<"nn.softmax", "softmax along `axis`", 1>;
def Relax_LogSoftmaxOp
    : Relax_UnaryOp<"nn.log_softmax", "log of softmax along `axis`", 1>;

def Relax_AstypeOp : Relax_InferredOp<"astype"> {
  let summary = "converts the element type";
  let description = [{
    TVM's `R.astype(x, dtype)` (Relay's `cast`): converts every element to
    `dtype`; the shape, symbolic shape included, is unchanged.

    ```mlir
    %h = relax.astype %x {dtype = f16}
        : (tensor<?x4xf32, #relax.shape<[n, 4]>>)
        -> tensor<?x4xf16, #relax.shape<[n, 4]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, TypeAttr:$dtype);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_ClipOp : Relax_InferredOp<"clip"> {
  let summary = "clamps every element into [min, max]";
  let description = [{
    TVM's `R.clip(x, min, max)`: elementwise `min(max(x, min), max)` with
    `f64` bounds whatever the element type (Relay's `a_min`/`a_max`). The
    result has the type of `data`.

    ```mlir
    %c = relax.clip %x {max = 6.0 : f64, min = 0.0 : f64}
        : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, F64Attr:$min, F64Attr:$max);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_WhereOp : Relax_InferredOp<"where"> {
  let summary = "selects elements of x or y by a boolean condition";
  let description = [{
    TVM's `R.where(condition, x, y)`: `condition ? x : y` elementwise.
    `condition` is an `i1` tensor, `x` and `y` have the same element type,
    and the three broadcast together with the symbolic rules of `relax.add`.

    ```mlir
    %w = relax.where %c, %x, %y
        : (tensor<?x1xi1, #relax.shape<[n, 1]>>, tensor<4xf32>, tensor<f32>)
        -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I1]>:$condition, Relax_Tensor:$x,
                       Relax_Tensor:$y);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Relax_PermuteDimsOp : Relax_InferredOp<"permute_dims"> {
  let summary = "permutes the dimensions of a tensor";
  let description = [{
    TVM's `R.permute_dims(x, axes)`: result dimension `i` is `data`'s
    dimension `axes[i]` (negative axes count from the end). Without `axes`
    the dimensions are reversed. Symbolic dimensions move with their axes.

    ```mlir
    %t = relax.permute_dims %w : (tensor<128x784xf32>) -> tensor<784x128xf32>
    %u = relax.permute_dims %x {axes = array<i64: 1, 0, 2>}
        : (tensor<?x4x8xf32, #relax.shape<[n, 4, 8]>>)
        -> tensor<4x?x8xf32, #relax.shape<[4, n, 8]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  // A permutation of a permutation becomes one (in place); the identity
  // folds to its operand.
  let hasFolder = 1;
}

def Relax_ReshapeOp : Relax_InferredOp<"reshape"> {
  let summary = "reshapes a tensor to a static shape";
  let description = [{
    TVM's `R.reshape(x, shape)` with a static `shape`: sizes, at most one -1
    (inferred from the element count) and Relay's 0 (copy the input
    dimension). Shapes are computed by the shared Relay reshape function; the
    element counts must agree when they are known.

    ```mlir
    %r = relax.reshape %b {shape = array<i64: 128, 1, 1>}
        : (tensor<128xf32>) -> tensor<128x1x1xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, DenseI64ArrayAttr:$shape);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_ExpandDimsOp : Relax_InferredOp<"expand_dims"> {
  let summary = "inserts size-1 dimensions";
  let description = [{
    TVM's `R.expand_dims(x, axis)`: `axis` lists the positions of the new
    size-1 dimensions in the result (each in `[-r, r)` for result rank `r`,
    negative ones counting from the end, no duplicates). Symbolic dimensions
    are kept.

    ```mlir
    %e = relax.expand_dims %b {axis = array<i64: 1, 2>}
        : (tensor<128xf32>) -> tensor<128x1x1xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, DenseI64ArrayAttr:$axis);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_SqueezeOp : Relax_InferredOp<"squeeze"> {
  let summary = "removes size-1 dimensions";
  let description = [{
    TVM's `R.squeeze(x, axis)`: removes the listed axes (each static size 1
    or unknown), or every static size-1 dimension when `axis` is absent (as
    Relay, no dimension may then be unknown). The kept dimensions keep their
    symbolic expressions.

    ```mlir
    %s = relax.squeeze %x {axis = array<i64: 1>}
        : (tensor<?x1x4xf32, #relax.shape<[n, 1, 4]>>)
        -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_SplitOp : Relax_InferredOp<"split"> {
  let summary = "splits a tensor along an axis";
  let description = [{
    TVM's `R.split(x, indices_or_sections, axis)`: an integer splits `axis`
    (default 0) into that many equal parts, an array splits at those
    ascending indices. TVM returns a tuple; here each part is a result. The
    shapes come from the function shared with `relay.split`; the other
    dimensions keep their symbolic expressions, the split axis is static or
    `?`.

    ```mlir
    %a, %b = relax.split %x {indices_or_sections = 2 : i64, axis = 1 : i64}
        : (tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       AnyAttrOf<[I64Attr, DenseI64ArrayAttr]>:$indices_or_sections,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Variadic<Relax_Tensor>:$results);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_StridedSliceOp : Relax_InferredOp<"strided_slice"> {
  let summary = "slices a tensor with strides";
  let description = [{
    TVM's `R.strided_slice(x, axes, begin, end, strides)`, here with Relay's
    conventions: without `axes`, `begin`/`end`/`strides` address the leading
    dimensions (absent `strides`: 1). Negative indices count from the end
    and indices are clamped. The shape comes from the function shared with
    `relay.strided_slice` (end mode); dimensions not sliced keep their
    symbolic expressions.

    ```mlir
    %s = relax.strided_slice %x {begin = array<i64: 1>, end = array<i64: 3>}
        : (tensor<4x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_TakeOp : Relax_InferredOp<"take"> {
  let summary = "gathers elements along an axis";
  let description = [{
    TVM's `R.take(x, indices, axis, mode)`: without `axis` the data is
    flattened and the result has the indices' shape; otherwise the result
    shape is `data[:axis] + indices + data[axis+1:]`. `mode` is "clip"
    (default), "wrap" or "fast". Shapes come from the function shared with
    `relay.take` on the static sizes.

    ```mlir
    %t = relax.take %w, %i {axis = 0 : i64}
        : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       RankedTensorOf<[AnySignlessInteger]>:$indices,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedStrAttr<StrAttr, "clip">:$mode);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_GatherElementsOp : Relax_InferredOp<"gather_elements"> {
  let summary = "gathers elements along an axis at per-element indices";
  let description = [{
    TVM's `R.gather_elements(data, indices, axis)` (ONNX GatherElements,
    `torch.gather`): `out[i0, .., ik, ..] = data[i0, .., indices[i0, .., ik,
    ..], ..]` with the index replacing position `axis` (default 0; negative
    counts from the end). `indices` has the rank of `data` and the result
    has its shape; along the other axes it may not be larger than `data`.
    A negative index counts from the end of the axis; indices outside
    `[-n, n)` are undefined behaviour, as in TVM.

    ```mlir
    %g = relax.gather_elements %x, %i {axis = 1 : i64}
        : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       RankedTensorOf<[AnySignlessInteger]>:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_ScatterElementsOp : Relax_InferredOp<"scatter_elements"> {
  let summary = "writes elements at per-element indices along an axis";
  let description = [{
    TVM's `R.scatter_elements(data, indices, updates, axis, reduction)`
    (ONNX ScatterElements, `torch.scatter`): the result is `data` with, for
    every position `i` of `indices`, the element at `i` with `indices[i]`
    in place of position `axis` set to `updates[i]` (`reduction` "update",
    the default) or combined with it ("add", "mul", "min", "max"). Updates
    apply in row-major order of `indices`, so a later one to the same
    position wins. `indices` and `updates` have one shape, of the rank of
    `data`; a negative index counts from the end of the axis.

    ```mlir
    %s = relax.scatter_elements %x, %i, %u {axis = 1 : i64, reduction = "add"}
        : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       RankedTensorOf<[AnySignlessInteger]>:$indices,
                       Relax_Tensor:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedStrAttr<StrAttr, "update">:$reduction);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_ScatterNDOp : Relax_InferredOp<"scatter_nd"> {
  let summary = "writes slices at N-dimensional indices";
  let description = [{
    TVM's `R.scatter_nd(data, indices, updates, reduction)` (ONNX
    ScatterND): `indices` has shape `Q + [k]` with a static `k` no larger
    than the rank of `data`; each of its index vectors names a slice
    `data[i0, .., ik-1]`, which is set to the matching slice of `updates`
    (shape `Q + data.shape[k:]`), or combined with it (`reduction` "add",
    "mul", "min", "max"; default "update"). Updates apply in row-major
    order; a negative index counts from the end of its dimension.

    ```mlir
    %s = relax.scatter_nd %x, %i, %u
        : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       RankedTensorOf<[AnySignlessInteger]>:$indices,
                       Relax_Tensor:$updates,
                       DefaultValuedStrAttr<StrAttr, "update">:$reduction);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_BroadcastToOp : Relax_InferredOp<"broadcast_to"> {
  let summary = "broadcasts a tensor to a static shape";
  let description = [{
    TVM's `R.broadcast_to(x, shape)` with a static `shape`: `data` must
    broadcast (NumPy rules) to exactly `shape`.

    ```mlir
    %b = relax.broadcast_to %x {shape = array<i64: 2, 3>}
        : (tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, DenseI64ArrayAttr:$shape);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Reductions and concatenation
//===----------------------------------------------------------------------===//

class Relax_ReduceOp<string mnemonic, string tvmDoc>
    : Relax_InferredOp<mnemonic> {
  let summary = "reduces a tensor by " # tvmDoc;
  let description = [{
    TVM's `R.}] # mnemonic # [{(x, axis, keepdims)`: reduces `data` by }] #
    tvmDoc # [{ over the listed axes (negative ones count from the end; absent
    or empty: all axes). The reduced dimensions are removed, or kept as size
    1 with `keepdims`. Symbolic dimensions that are kept propagate.

    ```mlir
    %s = relax.}] # mnemonic # [{ %x {axis = array<i64: 2, 3>, keepdims = true}
        : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>)
        -> tensor<?x64x1x1xf32, #relax.shape<[n, 64, 1, 1]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      $cppClass::Adaptor adaptor(operands, attributes, properties, regions);
      return inferReduce(context, location, adaptor.getData().getType(),
                         adaptor.getAxisAttr(), adaptor.getKeepdims(),
                         inferredReturnTypes);
    }
  }];
}

def Relax_SumOp : Relax_ReduceOp<"sum", "summation">;
def Relax_MeanOp : Relax_ReduceOp<"mean", "the arithmetic mean">;
def Relax_MaxOp : Relax_ReduceOp<"max", "the maximum">;
def Relax_MinOp : Relax_ReduceOp<"min", "the minimum">;
def Relax_ProdOp : Relax_ReduceOp<"prod", "the product">;

class Relax_ArgReduceOp<string mnemonic, string tvmDoc>
    : Relax_InferredOp<mnemonic> {
  let summary = "index of the " # tvmDoc # " element along an axis";
  let description = [{
    TVM's `R.}] # mnemonic # [{(x, axis, keepdims)`: the index of the }] #
    tvmDoc # [{ element along `axis` (negative counts from the end; absent:
    over the flattened tensor, a scalar result). The result is an `i64`
    tensor, as in TVM Relax (Relay's is `i32`: relay-to-relax adds a
    `relax.astype`). The dimension is removed, or kept as size 1 with
    `keepdims`; others keep their symbolic expressions.

    ```mlir
    %i = relax.}] # mnemonic # [{ %x {axis = 1 : i64}
        : (tensor<?x10xf32, #relax.shape<[n, 10]>>)
        -> tensor<?xi64, #relax.shape<[n]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      $cppClass::Adaptor adaptor(operands, attributes, properties, regions);
      ::mlir::DenseI64ArrayAttr axes;
      if (adaptor.getAxisAttr())
        axes = ::mlir::DenseI64ArrayAttr::get(context,
                                              {adaptor.getAxisAttr().getInt()});
      return inferReduce(context, location, adaptor.getData().getType(), axes,
                         adaptor.getKeepdims(), inferredReturnTypes,
                         ::mlir::IntegerType::get(context, 64));
    }
  }];
}

def Relax_ArgmaxOp : Relax_ArgReduceOp<"argmax", "largest">;
def Relax_ArgminOp : Relax_ArgReduceOp<"argmin", "smallest">;

def Relax_ConcatOp : Relax_InferredOp<"concat"> {
  let summary = "joins tensors along an axis";
  let description = [{
    TVM's `R.concat(tensors, axis)`: all inputs have the same rank, element
    type and sizes off `axis` (default 0, negative counts from the end); the
    result's `axis` dimension is the sum of the inputs' (symbolically:
    `n + 4`).

    ```mlir
    %c = relax.concat %a, %b {axis = 1}
        : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Relax_Tensor>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Convolution and pooling (NCHW-style layouts, static shapes)
//===----------------------------------------------------------------------===//

def Relax_Conv2DOp : Relax_InferredOp<"nn.conv2d"> {
  let summary = "2-D convolution";
  let description = [{
    TVM's `R.nn.conv2d` with its attributes and defaults: `strides` [1, 1],
    `padding` [0, 0] (1, 2 or 4 values as `get_pad_tuple2d`), `dilation`
    [1, 1], `groups` 1, `data_layout` "NCHW", `kernel_layout` "OIHW",
    `out_layout` "" (= `data_layout`), `out_dtype` (absent: the data's
    element type). The result shape comes from the shape function shared
    with `relay.nn.conv2d` (`NNShapeFunctions.h`) on the static sizes; `?`
    sizes stay unknown and `#relax.shape` names are not propagated.

    ```mlir
    %y = relax.nn.conv2d %x, %w {padding = array<i64: 1, 1>}
        : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, Relax_Tensor:$weight,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_layout,
    DefaultValuedAttr<StrAttr, "\"OIHW\"">:$kernel_layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
    OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $weight attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_Conv2DTransposeOp : Relax_InferredOp<"nn.conv2d_transpose"> {
  let summary = "2-D transposed convolution";
  let description = [{
    TVM's `R.nn.conv2d_transpose` with its attributes and defaults:
    `strides` [1, 1], `padding` [0, 0] (1, 2 or 4 values), `output_padding`
    [0, 0], `dilation` [1, 1], `groups` 1, `data_layout` "NCHW",
    `kernel_layout` "IOHW", `out_layout` "" (= `data_layout`), `out_dtype`
    (absent: the data's element type). The shape comes from the function
    shared with `relay.nn.conv2d_transpose` on the static sizes.

    ```mlir
    %y = relax.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>}
        : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, Relax_Tensor:$weight,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$output_padding,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_layout,
    DefaultValuedAttr<StrAttr, "\"IOHW\"">:$kernel_layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
    OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $weight attr-dict `:` functional-type(operands, results)
  }];
}

class Relax_Pool2DOp<string mnemonic, string kind, dag extraArgs = (ins)>
    : Relax_InferredOp<mnemonic> {
  let summary = "2-D " # kind # " pooling";
  let description = [{
    TVM's `R.}] # mnemonic # [{`: }] # kind # [{ over `pool_size` windows,
    with `strides` [1, 1], `dilation` [1, 1], `padding` [0, 0] (1, 2 or 4
    values), `layout` "NCHW", `out_layout` "" (= `layout`) and `ceil_mode`
    false. The shape comes from the shape function shared with Relay's
    pools on the static sizes.

    ```mlir
    %p = relax.}] # mnemonic # [{ %x {pool_size = array<i64: 2, 2>,
                                      strides = array<i64: 2, 2>}
        : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
    ```
  }];
  let arguments = !con((ins Relax_Tensor:$data,
    DenseI64ArrayAttr:$pool_size,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode), extraArgs);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      $cppClass::Adaptor adaptor(operands, attributes, properties, regions);
      if (!adaptor.getPoolSizeAttr())
        return ::mlir::emitOptionalError(location,
                                         "relax.}] # mnemonic # [{ needs a 'pool_size'");
      ::mlc::nn::Pool2DAttrs attrs;
      attrs.poolSize = adaptor.getPoolSize();
      attrs.strides = adaptor.getStrides();
      attrs.dilation = adaptor.getDilation();
      attrs.padding = adaptor.getPadding();
      attrs.layout = adaptor.getLayout();
      attrs.outLayout = adaptor.getOutLayout();
      attrs.ceilMode = adaptor.getCeilMode();
      return inferPool2D(location, adaptor.getData().getType(), attrs,
                         inferredReturnTypes);
    }
  }];
}

def Relax_MaxPool2DOp : Relax_Pool2DOp<"nn.max_pool2d", "maximum">;
def Relax_AvgPool2DOp : Relax_Pool2DOp<"nn.avg_pool2d", "average",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)>;

def Relax_AdaptiveAvgPool2DOp : Relax_InferredOp<"nn.adaptive_avg_pool2d"> {
  let summary = "2-D adaptive average pooling";
  let description = [{
    TVM's `R.nn.adaptive_avg_pool2d(x, output_size, layout, out_layout)`:
    averages `data` into `output_size` (1 or 2 values; absent: the input's
    spatial size) spatial bins. Relay's `nn.global_avg_pool2d` is this op
    with `output_size = [1, 1]`, as in TVM Relax.

    ```mlir
    %g = relax.nn.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>}
        : (tensor<1x64x7x7xf32>) -> tensor<1x64x1x1xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
    OptionalAttr<DenseI64ArrayAttr>:$output_size,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

def Relax_PadOp : Relax_InferredOp<"nn.pad"> {
  let summary = "pads a tensor";
  let description = [{
    TVM's `R.nn.pad(x, pad_width, pad_mode, pad_value)`, with the pad value
    as a 0-d tensor operand as in Relay (its element type may differ from
    the data's). `pad_width` holds (before, after) pairs, two per dimension;
    negative widths crop. `pad_mode` is "constant" (default), "edge" or
    "reflect". The shape comes from the function shared with `relay.nn.pad`
    on the static sizes; dimensions padded by 0 on both sides keep their
    symbolic expressions.

    ```mlir
    %p = relax.nn.pad %x, %zero {pad_width = array<i64: 0, 0, 1, 1>}
        : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, 0DTensorOf<[MLC_DType]>:$pad_value,
                       DenseI64ArrayAttr:$pad_width,
                       DefaultValuedAttr<StrAttr, "\"constant\"">:$pad_mode);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $pad_value attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Relax_BatchNormOp : Relax_InferredOp<"nn.batch_norm"> {
  let summary = "batch normalization (inference form)";
  let description = [{
    TVM's `R.nn.batch_norm(data, gamma, beta, moving_mean, moving_var, axis,
    epsilon, center, scale)`: normalizes `data` along the channel `axis`
    (default 1). `gamma`, `beta`, `moving_mean` and `moving_var` are vectors
    with the channel count (checked by the function shared with
    `relay.nn.batch_norm`). Like the relay op (and TVM's tuple result) it has
    three results: the normalized data (the type of `data`) and the new mean
    and variance (channel vectors).

    ```mlir
    %y, %m, %v = relax.nn.batch_norm %x, %g, %b, %mm, %mv {epsilon = 1.0e-3}
        : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>,
           tensor<16xf32>, tensor<16xf32>)
        -> (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, Relax_Tensor:$gamma,
    Relax_Tensor:$beta, Relax_Tensor:$moving_mean,
    Relax_Tensor:$moving_var,
    DefaultValuedAttr<I64Attr, "1">:$axis,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale);
  let results = (outs Relax_Tensor:$output, Relax_Tensor:$new_mean,
                      Relax_Tensor:$new_var);
  let assemblyFormat = [{
    $data `,` $gamma `,` $beta `,` $moving_mean `,` $moving_var attr-dict `:`
    functional-type(operands, results)
  }];
}

def Relax_LayerNormOp : Relax_InferredOp<"nn.layer_norm"> {
  let summary = "layer normalization";
  let description = [{
    TVM's `R.nn.layer_norm(data, gamma, beta, axes, epsilon, center,
    scale)`: normalizes `data` over `axes` (negative ones count from the
    end). `gamma` and `beta` have the shape of `data` at `axes`. The result
    has the type of `data`.

    ```mlir
    %y = relax.nn.layer_norm %x, %g, %b {axes = array<i64: -1>}
        : (tensor<?x768xf32, #relax.shape<[n, 768]>>, tensor<768xf32>,
           tensor<768xf32>) -> tensor<?x768xf32, #relax.shape<[n, 768]>>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, Relax_Tensor:$gamma,
    Relax_Tensor:$beta, DenseI64ArrayAttr:$axes,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)
  }];
}

/// Per-channel normalizations over the non-batch, non-channel dimensions,
/// with per-channel `gamma` and `beta` (checked by the function shared with
/// the Relay ops). With `hasGroups`, channels are normalized in
/// `num_groups` groups (the channel count must be divisible).
class Relax_ChannelNormOp<string mnemonic, string tvmDoc, bit hasGroups>
    : Relax_InferredOp<mnemonic> {
  let summary = tvmDoc;
  let description = [{
    TVM's `R.}] # mnemonic # [{`: }] # tvmDoc # [{ of `data` with
    `channel_axis` (default 1, Relay's `axis`)}] #
    !if(hasGroups, [{, `num_groups` groups of channels}], "") # [{,
    `epsilon` (default 1e-5), `center` and `scale`; the statistics are over
    every dimension except 0 and the channel axis (TVM's default `axes`).
    The result has the type of `data`.

    ```mlir
    %y = relax.}] # mnemonic # [{ %x, %g, %b {}] #
        !if(hasGroups, "num_groups = 2 : i64", "epsilon = 1.0e-3 : f64") # [{}
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>)
        -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = !con((ins Relax_Tensor:$data, Relax_Tensor:$gamma,
    Relax_Tensor:$beta),
    !if(hasGroups, (ins I64Attr:$num_groups), (ins)),
    (ins DefaultValuedAttr<I64Attr, "1">:$channel_axis,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale));
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      $cppClass::Adaptor adaptor(operands, attributes, properties, regions);
      return inferChannelNorm(location, adaptor.getData().getType(),
                              adaptor.getGamma().getType(),
                              adaptor.getBeta().getType(),
                              adaptor.getChannelAxis(),
                              adaptor.getEpsilon().convertToDouble(), }] #
                              !if(hasGroups,
                                  [{adaptor.getNumGroupsAttr()
                                        ? std::optional<int64_t>(
                                              adaptor.getNumGroups())
                                        : std::optional<int64_t>(0)}],
                                  "std::nullopt") # [{,
                              inferredReturnTypes);
    }
  }];
}

def Relax_InstanceNormOp
    : Relax_ChannelNormOp<"nn.instance_norm", "instance normalization", 0>;
def Relax_GroupNormOp
    : Relax_ChannelNormOp<"nn.group_norm", "group normalization", 1>;

//===----------------------------------------------------------------------===//
// PReLU and image resizing
//===----------------------------------------------------------------------===//

def Relax_PReluOp : Relax_InferredOp<"nn.prelu"> {
  let summary = "parametric rectified linear unit";
  let description = [{
    TVM's `R.nn.prelu(data, alpha, axis)`: `data` where positive, `alpha *
    data` elsewhere, with one slope per index along `axis` (default 1, the
    channel axis of NCHW; negative values count from the back). `alpha` is
    1-D with the size of `data` along `axis` and the element type of
    `data`. The result has the type of `data`.

    ```mlir
    %y = relax.nn.prelu %x, %alpha
        : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data, Relax_Tensor:$alpha,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $alpha attr-dict `:` functional-type(operands, results)
  }];
}

def Relax_AttentionOp : Relax_InferredOp<"nn.attention"> {
  let summary = "scaled dot-product attention";
  let description = [{
    TVM's `R.nn.attention(query, key, value, bias, scale, causal_mask)`:
    `softmax(query keyᵀ * scale + bias) value` per batch and head, in TVM's
    layout (batch, sequence, heads, head dimension):
    `query` (B, S, N, H), `key` (B, S_kv, N, H), `value` (B, S_kv, N, H_v),
    result (B, S, N, H_v) of the element type of `query` (float16,
    bfloat16 or float32; all three operands of one type). `scale` defaults
    to 1 / sqrt(H). `bias`, when given, broadcasts NumPy-style to
    (B, N, S, S_kv) (TVM takes the full shape only; a padding mask of shape
    (B, 1, 1, S_kv) broadcasts here). `causal_mask` "TopLeft" keeps the
    scores of key j <= query i, "BottomRight" those of j <= i + S_kv - S;
    the others take no part in the softmax. 16-bit inputs accumulate in
    float32.

    ```mlir
    %o = relax.nn.attention %q, %k, %v {causal_mask = "TopLeft"}
        : (tensor<2x128x12x64xf16>, tensor<2x128x12x64xf16>,
           tensor<2x128x12x64xf16>) -> tensor<2x128x12x64xf16>
    ```
  }];
  let arguments = (ins Relax_Tensor:$query, Relax_Tensor:$key,
                       Relax_Tensor:$value, Optional<Relax_Tensor>:$bias,
                       OptionalAttr<F64Attr>:$scale,
                       OptionalAttr<StrAttr>:$causal_mask);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Relax_Resize2DOp : Relax_InferredOp<"image.resize2d"> {
  let summary = "2-D image resizing";
  let description = [{
    TVM's `R.image.resize2d(data, size, roi, layout, method,
    coordinate_transformation_mode, rounding_method, cubic_alpha,
    cubic_exclude, extrapolation_value, out_dtype)`: H and W of `layout`
    (default "NCHW", a permutation of "NCHW") become `size` (one value for
    both, or (H, W)). Output pixel (y, x) reads the input at a coordinate
    given by `coordinate_transformation_mode`: "half_pixel" (default),
    "align_corners", "asymmetric", "pytorch_half_pixel",
    "tf_half_pixel_for_nn" or "tf_crop_and_resize" (with `roi` = [start_h,
    start_w, end_h, end_w]). `method` is "nearest_neighbor", "linear"
    (default) or "cubic"; nearest neighbor rounds the coordinate with
    `rounding_method`: "round" (default), "round_prefer_floor",
    "round_prefer_ceil", "floor", "ceil", or "" (TOPI's default: "round"
    with "align_corners", else "floor"). The result has the element type
    `out_dtype` (default: that of `data`).

    Relay's `nn.upsampling` converts to this op (as TVM's legalization
    does through `topi.image.resize2d`).

    ```mlir
    %r = relax.image.resize2d %x {size = array<i64: 16, 16>,
                                  method = "nearest_neighbor",
                                  coordinate_transformation_mode = "asymmetric",
                                  rounding_method = ""}
        : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
    ```
  }];
  let arguments = (ins Relax_Tensor:$data,
    DenseI64ArrayAttr:$size,
    DefaultValuedAttr<DenseF64ArrayAttr, "{0.0, 0.0, 0.0, 0.0}">:$roi,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"linear\"">:$method,
    DefaultValuedAttr<StrAttr, "\"half_pixel\"">:
        $coordinate_transformation_mode,
    DefaultValuedAttr<StrAttr, "\"round\"">:$rounding_method,
    DefaultValuedAttr<F64Attr, "-0.5">:$cubic_alpha,
    DefaultValuedAttr<I64Attr, "0">:$cubic_exclude,
    DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
    OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs Relax_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

#endif // MLC_DIALECT_RELAX_IR_RELAXOPS_TD
