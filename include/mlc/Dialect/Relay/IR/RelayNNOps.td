//===- RelayNNOps.td - relay nn.* operations -------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Relay's neural-network operators (`relay.nn.conv2d`, `relay.nn.dense`, ...).
// Included from RelayOps.td so that the dialect has one op list.
//
// Attribute names, kinds and defaults are TVM's (see docs/architecture.md);
// result types are inferred by Relay's type relations, implemented as shape
// functions in mlc/Dialect/Utils/NNShapeFunctions.h.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYNNOPS_TD
#define MLC_DIALECT_RELAY_IR_RELAYNNOPS_TD

include "mlc/Dialect/Relay/IR/RelayDialect.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Base class
//===----------------------------------------------------------------------===//

// An `nn.*` operator: pure, with result types inferred from operands and
// attributes, checked by Relay_InferredResultTypes (RelayDialect.td).
// RelayNNOps.cpp implements `inferNNReturnTypes` (Relay's type relation) on
// an adaptor whose unset default-valued attributes hold their defaults:
// custom parsers and OperationState-based builders call `inferReturnTypes`
// before the defaults are populated, with the attributes still in a
// dictionary rather than in properties.
class NN_Op<string mnemonic, list<Trait> traits = []>
    : Relay_Op<"nn." # mnemonic,
               !listconcat([Pure,
                            DeclareOpInterfaceMethods<InferTypeOpInterface>,
                            Relay_InferredResultTypes],
                           traits)> {
  let extraClassDeclaration = [{
    /// Relay's type relation of this op; reports errors at `location`.
    static ::llvm::LogicalResult
    inferNNReturnTypes(::mlir::MLIRContext *context,
                       ::std::optional<::mlir::Location> location,
                       Adaptor adaptor,
                       ::llvm::SmallVectorImpl<::mlir::Type> &types);
  }];
}

