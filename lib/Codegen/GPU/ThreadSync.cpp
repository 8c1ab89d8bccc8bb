//===- ThreadSync.cpp - barriers around shared memory writes --------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's ThreadSync("shared") on gpu.launch bodies: gpu.barrier before and
// after every statement that writes workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_GPUTHREADSYNCPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

bool isWorkgroup(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  auto space =
      memref ? dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace())
             : gpu::AddressSpaceAttr();
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Whether `op` (or anything nested) writes (`writes`) or reads workgroup
/// memory.
bool accessesWorkgroup(Operation *op, bool writes) {
  WalkResult result = op->walk([&](Operation *nested) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (!value || !isWorkgroup(value.getType()))
        continue;
      if (writes ? isa<MemoryEffects::Write>(effect.getEffect())
                 : isa<MemoryEffects::Read>(effect.getEffect()))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Places gpu.barrier before and after each statement of `block` that
/// writes workgroup memory. The statements all threads of a thread block
/// run alike are the direct children of the kernel body and of the loops in
/// it (thread-dependent control flow is an scf.if, a statement as a whole);
/// a loop that both writes and reads workgroup memory is entered, so that
/// its stages are separated inside each iteration.
void insertBarriers(OpBuilder &builder, Block &block) {
  auto isBarrier = [](Operation *op) { return op && isa<gpu::BarrierOp>(op); };
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    if (isa<gpu::BarrierOp>(op) || !accessesWorkgroup(&op, /*writes=*/true))
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && accessesWorkgroup(&op, /*writes=*/false)) {
      insertBarriers(builder, *loop.getBody());
      continue;
    }
    // Before: readers of the previous loop iteration or statement are done
    // (write after read); after: the writes are visible (read after write).
    if (!isBarrier(op.getPrevNode())) {
      builder.setInsertionPoint(&op);
      gpu::BarrierOp::create(builder, op.getLoc());
    }
    if (!isBarrier(op.getNextNode())) {
      builder.setInsertionPointAfter(&op);
      gpu::BarrierOp::create(builder, op.getLoc());
    }
  }
}

struct GPUThreadSyncPass
    : public mlc::impl::GPUThreadSyncPassBase<GPUThreadSyncPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation()->walk([&](gpu::LaunchOp launch) {
      insertBarriers(builder, launch.getBody().front());
    });
  }
};

} // namespace
