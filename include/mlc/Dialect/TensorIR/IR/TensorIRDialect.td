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

    Bodies reuse upstream ops: `memref.load`/`memref.store` for buffer
    accesses, `arith`/`math` for scalar computation and `affine.apply` for
    iteration-variable bindings, so those dialects are loaded with this one.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Discardable unit attribute on a `tensorir.prim_func`: its buffer
    /// arguments do not alias (TVM's `tir.noalias`).
    static constexpr ::llvm::StringLiteral getNoAliasAttrName() {
      return ::llvm::StringLiteral("tensorir.noalias");
    }
    /// Argument attribute of a `tensorir.prim_func`: the source name of the
    /// argument (a StringAttr), used to print it as `%name`.
    static constexpr ::llvm::StringLiteral getArgNameAttrName() {
      return ::llvm::StringLiteral("tensorir.name");
    }
    /// Argument attribute of a `tensorir.prim_func` (a UnitAttr): every
    /// caller passes a constant (mlc-gpu-mark-constant-arguments).
    static constexpr ::llvm::StringLiteral getConstantArgAttrName() {
      return ::llvm::StringLiteral("tensorir.constant");
    }
    /// Discardable attribute (a `#tensorir.for_kind`) that
    /// convert-tensorir-to-scf puts on the `scf.for`/`scf.parallel` made from
    /// a non-serial `tensorir.for`, for later passes (unroll, vectorize).
    static constexpr ::llvm::StringLiteral getLoopKindAttrName() {
      return ::llvm::StringLiteral("tensorir.loop_kind");
    }
    /// Discardable attribute (a dictionary) that convert-tensorir-to-scf puts
    /// on the loop made from a `tensorir.for` with `annotations`, for later
    /// passes (e.g. `mma_sync`, which mlc-gpu-tensorize-mma reads).
    static constexpr ::llvm::StringLiteral getLoopAnnotationsAttrName() {
      return ::llvm::StringLiteral("tensorir.annotations");
    }
    /// Key of a `tensorir.for`'s `annotations` (the value names the shape,
    /// "m16n8k16") on the loop whose nest (h, p, kk) computes one warp's
    /// `mma.sync` tile, which mlc-gpu-tensorize-mma replaces. The warp's
    /// lanes compute the nest together: an operand in `local` memory is read
    /// as the lanes' fragments, each lane its own elements
    /// (tensorir-compact-buffer-allocation relies on this).
    static constexpr ::llvm::StringLiteral getMmaSyncAnnotationName() {
      return ::llvm::StringLiteral("mma_sync");
    }
    /// Discardable attribute (a `#tensorir.op_pattern`) of a
    /// `tensorir.prim_func`: its TVM pattern kind, used by operator fusion.
    static constexpr ::llvm::StringLiteral getOpPatternAttrName() {
      return ::llvm::StringLiteral("tensorir.op_pattern");
    }
  }];
}

class TensorIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<TensorIR_Dialect, mnemonic, traits>;

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIRDIALECT_TD
