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

def DefaultSchedulePass
    : InterfacePass<"mlc-default-schedule", "::mlir::FunctionOpInterface"> {
  let summary = "Default CPU schedule of the linalg ops raised from tensorir";
  let description = [{
    The role of TVM's default schedule rules for the CPU target, applied to
    the linalg ops on memrefs with static shapes in any function
    (`func.func`, `tensorir.prim_func`): the `linalg.generic`s that
    `convert-tensorir-to-linalg` raised from te.compute stages and
    bufferized tensor-level linalg (e.g. `linalg.matmul`), with upstream's
    TilingInterface (`scf::tileUsingSCF`), loop peeling and
    `linalg::vectorize`. The pipeline `tensorir-default-schedule{target=cpu}`
    is the raising plus this pass on every prim_func; `--mlc-cpu-pipeline`
    runs this pass after bufferization. Functions without such ops are
    left unchanged; ops on i1 stay scalar. Chosen by structure:

    - contractions (matmul, batch matmul, dense: `linalg` contraction
      dimensions m, n, k) get GotoBLAS's loop nest: k is tiled for the
      caches (`k-tile`), then n by `n-cache-tile`; that rhs panel is
      packed once and shared by the parallel tasks (`scf.forall`, then
      `scf.parallel`, OpenMP in the CPU pipeline) of `m-parallel` rows,
      each of which packs its lhs block once, then walks `n-register`
      columns outermost and `m-register` rows: a register tile whose
      innermost k loop is vectorized into a `vector.contract` lowered to
      outer products (FMA); the accumulator tile is hoisted out of the k
      loop into loop-carried registers. With too few rows for two tasks of
      two register tiles, the tasks are column tiles of a quarter of
      `n-cache-tile` instead (batch dimensions run in parallel when there
      are no row tasks). Cache tiles are balanced (784 by 512 is 2 x 392);
      when a tile still does not divide its dimension, the whole tiles and
      the rest are split into two ops first (for k, the second accumulates
      onto the first), since a partial tile would keep dynamic sizes down
      to the register tile and could not be packed. With fewer rows than
      `m-register` (a batch-1 dense layer) the register tile is as many
      accumulators wide instead. Packed rows of an even number of cache
      lines are padded by one line: rows 1024 floats apart all map to one
      L1 set. Packed tiles live on the stack (a task's up to 512 KiB, a
      function's up to 256 KiB) or, outside tasks, on the heap (4 MiB).
    - elementwise/injective (no reduction dimension): the outermost dimension
      runs in parallel when the op is large, the innermost dimension is
      vectorized by 16 (AVX-512 f32).
    - convolutions (two inputs indexed by sums of dimensions such as
      `y * stride + ky * dilation`, mul-add body, the output's innermost
      dimension n in one input's innermost index only, a row dimension m,
      e.g. the output channel, in the other input only): m tiles by
      `m-parallel` and every other parallel dimension one by one run in
      parallel; a 16-row (`m-register` x `n-register` / `vector-width`) x
      one-vector register tile walks the reduction dimensions one by one
      with its accumulators in registers; each step is rewritten into a
      rank-1 matmul on (strided) subviews and vectorized like a
      contraction. Strided image rows are read contiguously and
      deinterleaved by a shuffle.
    - other reductions whose maps are projected permutations (sum, max,
      mean, the stages of softmax and norms): the outermost parallel
      dimension runs in parallel when the op is large. If the output's
      innermost dimension is contiguous in the inputs (reductions over an
      outer axis), a vector of `n-register` output columns is carried in
      registers across the reduction dimensions. Otherwise, if the
      innermost reduction dimension is contiguous and at least a vector
      long (row sums, softmax), it is split across `vector-width` lanes
      that start at the combiner's identity and are reduced once after the
      loop (a reassociation, like TVM's rfactor).
    - window reductions: pooling and depthwise convolutions (one image
      input indexed by sums such as `x * stride + kx`, the output's
      innermost dimension n in its innermost index only; the other inputs
      independent of n, e.g. a depthwise weight, or shape-only): the
      outermost parallel dimension runs in parallel when the op is large; a
      vector of `vector-width` output columns is carried in registers
      across the window loops, each step an elementwise op on (strided)
      views with one value of each other input; strided image rows are
      read contiguously and deinterleaved by a shuffle.
    - other ops (shorter reductions, dynamic shapes) are left to the loop
      lowering, whose outer parallel dimensions become OpenMP loops.

    Partial tiles (sizes that the tiles do not divide) are peeled off and run
    as scalar loops. `n-register` should be a multiple of the vector width.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "the target of the schedule (only `cpu`)">,
    Option<"mRegister", "m-register", "int64_t", /*default=*/"8",
           "rows of the register tile of a contraction">,
    Option<"nRegister", "n-register", "int64_t", /*default=*/"32",
           "columns of the register tile of a contraction">,
    Option<"mParallel", "m-parallel", "int64_t", /*default=*/"128",
           "rows per parallel task (and packed lhs block) of a "
           "contraction">,
    Option<"kTile", "k-tile", "int64_t", /*default=*/"512",
           "reduction tile of a contraction (L1/L2 blocking)">,
    Option<"nCacheTile", "n-cache-tile", "int64_t", /*default=*/"1024",
           "column tile of a contraction (L2 blocking)">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "vector length of elementwise ops">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
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
