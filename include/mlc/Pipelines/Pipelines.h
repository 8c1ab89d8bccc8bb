//===- Pipelines.h - mlc's named pass pipelines ----------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Named pipelines that chain mlc's and upstream's passes from a graph-level
// module down to the LLVM dialect. Each stage is exposed separately so that
// tools (mlc-run) and embedders can stop or start in the middle.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_PIPELINES_PIPELINES_H
#define MLC_PIPELINES_PIPELINES_H

#include "mlir/IR/Operation.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlc {

/// The CPU and GPU pipelines' num-input option.
inline constexpr const char kNumInputDescription[] =
    "Inputs of @main (TVM's num_input); the parameters after them are "
    "weights, whose transforms (layout, casts, batch norm scales) move into "
    "@main_transform_params, run once by the caller "
    "(relax-lift-transform-params; -1: no lifting)";

struct CPUPipelineOptions
    : public mlir::PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> hoistResultAllocs{
      *this, "hoist-result-allocs",
      llvm::cl::desc("Turn the public functions' tensor results into "
                     "caller-allocated out-parameters (destination passing)"),
      llvm::cl::init(true)};
  PassOptions::Option<int> fuseOptLevel{
      *this, "fuse-opt-level",
      llvm::cl::desc("Operator fusion of relax kernels (relax-fuse-ops "
                     "fuse-opt-level; 0 turns fusion off)"),
      llvm::cl::init(2)};
  PassOptions::Option<bool> foldConstant{
      *this, "fold-constant",
      llvm::cl::desc("After legalization, evaluate the kernels whose inputs "
                     "are all constants (bound parameters) at compile time "
                     "and drop what becomes dead (relax-fold-constant, "
                     "relax-dce), as TVM's default relax pipeline does"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> mixedPrecision{
      *this, "mixed-precision",
      llvm::cl::desc("Compute matmuls and convolutions in float16 or "
                     "bfloat16 with float32 accumulation, and the ops around "
                     "them where that is safe (relax-to-mixed-precision "
                     "compute-dtype; empty: keep the model's types)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> numInput{*this, "num-input",
                                        llvm::cl::desc(kNumInputDescription),
                                        llvm::cl::init(-1)};
  /// Set by the caller that ran buildGraphPreparationPipeline already (not
  /// an option of the textual pipeline).
  bool graphPrepared = false;
  PassOptions::Option<std::string> convLayout{
      *this, "conv-layout",
      llvm::cl::desc("Run the 2-d convolutions, and the ops between them, in "
                     "this data layout (relax-convert-layout data-layout; "
                     "NHWC takes HWIO weights, whose channels-last schedule "
                     "is the fastest; empty: keep the model's; under "
                     "emulate-gpu-schedule as for the GPU)"),
      llvm::cl::init("NHWC")};
  PassOptions::Option<bool> rewriteAttention{
      *this, "rewrite-attention",
      llvm::cl::desc("Replace the models' softmax(Q K^T * scale + bias) V "
                     "chains by relax.nn.attention (relax-rewrite-attention; "
                     "on for the GPU and under emulate-gpu-schedule, where "
                     "it becomes one flash-attention kernel)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Share one arena between the buffers of a block whose "
                     "lifetimes do not overlap (mlc-plan-memory)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> defaultSchedule{
      *this, "default-schedule",
      llvm::cl::desc("Raise te.compute-shaped tensorir stages to linalg "
                     "(convert-tensorir-to-linalg) and give them the default "
                     "CPU schedule: tiling, vectorization, parallel outer "
                     "loops (mlc-default-schedule)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseEpilogues{
      *this, "fuse-epilogues",
      llvm::cl::desc("Compute the zero fill and the elementwise epilogue "
                     "(bias, activation, residual) of a fused kernel's "
                     "contraction or convolution on its register tiles "
                     "(mlc-default-schedule's fuse-epilogues)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> targetVectorBits{
      *this, "target-vector-bits",
      llvm::cl::desc(
          "Width of the target's widest vector registers in bits, which "
          "sets the default schedule's register tiles: 512 (AVX-512, 32 "
          "registers): 6 x 64 contraction and 16-pixel convolution tiles "
          "(24 and 16 accumulators); less (AVX2, 16 registers): 6 x 16 and "
          "6 pixels (12 accumulators); 0: the host's (with mlc-compile "
          "--mcpu, that CPU's)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> targetCPU{
      *this, "target-cpu",
      llvm::cl::desc(
          "LLVM's name of the target CPU (e.g. znver4), which refines the "
          "register tiles that target-vector-bits sets: Zen 4 (znver4), "
          "whose 512-bit FMAs run as two 256-bit halves, gets 6 x 32 "
          "contraction tiles; empty: the host's (with mlc-compile --mcpu, "
          "that CPU)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> prepackConstants{
      *this, "prepack-constants",
      llvm::cl::desc("Store the bound weights that contractions read as "
                     "packed rhs panels in that order at compile time, "
                     "instead of packing them at every call "
                     "(mlc-cpu-mark-constant-arguments, "
                     "mlc-cpu-prepack-constants)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> winogradTile{
      *this, "winograd-tile",
      llvm::cl::desc("Compute the 3x3 stride-1 convolutions with bound "
                     "weights as Winograd F(m x m, 3 x 3) with this output "
                     "tile m (2 or 4; mlc-cpu-winograd-convolution) in "
                     "kernels without a tuning record's "
                     "mlc.schedule.winograd_tile; 0: direct (needs "
                     "prepack-constants)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> splitPaddedWindows{
      *this, "split-padded-windows",
      llvm::cl::desc("Let padded depthwise convolutions and poolings read "
                     "the image itself where their windows lie inside it, "
                     "instead of a padded copy of the whole image "
                     "(mlc-cpu-split-padded-windows)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> heapBufferCache{
      *this, "heap-buffer-cache",
      llvm::cl::desc("Keep large freed heap buffers for the next "
                     "allocations instead of returning them to malloc "
                     "(finalize-memref-to-llvm's generic functions, defined "
                     "by mlc-heap-buffer-cache)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> pointwiseConvAsMatmul{
      *this, "pointwise-conv-as-matmul",
      llvm::cl::desc("Schedule 1x1 stride-1 convolutions as contractions "
                     "over the image's rows and columns as one dimension "
                     "(mlc-default-schedule's pointwise-conv-as-matmul)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Compute f32 exp and log functions by upstream's "
                     "polynomial approximations instead of libm calls, so "
                     "that they stay vectorized (mlc-approximate-math)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> openMP{
      *this, "openmp",
      llvm::cl::desc("Run scf.parallel loops (tensorir `parallel` loops, "
                     "linalg's parallel dimensions) on OpenMP threads; the "
                     "compiled code then needs libomp at run time"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> emulateGPUSchedule{
      *this, "emulate-gpu-schedule",
      llvm::cl::desc("Schedule the kernels as for CUDA (mlc-gpu-default-"
                     "schedule, tensorir-compact-buffer-allocation) and run "
                     "the thread-bound loops one after another on the host "
                     "(convert-tensorir-to-scf serialize-thread-bindings): "
                     "checks the GPU schedules' numerics without a GPU; "
                     "replaces the CPU schedule"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> emulateGPUChip{
      *this, "emulate-gpu-chip",
      llvm::cl::desc("The chip whose schedules emulate-gpu-schedule runs "
                     "(sm_90a: the Hopper Matmul rule's)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<bool> allowTF32{
      *this, "allow-tf32",
      llvm::cl::desc("With emulate-gpu-schedule: schedule float32 matmuls "
                     "with the tf32 tensor-core rule, as the GPU pipeline's "
                     "allow-tf32 does (on the host they still compute in "
                     "float32)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> tuningDatabase{
      *this, "tuning-db",
      llvm::cl::desc("Schedule each kernel by its best record in this "
                     "tuning database (mlc-tune's work dir; "
                     "relax-meta-schedule-apply-database); kernels without "
                     "a record keep the default schedule"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> tuningNumCores{
      *this, "tuning-num-cores",
      llvm::cl::desc("With tuning-db: prefer records measured with this "
                     "many cores (0: the fastest record of any core count)"),
      llvm::cl::init(0)};
};

/// Schedules every prim_func for CUDA: mlc-gpu-default-schedule, then
/// tensorir-compact-buffer-allocation (shared/local buffers shrink to a
/// block's / thread's part). `tensorCores` enables the tensor-core Matmul
/// rule (sm_80 and newer), `allowTF32` its tf32 form for float32 inputs,
/// `warpgroupMma` the Hopper Matmul rule (sm_90a).
/// Shared by the GPU pipeline and the CPU pipeline's emulate-gpu-schedule,
/// which passes `emulation`: it runs the threads one after another, so a
/// local buffer that several thread nests share keeps every thread's part.
void buildGPUKernelSchedulePipeline(mlir::OpPassManager &pm,
                                    int64_t threadsPerBlock, bool tensorCores,
                                    bool allowTF32 = false,
                                    bool warpgroupMma = false,
                                    bool emulation = false);

/// Whether `chip` (sm_XX[a]) has the mma.sync.m16n8k16 tensor-core
/// instructions (sm_80 and newer).
bool hasTensorCoreMMA(llvm::StringRef chip);

/// Whether `chip` has TMA and the warpgroup MMA (wgmma) instructions:
/// sm_90a (the architecture-specific features PTX only offers there).
bool hasWarpgroupMMA(llvm::StringRef chip);

/// Lowers graph-level IR to kernels: relay to relax (relay-to-relax), then
/// every high-level relax op to a tensorir kernel called through
/// relax.call_tir (relax-legalize-ops); with `fold-constant`, kernels of
/// constants only are evaluated (relax-fold-constant, relax-dce); with
/// `fuse-opt-level` > 0, kernels are fused (tensorir-annotate-op-pattern,
/// relax-fuse-ops, relax-fuse-tir). With `rewrite-attention` or
/// `emulate-gpu-schedule`, attention chains become relax.nn.attention
/// first; `forGPU` (the GPU pipeline, and emulate-gpu-schedule) limits that to
/// the chains that become the tensor-core attention kernel: float16/bfloat16
/// ones, and float32 ones under mixed precision. `warpgroupMma` (the GPU
/// pipeline for sm_90a, and emulate-gpu-chip=sm_90a) rewrites 1x1 NHWC
/// convolutions as matmuls for the Hopper Matmul rule. Modules without relay
/// or relax pass through unchanged.
/// The graph preparation (relay-to-relax to relax-lift-transform-params)
/// runs first unless `options.graphPrepared`.
void buildGraphToKernelsPipeline(mlir::OpPassManager &pm,
                                 const CPUPipelineOptions &options,
                                 bool forGPU = false,
                                 bool warpgroupMma = false);

/// The graph-level part of buildGraphToKernelsPipeline, before legalization:
/// relay-to-relax, the attention rewrite, layouts, mixed precision, the
/// batch norm decomposition, constant folding on relax ops and
/// relax-lift-transform-params. After it the public functions have the
/// parameters and names the compiled library exports (lifting changes
/// them), so mlc-compile runs it first when the options lift (num-input)
/// and then the pipeline with `graphPrepared`.
void buildGraphPreparationPipeline(mlir::OpPassManager &pm,
                                   const CPUPipelineOptions &options,
                                   bool forGPU = false,
                                   bool warpgroupMma = false);

/// Bufferizes a tensor-level module (linalg/tensor/arith/math on tensors):
/// one-shot bufferization across function boundaries with identity layouts,
/// results turned into out-parameters, and ownership-based deallocation so
/// that repeated calls do not leak; then, with `plan-memory`, the buffers
/// freed in their own block share one arena per block.
void buildCPUBufferizationPipeline(mlir::OpPassManager &pm,
                                   const CPUPipelineOptions &options);

/// Lowers a bufferized module (linalg/scf/affine/vector/memref/arith/math on
/// memrefs) to the LLVM dialect. With `openmp`, linalg ops become parallel
/// loops and every outermost scf.parallel an `omp.parallel` worksharing loop
/// (LLVM IR translation turns it into `__kmpc_fork_call`).
void buildCPULowerToLLVMPipeline(mlir::OpPassManager &pm,
                                 const CPUPipelineOptions &options);

/// Checks `options` (the emulated GPU chip); the error message, or an empty
/// string when they are valid.
std::string validateCPUPipelineOptions(const CPUPipelineOptions &options);

/// The whole CPU pipeline (`--mlc-cpu-pipeline`): graph-level module in,
/// LLVM dialect out.
/// The width in bits of the widest vector registers of a CPU with the
/// features that `hasFeature` reports (LLVM's names, e.g. "avx512f"): 512
/// with AVX-512, 256 with AVX, else 128. The CPU pipeline's
/// target-vector-bits.
unsigned getVectorBits(llvm::function_ref<bool(llvm::StringRef)> hasFeature);

/// getVectorBits of the host: the default of target-vector-bits.
unsigned getHostVectorBits();

/// The default schedule's register tiles for a CPU: the columns of a
/// contraction's tile (mlc-default-schedule's n-register; 6 rows) and the
/// pixels of a convolution's (conv-m-register).
struct RegisterTiles {
  int64_t nRegister;
  int64_t convMRegister;
};

/// The register tiles for a CPU whose widest vector registers have
/// `vectorBits` bits (getVectorBits) and whose LLVM name is `cpu` (empty:
/// the host's): what the CPU pipeline gives mlc-default-schedule, and the
/// default point of mlc.meta_schedule's knob space.
RegisterTiles getDefaultRegisterTiles(unsigned vectorBits,
                                      llvm::StringRef cpu = "");

void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options);

/// Options of `--mlc-gpu-pipeline` (NVIDIA GPUs through NVVM).
struct GPUPipelineOptions
    : public mlir::PassPipelineOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The GPU architecture, sm_XX[a] (H100: sm_90)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version as an LLVM feature, +ptxNN (empty: the "
                     "lowest version the chip supports)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the GPU modules become: `fatbin` or `bin` (cubin; "
                     "both need ptxas from the CUDA toolkit), `isa` (PTX, "
                     "compiled by the driver when it is loaded), `llvm`"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory for ptxas (default: the one "
                     "found at build time, else CUDA_HOME or PATH)"),
      llvm::cl::init("")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the device code"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Threads per block of the default schedule's fallback "
                     "rule"),
      llvm::cl::init(256)};
  PassOptions::Option<int> fuseOptLevel{
      *this, "fuse-opt-level",
      llvm::cl::desc("Operator fusion of relax kernels (0 turns it off)"),
      llvm::cl::init(2)};
  PassOptions::Option<bool> foldConstant{
      *this, "fold-constant",
      llvm::cl::desc("Evaluate the kernels of constants at compile time"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> convLayout{
      *this, "conv-layout",
      llvm::cl::desc("Run the 2-d convolutions, and the ops between them, in "
                     "this data layout (relax-convert-layout data-layout; "
                     "NHWC takes HWIO weights: the implicit GEMMs' im2col "
                     "rows run along the channels and are read 16 bytes at a "
                     "time instead of one element per channel plane; empty: "
                     "keep the model's)"),
      llvm::cl::init("NHWC")};
  PassOptions::Option<int64_t> asyncCopyStages{
      *this, "async-copy-stages",
      llvm::cl::desc("Stages of the cp.async pipeline of the copies into "
                     "shared memory on sm_80 and newer "
                     "(mlc-gpu-async-copy-pipeline; 0: off, 2 to 8)"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> maxKernelConstantBytes{
      *this, "max-kernel-constant-bytes",
      llvm::cl::desc("Constants of more bytes (bound weights) stay out of "
                     "the kernels' binaries: kernels read device copies "
                     "that the runtime uploads at the first call and keeps "
                     "(mlc-gpu-device-memory)"),
      llvm::cl::init(4096)};
  PassOptions::Option<bool> allowTF32{
      *this, "allow-tf32",
      llvm::cl::desc("float32 matmuls on tensor cores in tf32 on sm_80 and "
                     "newer (mma.sync.m16n8k8: 10 mantissa bits per "
                     "product, as cuBLAS's TF32 mode; off: exact float32)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> mixedPrecision{
      *this, "mixed-precision",
      llvm::cl::desc("float16 or bfloat16 compute with float32 accumulation "
                     "(relax-to-mixed-precision; also for a float16 model, "
                     "whose GEMMs then take the tensor cores; empty: off)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> numInput{*this, "num-input",
                                        llvm::cl::desc(kNumInputDescription),
                                        llvm::cl::init(-1)};
  /// Set by the caller that ran buildGraphPreparationPipeline already (not
  /// an option of the textual pipeline).
  bool graphPrepared = false;
  PassOptions::Option<bool> rewriteAttention{
      *this, "rewrite-attention",
      llvm::cl::desc("Replace the models' softmax(Q K^T * scale + bias) V "
                     "chains by relax.nn.attention, one flash-attention "
                     "kernel each (relax-rewrite-attention)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Share one device arena between the buffers of a block "
                     "whose lifetimes do not overlap"),
      llvm::cl::init(true)};
};

/// Checks the chip and PTX version of `options` against each other and
/// against what LLVM's NVPTX back end knows (an unknown pair is a fatal
/// error inside LLVM), and the format. Returns the error message, or an
/// empty string when they are valid.
std::string validateGPUPipelineOptions(const GPUPipelineOptions &options);

/// The lowest PTX ISA version (e.g. 78 for 7.8) that mlc's kernels for
/// `chip` need (the chip's first ISA in LLVM, and at least 6.0 for the
/// warp-synchronous instructions), or 0 for a chip LLVM does not know.
unsigned getMinimumPTXVersion(llvm::StringRef chip);

/// The whole GPU pipeline (`--mlc-gpu-pipeline`): graph-level or TensorIR
/// module in; the LLVM dialect out, host code calling the CUDA runtime's
/// `mgpu*` functions and the kernels in a `gpu.binary`. Call
/// validateGPUPipelineOptions first.
void buildGPUPipeline(mlir::OpPassManager &pm,
                      const GPUPipelineOptions &options);

/// The GPU pipeline's graph preparation (see the CPU overload).
void buildGraphPreparationPipeline(mlir::OpPassManager &pm,
                                   const GPUPipelineOptions &options);

/// What a tool's `--target=cpu|cuda[:sm_XX]` names (mlc-compile, mlc-run):
/// the host CPU (the CPU pipeline), or NVIDIA GPUs (the GPU pipeline).
struct CompilationTarget {
  enum class Kind { CPU, CUDA };
  Kind kind = Kind::CPU;
  /// The chip of `cuda:sm_XX`; empty when the target names none, and the
  /// GPU pipeline's `chip` option decides.
  std::string chip;

  bool isCUDA() const { return kind == Kind::CUDA; }
};

/// Parses a `--target` value: `cpu`, `cuda`, or `cuda:<chip>` with a chip
/// LLVM's NVPTX back end knows (see getMinimumPTXVersion). Returns the error
/// message, or an empty string when `value` is valid.
std::string parseCompilationTarget(llvm::StringRef value,
                                   CompilationTarget &target);

/// Checks that `root` holds only types that code generation can handle,
/// before a pipeline hands it to LLVM: no zero-width integers (`i0`, alone
/// or as elements), which LLVM's optimizer crashes on. Emits an error at the
/// first op that uses one.
mlir::LogicalResult verifyCompilableTypes(mlir::Operation *root);

/// Options of `tensorir-default-schedule`.
struct TensorIRDefaultScheduleOptions
    : public mlir::PassPipelineOptions<TensorIRDefaultScheduleOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The target of the schedule: `cpu`, or `cuda` (TVM "
                     "dlight's GPU rules for the GPU pipeline's default "
                     "chip, sm_90: tensor cores for f16/bf16 matmuls), or "
                     "`cuda:<chip>` (sm_90a: the Hopper Matmul rule too)"),
      llvm::cl::init("cpu")};
  PassOptions::Option<bool> allowTF32{
      *this, "allow-tf32",
      llvm::cl::desc("With target=cuda: float32 matmuls on tensor cores in "
                     "tf32 (mlc-gpu-default-schedule allow-tf32)"),
      llvm::cl::init(false)};
};

/// TVM's default schedule of a TensorIR module (the design's
/// `tensorir-default-schedule{target=cpu}`): on every `tensorir.prim_func`,
/// raises the te.compute stages to linalg (convert-tensorir-to-linalg) and
/// tiles, packs, vectorizes and parallelizes them (mlc-default-schedule).
/// --mlc-cpu-pipeline runs the same two passes, the second after
/// bufferization so that tensor-level linalg is scheduled too.
void buildTensorIRDefaultSchedulePipeline(
    mlir::OpPassManager &pm, const TensorIRDefaultScheduleOptions &options);

/// Registers the named pipelines with the global pass registry.
void registerPipelines();

} // namespace mlc

#endif // MLC_PIPELINES_PIPELINES_H
