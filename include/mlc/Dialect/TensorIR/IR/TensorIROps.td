//===- TensorIROps.td - tensorir dialect operations --------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_TENSORIROPS_TD
#define MLC_DIALECT_TENSORIR_IR_TENSORIROPS_TD

include "mlc/Dialect/TensorIR/IR/TensorIRAttrs.td"
include "mlc/Dialect/TensorIR/IR/TensorIRDialect.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// prim_func / return
//===----------------------------------------------------------------------===//

def TensorIR_PrimFuncOp : TensorIR_Op<"prim_func", [
    AffineScope, AutomaticAllocationScope, FunctionOpInterface,
    IsolatedFromAbove, SingleBlockImplicitTerminator<"ReturnOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>
  ]> {
  let summary = "a TensorIR primitive function over buffers (T.prim_func)";
  let description = [{
    A tensor program in destination-passing style: the arguments are the
    buffers (`memref`s; `T.Buffer((128, 128), "float32")` is
    `memref<128x128xf32>`) and scalar parameters (`index`, integers,
    floats), and there are no results: outputs are written into argument
    buffers. The body is one block ending in `tensorir.return` (which may be
    omitted in the textual form).

    TVM's function attributes map as follows: `global_symbol` is the symbol
    name; `tir.noalias` is the discardable unit attribute `tensorir.noalias`.

    ```mlir
    tensorir.prim_func @relu(%A: memref<128xf32>, %B: memref<128xf32>)
        attributes {tensorir.noalias} {
      tensorir.for %i = 0 to 128 {
        tensorir.block "B"(%vi = spatial(128, %i)) {
          ...
        }
      }
      tensorir.return
    }
    ```

    The source names of the arguments (`%A`) are kept as the argument
    attribute `tensorir.name` (like `relay.name`), which the custom syntax
    shows only as the SSA name.

    Block names (`tensorir.block "Y"`) are unique within a prim_func; the
    schedule looks blocks up by them (`sch.get_block("Y")`).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);

  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::TypeRange":$argTypes,
                                 CArg<"::llvm::ArrayRef<::mlir::NamedAttribute>", "{}">:$attrs)>];
  let extraClassDeclaration = [{
    /// Region of the callable (FunctionOpInterface / CallableOpInterface).
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return false; }
    /// The `tensorir.block` named `name` in this function, or null.
    BlockOp lookupBlock(::llvm::StringRef name);
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TensorIR_ReturnOp : TensorIR_Op<"return", [
    Pure, HasParent<"PrimFuncOp">, Terminator
  ]> {
  let summary = "terminator of a tensorir.prim_func";
  let description = [{
    Ends a `tensorir.prim_func`. It has no operands: prim_funcs return
    through their output buffers.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// alloc_buffer
//===----------------------------------------------------------------------===//

def TensorIR_AllocBufferOp : TensorIR_Op<"alloc_buffer", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>
  ]> {
  let summary = "an intermediate buffer scoped to a prim_func or block (T.alloc_buffer)";
  let description = [{
    Allocates an intermediate buffer that lives until the end of the
    enclosing `tensorir.prim_func` or `tensorir.block` (TVM's
    `T.alloc_buffer` at function level, or a block's `alloc_buffers`). It
    must be directly inside one of those two. Dynamic dimensions take their
    size from the operands, in order.

    ```mlir
    %Y = tensorir.alloc_buffer : memref<128x128xf32>
    %T = tensorir.alloc_buffer(%n) : memref<?x16xf16>
    ```

    The buffer's name (`Y` in `%Y = ...`) is kept in the `name` attribute,
    shown only as the SSA name.

    `scope` is TVM's storage scope of the buffer: `global` (the default),
    `shared` / `shared.dyn` (one copy per GPU thread block) or `local` (one
    copy per GPU thread). `cache_read`/`cache_write` set it; the GPU lowering
    (`convert-tensorir-to-gpu`) places the buffer in
    `#gpu.address_space<workgroup>` or `<private>` memory accordingly, and the
    CPU ignores it.

    ```mlir
    %A_shared = tensorir.alloc_buffer {scope = "shared"} : memref<64x8xf32>
    ```

    Lowering (`convert-tensorir-to-scf`): `memref.alloc` in place plus
    `memref.dealloc` at the end of its scope (before the function's return,
    or at the end of the block body), or left to buffer deallocation with
    `insert-deallocs=false`.
  }];
  let arguments = (ins Variadic<Index>:$dynamic_sizes,
                       OptionalAttr<StrAttr>:$name,
                       OptionalAttr<StrAttr>:$scope);
  let results = (outs Res<AnyMemRef, "the buffer",
                          [MemAlloc<DefaultResource>]>:$buffer);
  let builders = [
    OpBuilder<(ins "::mlir::MemRefType":$type,
                   CArg<"::mlir::ValueRange", "{}">:$dynamicSizes,
                   CArg<"::llvm::StringRef", "{}">:$name), [{
      build($_builder, $_state, ::mlir::Type(type), dynamicSizes,
            name.empty() ? ::mlir::StringAttr() : $_builder.getStringAttr(name),
            ::mlir::StringAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// The storage scope, "global" when none is set.
    ::llvm::StringRef getStorageScope() {
      return getScope().value_or("global");
    }
    /// Whether `scope` is a storage scope TensorIR knows.
    static bool isKnownStorageScope(::llvm::StringRef scope) {
      return scope == "global" || scope == "shared" || scope == "shared.dyn" ||
             scope == "local";
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// yield
//===----------------------------------------------------------------------===//

def TensorIR_YieldOp : TensorIR_Op<"yield", [
    Pure, Terminator, ParentOneOf<["ForOp", "BlockOp", "InitOp"]>
  ]> {
  let summary = "implicit terminator of tensorir.for, tensorir.block and tensorir.init";
  let description = [{
    Ends the body of a `tensorir.for`, `tensorir.block` or `tensorir.init`.
    It carries no values and is omitted from the custom syntax.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// for
//===----------------------------------------------------------------------===//

def TensorIR_ForOp : TensorIR_Op<"for", [
    DeclareOpInterfaceMethods<LoopLikeOpInterface, [
      "getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
      "getLoopSteps"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">
  ]> {
  let summary = "a TensorIR loop (for i in T.serial/parallel/vectorized/unroll/thread_binding)";
  let description = [{
    A loop over `index` values `lb, lb + step, ...` below `ub`. Bounds and step
    are integers or `index` values; the step defaults to 1. The kind says how
    the iterations run (TVM's `ForKind`): `serial` (the default, not
    printed), `parallel`, `vectorized`, `unrolled`, or
    `thread_binding("threadIdx.x")` with a GPU thread tag (`blockIdx.{x,y,z}`,
    `threadIdx.{x,y,z}`, `vthread`, `vthread.{x,y,z}`). `annotations` is a
    free dictionary of loop annotations (TVM's `For::annotations`, e.g.
    `pragma_auto_unroll_max_step`); other discardable attributes go after
    `attributes`.

    ```mlir
    tensorir.for %i = 0 to 128 {
      tensorir.for %j = 0 to %n step 4 parallel annotations {pragma_unroll = 1 : i64} {
        ...
      }
    }
    tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") { ... }
    ```

    The loops are statements: they carry no values and have no results. The
    name of the induction variable is kept (`iv_name`) so that printed IR
    reads like TVMScript.

    Lowering (`convert-tensorir-to-scf`): `serial`, `unrolled` and
    `vectorized` become `scf.for`, `parallel` becomes `scf.parallel`; a
    non-serial kind is kept as `tensorir.loop_kind` for later unrolling and
    vectorization. `thread_binding` is rejected there; it is to become the
    bound `gpu.thread_id`/`gpu.block_id` inside a `gpu.launch` (guarded when
    the extent is not the launch size) in the GPU pipeline.
  }];
  let arguments = (ins Variadic<Index>:$dynamic_bounds,
                       DenseI64ArrayAttr:$static_bounds,
                       DefaultValuedAttr<TensorIR_ForKindAttr,
                                         "::mlc::tensorir::ForKind::serial">:$kind,
                       OptionalAttr<StrAttr>:$thread_tag,
                       OptionalAttr<DictionaryAttr>:$annotations,
                       OptionalAttr<StrAttr>:$iv_name);
  let regions = (region SizedRegion<1>:$body);

  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::OpFoldResult":$lowerBound,
                   "::mlir::OpFoldResult":$upperBound,
                   CArg<"::mlir::OpFoldResult", "{}">:$step,
                   CArg<"::mlc::tensorir::ForKind", "::mlc::tensorir::ForKind::serial">:$kind,
                   CArg<"::llvm::StringRef", "{}">:$threadTag,
                   CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, "
                        "::mlir::Location, ::mlir::Value)>",
                        "nullptr">:$bodyBuilder)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().getArgument(0); }
    ::mlir::OpFoldResult getLowerBound();
    ::mlir::OpFoldResult getUpperBound();
    ::mlir::OpFoldResult getStep();
    /// The bounds as constants when they are, else std::nullopt.
    std::optional<int64_t> getConstantLowerBound();
    std::optional<int64_t> getConstantUpperBound();
    std::optional<int64_t> getConstantStep();
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// block / init
//===----------------------------------------------------------------------===//

def TensorIR_BlockOp : TensorIR_Op<"block", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">
  ]> {
  let summary = "a TensorIR block: named iteration domain plus computation (T.block)";
  let description = [{
    The unit of computation that TensorIR schedules work on. A block has a
    name (unique in its prim_func), iteration variables, the regions of
    buffers it reads and writes, and a body.

    Each iteration variable is `spatial` or `reduce` and has a domain
    `[0, extent)` (a constant or an `index` value) and a binding: the
    `index` value it takes in the current iteration of the enclosing loops.
    The iteration variables are the arguments of the body. Bindings are SSA
    operands computed outside the block (a loop variable itself, or an
    `affine.apply` of loop variables after `split`/`fuse`), so upstream
    folding, CSE and affine analysis work on them unchanged. The body must not
    use enclosing loop variables (or values computed from them) except
    through the bindings.

    ```mlir
    // with T.block("Y"):
    //   vi, vj, vk = T.axis.remap("SSR", [i, j, k])
    //   T.reads(A[vi, vk], B[vk, vj])
    //   T.writes(Y[vi, vj])
    tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j),
                       %vk = reduce(128, %k))
        reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
        writes(%Y[%vi, %vj] : memref<128x128xf32>) {
      tensorir.init {
        memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
      }
      ...
    }
    ```

    `reads(...)`/`writes(...)` list buffer operands with a region per
    dimension, written `expr` for a single point or `lo:hi` for a half-open
    range, where the expressions are affine in the iteration variables
    (stored as `#tensorir.region` attributes). When they are absent they are
    unknown, and `tensorir-infer-access-regions` computes them from the
    body's `memref.load`/`memref.store`; `reads()` states "reads nothing".

    `where(%cond)` is TVM's block predicate (`T.where(...)`): an `i1`
    computed from the loop variables, false for the iterations in which the
    block does not run (e.g. the tail of a non-divisible `split`). With a
    predicate, bindings may leave their domains in the masked-off iterations,
    so the binding range check is skipped.

    The reduction initialisation (`with T.init():`) is a `tensorir.init`
    op, the first op of the body; it is only allowed when there are reduce
    iteration variables. `annotations` holds TVM block annotations.

    Lowering: the block is replaced by its body with the iteration variables
    replaced by the bindings, inside an `scf.if` on the predicate if any; `tensorir.init` becomes an `scf.if` that runs
    its body when every reduce iteration variable is 0.
  }];
  let arguments = (ins StrAttr:$name,
                       TensorIR_IterVarTypeArrayAttr:$iter_types,
                       DenseI64ArrayAttr:$static_extents,
                       Variadic<Index>:$dynamic_extents,
                       Variadic<Index>:$bindings,
                       Optional<I1>:$predicate,
                       Variadic<AnyMemRef>:$read_buffers,
                       OptionalAttr<TensorIR_BufferRegionArrayAttr>:$reads,
                       Variadic<AnyMemRef>:$write_buffers,
                       OptionalAttr<TensorIR_BufferRegionArrayAttr>:$writes,
                       OptionalAttr<DictionaryAttr>:$annotations,
                       OptionalAttr<StrArrayAttr>:$iter_var_names);
  let regions = (region SizedRegion<1>:$body);

  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   "::llvm::ArrayRef<::mlc::tensorir::IterVarType>":$iterTypes,
                   "::llvm::ArrayRef<::mlir::OpFoldResult>":$extents,
                   "::mlir::ValueRange":$bindings,
                   CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, "
                        "::mlir::Location, ::mlir::ValueRange)>",
                        "nullptr">:$bodyBuilder)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    unsigned getNumIterVars() { return getIterTypes().size(); }
    ::mlir::Value getIterVar(unsigned i) { return getBody().getArgument(i); }
    ::mlc::tensorir::IterVarType getIterVarType(unsigned i);
    bool isReduceIterVar(unsigned i) {
      return getIterVarType(i) == ::mlc::tensorir::IterVarType::reduce;
    }
    bool hasReduceIterVars();
    /// Domain extent of iteration variable `i`.
    ::mlir::OpFoldResult getExtent(unsigned i);
    std::optional<int64_t> getConstantExtent(unsigned i);
    /// The `tensorir.init` op of this block, or null.
    InitOp getInitOp();
    /// The region of the block's `tensorir.init` (TVM's `Block::init`), or
    /// null.
    ::mlir::Region *getInitRegion();
    /// A printable name of iteration variable `i` for diagnostics.
    std::string getIterVarDisplayName(unsigned i);
    /// Replaces the read/write regions.
    void setReadRegions(::mlir::ValueRange buffers, ::llvm::ArrayRef<::mlir::Attribute> regions);
    void setWriteRegions(::mlir::ValueRange buffers, ::llvm::ArrayRef<::mlir::Attribute> regions);
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
}

def TensorIR_InitOp : TensorIR_Op<"init", [
    HasParent<"BlockOp">, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">, NoRegionArguments
  ]> {
  let summary = "reduction initialisation of a block (with T.init():)";
  let description = [{
    The statements run before the first reduction step of the enclosing
    `tensorir.block`, i.e. when all of its reduce iteration variables are at
    the start of their domain. It must be the first op of a block that has
    reduce iteration variables, and there is at most one.

    ```mlir
    tensorir.init {
      memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$body attr-dict";
  let builders = [OpBuilder<(ins
      CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location)>",
           "nullptr">:$bodyBuilder)>];
  let skipDefaultBuilders = 1;
  let hasVerifier = 1;
}

#endif // MLC_DIALECT_TENSORIR_IR_TENSORIROPS_TD
