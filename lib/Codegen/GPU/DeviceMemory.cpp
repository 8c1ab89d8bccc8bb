//===- DeviceMemory.cpp - host buffers of a GPU module in device memory ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlc {
#define GEN_PASS_DEF_GPUDEVICEMEMORYPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Host code: not inside a kernel or a GPU module.
bool isHostOp(Operation *op) {
  return !op->getParentOfType<gpu::LaunchOp>() &&
         !op->getParentOfType<gpu::GPUModuleOp>() &&
         !op->getParentOfType<gpu::GPUFuncOp>();
}

/// What may move into a kernel with the values it reads: constants and
/// views of them.
bool isSinkable(Operation *op) {
  if (isa<memref::GetGlobalOp, arith::ConstantOp>(op))
    return true;
  return isa<ViewLikeOpInterface>(op) && isPure(op) && op->getNumRegions() == 0;
}

/// Whether `constant` (through casts) only reaches the runtime functions
/// that encode a host constant's tensor map, which read it on the host.
bool onlyEncodesTensorMaps(Value constant) {
  return llvm::all_of(constant.getUsers(), [](Operation *user) {
    // Casts, and the K x N view of a weight that the Hopper implicit GEMM
    // reads as a matrix.
    if (isa<memref::CastOp, memref::CollapseShapeOp>(user))
      return onlyEncodesTensorMaps(user->getResult(0));
    auto call = dyn_cast<func::CallOp>(user);
    return call &&
           call.getCallee().starts_with(mlc::kConstantTensorMapEncoderPrefix);
  });
}

struct GPUDeviceMemoryPass
    : public mlc::impl::GPUDeviceMemoryPassBase<GPUDeviceMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());

    // Shared and per-thread buffers of a kernel (allocas in workgroup or
    // private memory at its start) become its attributions.
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches) {
      SmallVector<memref::AllocaOp> allocas;
      for (Operation &op : launch.getBody().front())
        if (auto alloca = dyn_cast<memref::AllocaOp>(op))
          allocas.push_back(alloca);
      for (memref::AllocaOp alloca : allocas) {
        auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
            alloca.getType().getMemorySpace());
        if (!space || !alloca.getType().hasStaticShape() ||
            space.getValue() == gpu::AddressSpace::Global)
          continue;
        BlockArgument attribution =
            space.getValue() == gpu::AddressSpace::Workgroup
                ? launch.addWorkgroupAttribution(alloca.getType(),
                                                 alloca.getLoc())
                : launch.addPrivateAttribution(alloca.getType(),
                                               alloca.getLoc());
        rewriter.replaceAllUsesWith(alloca, attribution);
        rewriter.eraseOp(alloca);
      }
    }

    // Constants move into the kernels that read them.
    for (gpu::LaunchOp launch : launches)
      if (failed(sinkOperationsIntoLaunchOp(launch, isSinkable)))
        return signalPassFailure();

    SmallVector<Operation *> hostOps;
    module.walk([&](Operation *op) {
      if (!isa<ModuleOp, gpu::GPUModuleOp>(op) && isHostOp(op))
        hostOps.push_back(op);
    });
    for (Operation *op : hostOps) {
      if (isa<memref::GetGlobalOp>(op) || isSinkable(op)) {
        if (isOpTriviallyDead(op))
          rewriter.eraseOp(op);
        continue;
      }
      if (failed(convert(rewriter, op)))
        return signalPassFailure();
    }
    // The constants left on the host: erase the dead ones, keep those whose
    // tensor maps the runtime encodes, reject the others.
    WalkResult hostConstant = module.walk([&](memref::GetGlobalOp op) {
      if (!isHostOp(op))
        return WalkResult::advance();
      if (op->use_empty()) {
        rewriter.eraseOp(op);
        return WalkResult::advance();
      }
      if (onlyEncodesTensorMaps(op.getResult()))
        return WalkResult::advance();
      op.emitOpError("reads constant @")
          << op.getName()
          << " on the host; in a GPU module only kernels may read constants";
      return WalkResult::interrupt();
    });
    if (hostConstant.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult convert(RewriterBase &rewriter, Operation *op) {
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      auto device = gpu::AllocOp::create(
          rewriter, loc, alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/false);
      rewriter.replaceOp(alloc, device.getMemref());
      return success();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      gpu::DeallocOp::create(rewriter, loc, /*asyncToken=*/Type(), ValueRange(),
                             dealloc.getMemref());
      rewriter.eraseOp(dealloc);
      return success();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(), ValueRange(),
                            copy.getTarget(), copy.getSource());
      rewriter.eraseOp(copy);
      return success();
    }
    if (isa<memref::AllocaOp>(op))
      return op->emitOpError(
          "allocates a host stack buffer in a GPU module's host code; kernels "
          "cannot read it");
    // Launches, calls, views, index arithmetic, control flow are host work,
    // and so is device memory management (this pass ran before).
    if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
            gpu::WaitOp>(op))
      return success();
    // A TMA descriptor describes device memory; the runtime encodes it.
    if (isa<nvgpu::TmaCreateDescriptorOp>(op))
      return success();
    if (isa<gpu::LaunchOp, CallOpInterface, RegionBranchOpInterface,
            ViewLikeOpInterface, memref::DimOp,
            memref::ExtractStridedMetadataOp>(op) ||
        op->hasTrait<OpTrait::IsTerminator>() || isMemoryEffectFree(op) ||
        isa<FunctionOpInterface>(op) || isa<SymbolOpInterface>(op))
      return success();
    if (op->getParentOfType<FunctionOpInterface>() == nullptr)
      return success();
    return op->emitOpError("reads or writes memory on the host in a GPU "
                           "module; only kernels (gpu.launch) may access "
                           "device buffers");
  }
};

} // namespace
