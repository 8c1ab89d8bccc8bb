//===- GPUPipeline.cpp - graph-level IR to NVVM kernels and host code -----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Conversion/RelaxToMemRef/Passes.h"
#include "mlc/Conversion/TensorIRToGPU/Passes.h"
#include "mlc/Conversion/TensorIRToSCF/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace mlir;

#ifndef MLC_CUDA_TOOLKIT_DIR
#define MLC_CUDA_TOOLKIT_DIR ""
#endif

unsigned mlc::getMinimumPTXVersion(StringRef chip) {
  // LLVM 22's NVPTX back end: the PTX ISA each chip first appeared in.
  unsigned first = llvm::StringSwitch<unsigned>(chip)
                       .Case("sm_50", 40)
                       .Case("sm_52", 41)
                       .Case("sm_53", 42)
                       .Cases({"sm_60", "sm_61", "sm_62"}, 50)
                       .Case("sm_70", 60)
                       .Case("sm_72", 61)
                       .Case("sm_75", 63)
                       .Case("sm_80", 70)
                       .Case("sm_86", 71)
                       .Case("sm_87", 74)
                       .Cases({"sm_89", "sm_90"}, 78)
                       .Case("sm_90a", 80)
                       .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
                       .Cases({"sm_120", "sm_120a"}, 87)
                       .Cases({"sm_103", "sm_103a", "sm_121", "sm_121a"}, 88)
                       .Default(0);
  // mlc's kernels use warp-synchronous instructions (shfl.sync for
  // cross-thread reductions) that PTX ISA 6.0 introduced; LLVM cannot select
  // them for an older ISA.
  constexpr unsigned kKernelMinimum = 60;
  return first == 0 ? 0 : std::max(first, kKernelMinimum);
}

/// The PTX ISA versions LLVM 22 can emit.
static bool isKnownPTXVersion(unsigned version) {
  static constexpr unsigned kVersions[] = {
      32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73,
      74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};
  return llvm::is_contained(kVersions, version);
}

/// `features` with the chip's minimum PTX version when it names none.
static std::string getFeatures(const mlc::GPUPipelineOptions &options) {
  if (!options.features.empty())
    return options.features;
  return "+ptx" + std::to_string(mlc::getMinimumPTXVersion(options.chip));
}

std::string mlc::validateGPUPipelineOptions(const GPUPipelineOptions &options) {
  unsigned minimum = getMinimumPTXVersion(options.chip);
  if (minimum == 0)
    return "unknown GPU chip '" + options.chip +
           "' (expected sm_50 ... sm_121a, e.g. sm_90 for H100)";
  StringRef features = options.features;
  if (!features.empty()) {
    unsigned version = 0;
    if (!features.consume_front("+ptx") || features.getAsInteger(10, version) ||
        !isKnownPTXVersion(version))
      return "invalid PTX feature '" + options.features +
             "' (expected +ptxNN with a PTX ISA version LLVM knows, 32 ... "
             "90, e.g. +ptx80)";
    if (version < minimum)
      return "PTX ISA " + std::to_string(version / 10) + "." +
             std::to_string(version % 10) + " (" + options.features +
             ") is too old for mlc's kernels on " + options.chip +
             ": they need +ptx" + std::to_string(minimum) + " or later";
  }
  if (!llvm::is_contained({"fatbin", "bin", "isa", "llvm"},
                          StringRef(options.format)))
    return "unknown GPU binary format '" + options.format +
           "' (expected fatbin, bin, isa or llvm)";
  if (options.asyncCopyStages != 0 &&
      (options.asyncCopyStages < 2 || options.asyncCopyStages > 8))
    return "async-copy-stages must be 0 or in [2, 8], got " +
           std::to_string(options.asyncCopyStages);
  if (options.maxKernelConstantBytes < 0)
    return "max-kernel-constant-bytes must not be negative, got " +
           std::to_string(options.maxKernelConstantBytes);
  if (options.threadsPerBlock < 1 || options.threadsPerBlock > 1024)
    return "threads-per-block must be in [1, 1024], got " +
           std::to_string(options.threadsPerBlock);
  return "";
}

bool mlc::hasTensorCoreMMA(StringRef chip) {
  unsigned version = 0;
  if (!chip.consume_front("sm_"))
    return false;
  chip.consume_back("a");
  chip.consume_back("f");
  return !chip.getAsInteger(10, version) && version >= 80;
}

bool mlc::hasWarpgroupMMA(StringRef chip) { return chip == "sm_90a"; }

void mlc::buildGPUKernelSchedulePipeline(OpPassManager &pm,
                                         int64_t threadsPerBlock,
                                         bool tensorCores, bool allowTF32,
                                         bool warpgroupMma, bool emulation) {
  if (warpgroupMma)
    pm.addPass(createGPUMarkConstantArgumentsPass());
  OpPassManager &primFuncs = pm.nest<tensorir::PrimFuncOp>();
  GPUDefaultSchedulePassOptions schedule;
  schedule.threadsPerBlock = threadsPerBlock;
  schedule.tensorCores = tensorCores;
  schedule.allowTF32 = allowTF32;
  schedule.warpgroupMma = warpgroupMma;
  primFuncs.addPass(createGPUDefaultSchedulePass(schedule));
  tensorir::TensorIRCompactBufferAllocationOptions compaction;
  compaction.threadPrivateLocals = !emulation;
  primFuncs.addPass(
      tensorir::createTensorIRCompactBufferAllocation(compaction));
}

