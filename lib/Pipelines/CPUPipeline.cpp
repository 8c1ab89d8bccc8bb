//===- CPUPipeline.cpp - graph-level IR to the LLVM dialect on CPU -*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"
#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Conversion/RelaxToMemRef/Passes.h"
#include "mlc/Conversion/RelaxToTensorIR/Passes.h"
#include "mlc/Conversion/RelayToRelax/Passes.h"
#include "mlc/Conversion/TensorIRToLinalg/Passes.h"
#include "mlc/Conversion/TensorIRToSCF/Passes.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

void mlc::buildGraphPreparationPipeline(OpPassManager &pm,
                                        const CPUPipelineOptions &options,
                                        bool forGPU, bool warpgroupMma) {
  pm.addPass(createRelayToRelax());
  // Before mixed precision, which then computes attention in half precision
  // as it does matmuls.
  // emulate-gpu-schedule compiles the graph as the GPU pipeline does.
  forGPU |= options.emulateGPUSchedule;
  warpgroupMma |=
      options.emulateGPUSchedule && hasWarpgroupMMA(options.emulateGPUChip);
  if (options.rewriteAttention || options.emulateGPUSchedule) {
    relax::RelaxRewriteAttentionOptions rewrite;
    if (forGPU && options.mixedPrecision.empty())
      rewrite.elementTypes = {"f16", "bf16"};
    pm.addPass(relax::createRelaxRewriteAttention(rewrite));
  }
  // Before folding, which folds the weights' permutations.
  if (!options.convLayout.empty()) {
    relax::RelaxConvertLayoutOptions convertLayout;
    convertLayout.dataLayout = options.convLayout;
    convertLayout.kernelLayout =
        options.convLayout == "NHWC" ? "HWIO" : std::string("OIHW");
    pm.addPass(relax::createRelaxConvertLayout(convertLayout));
  }
  if (!options.mixedPrecision.empty()) {
    relax::RelaxToMixedPrecisionOptions mixedPrecision;
    mixedPrecision.computeDtype = options.mixedPrecision;
    pm.addPass(relax::createRelaxToMixedPrecision(mixedPrecision));
  }
  // E.g. the transposed weight of nn.dense, computed once, not per call:
  // first on relax ops, where data movement (permute_dims) is evaluated
  // without the interpreter and its step limit, then on the kernels.
  // batch_norm as x * scale + shift, whose scale and shift of bound
  // parameters fold.
  if (options.foldConstant)
    pm.addPass(relax::createRelaxDecomposeOpsForInference());
  // 1x1 convolutions as GEMMs for the Hopper Matmul rule, their batch norms
  // and activations in the GEMMs' epilogues.
  if (warpgroupMma)
    pm.addPass(relax::createRelaxConvert1x1Conv2DToMatmul());
  if (options.foldConstant)
    pm.addPass(relax::createRelaxFoldConstant());
  // What depends on the weights alone (their layouts, casts, batch norm
  // scales) into main_transform_params, run once by the caller. As in
  // TVM's build, only on request: a relax.num_input attribute alone (from_fx
  // with keep_params_as_input) only marks the weights.
  if (options.numInput >= 0) {
    relax::RelaxLiftTransformParamsOptions lift;
    lift.numInput = options.numInput;
    pm.addPass(relax::createRelaxLiftTransformParams(lift));
  }
}

void mlc::buildGraphToKernelsPipeline(OpPassManager &pm,
                                      const CPUPipelineOptions &options,
                                      bool forGPU, bool warpgroupMma) {
  if (!options.graphPrepared)
    buildGraphPreparationPipeline(pm, options, forGPU, warpgroupMma);
  // emulate-gpu-schedule compiles the graph as the GPU pipeline does.
  forGPU |= options.emulateGPUSchedule;
  pm.addPass(createRelaxLegalizeOps());
  if (options.foldConstant) {
    pm.addPass(relax::createRelaxFoldConstant());
    // Any public function may be an entry (mlc-run --entry, mlc-compile).
    relax::RelaxDCEOptions dce;
    dce.entry = "";
    pm.addPass(relax::createRelaxDCE(dce));
  }
  if (options.fuseOptLevel > 0) {
    // TVM's fusion: pattern kinds, post-dominator groups, one kernel each.
    pm.addNestedPass<tensorir::PrimFuncOp>(
        tensorir::createTensorIRAnnotateOpPattern());
    relax::RelaxFuseOpsOptions fuseOps;
    fuseOps.fuseOptLevel = options.fuseOptLevel;
    // The GPU GEMM rules write a cast of their result (mixed precision's
    // float16 copy of a float32 output that a residual also reads) in the
    // same write-back instead of a kernel of its own.
    fuseOps.multiOutputCasts = forGPU;
    pm.addPass(relax::createRelaxFuseOps(fuseOps));
    pm.addPass(relax::createRelaxFuseTIR());
  }
  // Kernels that only reshape become views of their inputs (TVM's
  // RewriteDataflowReshape): no copy of the bytes.
  pm.addPass(relax::createRelaxRewriteDataflowReshape());
  // Scalar operands as immediates (TVM's legalization): `power(x, 3.0)`
  // becomes x * x * x, not a powf call per element.
  pm.addPass(relax::createRelaxInlineScalarConstants());
  pm.addNestedPass<tensorir::PrimFuncOp>(createSimplifyMathPass());
  // One kernel per distinct fused body, not per call site: every later
  // pass (LLVM's code generator above all) then runs once per kernel.
  pm.addPass(createDeduplicateFunctionsPass());
  // Tuned schedules, on the deduplicated kernels that tuning extracted.
  if (!forGPU && !options.tuningDatabase.empty()) {
    relax::RelaxMetaScheduleApplyDatabaseOptions apply;
    apply.workDir = options.tuningDatabase;
    apply.numCores = options.tuningNumCores;
    pm.addPass(relax::createRelaxMetaScheduleApplyDatabase(apply));
  }
}

