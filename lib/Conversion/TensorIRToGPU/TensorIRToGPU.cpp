//===- TensorIRToGPU.cpp - thread-bound tensorir loops to gpu.launch ------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Turns each outermost thread-bound loop nest of a prim_func into a
// gpu.launch: bound loops become gpu.block_id/gpu.thread_id, buffers in GPU
// memory spaces become the kernel's workgroup/private attributions, and
// barriers separate the statements that write workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/TensorIRToGPU/Passes.h"

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlc {
#define GEN_PASS_DEF_CONVERTTENSORIRTOGPU
#include "mlc/Conversion/TensorIRToGPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

namespace {

/// Static shared memory a kernel may declare (larger needs dynamic shared
/// memory and an opt-in attribute).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// One of the six hardware indices: 0-2 blockIdx.{x,y,z}, 3-5
/// threadIdx.{x,y,z}; -1 for other tags (vthread).
int getHardwareIndex(StringRef tag) {
  return llvm::StringSwitch<int>(tag)
      .Case("blockIdx.x", 0)
      .Case("blockIdx.y", 1)
      .Case("blockIdx.z", 2)
      .Case("threadIdx.x", 3)
      .Case("threadIdx.y", 4)
      .Case("threadIdx.z", 5)
      .Default(-1);
}

constexpr StringLiteral kTagNames[] = {"blockIdx.x",  "blockIdx.y",
                                       "blockIdx.z",  "threadIdx.x",
                                       "threadIdx.y", "threadIdx.z"};

bool isHardwareBound(ForOp loop) {
  return loop.getKind() == ForKind::thread_binding &&
         getHardwareIndex(loop.getThreadTag().value_or("")) >= 0;
}

std::string describeLoop(ForOp loop) {
  std::string s = "loop '" + loop.getIvName().value_or("?").str() + "'";
  if (loop.getThreadTag())
    s += " (" + loop.getThreadTag()->str() + ")";
  return s;
}

/// The name of the first block inside `op`, for messages.
std::string firstBlockName(Operation *op) {
  std::string name;
  op->walk([&](BlockOp block) {
    name = block.getName().str();
    return WalkResult::interrupt();
  });
  return name.empty() ? std::string("<no block>") : "'" + name + "'";
}

gpu::AddressSpace getGPUAddressSpace(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return gpu::AddressSpace::Global;
  if (auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
    return space.getValue();
  return gpu::AddressSpace::Global;
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
      if (!value ||
          getGPUAddressSpace(value.getType()) != gpu::AddressSpace::Workgroup)
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
/// writes workgroup memory. Statements run by all threads of a thread block
/// alike are the direct children of the kernel body and of serial loops in
/// it; a serial loop that both writes and reads workgroup memory is entered,
/// so that its stages are separated inside each iteration.
void insertBarriers(OpBuilder &builder, Block &block) {
  auto isBarrier = [](Operation *op) { return op && isa<gpu::BarrierOp>(op); };
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    if (isa<gpu::BarrierOp>(op) || !accessesWorkgroup(&op, /*writes=*/true))
      continue;
    if (auto loop = dyn_cast<ForOp>(op);
        loop &&
        (loop.getKind() == ForKind::serial ||
         loop.getKind() == ForKind::unrolled) &&
        accessesWorkgroup(&op, /*writes=*/false)) {
      insertBarriers(builder, *loop.getBodyBlock());
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

struct ConvertTensorIRToGPUPass
    : public mlc::impl::ConvertTensorIRToGPUBase<ConvertTensorIRToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<PrimFuncOp> prims;
    getOperation().walk([&](PrimFuncOp prim) {
      prims.push_back(prim);
      return WalkResult::skip();
    });
    for (PrimFuncOp prim : prims)
      if (failed(convert(prim)))
        return signalPassFailure();
  }

  LogicalResult convert(PrimFuncOp prim);
  LogicalResult convertKernel(PrimFuncOp prim, ForOp root);
};

LogicalResult ConvertTensorIRToGPUPass::convert(PrimFuncOp prim) {
  // vthread loops are virtual: they run one after the other.
  prim.walk([&](ForOp loop) {
    if (loop.getKind() == ForKind::thread_binding && !isHardwareBound(loop)) {
      loop.setKind(ForKind::serial);
      loop.removeThreadTagAttr();
    }
  });

  SmallVector<ForOp> roots;
  prim.walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop || !isHardwareBound(loop))
      return WalkResult::advance();
    roots.push_back(loop);
    return WalkResult::skip();
  });

  // Every block must run inside a kernel.
  WalkResult outside = prim.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<ForOp>(op); loop && isHardwareBound(loop))
      return WalkResult::skip();
    auto block = dyn_cast<BlockOp>(op);
    if (!block)
      return WalkResult::advance();
    block.emitOpError("'")
        << block.getName() << "' of @" << prim.getSymName()
        << " is not inside a loop bound to blockIdx/threadIdx: it would run "
           "on the host (schedule it for the GPU, e.g. with "
           "tensorir-default-schedule{target=cuda})";
    return WalkResult::interrupt();
  });
  if (outside.wasInterrupted())
    return failure();

  for (ForOp root : roots)
    if (failed(convertKernel(prim, root)))
      return failure();
  return success();
}

