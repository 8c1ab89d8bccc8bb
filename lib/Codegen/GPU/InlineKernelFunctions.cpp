//===- InlineKernelFunctions.cpp - kernel functions into their callers ----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Called functions become private, then upstream's inliner and symbol DCE
// inline them everywhere and drop them.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlc {
#define GEN_PASS_DEF_GPUINLINEKERNELFUNCTIONSPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

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
      signalPassFailure();
  }
};

} // namespace
