//===- LaunchBounds.cpp - registers per thread bounded by occupancy -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Sets nvvm.minctasm on kernels with a known block size, so that ptxas
// keeps them within a register budget per thread.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlc {
#define GEN_PASS_DEF_GPULAUNCHBOUNDSPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// 32-bit registers of one SM on every NVIDIA GPU since Kepler.
constexpr int64_t kRegistersPerSM = 64 * 1024;

struct GPULaunchBoundsPass
    : public mlc::impl::GPULaunchBoundsPassBase<GPULaunchBoundsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    for (auto [name, value] :
         {std::pair<StringRef, int64_t>{"max-registers", maxRegisters},
          {"max-registers-mma", maxRegistersMMA}}) {
      if (value < 32 || value > 255) {
        module.emitError("mlc-gpu-launch-bounds: ")
            << name << " must be in [32, 255], got " << value;
        return signalPassFailure();
      }
    }
    Builder builder(&getContext());
    module.walk([&](gpu::GPUFuncOp func) {
      std::optional<ArrayRef<int32_t>> blockSize = func.getKnownBlockSize();
      if (!func.isKernel() || !blockSize)
        return;
      int64_t threads = 1;
      for (int32_t size : *blockSize)
        threads *= size;
      // The attribute is not verified: a block of no threads gets no
      // bound (the launch itself would fail).
      if (threads <= 0) {
        func.emitWarning("mlc-gpu-launch-bounds: the known block size has ")
            << threads << " threads; no launch bounds";
        return;
      }
      bool usesTensorCores =
          func.walk([](nvgpu::MmaSyncOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      // A wgmma kernel's stages fill the SM's shared memory: one block per
      // SM, all registers its own.
      bool usesWarpgroupMma = func.walk([](nvgpu::WarpgroupMmaOp) {
                                    return WalkResult::interrupt();
                                  })
                                  .wasInterrupted();
      int64_t registers = usesTensorCores ? maxRegistersMMA : maxRegisters;
      int64_t blocks =
          usesWarpgroupMma
              ? 1
              : std::max<int64_t>(1, kRegistersPerSM / (threads * registers));
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    builder.getI32IntegerAttr(blocks));
    });
  }
};

} // namespace
