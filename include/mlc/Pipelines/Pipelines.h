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

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlc {

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
};

/// Lowers graph-level IR to kernels: relay to relax (relay-to-relax), then
/// every high-level relax op to a tensorir kernel called through
/// relax.call_tir (relax-legalize-ops); with `fold-constant`, kernels of
/// constants only are evaluated (relax-fold-constant, relax-dce); with
/// `fuse-opt-level` > 0, kernels are fused (tensorir-annotate-op-pattern,
/// relax-fuse-ops, relax-fuse-tir). Modules without relay or relax pass
/// through unchanged.
void buildGraphToKernelsPipeline(mlir::OpPassManager &pm,
                                 const CPUPipelineOptions &options);

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

/// The whole CPU pipeline (`--mlc-cpu-pipeline`): graph-level module in,
/// LLVM dialect out.
void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options);

/// Registers the named pipelines with the global pass registry.
/// Options of `tensorir-default-schedule`.
struct TensorIRDefaultScheduleOptions
    : public mlir::PassPipelineOptions<TensorIRDefaultScheduleOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The target of the schedule (only `cpu`)"),
      llvm::cl::init("cpu")};
};

/// TVM's default schedule of a TensorIR module (the design's
/// `tensorir-default-schedule{target=cpu}`): on every `tensorir.prim_func`,
/// raises the te.compute stages to linalg (convert-tensorir-to-linalg) and
/// tiles, packs, vectorizes and parallelizes them (mlc-default-schedule).
/// --mlc-cpu-pipeline runs the same two passes, the second after
/// bufferization so that tensor-level linalg is scheduled too.
void buildTensorIRDefaultSchedulePipeline(
    mlir::OpPassManager &pm, const TensorIRDefaultScheduleOptions &options);

void registerPipelines();

} // namespace mlc

#endif // MLC_PIPELINES_PIPELINES_H