LogicalResult ConvertTensorIRToGPUPass::convertKernel(PrimFuncOp prim,
                                                      ForOp root) {
  MLIRContext *ctx = &getContext();
  Location loc = root.getLoc();
  std::string kernelName = "kernel of @" + prim.getSymName().str() +
                           " at block " + firstBlockName(root);

  // The launch size per hardware index: the largest constant extent, or the
  // one dynamic extent (blockIdx only).
  SmallVector<ForOp> bound;
  root.walk<WalkOrder::PreOrder>([&](ForOp loop) {
    if (isHardwareBound(loop))
      bound.push_back(loop);
  });
  int64_t staticSize[6] = {1, 1, 1, 1, 1, 1};
  Value dynamicSize[6] = {};
  for (ForOp loop : bound) {
    StringRef tag = *loop.getThreadTag();
    int index = getHardwareIndex(tag);
    std::optional<int64_t> lb = loop.getConstantLowerBound();
    std::optional<int64_t> step = loop.getConstantStep();
    if (!lb || *lb != 0 || !step || *step != 1)
      return loop.emitOpError("bound ")
             << describeLoop(loop) << " in the " << kernelName
             << " must start at 0 with step 1";
    // A reduce iteration variable fed by a threadIdx loop needs a
    // cross-thread reduction.
    WalkResult reduce = loop.walk([&](BlockOp block) {
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
        if (!block.isReduceIterVar(i))
          continue;
        Value binding = block.getBindings()[i];
        bool usesLoop = binding == loop.getInductionVar();
        if (Operation *def = binding.getDefiningOp())
          usesLoop |=
              llvm::is_contained(def->getOperands(), loop.getInductionVar());
        if (!usesLoop)
          continue;
        block.emitOpError("'")
            << block.getName() << "' reduces over " << describeLoop(loop)
            << ": cross-thread reductions are not lowered to the GPU yet";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (reduce.wasInterrupted())
      return failure();
    if (std::optional<int64_t> ub = loop.getConstantUpperBound()) {
      staticSize[index] = std::max(staticSize[index], *ub);
      continue;
    }
    Value ub = cast<Value>(loop.getUpperBound());
    if (index >= 3)
      return loop.emitOpError("bound ")
             << describeLoop(loop) << " in the " << kernelName
             << " has a dynamic extent; threadIdx extents must be constants";
    if (root->isAncestor(ub.getParentBlock()->getParentOp()))
      return loop.emitOpError("bound ")
             << describeLoop(loop) << " in the " << kernelName
             << " has an extent computed inside the kernel; blockIdx "
                "extents must be known before the launch";
    if (dynamicSize[index] && dynamicSize[index] != ub)
      return loop.emitOpError("bound ")
             << describeLoop(loop) << " in the " << kernelName
             << " has a dynamic extent other than the one of another " << tag
             << " loop of the kernel";
    dynamicSize[index] = ub;
  }
  for (int i = 0; i < 6; ++i)
    if (dynamicSize[i] && staticSize[i] > 1)
      return root.emitOpError("the ")
             << kernelName << " binds " << kTagNames[i]
             << " to both a dynamic and a constant extent";

  // Hardware limits of every NVIDIA GPU since sm_30.
  int64_t threads = staticSize[3] * staticSize[4] * staticSize[5];
  if (staticSize[3] > 1024 || staticSize[4] > 1024 || staticSize[5] > 64 ||
      threads > 1024)
    return root.emitOpError("the ")
           << kernelName << " has " << staticSize[3] << "x" << staticSize[4]
           << "x" << staticSize[5] << " = " << threads
           << " threads per block; at most 1024 (x, y <= 1024, z <= 64) "
              "can run";
  if (staticSize[1] > 65535 || staticSize[2] > 65535)
    return root.emitOpError("the ")
           << kernelName << " has " << staticSize[1] << " x " << staticSize[2]
           << " blocks in y x z; at most 65535 each";
  if (staticSize[0] > std::numeric_limits<int32_t>::max())
    return root.emitOpError("the ") << kernelName << " has " << staticSize[0]
                                    << " blocks in x; at most 2^31 - 1";

  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(root);
  Value sizes[6];
  for (int i = 0; i < 6; ++i)
    sizes[i] = dynamicSize[i] ? dynamicSize[i]
                              : arith::ConstantIndexOp::create(rewriter, loc,
                                                               staticSize[i])
                                    .getResult();
  auto launch = gpu::LaunchOp::create(rewriter, loc, sizes[0], sizes[1],
                                      sizes[2], sizes[3], sizes[4], sizes[5]);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.moveOpBefore(root, terminator);

  // Bound loops become the hardware indices, innermost first so that each
  // rewrite moves already-rewritten IR.
  Value ids[6] = {launch.getBlockIds().x,  launch.getBlockIds().y,
                  launch.getBlockIds().z,  launch.getThreadIds().x,
                  launch.getThreadIds().y, launch.getThreadIds().z};
  for (ForOp loop : llvm::reverse(bound)) {
    int index = getHardwareIndex(*loop.getThreadTag());
    Value id = ids[index];
    Block *loopBody = loop.getBodyBlock();
    rewriter.eraseOp(loopBody->getTerminator());
    std::optional<int64_t> extent = loop.getConstantUpperBound();
    bool full = dynamicSize[index] || (extent && *extent == staticSize[index]);
    rewriter.setInsertionPoint(loop);
    if (full) {
      rewriter.inlineBlockBefore(loopBody, loop, ValueRange{id});
    } else {
      Value limit =
          arith::ConstantIndexOp::create(rewriter, loop.getLoc(), *extent);
      Value inRange = arith::CmpIOp::create(
          rewriter, loop.getLoc(), arith::CmpIPredicate::ult, id, limit);
      auto guard = scf::IfOp::create(rewriter, loop.getLoc(), inRange,
                                     /*withElseRegion=*/false);
      rewriter.inlineBlockBefore(loopBody, guard.thenBlock()->getTerminator(),
                                 ValueRange{id});
    }
    rewriter.eraseOp(loop);
  }

  // Buffers in workgroup/private memory become attributions of this kernel.
  llvm::SetVector<Value> localBuffers;
  launch.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (operand.getDefiningOp<AllocBufferOp>() &&
          getGPUAddressSpace(operand.getType()) != gpu::AddressSpace::Global)
        localBuffers.insert(operand);
  });
  int64_t sharedBytes = 0;
  for (Value buffer : localBuffers) {
    auto type = cast<MemRefType>(buffer.getType());
    auto alloc = buffer.getDefiningOp<AllocBufferOp>();
    if (!type.hasStaticShape())
      return alloc.emitOpError("buffer of the ")
             << kernelName << " in " << type.getMemorySpace()
             << " memory must have a static shape, not " << type;
    bool workgroup = getGPUAddressSpace(type) == gpu::AddressSpace::Workgroup;
    if (workgroup)
      sharedBytes += type.getNumElements() *
                     std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    BlockArgument attribution =
        workgroup ? launch.addWorkgroupAttribution(type, alloc.getLoc())
                  : launch.addPrivateAttribution(type, alloc.getLoc());
    rewriter.replaceUsesWithIf(buffer, attribution, [&](OpOperand &use) {
      return launch->isProperAncestor(use.getOwner());
    });
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
  }
  if (sharedBytes > kMaxStaticSharedBytes)
    return launch.emitOpError("the ")
           << kernelName << " uses " << sharedBytes
           << " bytes of shared memory; at most " << kMaxStaticSharedBytes
           << " can be allocated statically";

  // Anything else allocated inside the kernel would be global memory
  // allocated by every thread.
  WalkResult globalAlloc = launch.walk([&](AllocBufferOp alloc) {
    alloc.emitOpError("allocates global memory inside the ")
        << kernelName
        << "; allocate it outside the bound loops, or in "
           "#gpu.address_space<workgroup|private>";
    return WalkResult::interrupt();
  });
  if (globalAlloc.wasInterrupted())
    return failure();

  insertBarriers(rewriter, body);
  return success();
}

} // namespace
