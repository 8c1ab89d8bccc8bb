//===- Passes.td - GPU code generation passes ---------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_GPU_PASSES_TD
#define MLC_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUDefaultSchedulePass
    : Pass<"mlc-gpu-default-schedule", "::mlc::tensorir::PrimFuncOp"> {
  let summary = "Default GPU schedule of a tensorir prim_func (TVM dlight rules)";
  let description = [{
    Gives every loop nest of a `tensorir.prim_func` that is not scheduled for
    the GPU yet a thread binding, with the TensorIR schedule primitives
    (`fuse`, `split`, `bind`), as TVM's `dlight` default rules do; the
    pipeline `tensorir-default-schedule{target=cuda}` is this pass.
    Functions with a thread-bound loop already are hand-scheduled and left
    alone. Rules, tried in order on each statement at the function's top
    level (a rule that fails midway is undone and the next one is tried):

    - Attention (with `tensor-cores`): the stages of relax.nn.attention's
      kernel (f16/bf16; head and value dimensions multiples of 8) become
      one flash-attention kernel (online softmax, keys in steps of 32,
      both products as `mma_sync` nests), its tiles padded where the
      lengths and head dimensions are no multiples of them; other shapes
      fall through to the rules below.
    - Split-K (with `tensor-cores`, without `warpgroup-mma`): a GEMM for
      the tensor-core Matmul rule whose 64 x 64 tiles make at most half as
      many thread blocks as an H100 has SMs, and whose K is long, has K
      split into up to 16 parts of at least 256 (rfactor): the parts a
      batch of that rule into an f32 buffer, then a kernel that sums them,
      a thread per output, with the epilogue after the sum.
    - Hopper Matmul (with `warpgroup-mma`, which the GPU pipeline sets for
      sm_90a): a GEMM block `C[b.., i, j] += extf(A[b.., i, k]) *
      extf(B[b.., k, j])` whose A and B are f16 or bf16 prim_func
      arguments of static shape (B's batch may be broadcast), M and N at
      least 64, K and N multiples of 8, gets one warpgroup (128 threads)
      per 128 x 128 tile of C (128 x 64 when N is at most 64, or when
      that cuts the columns of the busiest of 132 SMs by a quarter), accumulated
      in `shared` by a nest (thread i computes row i over all of K)
      annotated `wgmma = "m64n128k16"` (`"m64n64k16"`), which
      `mlc-gpu-tensorize-wgmma` replaces by TMA loads and wgmma; the
      write-back, with the inlined epilogue, moves 16 bytes per access.
    - Hopper implicit GEMM (with `warpgroup-mma`): a convolution in NHWC
      with an HWIO weight (f16 or bf16; after its padding) that
      normalize_to_matmul makes a GEMM with M, N >= 64 and K, N multiples
      of 8. Its padding, im2col copy and weight copy are inlined into the
      GEMM block itself, which then reads A at gathered, zero-padded
      addresses and B as the K x N matrix the weight is in memory; it
      takes the Hopper Matmul schedule with `wgmma_a = "gather"` beside
      the wgmma annotation, which `mlc-gpu-tensorize-wgmma` turns into the
      threads' cp.async of A. The rule checks what that needs: every run
      of 8 k from a multiple of 8 reads 8 consecutive elements of one row
      of the image (16 aligned bytes: channels innermost, a multiple of 8)
      under one padding predicate, and the weight's indices address row k
      of it with its leading dimensions collapsed (checked at every k).
    - Tensor-core Matmul (dlight's `MatmulTensorization`; with
      `tensor-cores`, which the GPU pipeline sets for sm_80 and newer): a
      GEMM block with f16 or bf16 inputs (both the same) and an f32
      accumulator (`C += extf(A) * extf(B)`), M and N at least 32, gets
      warps along `threadIdx.z` whose lanes are
      `threadIdx.y` (8) x `threadIdx.x` (4), 128 x 64 outputs per block
      (4 warps of 32 x 64) when that gives at least 128 blocks, else
      64 x 64 (2 warps), and K in steps of 32 (16 when K is not a multiple
      of 32) through `shared` copies of A and B. The loops are split
      so that each thread computes exactly the accumulator elements that
      `mma.sync.m16n8k16` leaves in its registers, so the schedule is also a
      correct SIMT program; the loop of each 16 x 8 x 16 tile is annotated
      `mma_sync = "m16n8k16"` for `mlc-gpu-tensorize-mma`. With
      `allow-tf32`, a GEMM of f32 inputs (`C += A * B`) takes the same rule
      with `mma.sync.m16n8k8` in tf32 (`mma_sync = "m16n8k8"`, K in steps
      of 16): faster, but the products keep only 10 mantissa bits, as
      cuBLAS's TF32 mode. When the block tile does not divide M or N, or
      the mma's K (16, tf32 8) does not divide K, the domain is padded
      first (dlight's `pad_einsum`; K to a whole step when that adds at
      most an eighth, else to whole mma slices): the zero-padded copies of
      A and B are inlined into the shared-memory copies (clamped loads,
      zero selected past the end: zero-filling `cp.async`) and the copy
      back of C into the write-back (predicated stores), so the mma tiles
      run unmasked. An input whose rows are no whole number of 16-byte
      pieces keeps its padded copy as a kernel of its own (cp.async copies
      must be aligned). M or N below 32 take the SIMT rule. A reduction
      block that is a GEMM only after fusing its iteration variables (a
      convolution: `P[n, c, y + ry, x + rx] * W[o, c, ry, rx]`), possibly
      after spatial statements producing its inputs (its padding), takes
      this rule as an implicit GEMM: `transform_block_layout` fuses the
      variables indexing C and A into i, C and B into j, A and B into k,
      `reindex` gives it buffers indexed by exactly (i, k), (j, k) or
      (k, j), and (i, j); the im2col copy and the padding are inlined into
      the shared-memory copy, the output's copy back into the write-back.
    - Matmul (dlight's `Matmul`, SIMT): a reduction block
      `C[b.., i, j] += f(A[.., i, k], B[.., k, j])` (either layout of A and
      B, batch loops fused into `blockIdx.z`) with M, N >= 32 and K >= 8
      gets 16 x 16 threads, a register tile of 8 x 8 outputs per thread
      (4 x 4 when M or N < 128; `cache_write` to `local`), and K in steps of
      8 through `shared` copies of A and B (`cache_read` + `compute_at`) that
      all threads of the block load together. Elementwise consumers of C in
      the statements after it (bias, activation) are inlined into the
      write-back of the register tile.
    - Reduction (dlight's `Reduction` and `GEMV`): a reduction block whose
      spatial loops come first and whose reduction has >= 32 iterations
      gets one thread block per output element and its reduce loops split
      over up to `threads-per-block` threads (a multiple of 32), which
      `convert-tensorir-to-gpu` combines with warp shuffles.
    - Fallback (dlight's `Fallback`): the leading loops over spatial
      iteration variables with constant extents (perfectly nested, up to
      the first reduce loop or the first loop holding more than one
      statement) are fused and split into `blockIdx.x` x `threadIdx.x`
      (`threads-per-block` threads, fewer when the nest is smaller; a tail
      is masked by the block's predicate); the remaining loops, reductions
      among them, run serially in each thread, which computes one output
      element. A leading spatial loop of dynamic extent is split the same
      way (the grid is computed on the host).
    - Anything else (a nest that starts with a reduce loop, e.g. a sum to a
      scalar, or a block outside loops) runs in one thread of one block,
      inside a unit loop bound to `threadIdx.x`.

    The result's numerics can be checked without a GPU with
    `mlc-cpu-pipeline{emulate-gpu-schedule=true}` (the thread-bound loops
    run serially on the host).

    ```mlir
    tensorir.for %i = 0 to 1024 {
      tensorir.block "B"(%vi = spatial(1024, %i)) ...
    }
    // becomes
    tensorir.for %i_0 = 0 to 4 thread_binding("blockIdx.x") {
      tensorir.for %i_1 = 0 to 256 thread_binding("threadIdx.x") {
        %i = affine.apply affine_map<(d0, d1) -> (d0 * 256 + d1)>(%i_0, %i_1)
        tensorir.block "B"(%vi = spatial(1024, %i)) ...
    ```
  }];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t",
           /*default=*/"256",
           "threads per block of the fallback rule (1 to 1024)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"false",
           "try the tensor-core Matmul rule first (mma.sync, sm_80+)">,
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"false",
           "with tensor-cores: float32 GEMMs on tensor cores in tf32 "
           "(10 mantissa bits per product; off: exact float32 on SIMT)">,
    Option<"warpgroupMma", "warpgroup-mma", "bool", /*default=*/"false",
           "try the Hopper Matmul rule (TMA + wgmma, sm_90a) before the "
           "tensor-core one">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect"
  ];
}

def GPUTensorizeMMAPass
    : Pass<"mlc-gpu-tensorize-mma", "::mlir::ModuleOp"> {
  let summary = "Replace the loop nests annotated mma_sync by ldmatrix and "
                "mma.sync (TVM's tensorize with the mma intrinsics)";
  let description = [{
    Runs on the loops that convert-tensorir-to-scf made from `tensorir.for`
    loops annotated `mma_sync = "m16n8k16"` by the tensor-core Matmul rule
    of `mlc-gpu-default-schedule`, inside a `gpu.launch` whose `threadIdx.x`
    extent is 32 (the lane). Such a loop nest `h (2) { p (2) { kk (16) {
    C[..] += extf(A_shared[..]) * extf(B_shared[..]) } } }` is what each
    thread of a warp computes of one 16 x 8 x 16 tile; it becomes, for the
    warp together:

    - `nvgpu.ldmatrix` of the 16 x 16 A tile (4 tiles of 8 x 8) when k is
      A's innermost dimension, and of the 16 x 8 B tile (2 tiles) when k is
      B's; each lane gives the address of one row, the nest's own load
      indices evaluated at the lane's (g, t, h, p, kk); otherwise each
      thread loads its fragment elements itself. A may be in private
      memory (`local`): the thread's registers, holding its fragment
      elements in the layout of an earlier mma's accumulator (a
      flash-attention kernel's P); each lane then loads its own,
    - for B stored K x N, `nvgpu.ldmatrix` with `transpose` when the 8
      columns of the tile are contiguous and 8-aligned (checked on the
      load's indices for every lane). The tensor-core rule's layout (lane
      t has columns 16 t + 2 nt + p of 64) is made so first: every access
      of such a 64-column shared buffer, the copy into it included, goes
      through the column permutation 8 ((c / 2) mod 8) + 2 (c / 16) +
      c mod 2, which stores tile nt's columns at 8 nt .. 8 nt + 7; a
      buffer that a tile already reads by 8 contiguous columns (the
      accumulator's own layout, 8 nt + 2 t + p) is left as it is,
    - the thread's four accumulator elements (h, p in {0, 1}) as a
      `vector<2x2xf32>`, `nvgpu.mma.sync` with shape [16, 8, 16], and the
      four elements stored back. A and B are f16 or bf16 (the bf16 form is
      lowered by `mlc-gpu-lower-bf16-mma-sync`).

    Nests annotated `mma_sync = "m16n8k8"` (the rule's tf32 form, with
    `allow-tf32`) are `h (2) { p (2) { kk (8) { C += A * B } } }` with f32
    A and B and become `nvgpu.mma.sync` with shape [16, 8, 8] and
    `tf32Enabled`: A through `ldmatrix.x4` (an f32 is two of its 16-bit
    elements, so a row of 4 f32 is one 8 x 8 row) when k is innermost, B
    through `ldmatrix.x2` when k is innermost, else element by element
    (`ldmatrix.trans` cannot transpose 32-bit elements, so B stored K x N
    is not permuted). The operands are not rounded to tf32 first: the
    tensor cores ignore their 13 low mantissa bits (a truncation, where
    cuBLAS's TF32 mode rounds; a `cvt.rna` per fragment element would cost
    more issue slots than the mma.sync it feeds).

    A nest that does not have this form (other loops or operations, A not
    in workgroup or private memory, B not in workgroup memory, a lane count
    other than 32) is an error at the loop.

    ```mlir
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %p = ... { scf.for %kk = %c0 to %c16 ... {
        ... C_local[..] = C_local[..] + extf(A_shared[..]) * extf(B_shared[..])
    } } } {tensorir.annotations = {mma_sync = "m16n8k16"}}
    // becomes
    %a = nvgpu.ldmatrix %A_shared[...] {numTiles = 4 : i32, transpose = false} : ... -> vector<4x2xf16>
    %b = nvgpu.ldmatrix %B_shared[...] {numTiles = 2 : i32, transpose = true} : ... -> vector<2x2xf16>
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect"
  ];
}

def GPUMarkConstantArgumentsPass
    : Pass<"mlc-gpu-mark-constant-arguments", "::mlir::ModuleOp"> {
  let summary = "Mark the prim_func arguments that relax passes constants to";
  let description = [{
    Sets the unit argument attribute `tensorir.constant` on each argument of
    a `tensorir.prim_func` that a `relax.call_tir` passes a constant
    (`relax.constant`, e.g. a bound weight) to. Such constants become device
    globals inside the kernels that read them (`mlc-gpu-device-memory`), so
    host code never holds their device address: where the Hopper Matmul
    rule of `mlc-gpu-default-schedule` reads one through TMA, whose tensor
    maps are encoded on the host, `mlc-gpu-tensorize-wgmma` has the runtime
    encode the map of a device copy of the constant
    (`mlc_cuda_tensor_map_encode_tiled_constant_*`). The GPU pipeline runs
    it before the schedule.

    ```mlir
    %w = relax.constant dense<...> : tensor<64x64xf16>
    %y = relax.call_tir @mm(%x, %w) : ...
    tensorir.prim_func @mm(%A: ..., %B: memref<64x64xf16>, %C: ...)
    // becomes
    tensorir.prim_func @mm(%A: ..., %B: memref<64x64xf16> {tensorir.constant}, %C: ...)
    ```
  }];
}

def GPUTensorizeWgmmaPass
    : Pass<"mlc-gpu-tensorize-wgmma", "::mlir::ModuleOp"> {
  let summary = "Replace the loop nests annotated wgmma by TMA loads and "
                "warpgroup MMAs (sm_90a)";
  let description = [{
    Runs on the loops that convert-tensorir-to-scf made from `tensorir.for`
    loops annotated `wgmma = "m64n128k16"` (or `"m64n64k16"`: N = 64 in
    what follows) by the Hopper Matmul rule of
    `mlc-gpu-default-schedule` (`warpgroup-mma`, sm_90a), inside a
    `gpu.launch` of one warpgroup (128 x 1 x 1 threads). Such a nest
    `n (N) { k (K) { [if (row < M)] { [if (k == 0) C[.., tx, n] = 0];
    C[.., tx, n] += extf(A[.., row, k]) * extf(B[.., k, col]) } } }`, with
    A and B f16 or bf16 buffers defined outside the kernel (static shape,
    identity layout, rows of whole 16-byte pieces) and C an f32 workgroup
    buffer of at most 128 x N, is one 128 x N tile (N = 128) of a GEMM
    computed by thread `tx`'s row. It becomes, for the warpgroup together:

    - on the host, before the launch: the tensor maps of A (boxes of
      128 x 64) and B (64 x 64), 128-byte swizzle, zeros past the ends, as
      calls to the runtime's `mlc_cuda_tensor_map_encode_tiled_{f16,bf16}`
      (cuTensorMapEncodeTiled into device memory; the kernel gets the
      pointer and views it as `!nvgpu.tensormap.descriptor`);
    - in the kernel: up to 3 stages of 32 KiB (24 KiB for N = 64: one box
      of B) in dynamic shared memory
      (1024-byte aligned, the launch's `dynamic_shared_memory_size`), one
      mbarrier each; thread 0 issues the TMA loads (`nvgpu.tma.async.load`)
      of k-tiles 0 .. stages - 2, and the loop over k-tiles of 64 waits for
      its stage (`mbarrier.try_wait.parity`), multiplies it
      (`nvgpu.warpgroup.mma`, B transposed: N contiguous; two m64nNk16
      along M per 16-wide slice), and, once the warpgroup has finished the
      previous k-tile's wgmma, refills that stage with the k-tile
      `stages - 1` ahead;
    - after the loop, the accumulator stored (`nvgpu.warpgroup.mma.store`)
      to the tile's buffer, which now overlays the stages: the write-back
      after the nest (with the fused epilogue) reads it unchanged.

    The tile's origin is the nest's own load indices at thread 0, column 0
    and k 0; the tails of M, N and K are what TMA fills with zeros and the
    write-back's predicates mask. B may also be read at (rows.., col) whose
    leading indices, functions of k alone, address row k of B with those
    dimensions collapsed (an HWIO weight; checked at every k): its tensor
    map is then that of the `memref.collapse_shape` of B to K x N.

    With `wgmma_a = "gather"` beside the wgmma annotation (the Hopper
    implicit GEMM rule: a convolution's im2col rows), A is the value the
    nest multiplies, `select(c, load, 0)` or a load, at any indices that
    depend on the thread; the annotation promises that every run of 8 k
    from a multiple of 8 is 16 consecutive, aligned bytes of the loaded
    buffer's row under one predicate. The threads then copy A themselves:
    for each k-tile, thread tx issues 8 zero-filling `nvgpu.device_async_copy`
    of 16 bytes (rows tx / 8 + 16 p, k from 8 (tx mod 8)), the nest's
    indices and predicate evaluated at that row and k, zeros where the
    predicate, the thread's guards (`scf.if`s around the accumulation that
    depend on the thread) or k < K fail, each stored at chunk
    (tx mod 8) xor (row mod 8) of its 128-byte row: the layout TMA's
    128-byte swizzle gives, which wgmma's descriptors read. One cp.async
    group per k-tile; before its wgmma, each k-tile waits for its own
    group (`cp.async.wait_group stages - 2`), fences it for the async proxy
    (`fence.proxy.async.shared::cta`) and meets the other threads
    (`gpu.barrier`); TMA then brings only B (its mbarrier expects B's
    bytes). A nest that does not have one of these forms is an error at
    the loop.
  }];
  let dependentDialects = [
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def GPULowerBF16MmaSyncPass : Pass<"mlc-gpu-lower-bf16-mma-sync"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync, which MLIR 22's "
                "convert-nvgpu-to-nvvm cannot";
  let description = [{
    `convert-nvgpu-to-nvvm` fails on an `nvgpu.mma.sync` whose A and B are
    bf16 ("failed to deduce operand PTX types"), although PTX's
    `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32` takes the same
    fragments as the f16 form: each row of the `vector<Nx2xbf16>` operands
    is one 32-bit register holding two bf16 values. Every m16n8k16
    `nvgpu.mma.sync` with bf16 A and B and an f32 accumulator becomes that
    `nvvm.mma.sync` (A row-major, B column-major, as nvgpu's), its operands
    packed with `vector.bitcast` and its four results gathered back into
    the `vector<2x2xf32>` the op produced. Other `nvgpu.mma.sync` ops
    (f16, tf32, integers) are left to `convert-nvgpu-to-nvvm`.

    ```mlir
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    // becomes
    %a0 = vector.extract %a[0] : vector<2xbf16> from vector<4x2xbf16>
    %a0p = vector.bitcast %a0 : vector<2xbf16> to vector<1xi32>
    ...
    %r = nvvm.mma.sync A[...] B[...] C[...] {multiplicandAPtxType = #nvvm.mma_type<bf16>, ...} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %d = vector.from_elements ... : vector<2x2xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def GPUInlineKernelFunctionsPass
    : Pass<"mlc-gpu-inline-kernel-functions", "::mlir::ModuleOp"> {
  let summary = "Inline the kernel functions that host code calls and erase "
                "them";
  let description = [{
    On the GPU a function that another function of the module calls (a
    lowered prim_func called by a relax function) is part of its caller:
    this pass inlines every such function into its callers and erases it,
    public or not. Functions no one calls (the entries: relax functions, or
    the prim_funcs of a module without relax code) stay as they are.

    Why: `mlc-gpu-device-memory` can only move a constant (a bound weight)
    into the kernels that read it once the launch and the constant are in
    one function; and a public callee left beside its inlined copies would
    be compiled, assembled and loaded twice. The launches keep the kernel
    names `convert-tensorir-to-gpu` gave them (`gpu.launch ... function(@f)`)
    so outlining still names the kernels after their prim_funcs.

    ```mlir
    func.func @fused_add(%a: memref<4xf32>) { gpu.launch ... }
    func.func @main(%x: memref<4xf32>) {
      call @fused_add(%x) : (memref<4xf32>) -> ()
      return
    }
    // becomes
    func.func @main(%x: memref<4xf32>) { gpu.launch ... }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def GPULaunchBoundsPass : Pass<"mlc-gpu-launch-bounds", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Bound each kernel's registers per thread by its occupancy "
                "(CUDA's __launch_bounds__ min blocks)";
  let description = [{
    For every kernel of a `gpu.module` with a known block size (what
    `gpu-kernel-outlining` records), sets `nvvm.minctasm` (PTX
    `.minnctapersm`, the second argument of CUDA's `__launch_bounds__`) to
    the number of its blocks that fit on one SM when each thread has
    `max-registers` registers: 65536 / (threads * max-registers), at least 1.
    ptxas then keeps the kernel within `max-registers` registers.

    Why: `.maxntid` alone lets ptxas use up to 255 registers per thread, and
    it takes one or two more than 128 for the Matmul rule's 8 x 8 register
    tile, which halves the blocks per SM (256 threads x 130 registers: one
    block instead of two); at 128 the same kernel needs no spills. Kernels
    that need fewer registers are not affected. Kernels with tensor-core
    tiles (`nvgpu.mma.sync`) get `max-registers-mma` instead: they hold the
    accumulators, the fragments of the next k slice and the addresses of
    the copies in flight (the 4-warp tensor-core kernel spills at 128; three
    of its blocks per SM still fit in shared memory).

    ```mlir
    gpu.func @k(...) kernel attributes {known_block_size = array<i32: 16, 16, 1>}
    // becomes
    gpu.func @k(...) kernel attributes {known_block_size = array<i32: 16, 16, 1>,
                                        nvvm.minctasm = 2 : i32}
    ```
  }];
  let options = [
    Option<"maxRegisters", "max-registers", "int64_t", /*default=*/"128",
           "registers per thread that every kernel must fit in (32 to 255)">,
    Option<"maxRegistersMMA", "max-registers-mma", "int64_t",
           /*default=*/"168",
           "registers per thread of the kernels that use tensor cores "
           "(nvgpu.mma.sync; 32 to 255)">,
  ];
}

def GPUAssumeAlignmentPass
    : Pass<"mlc-gpu-assume-alignment", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Tell LLVM that the kernels' buffer arguments are aligned, "
                "so that it merges their accesses into vector loads";
  let description = [{
    Every buffer argument of a kernel of the `gpu.module` whose memref type
    has the identity layout (its data start is the pointer passed) is
    replaced by `memref.assume_alignment %arg, <alignment>` at the kernel's
    entry. With the alignment known, LLVM's load/store vectorizer turns four
    consecutive f32 accesses of a thread (the Matmul rule's copies of A and
    B into shared memory) into one `ld.global.v4.f32`; without it, it keeps
    them scalar, since a misaligned vector access faults on NVIDIA GPUs.

    The assumption is mlc's GPU calling convention, as TVM's 64-byte
    `kAllocAlignment`: `cuMemAlloc` returns 256-byte aligned memory,
    `mlc-plan-memory` places buffers at multiples of 64 bytes, and
    `mlc.runtime` rejects CUDA arrays whose data pointer is not aligned.
    Buffers with another layout (a strided view, a static offset) are left
    alone. Identity-layout reshapes of a marked buffer
    (`memref.collapse_shape`, `memref.expand_shape`: views at its offset 0)
    are marked too, since `expand-strided-metadata` folds their metadata
    through the buffer's mark, which then has no use left and goes. Workgroup (shared) attributions without an `llvm.align` get one
    of `alignment` bytes: LLVM takes 16 bytes for granted on large arrays
    without an explicit alignment and emits `ld.shared.v4` for them, while
    the NVPTX printer declares them `.align 4`.

    ```mlir
    gpu.func @k(%a: memref<64xf32>) kernel { ... memref.load %a[%i] ... }
    // becomes
    gpu.func @k(%a: memref<64xf32>) kernel {
      %aligned = memref.assume_alignment %a, 16 : memref<64xf32>
      ... memref.load %aligned[%i] ...
    }
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "bytes that every identity-layout buffer argument is aligned to "
           "(a power of two)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUDeviceMemoryPass : Pass<"mlc-gpu-device-memory", "::mlir::ModuleOp"> {
  let summary = "Place the host code's buffers in GPU memory";
  let description = [{
    After bufferization of a GPU module, the host functions (everything
    outside `gpu.launch` and `gpu.module`) only allocate buffers, take views
    of them and launch kernels; this pass makes the buffers device memory,
    as TVM's device-side allocation does:

    - `memref.alloc` / `memref.dealloc` become `gpu.alloc` / `gpu.dealloc`
      (buffers of the function's caller, the parameters, are device
      pointers already);
    - `memref.copy` becomes `gpu.memcpy` (device to device);
    - a `memref.alloca` in `#gpu.address_space<workgroup>` or `<private>`
      memory at the start of a `gpu.launch` body (what
      `convert-tensorir-to-gpu` makes of `shared`/`local` buffers) becomes
      a workgroup/private attribution of the launch; this waits until
      after buffer deallocation, which does not handle attributions;
    - a small constant (`memref.get_global` of at most
      `max-kernel-constant-bytes`, and views of it) that a kernel reads is
      moved into the kernel (run the inliner first, so that the kernels'
      functions are inlined into the host functions that pass them the
      constants), so that kernel outlining copies the `memref.global` into
      the `gpu.module`: it lives in the GPU binary and is loaded with it;
    - a larger one (a bound weight) stays on the host, and the kernels
      read its device copy, which the runtime uploads at the first call
      and keeps (as TVM and IREE keep constants as device buffers): the
      host flattens it, calls `mlc_cuda_constant_on_device_<type>` (a
      memref in, its device copy out; C interface) and passes the kernels
      the copy, reshaped. In a kernel's binary a weight costs more than its
      bytes (a fatbin holds it twice, in the cubin and as PTX text: 2.4
      times the bytes of a BERT layer's weights) and ptxas parses it as
      text. Element types other than f16, bf16, f32, f64 and i8 to i64
      stay in the kernels.

    A constant may stay on the host only to reach, through casts and
    `memref.collapse_shape` (the K x N view of an HWIO weight), those
    runtime functions, or the ones that encode its TMA tensor map
    (`mlc_cuda_tensor_map_encode_tiled_constant_*`, called by
    `mlc-gpu-tensorize-wgmma`), which read it on the host and describe the
    same device copy.

    Any other host op that reads or writes memory (it would touch device
    memory from the CPU) is an error naming the op.
  }];
  let options = [
    Option<"maxKernelConstantBytes", "max-kernel-constant-bytes", "int64_t",
           /*default=*/"4096",
           "Constants of more bytes are device copies the runtime keeps, "
           "not globals of the kernels' binaries">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def GPUEraseHostConstantsPass
    : Pass<"mlc-gpu-erase-host-constants", "::mlir::ModuleOp"> {
  let summary = "Erase the host's copies of constants that only kernels read";
  let description = [{
    `mlc-gpu-device-memory` moves the constants that kernels read into the
    kernels, and `gpu-kernel-outlining` copies their `memref.global`s into
    the `gpu.module`s: the weights then live in the GPU binary. The host's
    `memref.global`s stay behind, as `symbol-dce` counts the kernels'
    references to their own copies (same name, nested symbol table) as uses
    of the host's: a ResNet-50's 100 MB of bound weights were in its CUDA
    library twice. This pass erases each private constant `memref.global`
    or `llvm.mlir.global` of the module that no op outside the
    `gpu.module`s references. Run it after kernel outlining.

    Example:

    ```mlir
    memref.global "private" constant @w : memref<4xf32> = dense<...>
    gpu.module @k {
      memref.global "private" constant @w : memref<4xf32> = dense<...>
      gpu.func @f(...) kernel { %0 = memref.get_global @w ... }
    }
    // the first @w goes
    ```
  }];
}

def GPUAsyncCopyPipelinePass
    : Pass<"mlc-gpu-async-copy-pipeline", "::mlir::ModuleOp"> {
  let summary = "Multi-stage software pipeline of the copies into shared "
                "memory with cp.async (sm_80+), in padded buffers";
  let description = [{
    TVM's InjectSoftwarePipeline with asynchronous stages, CUTLASS's
    multistage main loop: in a loop of a `gpu.launch` that copies global
    memory into workgroup (shared) memory and computes on what it copied
    (the Matmul rules' K loop), the copies become `nvgpu.device_async_copy`
    (`cp.async`, 16, 8 or 4 bytes each: runs of element copies with
    consecutive, aligned indices), the shared buffers get `stages` copies
    (a leading dimension), and the copies of step k + stages - 1 are issued
    before the compute of step k, so that up to stages - 1 steps are in
    flight while the tensor cores work and no register holds a prefetched
    value (the register prefetch of `mlc-gpu-pipeline-shared-copies` does
    not fit beside the tensor-core rule's accumulators).

    A copy may be masked: `select(mask, load, 0)` stored, or a chain of
    such selects (pad_einsum's padded inputs, a convolution's padding,
    inlined into the copy). Elements with the same masks, each the same
    value or each `x < bound` of its own innermost index `x` loaded at
    `min(x, bound - 1)` with `bound` a multiple of the run's length (an
    aligned run is then wholly in or out), form one copy whose source size
    is 0 when a mask is false: `cp.async` fills zeros; the run's start is
    clamped so that its address stays in the buffer.

    The first stages - 1 steps' copies go before the loop, one async group
    each. Each iteration issues the copies of step k + stages - 1 into the
    buffer that step k - 1 read (predicated off past the last step:
    `cp.async` with a source size of 0, which reads nothing), commits them
    as a group, computes on step k's buffer, then waits until at most
    stages - 2 groups are pending (`cp.async.wait_group`) and synchronizes
    the block (`gpu.barrier`): step k + 1's data is in shared memory for
    every thread, and nobody still reads the buffer the next iteration
    overwrites. `mlc-gpu-thread-sync` leaves these copies to this pass.

    With `pad`, a buffer whose rows are an even number of 16-byte chunks
    gets one more chunk per row (TVM dlight's padded shared tiles): the 8
    rows that an `ldmatrix` reads then start in 8 different groups of 4
    banks, and the accesses keep their indices (the addresses of a
    thread's accesses stay a base plus constants, which the 4-byte copies
    of a permuted B tile need to stay within the register budget; an XOR
    swizzle gives each its own address). Then the other workgroup buffers
    that `ldmatrix` reads (a flash-attention kernel's Q tile, copied once
    before its loop) get the same padding where the kernel's static shared
    memory stays within 48 KiB; their accesses only index them, so only
    their type changes.

    A loop is pipelined when it computes with tensor cores
    (`nvgpu.mma.sync`: the SIMT Matmul rule's 8 x 8 register tile has no
    register to spare for the copies' addresses, and its 4 x 4 tile keeps
    the register prefetch), has constant bounds and at least two
    iterations, or a constant lower bound, step 1 and an upper bound
    computed before the loop (a causal attention's key tiles, which end
    with the query tile; every copy is then predicated on its step, the
    prologue's too), no loop-carried values, writes no global memory, its copies
    (a global `memref.load` whose only use is a `memref.store` into a
    `memref.alloca` of workgroup memory) are at the top level of its body
    with indices computed there from pure ops, and the buffers they write
    are read, and only read, in the loop and nowhere else. Otherwise the
    loop is left as it is. Fewer stages are used (at least 2) where
    `stages` copies of the buffers would not fit in the 48 KiB of static
    shared memory beside the kernel's other shared buffers (the 128 x 64
    tensor-core tile at 3 stages takes 44.5 KiB), and fewer than the loop
    has iterations. `--mlc-gpu-pipeline` runs this pass for sm_80
    and newer chips (`async-copy-stages`; 0 turns it off).

    ```mlir
    %A_s = memref.alloca() : memref<64x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      8 x { %a = memref.load %A[%i, %k * 32 + %j + q] ; memref.store %a, %A_s[%r, %j + q] }
      ... nvgpu.ldmatrix %A_s[...] ...
    }
    // becomes (stages = 3)
    %A_s = memref.alloca() : memref<3x64x40xf16, #gpu.address_space<workgroup>>
    nvgpu.device_async_copy %A[%i, %j], %A_s[%c0, %r, %j], 8 ; create_group
    nvgpu.device_async_copy %A[%i, 32 + %j], %A_s[%c1, %r, %j], 8 ; create_group
    nvgpu.device_async_wait {numGroups = 1} ; gpu.barrier
    scf.for %k = %c0 to %c8 step %c1 {
      nvgpu.device_async_copy %A[%i, (%k + 2) * 32 + %j], %A_s[(%k + 2) mod 3, %r, %j], 8, %n
      create_group
      ... nvgpu.ldmatrix %A_s[%k mod 3, ...] ...
      nvgpu.device_async_wait {numGroups = 1} ; gpu.barrier
    }
    ```
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"3",
           "copies of each shared buffer, steps in flight plus one (2 to 8)">,
    Option<"pad", "pad", "bool", /*default=*/"true",
           "pad the buffers' rows by 16 bytes against bank conflicts">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::nvgpu::NVGPUDialect"
  ];
}

def GPUPipelineSharedCopiesPass
    : Pass<"mlc-gpu-pipeline-shared-copies", "::mlir::ModuleOp"> {
  let summary = "Software-pipeline the global loads of copies into shared "
                "memory (TVM's InjectSoftwarePipeline, two stages)";
  let description = [{
    In a loop of a `gpu.launch` that copies global memory into workgroup
    (shared) memory and reads what it copied (the Matmul rule's K loop), the
    global loads of step k + 1 are issued before step k stores its values
    into shared memory and computes on them, so that their latency is hidden
    behind the compute (CUTLASS's register prefetch). The loads and the
    index computations they need are stage 0, everything else stage 1 of
    `scf::pipelineForLoop`; the first step's loads become a prologue and the
    last step's stores and compute an epilogue, and the loaded values go
    from one iteration to the next as loop-carried registers.

    A loop is pipelined when it has constant bounds and at least two
    iterations, its global loads at the top of its body feed only stores
    into shared memory, and it writes no global memory (which its loads
    could read), and when the kernel's per-thread (private) buffer elements
    plus the prefetched values fit in `register-budget`: the prefetched
    values are live across the compute, and the Matmul rule's 8 x 8
    register tile with 8 prefetched values spills at 128 registers (the 4 x
    4 tile is pipelined). Loads inside `scf.if` (predicated tails) stay
    where they are: such a loop is left alone. Runs before
    `mlc-gpu-thread-sync`, which places the barriers of the pipelined loop.

    ```mlir
    scf.for %k = %c0 to %c4 step %c1 {
      %a = memref.load %A[%i, %k] : memref<64x4xf32>
      memref.store %a, %A_shared[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      ... memref.load %A_shared[...] ...
    }
    // becomes
    %a0 = memref.load %A[%i, %c0]
    %last = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %a0) -> f32 {
      %next = memref.load %A[%i, %k + 1]
      memref.store %a, %A_shared[%t]
      ... memref.load %A_shared[...] ...
      scf.yield %next : f32
    }
    memref.store %last, %A_shared[%t]
    ... memref.load %A_shared[...] ...
    ```
  }];
  let options = [
    Option<"registerBudget", "register-budget", "int64_t", /*default=*/"64",
           "the most per-thread buffer elements plus prefetched values of a "
           "kernel whose loops are pipelined">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def GPUThreadSyncPass : Pass<"mlc-gpu-thread-sync", "::mlir::ModuleOp"> {
  let summary = "Barriers between the writes and reads of shared memory in "
                "GPU kernels (TVM's ThreadSync)";
  let description = [{
    TVM's `tir.transform.ThreadSync("shared")` on `gpu.launch` bodies after
    `convert-tensorir-to-gpu` and `convert-tensorir-to-scf`: a `gpu.barrier`
    goes before each statement that reads a
    `#gpu.address_space<workgroup>` buffer written since the last barrier
    (the writes are visible to the readers), or writes one read since the
    last barrier (the threads are done reading what it overwrites). Writes
    after writes need none, as in TVM, so the unrolled stores of a copy into
    shared memory stay together. Accesses are tracked per buffer, not per
    element. Statements are the ops of the kernel body and of the `scf.for`
    loops in it, which every thread of a block runs alike; an `scf.for`
    that both writes and reads workgroup memory is entered, its first
    iteration checked against the statements before it and each later one
    against the previous iteration. Thread-dependent code (an `scf.if` on
    the thread index) is a statement as a whole, so no barrier lands in
    divergent code.

    It runs after buffer deallocation in `--mlc-gpu-pipeline`, because the
    deallocation passes reject `gpu.barrier` (an op without declared memory
    effects).

    ```mlir
    scf.for %k = ... {
      scf.for ... { memref.store %a, %A_shared[...] }   // copy
      scf.for ... { memref.load %A_shared[...] ... }    // compute
    }
    // becomes
    scf.for %k = ... {
      gpu.barrier
      scf.for ... { memref.store %a, %A_shared[...] }
      gpu.barrier
      scf.for ... { memref.load %A_shared[...] ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // MLC_CODEGEN_GPU_PASSES_TD
