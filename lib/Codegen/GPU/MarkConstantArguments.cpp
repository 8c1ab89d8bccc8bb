//===- MarkConstantArguments.cpp - prim_func arguments bound to constants -===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Marks the prim_func arguments that a relax.call_tir passes a constant to.
// Constants become device globals inside the kernels that read them
// (mlc-gpu-device-memory), so the host never has their device address; where
// one needs it (the Hopper Matmul rule's TMA descriptors, encoded on the
// host), mlc-gpu-tensorize-wgmma has the runtime encode the map of a device
// copy of the constant instead.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace mlc {
#define GEN_PASS_DEF_GPUMARKCONSTANTARGUMENTSPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct GPUMarkConstantArgumentsPass
    : public mlc::impl::GPUMarkConstantArgumentsPassBase<
          GPUMarkConstantArgumentsPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    UnitAttr unit = UnitAttr::get(&getContext());
    getOperation()->walk([&](mlc::relax::CallTIROp call) {
      auto callee = symbols.lookupNearestSymbolFrom<mlc::tensorir::PrimFuncOp>(
          call, call.getCalleeAttr());
      if (!callee)
        return;
      for (auto [i, arg] : llvm::enumerate(call.getArgs()))
        if (matchPattern(arg, m_Constant()) && i < callee.getNumArguments())
          callee.setArgAttr(
              i, mlc::tensorir::TensorIRDialect::getConstantArgAttrName(),
              unit);
    });
  }
};

} // namespace
