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

#endif // MLC_DIALECT_RELAY_TRANSFORMS_PASSES_TD
