//===- RelaxDialect.td - relax dialect definition ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_IR_RELAXDIALECT_TD
#define MLC_DIALECT_RELAX_IR_RELAXDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

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

    Tensors are builtin ranked tensors. A dimension that is only known
    symbolically (TVM's `n` in `R.Tensor((n, 784))`) is `?` in the tensor
    type, and the tensor's `encoding` is a `#relax.shape<[n, 784]>` attribute
    naming the expression of every dimension:
    `tensor<?x784xf32, #relax.shape<[n, 784]>>`. Names are bound by
    `relax.match_cast` (or appear in parameter types); operators propagate the
    expressions through their shape functions.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

class Relax_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relax_Dialect, mnemonic, traits>;

class Relax_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Relax_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // MLC_DIALECT_RELAX_IR_RELAXDIALECT_TD