/// The graph-level options of the GPU pipeline's `options`.
static void copyGraphOptions(const mlc::GPUPipelineOptions &options,
                             mlc::CPUPipelineOptions &graph) {
  graph.fuseOptLevel = options.fuseOptLevel;
  graph.foldConstant = options.foldConstant;
  graph.mixedPrecision = options.mixedPrecision;
  graph.numInput = options.numInput;
  graph.rewriteAttention = options.rewriteAttention;
  graph.convLayout = options.convLayout;
  graph.graphPrepared = options.graphPrepared;
}

void mlc::buildGraphPreparationPipeline(OpPassManager &pm,
                                        const GPUPipelineOptions &options) {
  mlc::CPUPipelineOptions graph;
  copyGraphOptions(options, graph);
  buildGraphPreparationPipeline(pm, graph, /*forGPU=*/true,
                                hasWarpgroupMMA(options.chip));
}

void mlc::buildGPUPipeline(OpPassManager &pm,
                           const GPUPipelineOptions &options) {
  // An op of an unregistered dialect can never reach LLVM: an error first.
  pm.addPass(mlc::createRejectUnregisteredOpsPass());
  // Graph level: the same kernels as on the CPU.
  mlc::CPUPipelineOptions graph;
  copyGraphOptions(options, graph);
  buildGraphToKernelsPipeline(pm, graph, /*forGPU=*/true,
                              hasWarpgroupMMA(options.chip));

  // Kernels: TVM's default GPU schedule, then thread bindings to gpu.launch.
  buildGPUKernelSchedulePipeline(
      pm, options.threadsPerBlock, hasTensorCoreMMA(options.chip),
      options.allowTF32, hasWarpgroupMMA(options.chip));
  pm.addPass(createConvertTensorIRToGPU());
  ConvertTensorIRToSCFOptions tensorIRToSCF;
  tensorIRToSCF.insertDeallocs = false;
  // Register tiles must be indexed by constants only, whatever LLVM's
  // unroller would decide.
  tensorIRToSCF.fullUnroll = true;
  pm.addPass(createConvertTensorIRToSCF(tensorIRToSCF));
  // The tensor-core Matmul rule's tiles: ldmatrix + mma.sync.
  pm.addPass(createGPUTensorizeMMAPass());

  // Host code: relax functions to memref code; buffers bufferized and freed
  // as on the CPU, then placed in device memory.
  pm.addPass(createConvertRelaxToMemRef());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::buildBufferDeallocationPipeline(pm);
  // The Hopper Matmul rule's tiles: TMA + wgmma (after buffer deallocation,
  // which does not know the mbarrier ops' memory effects).
  pm.addPass(createGPUTensorizeWgmmaPass());
  pm.addPass(createCanonicalizerPass());
  if (options.planMemory)
    pm.addNestedPass<func::FuncOp>(mlc::createPlanMemoryPass());
  pm.addPass(mlc::createStripParameterNamesPass());
  // Kernel functions into their callers, so that constants reach the
  // launches that read them and each kernel is compiled once.
  pm.addPass(createGPUInlineKernelFunctionsPass());
  // Copies into shared memory: cp.async in flight over several steps
  // (sm_80+), else the next step's loads prefetched into registers.
  if (hasTensorCoreMMA(options.chip) && options.asyncCopyStages > 0) {
    GPUAsyncCopyPipelinePassOptions asyncCopies;
    asyncCopies.stages = options.asyncCopyStages;
    pm.addPass(createGPUAsyncCopyPipelinePass(asyncCopies));
  }
  pm.addPass(createGPUPipelineSharedCopiesPass());
  pm.addPass(createGPUThreadSyncPass());
  GPUDeviceMemoryPassOptions deviceMemory;
  deviceMemory.maxKernelConstantBytes = options.maxKernelConstantBytes;
  pm.addPass(createGPUDeviceMemoryPass(deviceMemory));
  pm.addPass(createSymbolDCEPass());

  // Kernels out of the host functions.
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // The weights now live in the gpu.modules that read them.
  pm.addPass(createGPUEraseHostConstantsPass());
  // nvgpu ops to NVVM while the kernels' loops are still scf: a loop may
  // carry an nvgpu value (the wgmma accumulator), whose type only this
  // conversion knows.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createGPUAssumeAlignmentPass());
  kernels.addPass(createGPULaunchBoundsPass());
  kernels.addPass(createGPULowerBF16MmaSyncPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  // The runtime calls for device allocation and copies are asynchronous
  // (stream-ordered), as gpu-to-llvm requires.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = getFeatures(options);
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Device code to NVVM.
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  // Host code to LLVM, calling the CUDA runtime's mgpu* functions.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit.empty()
                           ? std::string(MLC_CUDA_TOOLKIT_DIR)
                           : options.toolkit.getValue();
  // The weights that kernels read, as byte arrays for LLVM.
  pm.addPass(mlc::createPackConstantGlobalsPass());
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Bound weights as byte arrays: LLVM handles them in one piece.
  pm.addPass(mlc::createPackConstantGlobalsPass());
  pm.addPass(createCanonicalizerPass());
}
