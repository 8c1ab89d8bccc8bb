//===- TensorIRDialect.td - tensorir dialect definition ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_TENSORIRDIALECT_TD
#define MLC_DIALECT_TENSORIR_IR_TENSORIRDIALECT_TD

include "mlir/IR/OpBase.td"

def TensorIR_Dialect : Dialect {
  let name = "tensorir";
  let cppNamespace = "::mlc::tensorir";
  let summary = "TVM TensorIR: loop nests of blocks over buffers, for scheduling";
  let description = [{
    TensorIR is TVM's tensor-program IR: a `tensorir.prim_func` over
    memref buffers whose body is a nest of `tensorir.for` loops around
    `tensorir.block`s with named spatial/reduce iteration variables, an
    init region, and read/write regions. Schedule primitives transform it
    before it is lowered to scf/memref/vector and on to LLVM or NVVM.
  }];
}

class TensorIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<TensorIR_Dialect, mnemonic, traits>;

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIRDIALECT_TD
