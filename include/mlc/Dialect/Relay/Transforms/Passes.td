//===- Passes.td - relay dialect passes ---------------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD
#define MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelayBindParams : Pass<"relay-bind-params", "::mlir::ModuleOp"> {
  let summary = "bind function parameters to constants read from a tensor file";
  let description = [{
    TVM's `relay.build_module.bind_params_by_name`. Reads every tensor of
    `params` (`.npz`, stored or deflated, or `.safetensors`) and replaces the
    parameter of `@func-name` whose `relay.name` argument attribute equals the
    tensor's name with a `relay.constant` (a `dense_resource` blob); bound
    parameters leave the signature and the operands of calls to the function.
    A parameter with `?` dimensions gets the constant through a
    `tensor.cast`.

    This is a thin wrapper of the same `mlc::bindParams` as
    `relax-bind-params`, with the same strict errors (unknown or repeated
    name, shape or dtype mismatch, unreadable or truncated file, non-call
    use): one error naming the parameter and the file, the pass fails, the
    module is unchanged.
  }];
  let options = [
    Option<"params", "params", "std::string", /*default=*/"\"\"",
           "path of the .npz or .safetensors file holding the parameters">,
    Option<"funcName", "func-name", "std::string", /*default=*/"\"main\"",
           "name of the function whose parameters are bound">,
  ];
  let dependentDialects = ["::mlc::relay::RelayDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RelayFuseOps : Pass<"relay-fuse-ops", "::mlir::ModuleOp"> {
  let summary = "outline relay ops into primitive functions, fused as TVM's FuseOps";
  let description = [{
    TVM's `relay.transform.FuseOps`: partitions the body of every function
    (not of `relay.Primitive` ones) with the same post-dominator
    partitioning as `relax-fuse-ops` (`mlc::partitionFusionGraph`, TVM's
    `GraphPartitioner`) and outlines every group whose root is a relay
    operator into a private `func.func` marked `relay.Primitive = 1`
    (TVM's `Primitive=1`), called with `func.call`. As in TVM, an operator
    that fuses with nothing still gets its own primitive function; a
    `relay.tuple` or `relay.constant` left alone is not outlined.

    Each op's kind is TVM's `TOpPattern` (`mlc::relay::getOpPattern`:
    `nn.conv2d`, `nn.dense`, pools and `nn.softmax` are
    `out_ewise_fusable`, `nn.bias_add` and the binary ops `broadcast`,
    reshapes `injective`, reductions `comm_reduce`, `nn.dropout` and
    unregistered ops `opaque`). The graph is TVM's for the same Relay
    program: a scalar `relay.constant` of a simple dtype is elementwise (and
    fused into the function), other constants are opaque arguments; the
    operands of `relay.concatenate` go through a tuple node; each used result
    of a multi-result op (`split`, `nn.batch_norm`) goes through a
    `TupleGetItem` node; a broadcast op is elementwise in the operands of its
    result shape. Values returned by the function are never fused into
    their consumers. Non-relay ops (`func.call`, `tensor.cast`) are opaque.

    Options: `fuse-opt-level=0` puts every op in its own group (TVM still
    outlines each op then); `max-depth` bounds the ops of one group.

    ```mlir
    func.func private @fused_nn_conv2d_add_nn_relu(...) attributes {relay.Primitive = 1 : i64}
    func.func @main(...) {
      %0 = call @fused_nn_conv2d_add_nn_relu(%x, %w, %b) : ...
    ```

    The CPU pipeline does not run this pass: it converts relay to relax and
    fuses there (`relax-fuse-ops`). This is for TVM-style relay flows.
  }];
  let options = [
    Option<"fuseOptLevel", "fuse-opt-level", "int", /*default=*/"2",
           "TVM's opt_level for fusion: 0 makes every op its own group">,
    Option<"maxDepth", "max-depth", "unsigned", /*default=*/"256",
           "maximum number of nodes in one fused group (TVM's "
           "relay.FuseOps.max_depth)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD
