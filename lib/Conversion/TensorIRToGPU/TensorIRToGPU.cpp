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

#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Whether `op` is a combiner the cross-thread reduction can shuffle.
bool isSupportedCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::AddIOp, arith::MulFOp, arith::MulIOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
             arith::MinUIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op);
}

/// Clones at the insertion point the pure computation of `value` from
/// values defined outside `loop`; fails if it depends on `loop` or a loop
/// inside it.
FailureOr<Value> cloneOutside(OpBuilder &builder, Value value, ForOp loop,
                              IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def) {
    Operation *owner = cast<BlockArgument>(value).getOwner()->getParentOp();
    if (loop->isAncestor(owner))
      return failure();
    return value;
  }
  if (!loop->isAncestor(def))
    return value;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return failure();
  for (Value operand : def->getOperands())
    if (failed(cloneOutside(builder, operand, loop, map)))
      return failure();
  Operation *clone = builder.clone(*def, map);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

/// TVM's LowerCrossThreadReduction for a reduction `block` whose reduce
/// iteration variable `loop` (bound to threadIdx.x) feeds: each thread
/// accumulates its part in a private scalar, warp shuffles (`gpu.shuffle
/// xor`) and a shared array of the warps' results combine the threads, and
/// thread 0 stores the result. Fewer than 32 threads along x (a power of
/// two) are consecutive lanes of one warp: shuffles alone combine them,
/// whatever y and z are. Every thread ends with the result, so each stores
/// it where the target is its own (local) memory.
LogicalResult lowerCrossThreadReduction(RewriterBase &rewriter, PrimFuncOp prim,
                                        ForOp loop, BlockOp block,
                                        const int64_t (&launchSize)[6],
                                        StringRef kernelName) {
  auto error = [&]() {
    return block.emitOpError("'")
           << block.getName() << "' reduces over " << describeLoop(loop)
           << " across threads in the " << kernelName << ": ";
  };
  int64_t lanes = launchSize[3];
  bool withinWarp = lanes < 32;
  if (*loop.getThreadTag() != "threadIdx.x" ||
      loop.getConstantUpperBound() != std::optional<int64_t>(lanes))
    return error() << "the reduction must use all threads of the block "
                      "along threadIdx.x";
  if (!withinWarp && (launchSize[4] != 1 || launchSize[5] != 1))
    return error() << "the reduction must use all threads of the block, "
                      "along threadIdx.x only";
  if (!withinWarp && lanes % 32 != 0)
    return error() << "the number of threads (" << lanes
                   << ") must be a multiple of the warp size, 32";
  int64_t threads = launchSize[3] * launchSize[4] * launchSize[5];
  if (withinWarp && (!llvm::isPowerOf2_64(lanes) || threads % 32 != 0))
    return error() << "a reduction over fewer than 32 threads (" << lanes
                   << ") must be over a power of two of them, in whole warps "
                      "(the block has "
                   << threads << " threads)";
  // Every lane of a warp must reach the shuffles.
  for (Operation *parent = loop->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto outer = dyn_cast<ForOp>(parent);
    if (!outer || outer.getKind() != ForKind::thread_binding)
      continue;
    int index = getHardwareIndex(*outer.getThreadTag());
    if (index >= 3 && outer.getConstantUpperBound() !=
                          std::optional<int64_t>(launchSize[index]))
      return error() << "the reduction must run on every thread: "
                     << describeLoop(outer)
                     << " leaves threads of the block out";
  }
  SmallVector<BlockOp> blocks;
  loop.walk([&](BlockOp b) { blocks.push_back(b); });
  if (blocks.size() != 1)
    return error() << "the threadIdx.x loop must hold only this block";
  std::string why;
  std::optional<ReductionBlock> reduction = matchReductionBlock(block, &why);
  if (!reduction)
    return error() << why;
  Type type = reduction->store.getValue().getType();
  if (!isSupportedCombiner(reduction->combiner) ||
      (!type.isF32() && !type.isInteger(32)))
    return error() << "only 32-bit add/mul/min/max/and/or/xor reductions "
                      "can be combined across threads, not '"
                   << reduction->combiner->getName() << "' on " << type;

  Location loc = block.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  // The private partial result of each thread.
  rewriter.setInsertionPointToStart(&prim.getBody().front());
  auto partialType = MemRefType::get(
      {1}, type, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private));
  Value partial = AllocBufferOp::create(rewriter, loc, partialType, {},
                                        (block.getName() + "_partial").str());
  Block *body = loop.getBodyBlock();
  rewriter.setInsertionPointToStart(body);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value identity = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(reduction->identity));
  memref::StoreOp::create(rewriter, loc, identity, partial, zero);

  // The write-back: thread 0 stores the combined value where the block
  // stored, under the block's predicate terms that do not involve the
  // reduction.
  rewriter.setInsertionPoint(body->getTerminator());
  IRMapping map;
  SmallVector<Value> indices;
  for (unsigned v : reduction->storeIterVars) {
    FailureOr<Value> index =
        cloneOutside(rewriter, block.getBindings()[v], loop, map);
    if (failed(index))
      return error() << "the binding of spatial iteration variable "
                     << block.getIterVarDisplayName(v)
                     << " depends on the reduction's loops";
    indices.push_back(*index);
  }
  // A thread's own target: every thread stores (all hold the result).
  bool everyThreadStores =
      getGPUAddressSpace(reduction->store.getMemRef().getType()) ==
      gpu::AddressSpace::Private;
  Value cond =
      everyThreadStores
          ? arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult()
          : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  loop.getInductionVar(), zero)
                .getResult();
  if (Value pred = block.getPredicate()) {
    SmallVector<Value> terms, worklist{pred};
    while (!worklist.empty()) {
      Value t = worklist.pop_back_val();
      if (auto andOp = t.getDefiningOp<arith::AndIOp>()) {
        worklist.push_back(andOp.getLhs());
        worklist.push_back(andOp.getRhs());
        continue;
      }
      terms.push_back(t);
    }
    for (Value t : terms) {
      IRMapping termMap(map);
      FailureOr<Value> cloned = cloneOutside(rewriter, t, loop, termMap);
      if (succeeded(cloned))
        cond = arith::AndIOp::create(rewriter, loc, cond, *cloned);
    }
  }
  // Butterfly shuffles within each warp, then (more than one warp) the warp
  // results through shared memory and once more within each warp.
  Operation *combiner = reduction->combiner;
  int accOperand = reduction->accOperand;
  auto combine = [&](Value acc, Value other) {
    IRMapping m;
    m.map(combiner->getOperand(accOperand), acc);
    m.map(combiner->getOperand(1 - accOperand), other);
    return rewriter.clone(*combiner, m)->getResult(0);
  };
  auto warpReduce = [&](Value v) {
    for (int32_t offset = std::min<int64_t>(lanes, 32) / 2; offset >= 1;
         offset /= 2) {
      Value shuffled = gpu::ShuffleOp::create(rewriter, loc, v, offset, 32,
                                              gpu::ShuffleMode::XOR)
                           .getShuffleResult();
      v = combine(v, shuffled);
    }
    return v;
  };
  Value result =
      warpReduce(memref::LoadOp::create(rewriter, loc, partial, zero));
  int64_t numWarps = withinWarp ? 1 : lanes / 32;
  if (numWarps > 1) {
    Value tid = loop.getInductionVar();
    Value c32 = arith::ConstantIndexOp::create(rewriter, loc, 32);
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, c32);
    Value warp = arith::DivUIOp::create(rewriter, loc, tid, c32);
    OpBuilder::InsertPoint here = rewriter.saveInsertionPoint();
    rewriter.setInsertionPointToStart(&prim.getBody().front());
    auto sharedType = MemRefType::get(
        {32}, type, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    Value warpResults = AllocBufferOp::create(
        rewriter, loc, sharedType, {}, (block.getName() + "_warps").str());
    rewriter.restoreInsertionPoint(here);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        lane, zero);
    auto store = scf::IfOp::create(rewriter, loc, first, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPoint(store.thenBlock()->getTerminator());
      memref::StoreOp::create(rewriter, loc, result, warpResults, warp);
    }
    // Barriers go around the store (it writes workgroup memory).
    Value valid = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lane,
        arith::ConstantIndexOp::create(rewriter, loc, numWarps));
    Value loaded = memref::LoadOp::create(rewriter, loc, warpResults, lane);
    result = warpReduce(
        arith::SelectOp::create(rewriter, loc, valid, loaded, identity));
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, cond, /*withElse=*/false);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  memref::StoreOp::create(rewriter, loc, result, reduction->store.getMemRef(),
                          indices);

  // The block accumulates into the partial result.
  rewriter.eraseOp(block.getInitOp());
  rewriter.setInsertionPoint(reduction->accLoad);
  Value inner = arith::ConstantIndexOp::create(rewriter, loc, 0);
  rewriter.modifyOpInPlace(reduction->accLoad, [&] {
    reduction->accLoad.getMemrefMutable().assign(partial);
    reduction->accLoad.getIndicesMutable().assign(inner);
  });
  rewriter.modifyOpInPlace(reduction->store, [&] {
    reduction->store.getMemrefMutable().assign(partial);
    reduction->store.getIndicesMutable().assign(inner);
  });
  // Its declared regions change with the buffer.
  refreshAccessRegions(rewriter, block);
  return success();
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

/// Gives the buffers with storage scope shared/local their GPU address
/// space. Their users only index them (loads, stores, blocks' regions), so
/// the type changes in place.
LogicalResult assignAddressSpaces(PrimFuncOp prim) {
  WalkResult result = prim.walk([&](AllocBufferOp alloc) {
    StringRef scope = alloc.getStorageScope();
    if (scope == "global")
      return WalkResult::advance();
    auto type = cast<MemRefType>(alloc.getBuffer().getType());
    gpu::AddressSpace space = scope == "local" ? gpu::AddressSpace::Private
                                               : gpu::AddressSpace::Workgroup;
    if (type.getMemorySpace()) {
      if (getGPUAddressSpace(type) == space)
        return WalkResult::advance();
      alloc.emitOpError("has storage scope \"")
          << scope << "\" but its type " << type
          << " is in another memory space";
      return WalkResult::interrupt();
    }
    for (Operation *user : alloc.getBuffer().getUsers())
      if (!isa<memref::LoadOp, memref::StoreOp, BlockOp>(user)) {
        auto diag = alloc.emitOpError("buffer in storage scope \"")
                    << scope << "\" is used by '" << user->getName()
                    << "'; only loads and stores can address GPU "
                       "shared/local memory";
        diag.attachNote(user->getLoc()) << "used here";
        return WalkResult::interrupt();
      }
    alloc.getBuffer().setType(MemRefType::get(
        type.getShape(), type.getElementType(), type.getLayout(),
        gpu::AddressSpaceAttr::get(alloc.getContext(), space)));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult ConvertTensorIRToGPUPass::convert(PrimFuncOp prim) {
  if (failed(assignAddressSpaces(prim)))
    return failure();
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
  SmallVector<std::pair<ForOp, BlockOp>> crossThread;
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
    if (index >= 3)
      loop.walk([&](BlockOp block) {
        for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
          if (block.isReduceIterVar(i) &&
              dependsOn(block.getBindings()[i], {loop.getInductionVar()})) {
            crossThread.push_back({loop, block});
            return;
          }
      });
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
  for (auto [loop, block] : crossThread)
    if (failed(lowerCrossThreadReduction(rewriter, prim, loop, block,
                                         staticSize, kernelName)))
      return failure();

  rewriter.setInsertionPoint(root);
  Value sizes[6];
  for (int i = 0; i < 6; ++i)
    sizes[i] = dynamicSize[i] ? dynamicSize[i]
                              : arith::ConstantIndexOp::create(rewriter, loc,
                                                               staticSize[i])
                                    .getResult();
  auto launch = gpu::LaunchOp::create(rewriter, loc, sizes[0], sizes[1],
                                      sizes[2], sizes[3], sizes[4], sizes[5]);
  // Kernels are named after their prim_func, and those of one prim_func
  // share a GPU module, also once the function is inlined into its caller
  // (gpu-kernel-outlining uniques the names).
  auto kernelSymbol =
      FlatSymbolRefAttr::get(ctx, (prim.getSymName() + "_kernel").str());
  launch.setModuleAttr(kernelSymbol);
  launch.setFunctionAttr(kernelSymbol);
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

  // Buffers in workgroup/private memory become allocas at the start of this
  // kernel (mlc-gpu-device-memory makes them the launch's attributions, after
  // buffer deallocation, which cannot handle attributions).
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
    rewriter.setInsertionPointToStart(&body);
    Value local = memref::AllocaOp::create(rewriter, alloc.getLoc(), type);
    rewriter.replaceUsesWithIf(buffer, local, [&](OpOperand &use) {
      return launch->isProperAncestor(use.getOwner());
    });
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
  }
  // The Hopper Matmul rule's kernels (a loop annotated "wgmma", mlc's
  // kWgmmaAnnotation) place their shared buffers in dynamic shared memory
  // (mlc-gpu-tensorize-wgmma checks that size).
  bool dynamicShared = launch
                           .walk([](ForOp loop) {
                             DictionaryAttr annotations =
                                 loop.getAnnotationsAttr();
                             return annotations && annotations.get("wgmma")
                                        ? WalkResult::interrupt()
                                        : WalkResult::advance();
                           })
                           .wasInterrupted();
  if (sharedBytes > kMaxStaticSharedBytes && !dynamicShared)
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

  return success();
}

} // namespace
