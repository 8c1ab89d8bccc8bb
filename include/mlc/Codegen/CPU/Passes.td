//===- Passes.td - CPU code generation passes ---------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_CPU_PASSES_TD
#define MLC_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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
      each of which packs its lhs block once, then walks `m-register`
      rows outermost (that lhs sliver stays in L1) and `n-register`
      columns (contiguous slivers of the panel, streamed from L2, each k
      step prefetching the row about 2 KiB ahead into L1 when the rhs
      is larger than 32 KiB): a register
      tile (6 x 64 floats, 24 AVX-512 accumulators) whose
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
      parallel; a `conv-m-register`-row (16) x one-vector register tile
      (for channels-last rows of at least four `m-register` tiles, the
      contraction's `m-register` x `n-register` tile) walks the reduction
      dimensions one by one
      with its accumulators in registers; each step is rewritten into a
      rank-1 matmul on (strided) subviews and vectorized like a
      contraction. Strided image rows are read contiguously and
      deinterleaved by a shuffle. A pointwise convolution (a 1x1 window at
      stride 1, `pointwise-conv-as-matmul`) becomes a contraction first:
      weights (output channels x input channels) times the image with its
      rows and columns as one dimension, so that its vectors span whole
      rows (a 7x7 image fills 3 of 4 vectors instead of 7 of 16 lanes); its
      fill and epilogue collapse alike.
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

    Epilogues (`fuse-epilogues`): in a fused kernel, a contraction or
    convolution accumulates into a temporary buffer that an elementwise op
    zeroes before and another (bias, activation, residual) reads once after,
    writing the kernel's output. These two run on each register tile
    instead, right before and after its reduction (for a contraction whose
    k dimension is split into cache tiles, in the first and the last k
    tile), and the tile is forwarded in registers, so that the three ops
    make one pass over the output instead of three, as TVM's schedules do
    with `reverse_compute_at`. Epilogues that do not fit (a reduction split
    into two ops, a buffer used elsewhere, an output that the ops also
    read) are scheduled as ops of their own.

    Partial tiles (sizes that the tiles do not divide) are peeled off and run
    as scalar loops, except a contraction's register columns: those that no
    register tile divides are split off as a whole number of vectors and
    the rest (49 columns: 32, 16 and 1), since LLVM legalizes a 17-wide
    vector element by element. `n-register` should be a multiple of the vector width.

    A function may carry its own values of the tile options as discardable
    attributes `mlc.schedule.<option> = <integer>`, the option's name
    with `_` for `-` (e.g. `mlc.schedule.k_tile = 256 : i64`), which override the pass options for
    it: the knobs that `mlc.meta_schedule` tunes and a tuning record sets.
    An unknown knob or a value outside [1, 2^20] is an error.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "the target of the schedule (only `cpu`)">,
    Option<"mRegister", "m-register", "int64_t", /*default=*/"6",
           "rows of the register tile of a contraction">,
    Option<"nRegister", "n-register", "int64_t", /*default=*/"64",
           "columns of the register tile of a contraction (rounded down "
           "to a power of two of vectors)">,
    Option<"mParallel", "m-parallel", "int64_t", /*default=*/"128",
           "rows per parallel task (and packed lhs block) of a "
           "contraction">,
    Option<"kTile", "k-tile", "int64_t", /*default=*/"256",
           "reduction tile of a contraction (L1/L2 blocking)">,
    Option<"nCacheTile", "n-cache-tile", "int64_t", /*default=*/"1024",
           "column tile of a contraction (L2 blocking)">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "vector length of elementwise ops">,
    Option<"convMRegister", "conv-m-register", "int64_t", /*default=*/"16",
           "output pixels of a convolution's register tile, one vector of "
           "channels each (channels-last rows shorter than that take two; "
           "rows of four or more m-register tiles take the contraction's "
           "m-register x n-register tile)">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "compute the zero fill and the elementwise epilogue of a fused "
           "kernel's contraction or convolution on its register tiles">,
    Option<"pointwiseConvAsMatmul", "pointwise-conv-as-matmul", "bool",
           /*default=*/"true",
           "schedule 1x1 stride-1 convolutions as contractions over the "
           "image's rows and columns as one dimension">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def CPUMarkConstantArgumentsPass
    : Pass<"mlc-cpu-mark-constant-arguments", "::mlir::ModuleOp"> {
  let summary = "Mark the kernel arguments that every caller passes a "
                "constant global";
  let description = [{
    Sets the unit argument attribute `mlc.constant` on each memref argument
    (static shape, identity layout) of a private `func.func` whose every use
    is a `func.call` that passes, at that position, a `memref.get_global` of
    a constant `memref.global` with an initial value: a bound weight, once
    the graph is host code calling its kernels. `mlc-default-schedule` may
    then read such an argument in a layout of its own (`mlc.packed_slivers`),
    which `mlc-cpu-prepack-constants` stores the constants in. Public
    functions, which other code may call with anything, are never marked.
    The CPU pipeline runs it before the default schedule (option
    `prepack-constants`).

    ```mlir
    memref.global "private" constant @w : memref<256x128xf32> = dense<...>
    func.func private @mm(%a: memref<64x256xf32>, %b: memref<256x128xf32>, ...)
    func.func @main(...) {
      %w = memref.get_global @w : memref<256x128xf32>
      call @mm(%x, %w, %y) : ...
    // becomes
    func.func private @mm(%a: memref<64x256xf32>,
                          %b: memref<256x128xf32> {mlc.constant}, ...)
    ```
  }];
}

def CPUWinogradConvolutionPass
    : Pass<"mlc-cpu-winograd-convolution", "::mlir::ModuleOp"> {
  let summary = "3x3 stride-1 convolutions with bound weights as Winograd "
                "F(m x m, 3 x 3) GEMMs";
  let description = [{
    Rewrites a channels-last 3x3 convolution at stride 1 and dilation 1
    (`out[n, h, w, k] += image[n, h + kh, w + kw, c] * weight[kh, kw, c,
    k]`, f32, static shapes, the output's rows and columns multiples of `m`)
    whose weight is a constant argument (`mlc.constant`, see
    `mlc-cpu-mark-constant-arguments`) into Lavin and Gray's minimal
    filtering F(m x m, 3 x 3), as TVM's `conv2d_winograd` strategies do:

    - an elementwise input transform V = B^T d B of every (m + 2) x (m + 2)
      input tile d (strided views of the image, one per tile position;
      the constant matrix is folded into adds and multiplies),
    - (m + 2)^2 GEMMs M = V x U of tiles x in-channels by in-channels x
      out-channels, a batched contraction that `mlc-default-schedule`
      schedules as such,
    - an elementwise output transform out += A^T M A.

    The filter transform U = G g G^T is done here, at compile time: each
    caller's constant global is replaced by a transformed one ((m + 2)^2 x
    c x k) and the argument retyped. m = 4 does 4x fewer multiply-adds than
    the direct convolution, m = 2 2.25x; rounding differs from the direct
    sum (m = 4 more than m = 2), which is why it is not the default.

    Each convolution takes the largest output tile (4 or 2) of at most `m`
    that divides its output's rows and columns; m is a function's
    `mlc.schedule.winograd_tile` attribute (a tuning record's choice; 0
    keeps the direct convolution), else the `output-tile` option. Convolutions that do not match, or whose callers pass no
    readable constant, are left unchanged. The CPU pipeline runs it after
    `mlc-cpu-mark-constant-arguments`.

    ```mlir
    linalg.generic {3x3 window} ins(%padded, %w : memref<1x58x58x64xf32>,
        memref<3x3x64x64xf32>) outs(%out : memref<1x56x56x64xf32>)
    // with m = 4 becomes
    linalg.generic ins(36 views %padded[0, i, j, 0] [1, 14, 14, 64]
        [1, 4, 4, 1]) outs(36 planes of %v : memref<36x1x14x14x64xf32>)
    linalg.generic {batched matmul} ins(%v, %u : memref<36x196x64xf32>,
        memref<36x64x64xf32>) outs(%m : memref<36x196x64xf32>)
    linalg.generic ins(36 planes of %m) outs(16 views %out[0, a, b, 0]
        [1, 14, 14, 64] [1, 4, 4, 1])
    ```
  }];
  let options = [
    Option<"outputTile", "output-tile", "int64_t", /*default=*/"0",
           "The largest output tile (2 or 4) in functions without a "
           "mlc.schedule.winograd_tile attribute; 0: none">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def CPUSplitPaddedWindowsPass
    : Pass<"mlc-cpu-split-padded-windows", "::mlir::func::FuncOp"> {
  let summary = "Split padded window reductions into an interior part that "
                "reads the image itself and border parts";
  let description = [{
    A padded depthwise convolution or pooling, once bufferized, reads a
    buffer that the kernel first fills at its border (`linalg.fill` of
    subviews) and into which it copies the whole image (`linalg.copy`).
    This pass splits such a window reduction (a linalg op on buffers that
    `mlc-default-schedule` schedules as a pooling, not as a convolution or
    contraction) along each padded dimension: the outputs whose windows
    lie inside the image read the image itself (a view of the copy's
    source), the border outputs still read the padded buffer, and the copy
    shrinks to the parts of the image that the border outputs read. When
    the op accumulates into a buffer of its own between a fill and an
    elementwise epilogue (the fused bias and activation), each part gets
    the three on a buffer of its own, so that the default schedule still
    computes them on its register tiles. Ops that do not have this form,
    or whose windows all lie inside the image or none do, are left as they
    are. TVM's schedules reach the same by computing the padding inline
    (`compute_inline` of `pad_temp`) with conditions that its loop
    partitioning then removes from the interior.

    Measured on MobileNet-v2 (2-vCPU Xeon, one thread): the copy of the
    112 x 112 x 96 image took 0.7 ms of its 1.1 ms stride-2 depthwise
    convolution.

    The border parts (a row or a column of the output) are marked
    `mlc.single_thread`: a parallel loop of their own costs more than they
    compute. Where they hold an eighth of the outputs or more (small
    images: half of 7 x 7, a quarter of 14 x 14) and the op is channels-last
    (the innermost dimension of every buffer it and the ops that make its
    bordered image and epilogue use is one loop, the channels), that would
    leave much of the kernel on one thread. Such a kernel first becomes
    channel tasks: an `scf.forall` over groups of whole cache lines of
    channels (at most 16 tasks, at least 2; the channel count must divide
    into them), each filling and copying a bordered image of its channels
    and accumulating into buffers of its own on its stack (`memref.alloca`),
    then split as above. One parallel loop then runs every part, and
    `mlc-default-schedule` gives the ops inside it no parallel loop of their
    own. MobileNet-v2 on a 2-vCPU AMD EPYC (Zen 4), in-process A/B: 5.61 ->
    5.23 ms at 2 threads, 7.93 -> 7.72 ms at 1 thread.

    ```mlir
    linalg.fill ins(%zero) outs(%padded border views)
    linalg.copy ins(%image) outs(%padded[0, 1, 1, 0] [1, 112, 112, 96])
    linalg.generic (window over %padded) -> %out
    // becomes
    linalg.fill ins(%zero) outs(%padded border views)
    linalg.copy ins(%image[0, 0, 0, 0] [1, 2, 112, 96]) outs(%padded[...])
    linalg.copy ins(%image[0, 0, 0, 0] [1, 112, 2, 96]) outs(%padded[...])
    linalg.generic (window over %padded) -> %out[0, 0, 0, 0] [1, 1, 56, 96]
    linalg.generic (window over %padded) -> %out[0, 1, 0, 0] [1, 55, 1, 96]
    linalg.generic (window over %image[0, 1, 1, 0]) -> %out[0, 1, 1, 0] [1, 55, 55, 96]
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CPUPrepackConstantsPass
    : Pass<"mlc-cpu-prepack-constants", "::mlir::ModuleOp"> {
  let summary = "Store the constants that kernels read as packed slivers in "
                "that order, at compile time";
  let description = [{
    `mlc-default-schedule` packs a contraction's rhs panel into contiguous
    slivers of `w` columns at every call, and each task of a channels-last
    convolution its `w` weight columns. When such an operand is a constant
    argument (`mlc.constant`) that it reads only so, it reads the argument
    in place as slivers instead and marks it `mlc.packed_slivers = w`. This
    pass then reorders, at compile time, each constant global that a caller
    passes there: a constant of N columns (its last dimension) by K rows
    (the others) is stored as N / w slivers of K x w elements, each
    contiguous. Its type stays the same; a global that other code reads too
    keeps its original beside the packed copy. This is TVM's AlterOpLayout
    (and MetaSchedule's layout-rewrite preprocessing, folded into the
    weights): the packing leaves the inference. Both attributes are
    removed afterwards.

    A caller that passes a marked argument anything but a constant global
    with a dense or `dense_resource` initial value is an error (the kernel
    would read it in the wrong order).

    ```mlir
    memref.global "private" constant @w : memref<2x4xf32> =
        dense<[[0., 1., 2., 3.], [4., 5., 6., 7.]]>
    func.func private @k(%b: memref<2x4xf32> {mlc.packed_slivers = 2 : i64})
    // with w = 2, @w becomes
    memref.global "private" constant @w_slivers2 : memref<2x4xf32> =
        dense<[[0., 1., 4., 5.], [2., 3., 6., 7.]]>
    ```
  }];
}

#endif // MLC_CODEGEN_CPU_PASSES_TD
