//===- TensorIRTransformOps.td - tensorir schedule as transform ops -*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The TensorIR schedule primitives (mlc::tensorir::Schedule, TVM's
// tir.Schedule) as transform dialect ops, so that a schedule is a transform
// script run by `--transform-interpreter`. Handles hold `tensorir.block` and
// `tensorir.for` ops; each op expects exactly one payload op per handle.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_TRANSFORMOPS_TENSORIRTRANSFORMOPS_TD
#define MLC_DIALECT_TENSORIR_TRANSFORMOPS_TENSORIRTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class TensorIR_TransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "tensorir." # mnemonic,
         !listconcat([DeclareOpInterfaceMethods<TransformOpInterface>,
                      DeclareOpInterfaceMethods<MemoryEffectsOpInterface>],
                     traits)> {
  // Apart from upstream's mlir::transform ops (there is a SplitOp there).
  let cppNamespace = "::mlc::tensorir::schedule";
}

def GetBlockOp : TensorIR_TransformOp<"get_block"> {
  let summary = "sch.get_block: the tensorir.block with a given name";
  let description = [{
    Returns a handle to the `tensorir.block` named `name` in the
    `tensorir.prim_func`s at or under `target` (e.g. the module). Fails when
    there is no such block or when several functions have one.

    ```mlir
    %y = transform.tensorir.get_block "Y" in %module : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$block);
  let assemblyFormat =
      "$name `in` $target attr-dict `:` functional-type(operands, results)";
}

def GetLoopsOp : TensorIR_TransformOp<"get_loops"> {
  let summary = "sch.get_loops: the loops around a block, outermost first";
  let description = [{
    Returns one handle per `tensorir.for` around `block` in its scope
    (up to the enclosing block or function), outermost first. The number of
    results must match the number of loops.

    ```mlir
    %i, %j, %k = transform.tensorir.get_loops %y
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
}

def SplitOp : TensorIR_TransformOp<"split"> {
  let summary = "sch.split: splits a loop into a nest of loops";
  let description = [{
    Replaces the loop by one loop per factor, outermost first (consuming the
    handle and returning one per new loop). One factor may be `?` (TVM's
    `None`), inferred as the ceiling of the extent divided by the others.
    When the product of the factors exceeds the extent, the blocks under the
    loop get a `where` predicate masking the tail. The loop must start at 0
    with step 1 and have a constant extent. A factor may also be a
    `!transform.param<i64>` holding one integer, e.g. a result of
    `sample_perfect_tile` (TVM's ExprRV factors).

    ```mlir
    %j0, %j1 = transform.tensorir.split %j by [?, 4]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t:2 = transform.tensorir.sample_perfect_tile %k {decision = array<i64: 8, 16>}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %k0, %k1 = transform.tensorir.split %k by [%t#0, %t#1]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    ```
  }];
  // `factors` holds ShapedType::kDynamic where the factor is the next of
  // `dynamic_factors` (upstream's mixed static/dynamic convention).
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Variadic<TransformParamTypeInterface>:$dynamic_factors,
                       DenseI64ArrayAttr:$factors);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat =
      "$target `by` custom<Factors>($dynamic_factors, $factors) attr-dict `:` "
      "functional-type(operands, results)";
  let hasVerifier = 1;
}

def SamplePerfectTileOp : TensorIR_TransformOp<"sample_perfect_tile"> {
  let summary = "sch.sample_perfect_tile: factors whose product is a loop's "
                "extent";
  let description = [{
    TVM's sampling instruction: returns one `!transform.param<i64>` per
    result (n = the number of results), outermost first, whose product is
    the constant extent of `target` (a loop starting at 0 with step 1), the
    innermost at most `max_innermost_factor` (0: no limit). With `decision`
    the op checks and returns it (a trace replays deterministically);
    without, it draws a tiling at random from `seed`: the innermost factor
    uniformly among the extent's divisors within the limit, then each prime
    factor of the rest into a uniformly chosen outer position.

    ```mlir
    %t:2 = transform.tensorir.sample_perfect_tile %j {max_innermost_factor = 16, decision = array<i64: 32, 4>}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "0">:$max_innermost_factor,
                       OptionalAttr<DenseI64ArrayAttr>:$decision,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let results = (outs Variadic<TransformParamTypeInterface>:$factors);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def SampleCategoricalOp : TensorIR_TransformOp<"sample_categorical"> {
  let summary = "sch.sample_categorical: one of several integers";
  let description = [{
    TVM's sampling instruction: returns `candidates[decision]` as a
    `!transform.param<i64>`. Without `decision` the index is drawn from
    `seed` with the probabilities `probs` (non-negative, one per candidate,
    not all zero; they need not sum to one).

    ```mlir
    %unroll = transform.tensorir.sample_categorical [0, 16, 64, 512]
        probs [0.25, 0.25, 0.25, 0.25] {decision = 1 : i64} : !transform.param<i64>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$candidates, DenseF64ArrayAttr:$probs,
                       OptionalAttr<I64Attr>:$decision,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let results = (outs TransformParamTypeInterface:$result);
  let assemblyFormat =
      "$candidates `probs` $probs attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def SampleComputeLocationOp : TensorIR_TransformOp<"sample_compute_location"> {
  let summary = "sch.sample_compute_location: a loop that compute_at may "
                "move a block under";
  let description = [{
    TVM's sampling instruction: returns a handle to the loop with index
    `decision` among the block's compute locations (the loops that
    `collect_compute_locations` returns, in pre-order), or an empty handle
    for decision -1: the block stays where it is (TVM's root location;
    `compute_at` with an empty loop handle does nothing). Without
    `decision` the op draws one uniformly among -1 and the locations, from
    `seed`. Inlining (TVM's decision -2) is not a location here: it is the
    auto-inline rule's choice.

    ```mlir
    %loc = transform.tensorir.sample_compute_location %b {decision = 1 : i64}
        : (!transform.any_op) -> !transform.any_op
    transform.tensorir.compute_at %b at %loc : !transform.any_op, !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       OptionalAttr<I64Attr>:$decision,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let results = (outs TransformHandleTypeInterface:$location);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def CollectComputeLocationsOp
    : TensorIR_TransformOp<"collect_compute_locations"> {
  let summary = "the loops that compute_at can move a block under";
  let description = [{
    Returns one handle to every loop of the block's function, in pre-order,
    at which `compute_at` of `block` succeeds (each tried on a copy of the
    function; the payload does not change). TVM's CollectComputeLocation
    analysis; `sample_compute_location` indexes this list, and
    `transform.num_associations` counts it.

    ```mlir
    %locs = transform.tensorir.collect_compute_locations %b
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block);
  let results = (outs TransformHandleTypeInterface:$locations);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
}

def FuseOp : TensorIR_TransformOp<"fuse"> {
  let summary = "sch.fuse: fuses a perfectly nested chain of loops";
  let description = [{
    Replaces the loops (outermost first; each the only statement of the one
    before) by one loop over the product of their extents; the old induction
    variables become `floordiv`/`mod` of the new one.

    ```mlir
    %f = transform.tensorir.fuse %i, %j
        : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops);
  let results = (outs TransformHandleTypeInterface:$fused);
  let assemblyFormat = "$loops attr-dict `:` functional-type(operands, results)";
}

def ReorderOp : TensorIR_TransformOp<"reorder"> {
  let summary = "sch.reorder: permutes loops of one loop nest";
  let description = [{
    Nests the given loops in the given order. They must lie in one perfectly
    nested chain whose bounds do not depend on each other; loops of the
    chain that are not listed keep their positions. The handles stay valid.

    ```mlir
    transform.tensorir.reorder %j0, %k, %j1
        : !transform.any_op, !transform.any_op, !transform.any_op
    ```
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = "$loops attr-dict `:` type($loops)";
}

def TileOp : TensorIR_TransformOp<"tile", [AttrSizedOperandSegments]> {
  let summary = "splits a chain of loops by tile sizes and reorders them";
  let description = [{
    Splits each loop (a chain, outermost first) by `[?, size]` and moves all
    the outer parts above the inner parts. Returns the outer loops followed
    by the inner loops; the loop handles are consumed. A size may be a
    `!transform.param<i64>` holding one integer (e.g. a sampled one), as
    split's factors.

    ```mlir
    %i0, %j0, %i1, %j1 = transform.tensorir.tile %i, %j by [32, 32]
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %c = transform.tensorir.sample_categorical [8, 16] probs [0.5, 0.5] {decision = 1 : i64} : !transform.param<i64>
    %i0, %j0, %i1, %j1 = transform.tensorir.tile %i, %j by [%c, 32]
        : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    ```
  }];
  // `sizes` holds ShapedType::kDynamic where the size is the next of
  // `dynamic_sizes`, as split's factors.
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops,
                       Variadic<TransformParamTypeInterface>:$dynamic_sizes,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<TransformHandleTypeInterface>:$tiled);
  let assemblyFormat =
      "$loops `by` custom<Factors>($dynamic_sizes, $sizes) attr-dict `:` "
      "functional-type(operands, results)";
  let hasVerifier = 1;
}

class TensorIR_LoopKindOp<string mnemonic, string what>
    : TensorIR_TransformOp<mnemonic> {
  let summary = "sch." # mnemonic # ": " # what;
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def ParallelOp : TensorIR_LoopKindOp<"parallel", "marks a loop parallel"> {
  let description = [{
    Sets the loop kind to `parallel`. The loop must only feed spatial
    iteration variables of the blocks under it.
  }];
}

def VectorizeOp : TensorIR_LoopKindOp<"vectorize", "marks a loop vectorized"> {
  let description = [{
    Sets the loop kind to `vectorized`. The loop must only feed spatial
    iteration variables of the blocks under it.
  }];
}

def UnrollOp : TensorIR_LoopKindOp<"unroll", "marks a loop unrolled"> {
  let description = [{
    Sets the loop kind to `unrolled`.
  }];
}

def BindOp : TensorIR_TransformOp<"bind"> {
  let summary = "sch.bind: binds a loop to a GPU thread axis";
  let description = [{
    Sets the loop kind to `thread_binding` with the given tag
    (`blockIdx.{x,y,z}`, `threadIdx.{x,y,z}`, `vthread`, `vthread.{x,y,z}`).
    Except for `threadIdx` (cross-thread reductions), the loop must only feed
    spatial iteration variables.

    ```mlir
    transform.tensorir.bind %i0 "blockIdx.x" : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$thread_tag);
  let assemblyFormat = "$target $thread_tag attr-dict `:` type($target)";
}

def DecomposeReductionOp : TensorIR_TransformOp<"decompose_reduction"> {
  let summary = "sch.decompose_reduction: hoists a block's init before a loop";
  let description = [{
    Moves the `tensorir.init` of the reduction `block` into a new block
    "<name>_init" right before `loop`, under copies of the loops between
    `loop` and the block that feed spatial iteration variables; `block`
    becomes "<name>_update". Returns the init block.

    ```mlir
    %init = transform.tensorir.decompose_reduction %y at %k
        : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       TransformHandleTypeInterface:$loop);
  let results = (outs TransformHandleTypeInterface:$init);
  let assemblyFormat =
      "$block `at` $loop attr-dict `:` functional-type(operands, results)";
}

def ReverseComputeAtOp : TensorIR_TransformOp<"reverse_compute_at"> {
  let summary = "sch.reverse_compute_at: moves a consumer under a loop";
  let description = [{
    Moves the spatial consumer `block` (alone in its loop nest, after
    `loop`) to the end of the body of `loop`, under new loops that cover the
    region of its inputs produced by one iteration of `loop`. The block
    handle stays valid.

    ```mlir
    transform.tensorir.reverse_compute_at %c at %j0 : !transform.any_op, !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       TransformHandleTypeInterface:$loop);
  let assemblyFormat =
      "$block `at` $loop attr-dict `:` type($block) `,` type($loop)";
}

def ComputeAtOp : TensorIR_TransformOp<"compute_at"> {
  let summary = "sch.compute_at: moves a producer under a loop";
  let description = [{
    Moves the producer `block` (alone in its loop nest, before `loop`,
    writing only `tensorir.alloc_buffer`s that no block outside `loop`
    reads) to the start of the body of `loop`, under new loops that cover
    the region the blocks under `loop` read in one iteration. The block
    handle stays valid. An empty `loop` handle (`sample_compute_location`'s
    decision -1, TVM's root location) leaves the block where it is.

    ```mlir
    transform.tensorir.compute_at %b at %i0 : !transform.any_op, !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       TransformHandleTypeInterface:$loop);
  let assemblyFormat =
      "$block `at` $loop attr-dict `:` type($block) `,` type($loop)";
}

def ComputeInlineOp : TensorIR_TransformOp<"compute_inline"> {
  let summary = "sch.compute_inline: inlines a block into its consumers";
  let description = [{
    Replaces every load of the intermediate buffer that the spatial `block`
    writes (a single store, at its iteration variables, of a side-effect
    free computation) by the computation, and removes the block, its loops
    and the buffer.

    ```mlir
    transform.tensorir.compute_inline %b : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

def ReverseComputeInlineOp : TensorIR_TransformOp<"reverse_compute_inline"> {
  let summary = "sch.reverse_compute_inline: inlines a block into its producer";
  let description = [{
    The spatial `block` reads one intermediate buffer, at its iteration
    variables, from a producer of the single-store form; the producer's
    store is replaced by the block's computation, and the block, its loops
    and the buffer are removed. When the block's domain is a prefix of the
    producer's (the copy back of `pad_einsum`), the producer gets a `where`
    predicate masking the rest.

    With `keep_input` (mlc's, not TVM's) the buffer may be an output of the
    function: the producer still stores to it, and the block's computation
    follows that store (a second output computed from the first, such as
    its float16 copy, written by the same statement). The block must then
    cover the producer's whole domain.

    ```mlir
    transform.tensorir.reverse_compute_inline %c : !transform.any_op
    transform.tensorir.reverse_compute_inline %cast {keep_input} : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       UnitAttr:$keep_input);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

def CacheReadOp : TensorIR_TransformOp<"cache_read"> {
  let summary = "sch.cache_read: reads a buffer through a copy";
  let description = [{
    `block` reads a new buffer "<buffer>_<scope>" instead of its read buffer
    #`buffer_index`, filled by a copy block right before the block's loop
    nest (over the region the nest reads). Returns the copy block, e.g. for
    `compute_at`.

    ```mlir
    %a_shared = transform.tensorir.cache_read %y 0 "shared"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       I64Attr:$buffer_index, StrAttr:$storage_scope);
  let results = (outs TransformHandleTypeInterface:$copy);
  let assemblyFormat = "$block $buffer_index $storage_scope attr-dict `:` "
                       "functional-type(operands, results)";
}

def CacheWriteOp : TensorIR_TransformOp<"cache_write"> {
  let summary = "sch.cache_write: writes a buffer through a copy";
  let description = [{
    `block` writes a new buffer "<buffer>_<scope>" instead of its write
    buffer #`buffer_index`, copied back by a block right after the block's
    loop nest. Returns the copy block, e.g. for `reverse_compute_at`.

    ```mlir
    %y_local = transform.tensorir.cache_write %y 0 "local"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       I64Attr:$buffer_index, StrAttr:$storage_scope);
  let results = (outs TransformHandleTypeInterface:$copy);
  let assemblyFormat = "$block $buffer_index $storage_scope attr-dict `:` "
                       "functional-type(operands, results)";
}

def RFactorOp : TensorIR_TransformOp<"rfactor"> {
  let summary = "sch.rfactor: factors a reduction loop out";
  let description = [{
    `loop` feeds a reduce iteration variable of the only block under it, a
    reduction `Y[s] = combine(Y[s], v)` whose init stores the combiner's
    identity (add/0, mul/1, max/-inf, min/+inf, ...). The block becomes
    "<name>_rf", accumulating into a new buffer "<Y>_rf"[rf, s...] along
    `loop` (factor axis 0), and a new block "<name>" after its loop nest
    combines the partial results into Y. Returns the rfactor block.

    ```mlir
    %rf = transform.tensorir.rfactor %k1 : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$rf_block);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
}

def PadEinsumOp : TensorIR_TransformOp<"pad_einsum"> {
  let summary = "sch.pad_einsum: pads an einsum's domain to multiples";
  let description = [{
    Pads the iteration domain of the einsum `block` (every buffer dimension
    indexed by an iteration variable or a constant, each iteration variable
    bound to its own loop over its domain) up to multiples of `padding`, one
    factor per iteration variable. The block then reads copies
    "<buffer>_pad" of its inputs, filled before its loop nest with zeros
    beyond the original shape, and writes a padded copy of its output that
    a block after the nest copies back. Later schedules inline the copies
    into their cache_read/cache_write copies (compute_inline,
    reverse_compute_inline), so that tiles divide the padded domain.

    ```mlir
    transform.tensorir.pad_einsum %c [64, 64, 32] : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       DenseI64ArrayAttr:$padding);
  let assemblyFormat = "$block custom<Factors>($padding) attr-dict `:` "
                       "type($block)";
}

def TransformBlockLayoutOp : TensorIR_TransformOp<"transform_block_layout"> {
  let summary = "sch.transform_block_layout: fuses a block's iteration "
                "variables";
  let description = [{
    `block`, alone in a nest of one loop per iteration variable (each from
    0 over its domain), gets new iteration variables: the results of
    `index_map`, a map from its old iteration variables in which each result
    is a row-major fusion of old variables of one kind (spatial or reduce)
    and each old variable is in exactly one result. Its nest is replaced by
    one loop per new variable; the body computes the old variables from the
    new ones with `affine.apply` (floordiv, mod).

    ```mlir
    // conv2d (n, f, y, x, rc, ry, rx) as a GEMM (i, j, k)
    transform.tensorir.transform_block_layout %conv
        affine_map<(n, f, y, x, rc, ry, rx) ->
                   (n * 196 + y * 14 + x, f, rc * 9 + ry * 3 + rx)>
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       AffineMapAttr:$index_map);
  let assemblyFormat = "$block $index_map attr-dict `:` type($block)";
}

def ReindexOp : TensorIR_TransformOp<"reindex"> {
  let summary = "sch.reindex: accesses a buffer through one indexed by "
                "iteration variables";
  let description = [{
    `block` (its iteration variables each a loop over its domain) accesses
    its `buffer_index_type` ("read" or "write") buffer #`buffer_index`,
    at one affine function of its iteration variables everywhere, through a
    new buffer "<buffer>_reindex" with one dimension per iteration variable
    the access uses (in the block's order), indexed by exactly those
    variables. A copy block of the same name before the block's nest
    (read) or after it (write) copies between the two buffers. Returns the
    copy block.

    ```mlir
    %a_reindex = transform.tensorir.reindex %conv "read" 0
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       StrAttr:$buffer_index_type, I64Attr:$buffer_index);
  let results = (outs TransformHandleTypeInterface:$copy);
  let assemblyFormat = "$block $buffer_index_type $buffer_index attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // MLC_DIALECT_TENSORIR_TRANSFORMOPS_TENSORIRTRANSFORMOPS_TD