// A one-operand nn operator whose result has the operand's type. (The type
// comes from inferReturnTypes rather than SameOperandsAndResultType so that
// the ops can also check their attributes there.)
class NN_UnaryOp<string mnemonic, list<Trait> traits = []>
    : NN_Op<mnemonic, traits> {
  let results = (outs Relay_Tensor:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Convolution and dense
//===----------------------------------------------------------------------===//

def Relay_Conv2DOp : NN_Op<"conv2d"> {
  let summary = "2-D convolution (Relay `nn.conv2d`)";
  let description = [{
    2-D convolution of `data` with `weight`, with TVM's attributes and
    defaults:

    | attribute | default | meaning |
    | --- | --- | --- |
    | `strides` | `[1, 1]` | window strides (H, W) |
    | `padding` | `[0, 0]` | 1 value (all sides), 2 values (top/bottom, left/right) or 4 values (top, left, bottom, right), as TVM's `get_pad_tuple2d` |
    | `dilation` | `[1, 1]` | kernel dilation (H, W) |
    | `groups` | `1` | channel groups; `groups` = input channels is a depthwise convolution |
    | `channels` | absent | number of output channels; checked against the weight |
    | `kernel_size` | absent | kernel (H, W); checked against the weight |
    | `data_layout` | `"NCHW"` | layout of `data`: a permutation of `NCHW` (`NCHW`, `NHWC`) |
    | `kernel_layout` | `"OIHW"` | layout of `weight`: a permutation of `OIHW` (`OIHW`, `HWIO`, `HWOI`) |
    | `out_layout` | `""` | layout of the result; empty means `data_layout` |
    | `out_dtype` | absent | result element type; absent means the element type of `data` |

    In NCHW terms, with `data` of shape `[N, C, H, W]` and `weight` of shape
    `[O, C / groups, KH, KW]`, the result has shape `[N, O, OH, OW]` with

    ```
    OH = (H + pad_top + pad_bottom - ((KH - 1) * dilation[0] + 1)) / strides[0] + 1
    OW = (W + pad_left + pad_right - ((KW - 1) * dilation[1] + 1)) / strides[1] + 1
    ```

    The verifier checks that `C` and `O` are divisible by `groups` and that
    the weight's input channels equal `C / groups`. As in Relay, a depthwise
    convolution (`groups` = `C` = the weight's `O`) with `channels` given
    takes its weight as `[C, channels / C, KH, KW]` in OIHW terms, which is
    how TFLite's HWOI weights `[KH, KW, C, multiplier]` arrive. Blocked
    layouts (`NCHW4c`) are not supported.

    Example:

    ```mlir
    %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, channels = 64 : i64,
                                 kernel_size = array<i64: 3, 3>}
        : (tensor<1x3x224x224xf32>, tensor<64x3x3x3xf32>) -> tensor<1x64x224x224xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$weight,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    OptionalAttr<I64Attr>:$channels,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_layout,
    DefaultValuedAttr<StrAttr, "\"OIHW\"">:$kernel_layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
    OptionalAttr<TypeAttr>:$out_dtype
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $weight attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_Conv2DTransposeOp : NN_Op<"conv2d_transpose"> {
  let summary = "2-D transposed convolution (Relay `nn.conv2d_transpose`)";
  let description = [{
    The transpose (gradient) of `relay.nn.conv2d`, also called
    deconvolution. The attributes are those of `relay.nn.conv2d` plus
    `output_padding` (default `[0, 0]`, extra rows/columns at the bottom and
    right of the result); `kernel_layout` defaults to `"IOHW"` and is a
    permutation of `IOHW`: the weight is `[C, O / groups, KH, KW]`.

    In NCHW terms, with `data` of shape `[N, C, H, W]` the result is
    `[N, O, OH, OW]` where `O` is `channels` if present and
    `groups * weight's O` otherwise, and

    ```
    OH = strides[0] * (H - 1) + (KH - 1) * dilation[0] + 1
         - pad_top - pad_bottom + output_padding[0]
    ```

    and likewise for `OW`.

    Example:

    ```mlir
    %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>,
                                           padding = array<i64: 1, 1, 1, 1>,
                                           output_padding = array<i64: 1, 1>}
        : (tensor<1x64x28x28xf32>, tensor<64x32x3x3xf32>) -> tensor<1x32x56x56xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$weight,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$output_padding,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    OptionalAttr<I64Attr>:$channels,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_layout,
    DefaultValuedAttr<StrAttr, "\"IOHW\"">:$kernel_layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
    OptionalAttr<TypeAttr>:$out_dtype
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $weight attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_DenseOp : NN_Op<"dense"> {
  let summary = "fully connected layer (Relay `nn.dense`)";
  let description = [{
    `data` of shape `[..., K]` times the transpose of `weight` of shape
    `[units, K]`, giving `[..., units]`. `units`, when present, must equal
    the weight's first dimension. `out_dtype` (absent: the element type of
    `data`) is the result element type.

    Example:

    ```mlir
    %0 = relay.nn.dense %x, %w {units = 10 : i64}
        : (tensor<1x512xf32>, tensor<10x512xf32>) -> tensor<1x10xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$weight,
    OptionalAttr<I64Attr>:$units,
    OptionalAttr<TypeAttr>:$out_dtype
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $weight attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_MatmulOp : NN_Op<"matmul"> {
  let summary = "matrix multiplication with a 2-D operand (Relay `nn.matmul`)";
  let description = [{
    `tensor_a` of shape `[..., M, K]` (`[..., K, M]` with `transpose_a`)
    times the 2-D `tensor_b` of shape `[K, N]` (`[N, K]` with
    `transpose_b`), giving `[..., M, N]`. Both transposes default to false;
    `nn.dense` is `nn.matmul` with `transpose_b = true`. `units`, when
    present, must equal `N`. `out_dtype` (absent: the element type of
    `tensor_a`) is the result element type.

    Example:

    ```mlir
    %0 = relay.nn.matmul %a, %b
        : (tensor<4x512xf32>, tensor<512x10xf32>) -> tensor<4x10xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$tensor_a,
    Relay_Tensor:$tensor_b,
    OptionalAttr<I64Attr>:$units,
    OptionalAttr<TypeAttr>:$out_dtype,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_b
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $tensor_a `,` $tensor_b attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_BatchMatmulOp : NN_Op<"batch_matmul"> {
  let summary = "batched matrix multiplication (Relay `nn.batch_matmul`)";
  let description = [{
    Multiplies the matrices of two 3-D tensors batch by batch. With Relay's
    defaults (`transpose_a = false`, `transpose_b = true`) `x` is
    `[B, M, K]`, `y` is `[B, N, K]` and the result `[B, M, N]`;
    `transpose_a` makes `x` `[B, K, M]` and `transpose_b = false` makes `y`
    `[B, K, N]`. A batch dimension of 1 on one side broadcasts to the other.
    `out_dtype` (absent: the element type of `x`) is the result element type.

    Example:

    ```mlir
    %0 = relay.nn.batch_matmul %x, %y
        : (tensor<8x32x64xf32>, tensor<1x16x64xf32>) -> tensor<8x32x16xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$x,
    Relay_Tensor:$y,
    OptionalAttr<TypeAttr>:$out_dtype,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
    DefaultValuedAttr<BoolAttr, "true">:$transpose_b
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $x `,` $y attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_BiasAddOp : NN_Op<"bias_add"> {
  let summary = "add a bias along one axis (Relay `nn.bias_add`)";
  let description = [{
    Adds the 1-D `bias` to `data` along `axis` (default 1, the channel axis
    of NCHW; negative values count from the back). `bias` must have the
    element type of `data` and as many elements as `data` has along `axis`.
    The result has the type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.bias_add %x, %b
        : (tensor<1x64x56x56xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$bias,
    DefaultValuedAttr<I64Attr, "1">:$axis
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $bias attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

def Relay_ReluOp : NN_UnaryOp<"relu"> {
  let summary = "rectified linear unit (Relay `nn.relu`)";
  let description = [{
    Elementwise `max(data, 0)`. The result has the type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.relu %x : (tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Relay_Tensor:$data);
}

def Relay_LeakyReluOp : NN_UnaryOp<"leaky_relu"> {
  let summary = "leaky rectified linear unit (Relay `nn.leaky_relu`)";
  let description = [{
    Elementwise `data` where positive, `alpha * data` elsewhere (`alpha`
    defaults to 0.01). The result has the type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.leaky_relu %x {alpha = 2.000000e-01 : f64} : (tensor<1x64xf32>) -> tensor<1x64xf32>
    ```
  }];
  let arguments = (ins
    Relay_Tensor:$data,
    DefaultValuedAttr<F64Attr, "0.01">:$alpha
  );
}

def Relay_PReluOp : NN_Op<"prelu"> {
  let summary = "parametric rectified linear unit (Relay `nn.prelu`)";
  let description = [{
    Elementwise `data` where positive, `alpha * data` elsewhere, with one
    slope per index along `axis` (default 1, the channel axis of NCHW;
    negative values count from the back): `alpha` is 1-D with the size of
    `data` along `axis` and the element type of `data`. The result has the
    type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.prelu %x, %alpha
        : (tensor<1x64x56x56xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$alpha,
    DefaultValuedAttr<I64Attr, "1">:$axis
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $alpha attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_SoftmaxOp : NN_UnaryOp<"softmax"> {
  let summary = "softmax along an axis (Relay `nn.softmax`)";
  let description = [{
    `exp(data) / sum(exp(data), axis)` along `axis` (default -1, the last
    axis). The result has the type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.softmax %x : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins
    Relay_Tensor:$data,
    DefaultValuedAttr<I64Attr, "-1">:$axis
  );
}

def Relay_LogSoftmaxOp : NN_UnaryOp<"log_softmax"> {
  let summary = "log of softmax along an axis (Relay `nn.log_softmax`)";
  let description = [{
    `log(softmax(data, axis))` along `axis` (default -1, the last axis).
    The result has the type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.log_softmax %x {axis = 1 : i64} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins
    Relay_Tensor:$data,
    DefaultValuedAttr<I64Attr, "-1">:$axis
  );
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// 2-D max/avg pooling. `intro` and `example` surround the shared attribute
// table in the description.
class NN_Pool2DOp<string mnemonic, string kind, string intro, string example,
                  dag extraArgs = (ins)>
    : NN_Op<mnemonic> {
  let summary = "2-D " # kind # " pooling (Relay `nn." # mnemonic # "`)";
  let description = intro # [{

| attribute | default | meaning |
| --- | --- | --- |
| `pool_size` | required | window (H, W) |
| `strides` | `[1, 1]` | window strides (H, W) |
| `dilation` | `[1, 1]` | window dilation (H, W) |
| `padding` | `[0, 0]` | 1, 2 or 4 values as in `relay.nn.conv2d` |
| `layout` | `"NCHW"` | layout of `data`: a permutation of `NCHW` (`NCHW`, `NHWC`) |
| `out_layout` | `""` | empty or equal to `layout` |
| `ceil_mode` | `false` | round the output size up instead of down |

The output height is, as in Relay,
`(H + pad_top + pad_bottom - ((pool_size[0] - 1) * dilation[0] + 1)) / strides[0] + 1`,
with `strides[0] - 1` added to the numerator in `ceil_mode`; likewise for
the width. Other dimensions are unchanged.

Example:

```mlir
}] # example # [{
```
}];
  let arguments = !con((ins
    Relay_Tensor:$data,
    DenseI64ArrayAttr:$pool_size,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode
  ), extraArgs);
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_MaxPool2DOp : NN_Pool2DOp<"max_pool2d", "max",
    "Maximum over 2-D windows of `data`.",
    [{%0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                             padding = array<i64: 1, 1, 1, 1>}
    : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>}]>;

def Relay_AvgPool2DOp : NN_Pool2DOp<"avg_pool2d", "average",
    [{Average over 2-D windows of `data`. With `count_include_pad` (default
false) padded elements count in the divisor.}],
    [{%0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>}
    : (tensor<1x64x56x56xf32>) -> tensor<1x64x28x28xf32>}],
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)>;

// 2-D global pooling over the whole H x W plane.
class NN_GlobalPool2DOp<string mnemonic, string kind, string what>
    : NN_Op<mnemonic> {
  let summary = "2-D global " # kind # " pooling (Relay `nn." # mnemonic # "`)";
  let description = what # [{ over the whole H x W plane: H and W of
`layout` (default `"NCHW"`, a permutation of `NCHW`) become 1. `out_layout`
must be empty or equal to `layout`.

Example:

```mlir
%0 = relay.nn.}] # mnemonic # [{ %x
    : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
```
}];

  let arguments = (ins
    Relay_Tensor:$data,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_GlobalAvgPool2DOp
    : NN_GlobalPool2DOp<"global_avg_pool2d", "average", "Average">;
def Relay_GlobalMaxPool2DOp
    : NN_GlobalPool2DOp<"global_max_pool2d", "max", "Maximum">;

// 2-D adaptive pooling to a given output size.
class NN_AdaptivePool2DOp<string mnemonic, string kind, string what>
    : NN_Op<mnemonic> {
  let summary = "2-D adaptive " # kind # " pooling (Relay `nn." # mnemonic #
                "`)";
  let description = what # [{ pooling whose windows are chosen so that H and W
of `layout` (default `"NCHW"`, a permutation of `NCHW`) become
`output_size`: one value sets both, two values set (H, W), and an absent or
empty `output_size` keeps the input size. `out_layout` must be empty or
equal to `layout`.

Example:

```mlir
%0 = relay.nn.}] # mnemonic # [{ %x {output_size = array<i64: 1, 1>}
    : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
```
}];

  let arguments = (ins
    Relay_Tensor:$data,
    OptionalAttr<DenseI64ArrayAttr>:$output_size,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"\"">:$out_layout
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_AdaptiveAvgPool2DOp
    : NN_AdaptivePool2DOp<"adaptive_avg_pool2d", "average", "Average">;
def Relay_AdaptiveMaxPool2DOp
    : NN_AdaptivePool2DOp<"adaptive_max_pool2d", "max", "Maximum">;

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Relay_BatchNormOp : NN_Op<"batch_norm"> {
  let summary = "batch normalization (Relay `nn.batch_norm`)";
  let description = [{
    Normalizes `data` along `axis` (default 1; negative values count from
    the back) with the running statistics `moving_mean` and `moving_var`:
    `(data - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta`, where
    `scale = false` drops `gamma` and `center = false` drops `beta`.

    `gamma`, `beta`, `moving_mean` and `moving_var` are 1-D with the size of
    `data` along `axis` and the element type of `data`. Relay's tuple result
    is three results: the normalized data (the type of `data`), and the new
    running mean and variance (1-D of the size of `data` along `axis`, with
    the element type of `data`). The importer maps `%0.0` to the first
    result.

    Example:

    ```mlir
    %0:3 = relay.nn.batch_norm %x, %gamma, %beta, %mean, %var {epsilon = 1.0e-03 : f64}
        : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
        -> (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>)
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$gamma,
    Relay_Tensor:$beta,
    Relay_Tensor:$moving_mean,
    Relay_Tensor:$moving_var,
    DefaultValuedAttr<I64Attr, "1">:$axis,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale
  );
  let results = (outs
    Relay_Tensor:$output,
    Relay_Tensor:$new_mean,
    Relay_Tensor:$new_var
  );

  let assemblyFormat = [{
    $data `,` $gamma `,` $beta `,` $moving_mean `,` $moving_var attr-dict `:`
    functional-type(operands, results)
  }];
}

def Relay_LayerNormOp : NN_Op<"layer_norm"> {
  let summary = "layer normalization (Relay `nn.layer_norm`)";
  let description = [{
    Normalizes `data` by the mean and variance along `axis` (default -1),
    then scales by `gamma` (unless `scale = false`) and shifts by `beta`
    (unless `center = false`); `epsilon` (default 1e-5) is added to the
    variance. `gamma` and `beta` are 1-D with the size of `data` along
    `axis` and the element type of `data`. The result has the type of
    `data`.

    Example:

    ```mlir
    %0 = relay.nn.layer_norm %x, %gamma, %beta
        : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$gamma,
    Relay_Tensor:$beta,
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_InstanceNormOp : NN_Op<"instance_norm"> {
  let summary = "instance normalization (Relay `nn.instance_norm`)";
  let description = [{
    Normalizes each instance and channel of `data` by the mean and variance
    over the other (spatial) axes, `axis` (default 1) being the channel
    axis; then scales by `gamma` (unless `scale = false`) and shifts by
    `beta` (unless `center = false`); `epsilon` (default 1e-5) is added to
    the variance. `gamma` and `beta` are 1-D with the size of `data` along
    `axis` and the element type of `data`. The result has the type of
    `data`.

    Example:

    ```mlir
    %0 = relay.nn.instance_norm %x, %gamma, %beta
        : (tensor<1x64x32x32xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x32x32xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$gamma,
    Relay_Tensor:$beta,
    DefaultValuedAttr<I64Attr, "1">:$axis,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)
  }];
}

def Relay_GroupNormOp : NN_Op<"group_norm"> {
  let summary = "group normalization (Relay `nn.group_norm`)";
  let description = [{
    Splits the channels of `data` (along `axis`, default 1) into
    `num_groups` groups and normalizes each instance and group by its mean
    and variance; then scales by `gamma` (unless `scale = false`) and shifts
    by `beta` (unless `center = false`); `epsilon` (default 1e-5) is added
    to the variance. The channel count must be divisible by `num_groups`.
    `gamma` and `beta` are 1-D with one value per channel and the element
    type of `data`. The result has the type of `data`.

    Example:

    ```mlir
    %0 = relay.nn.group_norm %x, %gamma, %beta {num_groups = 32 : i64}
        : (tensor<1x64x32x32xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x32x32xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    Relay_Tensor:$gamma,
    Relay_Tensor:$beta,
    I64Attr:$num_groups,
    DefaultValuedAttr<I64Attr, "1">:$axis,
    DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<BoolAttr, "true">:$center,
    DefaultValuedAttr<BoolAttr, "true">:$scale
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Resizing
//===----------------------------------------------------------------------===//

def Relay_UpSamplingOp : NN_Op<"upsampling"> {
  let summary = "2-D upsampling (Relay `nn.upsampling`)";
  let description = [{
    Scales H and W of `data` (positions given by `layout`, default
    `"NCHW"`, a permutation of `NCHW`) by `scale_h` and `scale_w`; the
    result sizes are `round(H * scale_h)` and `round(W * scale_w)` as in
    Relay. `method` is `"nearest_neighbor"` (default), `"bilinear"` or
    `"bicubic"`; `align_corners` (default false) aligns the corner pixels
    of input and output.

    Example:

    ```mlir
    %0 = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64}
        : (tensor<1x64x16x16xf32>) -> tensor<1x64x32x32xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    DefaultValuedAttr<F64Attr, "1.0">:$scale_h,
    DefaultValuedAttr<F64Attr, "1.0">:$scale_w,
    DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
    DefaultValuedAttr<StrAttr, "\"nearest_neighbor\"">:$method,
    DefaultValuedAttr<BoolAttr, "false">:$align_corners
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Padding, dropout, flatten
//===----------------------------------------------------------------------===//

def Relay_PadOp : NN_Op<"pad"> {
  let summary = "pad a tensor (Relay `nn.pad`)";
  let description = [{
    Pads each dimension of `data` by `pad_width`: Relay's nested list
    `((before_0, after_0), (before_1, after_1), ...)` flattened row-major,
    so it holds two values per dimension. Negative widths crop (the result
    must not become negative).

    `pad_value` is a 0-d tensor operand, as in TVM >= 0.8; it is used with
    `pad_mode = "constant"` (the default). Its element type may differ from
    that of `data` (Relay's default pad value is an `int32` zero).
    `pad_mode = "edge"` repeats the edge value and `"reflect"` mirrors the
    data without repeating the edge; these two modes cannot crop, and
    `"reflect"` needs each width to be smaller than the dimension (checked
    for static sizes; Relay leaves this to the kernel).

    Example:

    ```mlir
    %0 = relay.nn.pad %x, %zero {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
        : (tensor<1x3x224x224xf32>, tensor<f32>) -> tensor<1x3x226x226xf32>
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    0DTensorOf<[MLC_DType]>:$pad_value,
    DenseI64ArrayAttr:$pad_width,
    DefaultValuedAttr<StrAttr, "\"constant\"">:$pad_mode
  );
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data `,` $pad_value attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Relay_DropoutOp : NN_Op<"dropout"> {
  let summary = "dropout (Relay `nn.dropout`)";
  let description = [{
    Relay's dropout with drop probability `rate` (default 0.5). Like Relay
    it has two results of the type of `data`: the output and the mask.
    mlc compiles for inference, where dropout is the identity:
    canonicalization replaces uses of the output by `data` and erases the op
    once the mask is unused.

    Example:

    ```mlir
    %0:2 = relay.nn.dropout %x {rate = 2.000000e-01 : f64}
        : (tensor<1x512xf32>) -> (tensor<1x512xf32>, tensor<1x512xf32>)
    ```
  }];

  let arguments = (ins
    Relay_Tensor:$data,
    DefaultValuedAttr<F64Attr, "0.5">:$rate
  );
  let results = (outs Relay_Tensor:$output, Relay_Tensor:$mask);

  let assemblyFormat = [{
    $data attr-dict `:` functional-type(operands, results)
  }];
  let hasCanonicalizer = 1;
}

def Relay_BatchFlattenOp : NN_Op<"batch_flatten"> {
  let summary = "flatten all but the first dimension (Relay `nn.batch_flatten`)";
  let description = [{
    Reshapes `data` of shape `[N, d1, d2, ...]` to `[N, d1 * d2 * ...]`
    (a 1-D `[N]` becomes `[N, 1]`). The product is dynamic if any of
    `d1, d2, ...` is.

    Example:

    ```mlir
    %0 = relay.nn.batch_flatten %x : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
    ```
  }];

  let arguments = (ins Relay_Tensor:$data);
  let results = (outs Relay_Tensor:$result);

  let assemblyFormat = [{
    $data attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

#endif // MLC_DIALECT_RELAY_IR_RELAYNNOPS_TD
