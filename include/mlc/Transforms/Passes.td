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

def RejectUnregisteredOpsPass
    : Pass<"mlc-reject-unregistered-ops", "::mlir::ModuleOp"> {
  let summary = "Fail at the first op of an unregistered dialect";
  let description = [{
    The CPU and GPU pipelines lower every op to the LLVM dialect, which an
    op of a dialect this context does not know (parsed under
    `--allow-unregistered-dialect`) can never be; upstream's
    `math-extend-to-supported-types` even crashes on one. The pipelines
    therefore start with this pass: it reports the first such op at its
    location, with its name, and fails; a module without one is unchanged.

    ```mlir
    %1 = "mydialect.op"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    // error: 'mydialect.op' op of an unregistered dialect cannot be
    // lowered by mlc's pipelines
    ```
  }];
}

def DeduplicateFunctionsPass
    : Pass<"mlc-deduplicate-functions", "::mlir::ModuleOp"> {
  let summary = "Merge private functions with identical bodies into one";
  let description = [{
    `relax-fuse-tir` makes one prim_func per fused call site, so a model
    that repeats a layer (the 16 bottlenecks of a ResNet-50, the layers of
    a transformer) holds the same kernel many times under different names
    (`fused_conv2d_27_..._relu_31`, `..._relu_31_12`, ...), and every later
    pass, LLVM's code generator above all, does the work once per copy
    (LLVM's `mergefunc` merges them only after code generation has been
    paid for). This pass keeps the first of each group of private
    functions (any `FunctionOpInterface` op directly in the module:
    `tensorir.prim_func`, `func.func`, ...) that are identical but for
    their symbol name — same op, attributes, argument and result types and
    attributes, and body — points every use of the others' symbols at it
    and erases them. Public functions (the module's entry points) and
    declarations are left alone.

    Example:

    ```mlir
    tensorir.prim_func private @relu(...) { body }
    tensorir.prim_func private @relu_1(...) { same body }
    ... relax.call_tir @relu_1(...)
    // becomes
    tensorir.prim_func private @relu(...) { body }
    ... relax.call_tir @relu(...)
    ```
  }];
  let statistics = [
    Statistic<"numErased", "num-erased", "Functions merged into an identical one">
  ];
}

def PackConstantGlobalsPass : Pass<"mlc-pack-constant-globals"> {
  let summary = "Store large constant LLVM globals as flat byte arrays";
  let description = [{
    A model's weights, bound at compile time, become `llvm.mlir.global`
    constants typed as nested arrays (`!llvm.array<1000 x array<2048 x
    f32>>`). Translated to LLVM IR, such a global becomes one uniqued
    constant per innermost row (millions for a ResNet-50), which LLVM's
    inliner then walks and its assembly printer emits one float at a time:
    LLVM spent about 50 of the 55 seconds of compiling a ResNet-50 with
    bound weights on its 100 MB of constants. This pass retypes every
    constant global of at least `min-bytes` bytes whose value is dense
    (`dense<...>` that is not a splat, or `dense_resource<...>`) of integers
    or floats of whole bytes as `!llvm.array<N x i8>` holding the same
    bytes (a `dense_resource` keeps its blob, without a copy): one constant,
    written out with a single copy. The users only take the global's
    address (`llvm.mlir.addressof`; pointers are opaque), so nothing else
    changes. Globals in nested symbol tables (a `gpu.module`'s, whose
    kernels read the constants) are packed too. Run it on the LLVM dialect,
    before translation.

    Example:

    ```mlir
    llvm.mlir.global private constant @w(dense_resource<w> : tensor<64x64xf32>)
        {alignment = 64 : i64} : !llvm.array<64 x array<64 x f32>>
    // becomes
    llvm.mlir.global private constant @w(dense_resource<w> : tensor<16384xi8>)
        {alignment = 64 : i64} : !llvm.array<16384 x i8>
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"4096",
           "Pack constant globals of at least this many bytes">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def HeapBufferCachePass
    : Pass<"mlc-heap-buffer-cache", "::mlir::ModuleOp"> {
  let summary = "Keep large freed heap buffers for the next allocations "
                "instead of returning them to malloc";
  let description = [{
    A compiled model allocates its large buffers (the arena of
    `mlc-plan-memory`, padded images, packed panels) on every call and
    frees them at its end. When glibc's heap then shrinks (its trim
    threshold depends on what else the process allocated), the next call
    touches fresh pages: MobileNet-v2 compiled by mlc-compile and called
    from Python took 3000 page faults per inference, and 15.1-15.7 ms
    instead of 12.2 ms on one thread (11.8-12.5 instead of 7.4-8.0 ms on
    two, which wait for each other in the kernel's page handling). TVM keeps such buffers in a workspace pool; this
    pass does the same for the code that `finalize-memref-to-llvm
    {use-generic-functions}` emits, which calls `_mlir_memref_to_llvm_alloc`
    and `_mlir_memref_to_llvm_free` instead of malloc and free.

    The pass defines those two functions inside the module (internal
    linkage, so that every compiled module has its own and needs no runtime
    library): `free` of a block of at least `min-bytes` usable bytes puts it
    into one of `slots` slots of a global array, and `alloc` of at least
    `min-bytes` bytes takes a cached block whose usable size is between the
    request and twice it, before it calls malloc. Everything else is malloc
    and free. Every cached block is a malloc block, so a buffer that leaves
    the module (a returned memref its caller frees) stays valid either way.
    The slots are shared by all threads and only changed by atomic
    exchanges; a `llvm.mlir.global_dtors` entry frees the cached blocks when
    the module is unloaded (unless the module has destructors of its own).
    A module without declarations of the two functions is left alone; one
    that defines them itself (an embedder's allocator) too.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1048576",
           "Cache freed blocks of at least this many usable bytes">,
    Option<"slots", "slots", "int64_t", /*default=*/"16",
           "Number of cached blocks at most">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def SimplifyMathPass : Pass<"mlc-simplify-math"> {
  let summary = "Strength-reduce math ops with constant operands (upstream's "
                "algebraic simplification)";
  let description = [{
    Applies MLIR's `populateMathAlgebraicSimplificationPatterns`, which no
    upstream pass exposes: `math.powf` with a constant exponent becomes
    multiplications, a division, `math.sqrt` or `math.rsqrt` (exponents
    1, 2, 3, -1, -2, 0.5, -0.5, 0.75), and `math.fpowi`/`math.ipowi` with a
    small constant exponent become multiplications. Without it LLVM calls
    `powf` for every element (it strength-reduces only `pow(x, 2.0)`
    without fast-math): the `power(x, 3.0)` of a tanh-GELU cost 30 times
    the rest of it. The results agree with `powf` up to rounding (the
    product of three roundings for x^3), except the sign of `sqrt(-0.0)`
    and `sqrt(-inf)` = NaN where `powf(-inf, 0.5)` is +inf.

    ```mlir
    %c3 = arith.constant 3.0 : f32
    %y = math.powf %x, %c3 : f32
    // becomes
    %0 = arith.mulf %x, %x : f32
    %y = arith.mulf %0, %x : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def PlanMemoryPass : Pass<"mlc-plan-memory", "::mlir::func::FuncOp"> {
  let summary = "Share one arena between buffers whose lifetimes do not overlap";
  let description = [{
    Static memory planning at the memref level, the role of TVM's
    `StaticPlanBlockMemory`. After bufferization and the deallocation
    pipeline, a host function holds one `memref.alloc`/`memref.dealloc` pair
    per intermediate buffer. This pass packs, per block, the buffers that
    qualify into one 64-byte aligned `memref<Nxi8>` arena allocated at the
    block start, replaces each of them by a `memref.view` at a fixed byte
    offset and frees the arena where the last of them was freed.

    A buffer qualifies when its `memref.alloc` has a static shape, the
    identity layout and the default memory space, sits directly in the block
    whose `memref.dealloc` frees it, and it does not escape: it and its views
    (`ViewLikeOpInterface`) are only read or written by ops with known memory
    effects or passed to `func.call` (the callee borrows its arguments); not
    returned, yielded, branched with or given to an op that may capture it.
    Its live interval runs from its first to its last use in block order (a
    use in a nested region counts at its ancestor in the block): a fresh
    alloc's contents are undefined, and a buffer that does not escape cannot
    be touched after its last use, even though the ownership-based
    deallocation frees it only at the end of the block. Offsets are assigned greedily by size with a
    best-fit search among the gaps left by the buffers whose intervals
    overlap, so buffers that are never live together share bytes; element
    types of any width may share a slot.

    Example:

    ```mlir
    %a = memref.alloc() : memref<16xf32>
    "use"(%a) ...
    memref.dealloc %a : memref<16xf32>
    %b = memref.alloc() : memref<8xi64>
    "use"(%b) ...
    memref.dealloc %b : memref<8xi64>
    // becomes
    %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
    %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    ...
    %b = memref.view %arena[%c0][] : memref<64xi8> to memref<8xi64>
    ...
    memref.dealloc %arena : memref<64xi8>
    ```
  }];
  let options = [
    Option<"printPeakBytes", "print-peak-bytes", "bool", /*default=*/"false",
           "Emit a remark per function with the planned peak bytes against "
           "the bytes the planned buffers took before, and a remark at each "
           "alloc that is left alone saying why">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ApproximateMathPass : Pass<"mlc-approximate-math"> {
  let summary = "Replace f32 math functions by upstream's polynomial "
                "approximations";
  let description = [{
    Rewrites the f32 `math` ops named by `ops` (scalars and vectors) into
    upstream's polynomial approximations
    (`populateMathPolynomialApproximationPatterns`): arithmetic that stays
    vectorized, where the LLVM lowering of a vector `math.exp` calls the
    scalar libm function once per lane (exp: 0.26 vs 1.26 ms on 2^18
    elements). The default set is the functions whose approximation stays
    within 5 ulp of the exact result on the ranges that
    `test/Integration/approximate-math.py` checks (exp, expm1, log, log1p,
    log2: <= 2.4 ulp; tanh, erf: <= 4.4 ulp); atan (40 ulp) and sin/cos
    (wrong beyond |x| of a few hundred) keep libm unless named. Ops on
    other element types are left alone.

    Example: `mlc-opt --mlc-approximate-math='ops=exp'` turns
    `math.exp %x : vector<16xf32>` into range reduction, a polynomial and
    an exponent shift on `vector<16xf32>`.
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "math op mnemonics to approximate (default: exp, expm1, log, "
               "log1p, log2, tanh, erf)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ForwardLoopAnnotationsPass : Pass<"mlc-forward-loop-annotations"> {
  let summary = "Make the loop annotations of scf.for loops LLVM loop metadata";
  let description = [{
    `convert-scf-to-cf` moves an `scf.for`'s discardable
    `llvm.loop_annotation` attribute to the loop's back-edge branch, and the
    conversion to the LLVM dialect keeps it there as a discardable
    attribute, which the translation to LLVM IR ignores: only the
    `loop_annotation` property of `llvm.br` / `llvm.cond_br` becomes
    `!llvm.loop` metadata. This pass moves the attribute into the property,
    so that e.g. a hand schedule's `vectorized` and `unrolled` loops
    (`convert-tensorir-to-scf` annotates them) reach LLVM's loop vectorizer
    and unroller. A branch that already has the property keeps it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MLC_TRANSFORMS_PASSES_TD
