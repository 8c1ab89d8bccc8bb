//===- RelayDialect.td - relay dialect definition ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAY_IR_RELAYDIALECT_TD
#define MLC_DIALECT_RELAY_IR_RELAYDIALECT_TD

include "mlir/IR/OpBase.td"

def Relay_Dialect : Dialect {
  let name = "relay";
  let cppNamespace = "::mlc::relay";
  let summary = "TVM Relay: a functional graph IR over tensors";
  let description = [{
    Relay is TVM's first-generation graph IR. In mlc its operators are
    ops on builtin ranked tensor types (`relay.add`, `relay.nn.conv2d`, ...),
    with TVM's attribute names and defaults and result types inferred by
    Relay's type relations. Relay functions are `func.func` ops; parameter
    names are kept in the `relay.name` argument attribute so that
    parameters can be bound by name.
  }];
  let hasConstantMaterializer = 1;
}

class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, traits>;

#endif // MLC_DIALECT_RELAY_IR_RELAYDIALECT_TD
