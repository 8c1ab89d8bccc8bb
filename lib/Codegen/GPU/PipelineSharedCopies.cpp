//===- PipelineSharedCopies.cpp - prefetch the next step's global loads ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Software pipelining of the copies into shared memory in a GPU kernel's
// loops (TVM's InjectSoftwarePipeline with stages [0, 1] for the global
// loads and the rest; CUTLASS's register prefetch): the loads of step k + 1
// are issued before step k stores its values into shared memory and
// computes, so their latency is hidden behind the compute.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Codegen/GPU/Utils.h"
#include "mlc/Support/ElementCount.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlc {
#define GEN_PASS_DEF_GPUPIPELINESHAREDCOPIESPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using mlc::getGPUAddressSpace;
using mlc::writesGlobalMemory;

namespace {

/// A load of global memory whose values only go to shared memory: one
/// element of a copy into shared memory.
bool isGlobalToSharedLoad(Operation &op) {
  auto load = dyn_cast<memref::LoadOp>(op);
  if (!load ||
      getGPUAddressSpace(load.getMemRef()) != gpu::AddressSpace::Global ||
      load->use_empty())
    return false;
  return llvm::all_of(load->getUsers(), [&](Operation *user) {
    auto store = dyn_cast<memref::StoreOp>(user);
    return store && store.getValueToStore() == load.getResult() &&
           store->getBlock() == load->getBlock() &&
           getGPUAddressSpace(store.getMemRef()) ==
               gpu::AddressSpace::Workgroup;
  });
}

/// Pipelines `loop` if it copies global memory into shared memory: the
/// global loads and the index computations they need (cloned, so that the
/// rest of the body keeps its own) become stage 0, the rest stage 1.
LogicalResult pipelineCopies(RewriterBase &rewriter, scf::ForOp loop,
                             int64_t registerBudget) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  // Bounds as written (an index may be any int64_t): the trip count in
  // 128 bits, so that no difference overflows.
  if (!lower || !upper || !step || *step <= 0 || *upper <= *lower ||
      (llvm::APInt(128, *upper, /*isSigned=*/true) -
       llvm::APInt(128, *lower, /*isSigned=*/true))
          .sle(llvm::APInt(128, *step, /*isSigned=*/true)) ||
      loop.getNumRegionIterArgs())
    return failure();
  Block *body = loop.getBody();
  SmallVector<Operation *> loads;
  for (Operation &op : body->without_terminator())
    if (isGlobalToSharedLoad(op))
      loads.push_back(&op);
  // A loop that copies and computes on what it copied (not a copy loop).
  bool readsShared = body->walk([](memref::LoadOp load) {
                           return getGPUAddressSpace(load.getMemRef()) ==
                                          gpu::AddressSpace::Workgroup
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
  if (loads.empty() || !readsShared || writesGlobalMemory(loop))
    return failure();
  // The prefetched values stay in registers across the compute, beside the
  // kernel's per-thread buffers (its register tile): past the budget, ptxas
  // would spill (the Matmul rule's 8 x 8 tile at 128 registers).
  // (Counted saturating: a buffer's static shape may hold any int64_t.)
  uint64_t privateElements = loads.size();
  loop->getParentOfType<gpu::LaunchOp>().walk([&](memref::AllocaOp alloca) {
    if (getGPUAddressSpace(alloca.getMemref()) != gpu::AddressSpace::Private ||
        !alloca.getType().hasStaticShape())
      return;
    privateElements = llvm::SaturatingAdd(
        privateElements, mlc::countElements(alloca.getType().getShape()));
  });
  if (registerBudget < 0 ||
      privateElements > static_cast<uint64_t>(registerBudget))
    return failure();

  // The loads' operands computed in the body: pure, region-free ops.
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> worklist(loads);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != body)
        continue;
      if (!isMemoryEffectFree(def) || def->getNumRegions())
        return failure();
      worklist.push_back(def);
    }
  }

  // Stage 0: a copy of the slice in program order, at the top of the body;
  // the stores read the copied loads.
  rewriter.setInsertionPointToStart(body);
  IRMapping mapping;
  DenseSet<Operation *> stage0;
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator())) {
    if (!slice.contains(&op))
      continue;
    Operation *clone = rewriter.clone(op, mapping);
    stage0.insert(clone);
  }
  SmallVector<Operation *> indexOps;
  for (Operation &op : body->without_terminator())
    if (slice.contains(&op) && !llvm::is_contained(loads, &op))
      indexOps.push_back(&op);
  for (Operation *load : loads)
    rewriter.replaceOp(load, mapping.lookup(load)->getResults());
  for (Operation *op : llvm::reverse(indexOps))
    if (op->use_empty())
      rewriter.eraseOp(op);

  scf::PipeliningOption options;
  options.getScheduleFn =
      [&](scf::ForOp forOp,
          std::vector<std::pair<Operation *, unsigned>> &schedule) {
        for (Operation &op : forOp.getBody()->without_terminator())
          if (stage0.contains(&op))
            schedule.emplace_back(&op, 0);
        for (Operation &op : forOp.getBody()->without_terminator())
          if (!stage0.contains(&op))
            schedule.emplace_back(&op, 1);
      };
  // The prologue goes where the rewriter stands.
  rewriter.setInsertionPoint(loop);
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, loop, options);
  return success(succeeded(pipelined));
}

struct GPUPipelineSharedCopiesPass
    : public mlc::impl::GPUPipelineSharedCopiesPassBase<
          GPUPipelineSharedCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      launch.getBody().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    });
    for (scf::ForOp loop : loops)
      (void)pipelineCopies(rewriter, loop, registerBudget);
  }
};

} // namespace
