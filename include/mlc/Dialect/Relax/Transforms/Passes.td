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
           "roots of reachability">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

#endif // MLC_DIALECT_RELAX_TRANSFORMS_PASSES_TD
