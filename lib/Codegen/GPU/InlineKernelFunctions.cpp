//===- InlineKernelFunctions.cpp - kernel functions into their callers ----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Called functions become private, then upstream's inliner and symbol DCE
// inline them everywhere and drop them. The nvgpu dialect has no inliner
// interface upstream (the inliner would leave every tensor-core kernel
// called); this file gives it one.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Transforms/Passes.h"

namespace mlc {
#define GEN_PASS_DEF_GPUINLINEKERNELFUNCTIONSPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// nvgpu ops (cp.async, ldmatrix, mma.sync) are plain SSA operations without
/// regions or terminators: nothing stops moving them into a caller.
struct NVGPUInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

struct GPUInlineKernelFunctionsPass
    : public mlc::impl::GPUInlineKernelFunctionsPassBase<
          GPUInlineKernelFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    module.walk([&](CallOpInterface call) {
      auto callee =
          dyn_cast_or_null<func::FuncOp>(call.resolveCallableInTable(&symbols));
      // A callee without a body (an external declaration) has nothing to
      // inline and must keep its visibility.
      if (callee && !callee.isExternal())
        callee.setPrivate();
    });
    OpPassManager pipeline(ModuleOp::getOperationName());
    pipeline.addPass(createInlinerPass());
    pipeline.addPass(createSymbolDCEPass());
    if (failed(runPipeline(pipeline, module)))
      return signalPassFailure();
    // A call the inliner left (an op it may not move) would strand the
    // constants its caller passes on the host. (A fresh symbol table: the
    // inlined functions are gone.)
    SymbolTableCollection remaining;
    WalkResult left = module.walk([&](CallOpInterface call) {
      auto callee = dyn_cast_or_null<func::FuncOp>(
          call.resolveCallableInTable(&remaining));
      if (!callee || callee.isExternal())
        return WalkResult::advance();
      call.emitOpError("could not inline the kernel function @")
          << callee.getName() << " into its caller";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    mlc::registerNVGPUInlinerInterface(registry);
  }
};

} // namespace

void mlc::registerNVGPUInlinerInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, nvgpu::NVGPUDialect *dialect) {
    dialect->addInterfaces<NVGPUInlinerInterface>();
  });
}
