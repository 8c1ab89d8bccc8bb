//===- ThreadSync.cpp - barriers around shared memory writes --------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's ThreadSync("shared") on gpu.launch bodies: a gpu.barrier between
// statements that write and read (or read and overwrite) the same workgroup
// buffer.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlc {
#define GEN_PASS_DEF_GPUTHREADSYNCPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The buffer that `value` views (through view-like ops).
Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// The workgroup buffers that a statement reads and writes since the last
/// barrier (TVM's ThreadSync access sets, per buffer rather than per
/// index: two accesses of a buffer by different threads may conflict).
struct SharedAccesses {
  llvm::SmallSetVector<Value, 4> reads, writes;

  /// Read after write or write after read: the later statement must wait
  /// for the other threads. Writes after writes need no barrier, as in TVM
  /// (the copies into shared memory write disjoint elements per thread).
  bool conflictsWith(const SharedAccesses &earlier) const {
    return llvm::any_of(reads,
                        [&](Value b) { return earlier.writes.contains(b); }) ||
           llvm::any_of(writes,
                        [&](Value b) { return earlier.reads.contains(b); });
  }
  void add(const SharedAccesses &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
  }
  void clear() {
    reads.clear();
    writes.clear();
  }
  bool empty() const { return reads.empty() && writes.empty(); }
};

/// The workgroup memory that `op` and everything nested in it accesses.
SharedAccesses getSharedAccesses(Operation *op) {
  SharedAccesses accesses;
  op->walk([&](Operation *nested) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    // An async copy's write lands at a later nvgpu.device_async_wait; the
    // pass that issues it (mlc-gpu-async-copy-pipeline) places that wait
    // and the barrier after it.
    if (!effects || isa<nvgpu::DeviceAsyncCopyOp>(nested))
      return;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      auto memref = value ? dyn_cast<MemRefType>(value.getType()) : nullptr;
      if (!memref || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref))
        continue;
      if (isa<MemoryEffects::Write>(effect.getEffect()))
        accesses.writes.insert(getRootBuffer(value));
      else if (isa<MemoryEffects::Read>(effect.getEffect()))
        accesses.reads.insert(getRootBuffer(value));
    }
  });
  return accesses;
}

/// Places a gpu.barrier before each statement of `block` that reads a
/// workgroup buffer written, or writes one read, since the last barrier
/// (`pending`: what the statements before `block` left). The statements all
/// threads of a thread block run alike are the direct children of the
/// kernel body and of the loops in it (thread-dependent control flow is an
/// scf.if, a statement as a whole); a loop that both writes and reads
/// workgroup memory is entered, so that its stages are separated inside
/// each iteration. On return, `pending` holds what `block` leaves.
void insertBarriers(OpBuilder &builder, Block &block, SharedAccesses &pending) {
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    if (isa<gpu::BarrierOp>(op)) {
      pending.clear();
      continue;
    }
    SharedAccesses accesses = getSharedAccesses(&op);
    if (accesses.empty())
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && !accesses.reads.empty() && !accesses.writes.empty()) {
      // An iteration starts after the statements before the loop or after
      // the previous iteration (all of the body, conservatively); after the
      // loop, what the last iteration left, or, for no iteration, what was
      // there before.
      SharedAccesses before = pending;
      SharedAccesses entry = pending;
      entry.add(accesses);
      insertBarriers(builder, *loop.getBody(), entry);
      pending = before;
      pending.add(entry);
      continue;
    }
    if (accesses.conflictsWith(pending)) {
      // As early as the statements without workgroup accesses before it
      // allow: the global loads of an unrolled copy into shared memory then
      // stay together, where LLVM merges them into vector loads.
      Operation *first = &op;
      while (Operation *prev = first->getPrevNode()) {
        if (isa<gpu::BarrierOp>(prev) || !getSharedAccesses(prev).empty())
          break;
        first = prev;
      }
      builder.setInsertionPoint(first);
      gpu::BarrierOp::create(builder, op.getLoc());
      pending.clear();
    }
    pending.add(accesses);
  }
}

struct GPUThreadSyncPass
    : public mlc::impl::GPUThreadSyncPassBase<GPUThreadSyncPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation()->walk([&](gpu::LaunchOp launch) {
      SharedAccesses pending;
      insertBarriers(builder, launch.getBody().front(), pending);
    });
  }
};

} // namespace
