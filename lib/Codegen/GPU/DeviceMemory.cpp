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

bool readsConstantOnHost(Operation *user);

/// Whether `constant` only reaches (through casts and collapses) the
/// runtime functions that read a host constant on the host.
bool onlyReadOnHost(Value constant) {
  return llvm::all_of(constant.getUsers(), readsConstantOnHost);
}

/// Whether `user` of a host constant reads it on the host: a runtime
/// function that encodes its tensor map or returns its device copy, or a
/// cast or collapse (the K x N view of a weight that the Hopper implicit
/// GEMM reads as a matrix; a flattened weight) that only reaches those.
bool readsConstantOnHost(Operation *user) {
  if (isa<memref::CastOp, memref::CollapseShapeOp>(user))
    return isHostOp(user) && onlyReadOnHost(user->getResult(0));
  auto call = dyn_cast<func::CallOp>(user);
  return call &&
         (call.getCallee().starts_with(mlc::kConstantTensorMapEncoderPrefix) ||
          call.getCallee().starts_with(mlc::kConstantOnDevicePrefix));
}

/// The suffix of the runtime function that returns the device copy of a
/// constant of `elementType` ("f16"), or none for types it does not take.
std::optional<std::string> getConstantOnDeviceSuffix(Type elementType) {
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(elementType) &&
      !(elementType.isSignlessInteger() &&
        llvm::is_contained({8u, 16u, 32u, 64u},
                           elementType.getIntOrFloatBitWidth())))
    return std::nullopt;
  std::string suffix;
  llvm::raw_string_ostream os(suffix);
  os << elementType;
  return suffix;
}

struct GPUDeviceMemoryPass
    : public mlc::impl::GPUDeviceMemoryPassBase<GPUDeviceMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    if (maxKernelConstantBytes < 0) {
      module.emitError("max-kernel-constant-bytes must not be negative, got ")
          << static_cast<int64_t>(maxKernelConstantBytes);
      return signalPassFailure();
    }

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

    // Large constants stay on the host: kernels read their device copies.
    SmallVector<memref::GetGlobalOp> constants;
    module.walk([&](memref::GetGlobalOp op) { constants.push_back(op); });
    for (memref::GetGlobalOp constant : constants)
      readDeviceCopy(rewriter, constant);

    // Small constants move into the kernels that read them.
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
      if (onlyReadOnHost(op.getResult()))
        return WalkResult::advance();
      op.emitOpError("reads constant @")
          << op.getName()
          << " on the host; in a GPU module only kernels may read constants";
      return WalkResult::interrupt();
    });
    if (hostConstant.wasInterrupted())
      signalPassFailure();
  }

  /// Makes the kernels (and host code other than the runtime's readers)
  /// read the device copy of `constant` when it is a constant global of
  /// more than maxKernelConstantBytes: its flat view goes to the runtime,
  /// whose copy is reshaped back. A get_global inside a kernel moves out
  /// of it first.
  void readDeviceCopy(RewriterBase &rewriter, memref::GetGlobalOp constant) {
    if (constant->getParentOfType<gpu::GPUModuleOp>() ||
        constant->getParentOfType<gpu::GPUFuncOp>())
      return;
    MemRefType type = constant.getType();
    if (type.getRank() == 0 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || type.getMemorySpace())
      return;
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        constant, constant.getNameAttr());
    std::optional<std::string> suffix =
        getConstantOnDeviceSuffix(type.getElementType());
    if (!global || !global.getConstant() || !suffix ||
        type.getNumElements() * type.getElementTypeBitWidth() / 8 <=
            maxKernelConstantBytes)
      return;
    auto readsCopy = [](OpOperand &use) {
      return !readsConstantOnHost(use.getOwner());
    };
    if (llvm::none_of(constant->getUses(), readsCopy))
      return;

    Location loc = constant.getLoc();
    Value host = constant.getResult();
    if (auto launch = constant->getParentOfType<gpu::LaunchOp>()) {
      while (auto outer = launch->getParentOfType<gpu::LaunchOp>())
        launch = outer;
      rewriter.setInsertionPoint(launch);
      host = rewriter.clone(*constant)->getResult(0);
    } else {
      rewriter.setInsertionPointAfter(constant);
    }
    int64_t rank = type.getRank();
    int64_t elements = type.getNumElements();
    Type elementType = type.getElementType();
    Value flat = host;
    SmallVector<ReassociationIndices> allInOne{
        llvm::to_vector(llvm::seq<int64_t>(0, rank))};
    if (rank != 1)
      flat = memref::CollapseShapeOp::create(rewriter, loc, host, allInOne);
    auto dynamicType = MemRefType::get({ShapedType::kDynamic}, elementType);
    Value dynamic =
        memref::CastOp::create(rewriter, loc, dynamicType, flat).getResult();
    func::FuncOp runtime = getConstantOnDeviceFunction(
        rewriter, (mlc::kConstantOnDevicePrefix + *suffix).str(), dynamicType,
        loc);
    Value copy =
        func::CallOp::create(rewriter, loc, runtime, dynamic).getResult(0);
    Value device = memref::CastOp::create(
        rewriter, loc, MemRefType::get({elements}, elementType), copy);
    if (rank != 1)
      device = memref::ExpandShapeOp::create(rewriter, loc, type.getShape(),
                                             device, allInOne);
    rewriter.replaceUsesWithIf(constant.getResult(), device, readsCopy);
    if (constant.getResult() != host && constant->use_empty())
      rewriter.eraseOp(constant);
  }

  /// The runtime's device-copy function `name` (a rank-1 memref in and out,
  /// through its C interface), declared in the module.
  func::FuncOp getConstantOnDeviceFunction(RewriterBase &rewriter,
                                           StringRef name, MemRefType type,
                                           Location loc) {
    ModuleOp module = getOperation();
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(module.getBody());
    auto decl = func::FuncOp::create(rewriter, loc, name,
                                     rewriter.getFunctionType(type, type));
    decl.setPrivate();
    decl->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  rewriter.getUnitAttr());
    return decl;
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
