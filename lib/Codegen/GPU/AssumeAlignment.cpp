//===- AssumeAlignment.cpp - aligned kernel buffer arguments --------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Marks the identity-layout buffer arguments of kernels as aligned (mlc's
// GPU calling convention) and aligns their shared buffers, so that LLVM
// vectorizes their accesses.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

namespace mlc {
#define GEN_PASS_DEF_GPUASSUMEALIGNMENTPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct GPUAssumeAlignmentPass
    : public mlc::impl::GPUAssumeAlignmentPassBase<GPUAssumeAlignmentPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (alignment < 1 || alignment > 4096 || !llvm::isPowerOf2_64(alignment)) {
      module.emitError("mlc-gpu-assume-alignment: alignment must be a power "
                       "of two in [1, 4096], got ")
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    OpBuilder builder(&getContext());
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel() || func.getBody().empty())
        return;
      // Shared buffers: LLVM assumes 16 bytes for large arrays without an
      // explicit alignment (and vectorizes for it), but the NVPTX printer
      // declares them with the element's alignment.
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
        if (!func.getWorkgroupAttributionAttr(
                i, LLVM::LLVMDialect::getAlignAttrName()))
          func.setWorkgroupAttributionAttr(
              i, LLVM::LLVMDialect::getAlignAttrName(),
              builder.getI64IntegerAttr(alignment));
      Block &entry = func.getBody().front();
      builder.setInsertionPointToStart(&entry);
      // The block's arguments are the kernel's, then its attributions.
      for (BlockArgument arg :
           entry.getArguments().take_front(func.getNumArguments())) {
        auto type = dyn_cast<MemRefType>(arg.getType());
        if (!type || !type.getLayout().isIdentity() || arg.use_empty())
          continue;
        // Already marked (the pass ran before): nothing to add.
        if (arg.hasOneUse() &&
            isa<memref::AssumeAlignmentOp>(*arg.getUses().begin()->getOwner()))
          continue;
        auto aligned = memref::AssumeAlignmentOp::create(
            builder, arg.getLoc(), arg, static_cast<int32_t>(alignment));
        arg.replaceAllUsesExcept(aligned.getResult(), aligned);
        markReshapes(aligned.getResult());
      }
    });
  }

  /// Marks the identity-layout reshapes of `buffer` (views at its offset
  /// 0, so as aligned) too: expand-strided-metadata folds a reshape's
  /// metadata through `buffer`'s own mark, which then has no use left and
  /// goes, and the accesses through the reshape (e.g. a head split's loads
  /// by a linear index) would lose their vector width.
  void markReshapes(Value buffer) {
    for (Operation *user : llvm::to_vector(buffer.getUsers())) {
      if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user))
        continue;
      Value view = user->getResult(0);
      auto type = cast<MemRefType>(view.getType());
      if (!type.getLayout().isIdentity() || view.use_empty())
        continue;
      OpBuilder builder(user->getContext());
      builder.setInsertionPointAfter(user);
      auto aligned = memref::AssumeAlignmentOp::create(
          builder, user->getLoc(), view, static_cast<int32_t>(alignment));
      view.replaceAllUsesExcept(aligned.getResult(), aligned);
      markReshapes(aligned.getResult());
    }
  }
};

} // namespace