void mlc::buildCPUBufferizationPipeline(OpPassManager &pm,
                                        const CPUPipelineOptions &options) {
  // TensorIR prim_funcs become memref-level func.funcs that bufferization
  // leaves alone; their alloc_buffers are freed by the ownership-based
  // deallocation below (which does not accept existing deallocs).
  // Plain te.compute stages become linalg.generic (kept by tensorir-to-scf)
  // so that upstream tiling and vectorization can schedule them.
  ConvertTensorIRToSCFOptions tensorIRToSCF;
  tensorIRToSCF.insertDeallocs = false;
  if (options.emulateGPUSchedule) {
    // The schedules of the chip the GPU pipeline would compile for.
    GPUPipelineOptions gpu;
    buildGPUKernelSchedulePipeline(
        pm, gpu.threadsPerBlock, hasTensorCoreMMA(options.emulateGPUChip),
        options.allowTF32, hasWarpgroupMMA(options.emulateGPUChip),
        /*emulation=*/true);
    tensorIRToSCF.serializeThreadBindings = true;
  } else if (options.defaultSchedule) {
    pm.addNestedPass<tensorir::PrimFuncOp>(createConvertTensorIRToLinalg());
  }
  pm.addPass(createConvertTensorIRToSCF(tensorIRToSCF));
  // Relax functions become memref host code calling the lowered kernels.
  pm.addPass(createConvertRelaxToMemRef());
  // Elementwise arith/math on whole tensors has no bufferization of its own.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Identity layouts at function boundaries keep the calling convention a
  // plain strided descriptor that mlc-run and C callers can build.
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));

  if (options.hoistResultAllocs) {
    bufferization::BufferResultsToOutParamsPassOptions outParams;
    outParams.hoistStaticAllocs = true;
    outParams.modifyPublicFunctions = true;
    pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  }
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferHoistingPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createCanonicalizerPass());
  // After deallocation, so that every buffer's lifetime is explicit.
  if (options.planMemory)
    pm.addNestedPass<func::FuncOp>(mlc::createPlanMemoryPass());
}

unsigned
mlc::getVectorBits(llvm::function_ref<bool(llvm::StringRef)> hasFeature) {
  if (hasFeature("avx512f"))
    return 512;
  if (hasFeature("avx"))
    return 256;
  return 128;
}

unsigned mlc::getHostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return getVectorBits(
      [&](llvm::StringRef feature) { return features.lookup(feature); });
}

mlc::RegisterTiles mlc::getDefaultRegisterTiles(unsigned vectorBits,
                                                llvm::StringRef cpu) {
  // The register tiles fill AVX-512's 32 registers; with 16 (AVX2) a
  // 6 x 64 tile is 48 accumulators and spills (under --mcpu=haswell,
  // 1 thread: 1024^3 34 -> 60-65 GFLOP/s with 6 x 16, ResNet-50 268 ->
  // 164 ms with 6 x 16 and 6-pixel convolution tiles).
  if (vectorBits < 512)
    return {/*nRegister=*/16, /*convMRegister=*/6};
  if (cpu.empty())
    cpu = llvm::sys::getHostCPUName();
  // Zen 4 executes a 512-bit FMA as two 256-bit halves, one per cycle
  // instead of two: there 6 x 32 (12 accumulators) beats 6 x 64 (1 thread,
  // in-process A/B: 2048^3 99 -> 106 GFLOP/s of a 117 GFLOP/s peak, 1024^3
  // +5 %, transformer dense layers +2-14 %, the CNNs unchanged), while
  // Sapphire Rapids and Zen 5, with two full-width FMA pipes, keep 6 x 64.
  if (cpu == "znver4")
    return {/*nRegister=*/32, /*convMRegister=*/16};
  return {/*nRegister=*/64, /*convMRegister=*/16};
}

