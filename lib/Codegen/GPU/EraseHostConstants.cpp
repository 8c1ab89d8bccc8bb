//===- EraseHostConstants.cpp - drop host copies of kernel constants ------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlc {
#define GEN_PASS_DEF_GPUERASEHOSTCONSTANTSPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct GPUEraseHostConstantsPass
    : public mlc::impl::GPUEraseHostConstantsPassBase<
          GPUEraseHostConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The root names of the symbols that host code references (a
    // gpu.launch_func's @module::@kernel counts as @module).
    llvm::DenseSet<StringAttr> used;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      op->getAttrDictionary().walk(
          [&](SymbolRefAttr ref) { used.insert(ref.getRootReference()); });
      return WalkResult::advance();
    });
    SmallVector<Operation *> dead;
    for (Operation &op : module.getBody()->getOperations()) {
      bool constant = false;
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        constant = global.getConstant();
      else if (auto global = dyn_cast<LLVM::GlobalOp>(op))
        constant = global.getConstant();
      if (constant &&
          SymbolTable::getSymbolVisibility(&op) ==
              SymbolTable::Visibility::Private &&
          !used.contains(SymbolTable::getSymbolName(&op)))
        dead.push_back(&op);
    }
    for (Operation *op : dead)
      op->erase();
  }
};

} // namespace
