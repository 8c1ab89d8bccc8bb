//===- RelaxDialect.td - relax dialect definition ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAXDIALECT_TD
#define MLC_DIALECT_RELAX_IR_RELAXDIALECT_TD

include "mlir/IR/OpBase.td"

def Relax_Dialect : Dialect {
  let name = "relax";
  let cppNamespace = "::mlc::relax";
  let summary = "TVM Relax: graph IR with dataflow blocks, call_tir and symbolic shapes";
  let description = [{
    Relax is TVM's second-generation graph IR. A Relax function is a
    `func.func` whose body may hold `relax.dataflow` regions of pure
    operations; `relax.call_tir` calls a `tensorir.prim_func` in
    destination-passing style; high-level operators share their shape
    functions with Relay.
  }];
}

class Relax_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relax_Dialect, mnemonic, traits>;

#endif // MLC_DIALECT_RELAX_IR_RELAXDIALECT_TD
