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
    if (maxRegisters < 32 || maxRegisters > 255) {
      module.emitError("mlc-gpu-launch-bounds: max-registers must be in "
                       "[32, 255], got ")
          << static_cast<int64_t>(maxRegisters);
      return signalPassFailure();
    }
    Builder builder(&getContext());
    module.walk([&](gpu::GPUFuncOp func) {
      std::optional<ArrayRef<int32_t>> blockSize = func.getKnownBlockSize();
      if (!func.isKernel() || !blockSize)
        return;
      int64_t threads = 1;
      for (int32_t size : *blockSize)
        threads *= size;
      int64_t blocks =
          std::max<int64_t>(1, kRegistersPerSM / (threads * maxRegisters));
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    builder.getI32IntegerAttr(blocks));
    });
  }
};

} // namespace
