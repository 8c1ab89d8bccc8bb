//===- Passes.td - mlc passes not tied to one dialect ------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TRANSFORMS_PASSES_TD
#define MLC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StripParameterNamesPass : Pass<"mlc-strip-parameter-names", "::mlir::ModuleOp"> {
  let summary = "Drop the relay.name / relax.name / tensorir.name argument attributes";
  let description = [{
    The importer keeps each parameter's source name in a `relay.name` (or
    `relax.name`) argument attribute so that BindParams and mlc-run can bind
    values by name. Below the graph level the names mean nothing, and LLVM IR
    translation would warn about them as unknown parameter attributes, so the
    CPU pipeline drops them before lowering to the LLVM dialect.

    Example:

    ```mlir
    func.func @main(%x: tensor<4xf32> {relay.name = "x"}) -> tensor<4xf32>
    // becomes
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

#endif // MLC_TRANSFORMS_PASSES_TD