void mlc::buildCPULowerToLLVMPipeline(OpPassManager &pm,
                                      const CPUPipelineOptions &options) {
  // Also when it runs alone (mlc-cpu-lower-to-llvm).
  pm.addPass(mlc::createRejectUnregisteredOpsPass());
  pm.addPass(mlc::createStripParameterNamesPass());
  // After bufferization, so that the raised kernels and tensor-level linalg
  // (e.g. linalg.matmul) alike are static-shaped ops on buffers.
  if (options.defaultSchedule && !options.emulateGPUSchedule) {
    DefaultSchedulePassOptions schedule;
    schedule.fuseEpilogues = options.fuseEpilogues;
    schedule.pointwiseConvAsMatmul = options.pointwiseConvAsMatmul;
    // The pass's register tiles fill AVX-512's 32 registers; with 16 (AVX2)
    // a 6 x 64 tile is 48 accumulators and spills (under --mcpu=haswell,
    // 1 thread: 1024^3 34 -> 60-65 GFLOP/s with 6 x 16, ResNet-50 268 ->
    // 164 ms with 6 x 16 and 6-pixel convolution tiles).
    unsigned vectorBits = options.targetVectorBits;
    if (vectorBits == 0)
      vectorBits = getHostVectorBits();
    RegisterTiles tiles =
        getDefaultRegisterTiles(vectorBits, options.targetCPU);
    schedule.nRegister = tiles.nRegister;
    schedule.convMRegister = tiles.convMRegister;
    // Bound weights that the schedule reads as packed panels are stored
    // packed (TVM's AlterOpLayout), not packed at every call.
    if (options.prepackConstants) {
      pm.addPass(mlc::createCPUMarkConstantArgumentsPass());
      // Off unless asked for: its rounding differs from the direct sum.
      mlc::CPUWinogradConvolutionPassOptions winograd;
      winograd.outputTile = options.winogradTile;
      pm.addPass(mlc::createCPUWinogradConvolutionPass(winograd));
    }
    if (options.splitPaddedWindows)
      pm.addNestedPass<func::FuncOp>(mlc::createCPUSplitPaddedWindowsPass());
    pm.addNestedPass<func::FuncOp>(mlc::createDefaultSchedulePass(schedule));
    if (options.prepackConstants)
      pm.addPass(mlc::createCPUPrepackConstantsPass());
  }
  // f16/bf16 math (mixed precision's GELU erf) in f32: upstream's erf
  // approximation would otherwise emit f16 FMAs, which x86 without
  // AVX512-FP16 lowers to libgcc calls (__truncdfhf2) per element.
  pm.addNestedPass<func::FuncOp>(math::createMathExtendToSupportedTypes());
  if (options.approximateMath)
    pm.addNestedPass<func::FuncOp>(mlc::createApproximateMathPass());
  if (options.openMP)
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  else
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Unrolled: the scheduled kernels' n-D register tiles stay in registers
  // instead of going through a stack buffer.
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  if (options.openMP) {
    pm.addPass(createConvertSCFToOpenMPPass());
    // Inlines the memref.alloca_scope around each loop body that holds no
    // alloca; the others are lowered with the memrefs, before SCF becomes
    // the multi-block CFG their single-block region cannot hold.
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  // The subviews of tiled kernels leave affine.apply offsets behind.
  pm.addPass(createLowerAffinePass());
  // Vector transfers are not handled by --convert-to-llvm alone.
  pm.addPass(createConvertVectorToLLVMPass());
  // Integer powers (math.ipowi, from relax.power on integers) have no LLVM
  // intrinsic: they become calls of generated functions.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (erf, tanh, ...) becomes a libm call.
  pm.addPass(createConvertMathToLibmPass());
  // Heap buffers through _mlir_memref_to_llvm_alloc/free, which
  // mlc-heap-buffer-cache defines below: large freed buffers are kept for
  // the next call instead of going back to malloc.
  {
    FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
    memrefOptions.useGenericFunctions = options.heapBufferCache;
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  // Hand-scheduled vectorized/unrolled loops become !llvm.loop metadata.
  pm.addPass(mlc::createForwardLoopAnnotationsPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(mlc::createHeapBufferCachePass());
  // Bound weights as byte arrays: LLVM handles them in one piece.
  pm.addPass(mlc::createPackConstantGlobalsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlc::buildCPUPipeline(OpPassManager &pm,
                           const CPUPipelineOptions &options) {
  // An op of an unregistered dialect can never reach LLVM: an error first.
  pm.addPass(mlc::createRejectUnregisteredOpsPass());
  buildGraphToKernelsPipeline(pm, options);
  buildCPUBufferizationPipeline(pm, options);
  buildCPULowerToLLVMPipeline(pm, options);
}

void mlc::buildTensorIRDefaultSchedulePipeline(
    OpPassManager &pm, const TensorIRDefaultScheduleOptions &options) {
  OpPassManager &primFuncs = pm.nest<tensorir::PrimFuncOp>();
  StringRef target = options.target;
  if (target == "cuda" || target.starts_with("cuda:")) {
    // The chip of cuda:<chip>, else the GPU pipeline's default (sm_90:
    // tensor cores).
    std::string chip = target.consume_front("cuda:")
                           ? target.str()
                           : GPUPipelineOptions().chip.getValue();
    GPUDefaultSchedulePassOptions schedule;
    schedule.tensorCores = hasTensorCoreMMA(chip);
    schedule.warpgroupMma = hasWarpgroupMMA(chip);
    schedule.allowTF32 = options.allowTF32;
    primFuncs.addPass(createGPUDefaultSchedulePass(schedule));
    return;
  }
  primFuncs.addPass(createConvertTensorIRToLinalg());
  DefaultSchedulePassOptions schedule;
  schedule.target = options.target;
  primFuncs.addPass(createDefaultSchedulePass(schedule));
}

std::string mlc::validateCPUPipelineOptions(const CPUPipelineOptions &options) {
  if (!options.tuningDatabase.empty() && options.emulateGPUSchedule)
    return "tuning-db holds CPU schedules; it cannot be combined with "
           "emulate-gpu-schedule";
  if (!options.tuningDatabase.empty() && !options.defaultSchedule)
    return "tuning-db needs default-schedule=true (tuned records set the "
           "default schedule's knobs)";
  if (options.tuningNumCores < 0)
    return "tuning-num-cores must not be negative, got " +
           std::to_string(options.tuningNumCores);
  if (getMinimumPTXVersion(options.emulateGPUChip) == 0)
    return "unknown GPU chip '" + options.emulateGPUChip +
           "' for emulate-gpu-chip (expected sm_50 ... sm_121a, e.g. sm_90a)";
  return "";
}

/// Registers pipeline `name`, whose options `validate` checks (an error
/// message, empty when valid) before `build` runs.
template <typename Options>
static void registerValidatedPipeline(StringRef name, StringRef description,
                                      std::string (*validate)(const Options &),
                                      void (*build)(OpPassManager &,
                                                    const Options &)) {
  registerPassPipeline(
      name, description,
      [=](OpPassManager &pm, StringRef optionsText,
          function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        std::string error = validate(options);
        if (!error.empty())
          return errorHandler(error);
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(Options());
      });
}

void mlc::registerPipelines() {
  registerValidatedPipeline<GPUPipelineOptions>(
      "mlc-gpu-pipeline",
      "Compile a graph-level or TensorIR module for NVIDIA GPUs: kernels "
      "through NVVM to a GPU binary, host code to the LLVM dialect",
      validateGPUPipelineOptions, buildGPUPipeline);
  PassPipelineRegistration<TensorIRDefaultScheduleOptions>(
      "tensorir-default-schedule",
      "TVM's default schedule of the prim_funcs of a TensorIR module: raise "
      "te.compute stages to linalg, tile, pack, vectorize, parallelize",
      buildTensorIRDefaultSchedulePipeline);
  registerValidatedPipeline<CPUPipelineOptions>(
      "mlc-graph-to-kernels",
      "The CPU pipeline's graph part: relay/relax to relax calling fused, "
      "deduplicated tensorir kernels (what mlc-tune tunes)",
      validateCPUPipelineOptions,
      +[](OpPassManager &pm, const CPUPipelineOptions &options) {
        buildGraphToKernelsPipeline(pm, options, /*forGPU=*/false);
      });
  registerValidatedPipeline<CPUPipelineOptions>(
      "mlc-cpu-pipeline",
      "Compile a graph-level module to the LLVM dialect for the host CPU",
      validateCPUPipelineOptions, buildCPUPipeline);
  PassPipelineRegistration<CPUPipelineOptions>(
      "mlc-cpu-bufferize",
      "Bufferize a tensor-level module with destination-passing entry points",
      buildCPUBufferizationPipeline);
  PassPipelineRegistration<CPUPipelineOptions>(
      "mlc-cpu-lower-to-llvm",
      "Lower a bufferized loop-level module to the LLVM dialect",
      buildCPULowerToLLVMPipeline);
}
