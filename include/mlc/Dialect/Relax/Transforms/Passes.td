//===- Passes.td - relax dialect passes ---------------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD
#define MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelaxDCE : Pass<"relax-dce", "::mlir::ModuleOp"> {
  let summary = "remove unused pure operations and unreachable private functions";
  let description = [{
    TVM's `relax.transform.DeadCodeElimination`. In every `func.func` of the
    module it removes operations whose results are unused and that have no
    memory effects (per `MemoryEffectOpInterface`), including inside
    `relax.dataflow` blocks; results of a dataflow block that are not used
    are dropped from the block and its `relax.output`, which can make more
    of the block dead, and a block left with no results and only pure
    contents is removed. It repeats until nothing changes. No folding is
    done (that is `relax-fold-constant`'s job).

    Then it removes private symbols (functions, `tensorir.prim_func`s,
    declarations) that are not reachable through symbol references from the
    entry function or from any public symbol. Public symbols are kept: they
    are visible outside the module, like TVM functions with a
    `global_symbol`.

    Example: `relax-dce` turns

    ```mlir
    func.func private @unused(memref<4xf32>, memref<4xf32>)
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r:2 = relax.dataflow -> tensor<4xf32>, tensor<4xf32> {
        %a = relax.add %x, %x : ...
        %b = relax.call_dps_packed "env.exp"(%x) : ...
        relax.output %a, %b : tensor<4xf32>, tensor<4xf32>
      }
      return %r#0 : tensor<4xf32>
    }
    ```

    into a module without `@unused`, `%b` or the second result.

    The entry function must exist (an error is reported otherwise).
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "name of the entry function; it and every public symbol are "
           "roots of reachability (empty: only the public symbols)">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxBindParams : Pass<"relax-bind-params", "::mlir::ModuleOp"> {
  let summary = "bind function parameters to constants read from a tensor file";
  let description = [{
    TVM's `relax.transform.BindParams(func_name, params)`. Reads every tensor
    of `params` (a `.npz`, stored or deflated, or a `.safetensors` file) and
    replaces the parameter of `@func-name` whose `relax.name` argument
    attribute equals the tensor's name with a `relax.constant` holding it (a
    `dense_resource` blob, not printed inline). Bound parameters are removed
    from the signature, and their operands from every call to the function.

    A parameter whose type has `?` dimensions (possibly named in a
    `#relax.shape`) takes a tensor of any size there; the constant then has
    the file's static type and a `relax.match_cast` turns it into the
    parameter's type (binding the names).

    Stricter than TVM, which ignores names it does not know: each of the
    following is one error naming the parameter and the file, the pass fails
    and the module is left unchanged:
    - a tensor whose name is not a parameter (the message lists the named
      parameters),
    - a name present twice in the file, or two parameters with one name,
    - a shape or dtype that does not match the parameter's type,
    - a file that cannot be read, is truncated or malformed,
    - a use of the function that is not a call.

    ```mlir
    // relax-bind-params="params=mlp.npz"   (mlp.npz holds w0 and b0)
    func.func @main(%x: tensor<1x784xf32> {relax.name = "x"},
                    %w0: tensor<128x784xf32> {relax.name = "w0"},
                    %b0: tensor<128xf32> {relax.name = "b0"}) -> ...
    // becomes
    func.func @main(%x: tensor<1x784xf32> {relax.name = "x"}) -> ... {
      %w0 = relax.constant dense_resource<w0> : tensor<128x784xf32>
      %b0 = relax.constant dense_resource<b0> : tensor<128xf32>
      ...
    ```
  }];
  let options = [
    Option<"params", "params", "std::string", /*default=*/"\"\"",
           "path of the .npz or .safetensors file holding the parameters">,
    Option<"funcName", "func-name", "std::string", /*default=*/"\"main\"",
           "name of the function whose parameters are bound">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxLiftTransformParams
    : Pass<"relax-lift-transform-params", "::mlir::ModuleOp"> {
  let summary = "Move the work that depends only on the weights into a "
                "function run once";
  let description = [{
    TVM's `relax.transform.LiftTransformParams`. A function whose
    `relax.num_input` attribute (TVM's `num_input`) is N takes its inputs
    first, then its weights. Each op of its body (and of its
    `relax.dataflow` blocks) without effects or regions whose operands are
    weights, constants or results of such ops, at least one of them from a
    weight, moves into a new public function `@<name>_transform_params`
    that takes the weights (with their `relax.name`s) and returns what the
    rest of the function reads of them (the weights it reads as they are
    first, then the computed values in program order): a weight's layout
    change, its cast to half precision, a batch norm's scale and shift.
    The function then takes its inputs and those results (a weight under
    its own name, a computed value as `transformed_<i>`, i its index among
    the transform's results), in that order; the caller runs
    the transform once, when it loads the weights, instead of on every call
    (a ResNet-50 with weights as inputs ran 119 such kernels per call
    beside its 62). Constants the lifted ops read are cloned into the
    transform. A function with nothing to lift is left as it is.

    The relax graph importer sets the attribute when the params stay
    parameters (`from_fx(..., keep_params_as_input=True)`, as TVM's
    from_fx does). With `num-input` set, `@<func-name>` gets that
    attribute first; the pipelines run the pass only then. Errors
    (the pass fails): `num-input` without such a function, a count outside
    [0, number of parameters], a function that is called in the module
    (its parameters would change under the caller), or a symbol
    `@<name>_transform_params` that exists already.

    ```mlir
    // relax-lift-transform-params="num-input=1"
    func.func @main(%x: tensor<1x8xf32> {relax.name = "x"},
                    %w: tensor<4x8xf32> {relax.name = "w"}) -> tensor<1x4xf32> {
      %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : ...
      %y = relax.matmul %x, %wt : ...
      return %y : tensor<1x4xf32>
    }
    // becomes
    func.func @main(%x: tensor<1x8xf32> {relax.name = "x"},
                    %wt: tensor<8x4xf32> {relax.name = "transformed_0"})
        -> tensor<1x4xf32> attributes {relax.num_input = 1 : i64} {
      %y = relax.matmul %x, %wt : ...
      return %y : tensor<1x4xf32>
    }
    func.func @main_transform_params(%w: tensor<4x8xf32> {relax.name = "w"})
        -> tensor<8x4xf32> {
      %0 = relax.dataflow -> tensor<8x4xf32> {
        %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : ...
        relax.output %wt : tensor<8x4xf32>
      }
      return %0 : tensor<8x4xf32>
    }
    ```
  }];
  let options = [
    Option<"numInput", "num-input", "int64_t", /*default=*/"-1",
           "Inputs of @<func-name> (the rest of its parameters are weights); "
           "-1: lift only functions with a relax.num_input attribute">,
    Option<"funcName", "func-name", "std::string", /*default=*/"\"main\"",
           "The function that num-input is for">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxFoldConstant : Pass<"relax-fold-constant", "::mlir::ModuleOp"> {
  let summary = "evaluate operations whose operands are all constants";
  let description = [{
    TVM's `relax.transform.FoldConstant`. In every `func.func` (including
    inside `relax.dataflow` blocks), an operation whose operands are all
    `relax.constant`s (`dense` or `dense_resource`, as made by
    `relax-bind-params`) is evaluated and replaced by `relax.constant`s of
    its results:

    * ops with a `fold` hook (`relax.add`, `relax.matmul`, with their own
      size limits) fold through it, as with any MLIR folding; constants
      that become unused are removed and equal constants are merged;
    * every other high-level relax op that `relax-legalize-ops` can lower
      is legalized into its `tensorir.prim_func` kernel (in a scratch
      module, nothing is added to the input) and the kernel is run by the
      TensorIR reference interpreter (`mlc/Dialect/TensorIR/Utils/
      Interpreter.h`; no JIT, floats in the precision of their type);
    * `relax.call_tir` of a `tensorir.prim_func` (without `tir_vars`) is
      interpreted the same way.

    Results are evaluated in program order and the pass iterates to a fixed
    point, so a subgraph that only depends on constants (e.g. the
    parameter-only part of a model after `relax-bind-params`) folds
    completely. Only ops whose results are static-shaped tensors with at
    most `max-elements` elements in total, or at most as many as their
    operands store together (a splat stores one), are evaluated (TVM has no limit; folding a big
    broadcast would blow up the module, while the transposed weight of
    `nn.dense` or a weight scaled by a batch norm is no bigger than the
    weight). Results with more
    than 1024 elements become `dense_resource` blobs, smaller ones `dense`
    attributes.

    The interpreter executes roughly 10-30 million operations per second
    (a 512x512 transpose takes about 0.1 s, a 3x3 convolution of 2.4
    million multiply-adds about 2 s), so `max-steps` (default 2^26
    interpreted operations, a few seconds) bounds the time spent on one
    kernel. `relax.permute_dims` only moves elements and is evaluated
    directly, without the interpreter or its step limit (the transposed
    weight of a 25088 x 4096 classifier takes a fraction of a second).

    Ops whose kernel cannot be built (unsupported attributes) are left
    alone silently (`relax-legalize-ops` reports them). If the interpreter
    fails on a kernel (an unsupported op, an out-of-bounds access in a
    `relax.call_tir` callee, or the step limit), the op is left unfolded
    with a warning whose notes carry the interpreter's error.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "int64_t(1) << 20",
           "fold an op only if its results have at most this many elements "
           "in total, or no more than its operands">,
    Option<"maxSteps", "max-steps", "int64_t", "int64_t(1) << 26",
           "give up (with a warning) on a kernel after this many interpreted "
           "operations; 0 means no limit">,
  ];
  let dependentDialects = [
    "::mlc::relax::RelaxDialect",
    "::mlc::tensorir::TensorIRDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def RelaxCheckWellFormed : Pass<"relax-check-well-formed", "::mlir::ModuleOp"> {
  let summary = "check that every symbolic dimension name is bound before use";
  let description = [{
    The symbolic part of TVM's `relax.analysis.well_formed`. In every
    `func.func`, a name used in a `#relax.shape` must be bound before it is
    used: by a parameter's type, or by a `relax.match_cast` result (the only
    op that introduces names). Walking the body in order, every other op's
    result types, and the function's result types, may only use bound names.
    An op whose declared result type invents a name (e.g. a `relax.call_tir`
    returning `tensor<?xf32, #relax.shape<[k]>>` with `k` unbound) is an
    error naming the op, the result and the name. The IR is not changed.
  }];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxFuseOps : Pass<"relax-fuse-ops", "::mlir::ModuleOp"> {
  let summary = "group relax.call_tir ops into primitive functions (operator fusion)";
  let description = [{
    TVM's `relax.transform.FuseOps` with the post-dominator partitioning of
    Relay's `GraphPartitioner` (`src/relay/analysis/graph_partitioner.cc`),
    so groups are the ones TVM users expect.

    In every `relax.dataflow` block of every function (not of primitive
    ones), each op is a node of an indexed forward graph; values from outside
    the block are opaque leaves. A `relax.call_tir` has its callee's
    `tensorir.op_pattern` (run `tensorir-annotate-op-pattern` first; a
    callee without one is `opaque`; so is a call with `tir_vars` or a
    dynamically shaped result, which `relax-fuse-tir` cannot merge yet),
    every other op is `opaque`, and an op
    whose result leaves the block through `relax.output` cannot be fused
    into its consumers (it may still be a group's root). Edges carry the
    consumer's kind. Over the post-dominator tree (each node's immediate
    post-dominator with the combined kind of the paths to it), nodes are
    visited in topological order in three phases:

    0. `out_ewise_fusable` (conv2d, matmul) absorbs its post-dominator when
       the relation is elementwise and every op on the way is at most
       `broadcast` (conv2d + bias add + relu); `elemwise`/`broadcast` ops
       fuse into a post-dominator that is `injective` or `comm_reduce` (or
       the group of a fusable op) when every op on the way is at most
       `injective`;
    1. the `elemwise`/`broadcast` rule again, and `injective` (and
       `tuple`) ops fuse into their post-dominator when every op on the way
       is at most `injective` (only now, so that conv2d groups are complete
       first);
    2. injective ops fuse into a tuple that already feeds an injective
       group.

    `opaque` ops never fuse, a group never gets a second
    `out_ewise_fusable` op, and a fusion that would make a group larger than
    `max-depth` ops is refused. `fuse-opt-level=0` disables fusion.

    `multi-output-casts` (mlc's, after XLA's multi-output fusion; off by
    default, on in the GPU pipeline): a group of `elemwise`, `broadcast`
    and `injective` ops (a cast, the reshapes around it) whose every input
    is one result of an `out_ewise_fusable` group, of as many elements,
    which that result's other users keep from fusing (the float32 output of
    a GEMM that a residual reads, cast to float16 for the next GEMM), joins
    that group, which then returns both values. The GPU GEMM rules write
    the second value in the same write-back (`reverse_compute_inline
    {keep_input}`) instead of a kernel that reads the first one back.

    Each group of two or more ops becomes a private `func.func` named
    `fused_` followed by its callees' names, marked `relax.primitive` (TVM's
    `Primitive=1`), whose body is the group's ops; they are replaced by one
    `func.call` returning the group's values used outside it:

    ```mlir
    %y = func.call @fused_conv2d_add_relu(%x, %w, %b)
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x1x1xf32>)
        -> tensor<1x4x6x6xf32>
    ```

    The call is allowed in a `relax.dataflow` block because the callee is
    primitive (pure). `relax-fuse-tir` then turns each primitive function
    into one `tensorir.prim_func`.
  }];
  let options = [
    Option<"fuseOptLevel", "fuse-opt-level", "int", /*default=*/"2",
           "TVM's opt_level for fusion: 0 disables it">,
    Option<"maxDepth", "max-depth", "unsigned", /*default=*/"256",
           "maximum number of ops in one fused group (TVM's "
           "relay.FuseOps.max_depth)">,
    Option<"multiOutputCasts", "multi-output-casts", "bool",
           /*default=*/"false",
           "a group of injective ops whose only input is one result of a "
           "GEMM or convolution group (a cast of it) joins that group, which "
           "returns both">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RelaxFuseTIR : Pass<"relax-fuse-tir", "::mlir::ModuleOp"> {
  let summary = "merge each primitive function's prim_funcs into one prim_func";
  let description = [{
    TVM's `relax.transform.FuseTIR`, run after `relax-fuse-ops`. Each
    private `func.func` marked `relax.primitive`, whose body is a sequence
    of `relax.call_tir` ops, becomes one `tensorir.prim_func` of the same
    name: its parameters are one buffer per function argument and one per
    returned value; the callees' bodies are copied in call order, each
    intermediate tensor becomes a function-level `tensorir.alloc_buffer`,
    and block names are made unique (`C`, `C_1`, ...). The prim_func keeps
    `tensorir.noalias` when every callee has it. Every call of the function
    becomes one `relax.call_tir` of the prim_func, and the function is
    removed, as are the prim_funcs it called that have no other use (as in
    TVM).

    An intermediate produced by a spatial block that stores exactly the
    point of its iteration variables (`Y[vi, vj] = f(loads)`, TE's
    elementwise/broadcast/injective computes) and is only read by
    `memref.load`s is inlined into its readers (TVM's `compute_inline`):
    each load is replaced by the producer's computation at the load's
    indices, the producer's loop nest and buffer are removed, and the
    readers' access regions are recomputed. Other intermediates (e.g. a
    matmul or reduction output) stay buffers.

    Errors (at the op): a primitive function holding anything other than
    `relax.call_tir` (or a call with `tir_vars`), a callee that is not a
    `tensorir.prim_func`, an intermediate of dynamic shape, or a returned
    value that is not a call result or is returned twice.
  }];
  let dependentDialects = ["::mlc::tensorir::TensorIRDialect",
                           "::mlir::memref::MemRefDialect"];
}

def RelaxConvert1x1Conv2DToMatmul
    : Pass<"relax-convert-1x1-conv2d-to-matmul", "::mlir::ModuleOp"> {
  let summary = "Rewrite 1x1 NHWC convolutions as matmuls of reshapes";
  let description = [{
    IREE's `convert-1x1-filter-conv2d-to-matmul` on relax ops. A
    `relax.nn.conv2d` in NHWC/HWIO (`out_layout` empty or NHWC) with a 1x1
    filter, stride 1, dilation 1, no padding, one group and static shapes
    computes the GEMM (N*H*W, C) x (C, O) over the same bytes; it becomes
    `relax.matmul` (with the convolution's `out_dtype`) of its image and
    filter reshaped to those matrices. Then the elementwise ops that
    consume the result one after another (add, subtract, multiply, divide,
    maximum, minimum, relu, leaky_relu, clip, astype, sigmoid, tanh, erf,
    negative) are applied to the matrix instead, as long as their other
    operands have the result's shape (reshaped too) or broadcast along the
    channels only (rank 0, `(O)`, `(1, .., 1, O)`, `(1, .., 1)`), and one
    reshape back to NHWC follows the last of them. A reshape whose source
    already has the wanted shape is skipped, so chained 1x1 convolutions
    stay matrices.

    The GPU pipeline runs it for chips with `warpgroup-mma` (sm_90a), where
    the Hopper Matmul rule then takes these convolutions: its TMA loads need
    a GEMM over prim_func arguments, which an implicit GEMM over the 4-D
    image is not. The reshapes cost nothing: those of bound filters fold,
    and `relax-rewrite-dataflow-reshape` makes the others views.

    ```mlir
    %y = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
        : (tensor<2x7x7x64xf16>, tensor<1x1x64x256xf16>) -> tensor<2x7x7x256xf16>
    %z = relax.nn.relu %y : (tensor<2x7x7x256xf16>) -> tensor<2x7x7x256xf16>
    // becomes
    %a = relax.reshape %x {shape = array<i64: 98, 64>} : ...
    %b = relax.reshape %w {shape = array<i64: 64, 256>} : ...
    %m = relax.matmul %a, %b : (tensor<98x64xf16>, tensor<64x256xf16>) -> tensor<98x256xf16>
    %r = relax.nn.relu %m : (tensor<98x256xf16>) -> tensor<98x256xf16>
    %z = relax.reshape %r {shape = array<i64: 2, 7, 7, 256>} : ...
    ```
  }];
}

def RelaxRewriteDataflowReshape
    : Pass<"relax-rewrite-dataflow-reshape", "::mlir::ModuleOp"> {
  let summary = "Replace kernels that only reshape by relax.reshape views";
  let description = [{
    TVM's `relax.transform.RewriteDataflowReshape`, run after
    `relax-fuse-tir`. Legalization makes every `reshape`, `expand_dims`,
    `squeeze` or `flatten` a copy kernel, and fusion can leave a kernel that
    only chains them (`fused_reshape_expand_dims`); copying a tensor's bytes
    in the same row-major order is wasted work. A `relax.call_tir` inside a
    `relax.dataflow` whose callee has the reshape pattern
    (`tensorir::hasReshapePattern`: one input, one output of static shapes
    and the same element count and type, one spatial block storing
    `in[e(v)]` to `out[v]` where the row-major offset of `e(v)` equals that
    of `v`, proved on the index arithmetic) becomes `relax.reshape` of its
    input, which `convert-relax-to-memref` lowers to a view of the input's
    buffer (`memref.collapse_shape` + `memref.expand_shape`). Callees left
    without calls are erased.

    A reshape that the function returns needs no copy either:
    `convert-relax-to-memref` allocates the buffer under the view in the
    returned shape, and the producer writes through the view.

    ```mlir
    %1 = relax.dataflow -> tensor<4x6xf32> {
      %0 = relax.call_tir @reshape(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
      %2 = relax.call_tir @exp(%0) : (tensor<6x4xf32>) -> tensor<6x4xf32>
      relax.output %2 : tensor<6x4xf32>
    }
    // becomes
    %0 = relax.reshape %x {shape = array<i64: 6, 4>}
        : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    ```
  }];
}

def RelaxInlineScalarConstants
    : Pass<"relax-inline-scalar-constants", "::mlir::ModuleOp"> {
  let summary = "Scalar constant operands of relax.call_tir become constants "
                "in the callee";
  let description = [{
    TVM's legalization turns a rank-0 `relax.Constant` operand of an
    elementwise op into an immediate of the TIR kernel (`x * 0.5`, not a
    load of a 0-d buffer holding 0.5). `relax-legalize-ops` gives every
    operand a buffer, so a kernel such as `power(x, 3.0)` reads its exponent
    at run time and cannot be specialized: LLVM then calls `powf` for every
    element (a tanh-GELU over 1600x3072 took 35 ms instead of 1.2 ms).

    For every `relax.call_tir` operand that is a `relax.constant` of rank 0
    with a dense integer or float value, and whose parameter in the callee
    `tensorir.prim_func` is only loaded (`memref.load`) or listed in the
    access regions of its blocks, this pass replaces each load by an
    `arith.constant` of the value, recomputes the blocks' declared regions,
    and removes the parameter and the operand. A callee with other callers
    is cloned first (`mlc-deduplicate-functions` merges equal clones
    again); constants left unused are erased. With the exponent known,
    `mlc-simplify-math` turns `math.powf %x, 3.0` into two multiplications
    (both run after fusion in the graph-to-kernels pipeline).

    ```mlir
    %c = relax.constant dense<3.0> : tensor<f32>
    %y = relax.call_tir @power(%x, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    // becomes, with @power's loads of its second parameter replaced by
    // arith.constant 3.0 and that parameter removed,
    %y = relax.call_tir @power(%x) : (tensor<8xf32>) -> tensor<8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def RelaxRewriteAttention
    : Pass<"relax-rewrite-attention", "::mlir::ModuleOp"> {
  let summary = "replace softmax(Q K^T * scale + bias) V chains by "
                "relax.nn.attention";
  let description = [{
    The frontends spell attention out as separate ops, so the scores
    (S x S_kv per head) are written to memory between a batched matmul, a
    softmax and another batched matmul. This pass finds those chains and
    replaces each by one `relax.nn.attention`, which the GPU default
    schedule compiles into a single flash-attention kernel. It does what
    TVM and MLC-LLM users write by hand with `relax.dpl` rewrite patterns
    (`rewrite_attention`).

    A chain is `matmul(softmax(scores, axis = -1), V)` where `scores` is,
    from the outside in:

    - any number of additive terms, `add(scores, bias)` or
      `add(bias, scores)`, each bias broadcasting to the scores;
    - any number of masks `where(cond, fill, scores)` or
      `where(cond, scores, fill)` whose `fill` is a constant -inf or the
      lowest finite value of the type (`torch.finfo(dtype).min`); each
      becomes the bias term `where(cond, fill, 0)`, which adds to a finite
      score exactly what the mask selects;
    - scale factors `x * c`, `c * x` or `x / c` with a scalar float
      constant `c`, on the scores or on either matmul operand, multiplied
      into `scale` (1 when there are none);
    - `matmul(Q, K^T)`.

    The tensors are rank 4, (B, N, S, H) as torch and ONNX models have them,
    or rank 3, (B * N, S, H) as Relay's `batch_matmul` has them, with equal
    batch dimensions and one float type (f16, bf16 or f32); the
    intermediate results have no other uses. Q, K and V go to attention's
    (B, S, N, H) layout by `permute_dims`, which cancels with the
    frontends' own head transposes (`permute_dims` of a `permute_dims`
    composes), or, for rank 3, by a unit head dimension; the result goes
    back the same way. A constant bias or mask that is exactly the causal
    pattern (0 where key j <= query i + S_kv - S, masked elsewhere) becomes
    `causal_mask` ("TopLeft" when S = S_kv, else "BottomRight") instead of
    a bias.

    ```mlir
    %kt = relax.permute_dims %k {axes = array<i64: 0, 1, 3, 2>} : ...
    %s = relax.matmul %q, %kt : ...
    %d = relax.divide %s, %c8 : ...
    %b = relax.add %d, %mask : ...
    %p = relax.nn.softmax %b : ...
    %o = relax.matmul %p, %v : ...
    // becomes (q, k, v and o transposed between BNSH and BSNH)
    %a = relax.nn.attention %qt, %kt2, %vt, %mask {scale = 1.250000e-01 : f64} : ...
    ```

    Chains that do not match stay as they are, and so do chains whose
    element type is not in `element-types` (when given). The GPU pipeline
    runs this pass before mixed precision (`rewrite-attention`, on by
    default there) for float16 and bfloat16 chains, and for float32 ones
    only when mixed precision turns them into float16 or bfloat16: the
    flash-attention kernel is a tensor-core kernel, and float32 attention
    is better served by the separate matmul and softmax kernels. The CPU
    pipeline does not run it by default.
  }];
  let options = [
    ListOption<"elementTypes", "element-types", "std::string",
               "rewrite only chains of these element types (f16, bf16, "
               "f32; default: all)">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxConvertLayout : Pass<"relax-convert-layout", "::mlir::ModuleOp"> {
  let summary = "convert 2-d convolutions, and the ops between them, to a "
                "desired data and kernel layout";
  let description = [{
    TVM's `relax.transform.ConvertLayout({"relax.nn.conv2d": [data-layout,
    kernel-layout]})`. Every `relax.nn.conv2d` whose output layout is its
    data layout takes `data-layout` (also as its output layout) and
    `kernel-layout`; its operands are permuted by `relax.permute_dims`, which
    `relax-fold-constant` folds into bound weights. The ops of each function
    are then visited in order, and those that compute in any layout follow
    their operand's new layout instead of permuting it back:

    - elementwise ops (activations, `clip`, `astype`, unary math);
    - broadcasting binary ops and `where`: the other operands are permuted
      alike, lower-rank ones (a bias of shape `[C, 1, 1]`) first expanded
      with leading unit dimensions;
    - `max_pool2d`, `avg_pool2d`, `adaptive_avg_pool2d` (their `layout`),
      `nn.batch_norm` (its `axis`);
    - `sum`, `mean`, `max`, `min` (their axes; without `keepdims`, only when
      the dimensions that stay keep their order, as for a global pool's
      `mean` over H and W).

    Every other use (reshape, matmul, the function's results, ...) gets the
    value permuted back to its original layout, once per value. A whole
    CNN thus runs in the desired layout from its input's permutation to the
    flatten before its classifier. On the CPU, channels-last convolutions
    (NHWC data, HWIO weights) get the weight-column schedule of
    `mlc-default-schedule`; the CPU pipeline runs this pass with its option
    `conv-layout`.

    Example: with the defaults,

    ```mlir
    %y = relax.nn.conv2d %x, %w {padding = array<i64: 1, 1>}
        : (tensor<1x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32>
    %r = relax.nn.relu %y : (tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
    ```

    becomes a permutation of `%x` (axes 0, 2, 3, 1) and of `%w` (2, 3, 1,
    0), an NHWC convolution and relu on `tensor<1x8x8x32xf32>`, and a
    permutation back (0, 3, 1, 2) for the users of `%r`.

    A layout that is not a permutation of NCHW (data) or OIHW (kernel) is an
    error; the module is then left unchanged.
  }];
  let options = [
    Option<"dataLayout", "data-layout", "std::string", /*default=*/"\"NHWC\"",
           "layout of the convolutions' data and output (a permutation of "
           "NCHW)">,
    Option<"kernelLayout", "kernel-layout", "std::string",
           /*default=*/"\"HWIO\"",
           "layout of the convolutions' weights (a permutation of OIHW)">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxDecomposeOpsForInference
    : Pass<"relax-decompose-ops-for-inference", "::mlir::ModuleOp"> {
  let summary = "write batch_norm as a per-channel scale and shift";
  let description = [{
    TVM's `relax.transform.DecomposeOpsForInference` (batch_norm in the form
    of relay's `SimplifyInference`). In inference, `relax.nn.batch_norm`
    normalizes with its moving statistics, so its output is `x * scale +
    shift` with the per-channel vectors `scale = gamma * rsqrt(var + eps)`
    (`gamma` left out under `scale = false`) and `shift = beta - mean *
    scale` (`beta` under `center = false`), expanded with trailing unit
    dimensions when the axis is not the last one. Its other two results are
    the moving mean and variance, as the legalized op returns them.

    Written as relax ops, the scale and shift of bound parameters fold into
    constants (`relax-fold-constant`), and the epilogue of a fused
    convolution becomes one multiply-add per element instead of a
    subtraction, a square root, a division and a multiply-add. The CPU and
    GPU pipelines run it when they fold constants.

    Example: `%y, %m, %v = relax.nn.batch_norm %x, %g, %b, %mm, %mv
    {epsilon = 1.0e-3}` on `tensor<1x16x8x8xf32>` becomes `rsqrt(%mv +
    1.0e-3) * %g` and `%b - %mm * scale`, both expanded to `16x1x1`, and
    `%x * scale + shift`; `%m` and `%v` become `%mm` and `%mv`.

    Ops whose operands do not share one float element type are left alone.
  }];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxToMixedPrecision
    : Pass<"relax-to-mixed-precision", "::mlir::ModuleOp"> {
  let summary = "compute a float32 model's matmuls and convolutions in "
                "float16 (or bfloat16) with float32 accumulation";
  let description = [{
    TVM's `relax.transform.ToMixedPrecision(out_dtype, fp16_input_names)`.
    Every relax op of a function gets one of TVM's three policies:

    - *always* (`relax.matmul`, `relax.nn.conv2d`,
      `relax.nn.conv2d_transpose`, `relax.nn.attention` with a float32,
      float16 or `compute-dtype` result): the float operands are cast to
      `compute-dtype` and `out_dtype` becomes `out-dtype` (float32: the
      accumulator stays float32, so the tensor-core rules of the GPU
      schedule apply). As in TVM, this holds for ops that are in 16 bits
      already: a float16 model's GEMMs accumulate in float32 too, their
      results cast back for the ops after them. `relax.nn.attention`,
      which has no `out_dtype`, accumulates in float32 and returns
      `compute-dtype`. The result is stored in
      `compute-dtype` when a later op computes in it, and kept in float32
      when all its uses need float32.
    - *follow* (elementwise arithmetic and comparisons, activations,
      `astype`, layout and indexing ops, pooling, padding, resizing and the
      normalizations, whose kernels accumulate half precision in float32):
      computed in `compute-dtype` when every float operand is in it already
      or is a constant that fits (|x| <= 65504 for float16), otherwise in
      float32, the half operands cast back.
    - *never* (softmax, log_softmax, reductions, `call_tir`,
      `call_dps_packed`, `match_cast`, and every other op): operands are
      cast back to their original type, so these ops see the same types as
      before.

    A float32 value (a parameter, say) used only by *always* ops is cast
    once where it is defined instead of at every use. Casts to
    `compute-dtype` then move above the data movement (`reshape`,
    `permute_dims`, `expand_dims`, `squeeze`, `split`) that feeds only
    them and whose data nothing else uses: the cast commutes with it, the
    layout change moves half the bytes, and the cast fuses into the data's
    producer (a BERT layer's QKV GEMM stores f16, which its head split
    copies to the attention, instead of f32 that three more kernels cast). Casts of constants are
    computed here (the new constant is a `dense_resource` blob when the old
    one was), so bound weights are stored once, in `compute-dtype`.
    Everything a function returns, a `relax.dataflow` block outputs, or a
    non-relax op uses keeps its type: signatures do not change, except for
    the parameters named in `fp16-input-names`.

    Unlike TVM, which rewrites only inside dataflow blocks, every relax op
    of the function is rewritten (mlc's importers emit functions without
    dataflow blocks). Ops that compute in float64 or integers are not
    changed.

    Example: with the defaults,

    ```mlir
    %0 = relax.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = relax.nn.relu %0 : (tensor<4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
    ```

    becomes a matmul of `f16` operands with `out_dtype = f32`, its result
    cast to `f16`, `relu` in `f16`, and a cast back to `f32` before the
    return.
  }];
  let options = [
    Option<"outDtype", "out-dtype", "std::string", /*default=*/"\"float32\"",
           "element type of the always ops' results, i.e. their accumulator "
           "(TVM's out_dtype): float32, or the compute-dtype">,
    Option<"computeDtype", "compute-dtype", "std::string",
           /*default=*/"\"float16\"",
           "the reduced precision: float16 (TVM's only choice) or bfloat16">,
    ListOption<"fp16InputNames", "fp16-input-names", "std::string",
               "parameters (by their relax.name) whose type becomes "
               "compute-dtype in the signature, for inputs that callers "
               "already have in half precision">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

def RelaxMetaScheduleApplyDatabase
    : Pass<"relax-meta-schedule-apply-database", "::mlir::ModuleOp"> {
  let summary = "schedule each kernel by its best tuning record";
  let description = [{
    TVM's `relax.transform.MetaScheduleApplyDatabase`. Reads the tuning
    database that `mlc.meta_schedule` (`mlc-tune`, `tune_relax`, `tune_tir`)
    wrote in `work-dir` (TVM's `database_workload.json` and
    `database_tuning_record.json`) and, for every `tensorir.prim_func` of the
    module, looks up the records of its workload: the structural hash of the
    kernel, which does not depend on its name, so a kernel tuned in one model
    applies in another. Of the successful records measured on this CPU (its
    model, vector features and mlc's version must match the record's target;
    records of other machines are never applied), those measured with
    `num-cores` cores are preferred; the fastest wins. Its trace, a transform
    script of schedule primitives with their sampling decisions, is replayed
    on the kernel, which keeps its name and visibility.

    Run it after fusion and `mlc-deduplicate-functions`, where
    `mlc-graph-to-kernels` ends (the CPU pipeline does with
    `tuning-db=<dir>`, as do `mlc-run` and `mlc-compile --tuning-db=<dir>`).

    A kernel without a record keeps the default schedule. A record that does
    not replay (the trace fails, or does not leave one prim_func) is a
    warning naming the kernel and the reason, and the kernel keeps the
    default schedule. A missing or malformed database is an error naming
    the file and line.

    ```mlir
    // relax-meta-schedule-apply-database{work-dir=tune num-cores=1}
    tensorir.prim_func private @fused_dense_add(...) { ... }
    // becomes, with a record of the default schedule's knob space:
    tensorir.prim_func private @fused_dense_add(...) attributes {
        mlc.schedule.k_tile = 256 : i64, mlc.schedule.m_register = 6 : i64,
        ...} { ... }
    ```
  }];
  let options = [
    Option<"workDir", "work-dir", "std::string", /*default=*/"\"\"",
           "directory of the tuning database">,
    Option<"numCores", "num-cores", "int64_t", /*default=*/"0",
           "cores the kernels will run with: records measured with as many "
           "are preferred (0: the fastest record of any core count)">,
  ];
  let statistics = [
    Statistic<"numApplied", "num-applied", "Kernels scheduled by a record">,
    Statistic<"numFailed", "num-failed", "Records that did not replay">,
  ];
  let dependentDialects = ["::mlc::tensorir::TensorIRDialect",
                           "::mlir::transform::TransformDialect"];
}

#endif // MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD
