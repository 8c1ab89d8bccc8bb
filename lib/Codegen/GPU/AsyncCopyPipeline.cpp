//===- AsyncCopyPipeline.cpp - multi-stage cp.async copies into shared ----===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The multistage main loop of CUTLASS (TVM's InjectSoftwarePipeline with
// async stages): the element copies from global into shared memory of a
// kernel's loop become cp.async copies of up to 16 bytes, issued
// `stages - 1` steps ahead into rotating copies of the shared buffers,
// whose rows are padded against bank conflicts.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Codegen/GPU/Utils.h"
#include "llvm/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlc {
#define GEN_PASS_DEF_GPUASYNCCOPYPIPELINEPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using mlc::getGPUAddressSpace;
using mlc::writesGlobalMemory;

namespace {

bool isGlobal(Value memref) {
  return getGPUAddressSpace(memref) == gpu::AddressSpace::Global;
}

/// One element copied: a global load whose only use is a store into a
/// workgroup alloca, or a masked copy: the load selected against zero by
/// one or more `masks` (pad_einsum's padded inputs, a convolution's padding,
/// inlined into the copy), which cp.async does by zero-filling (a source
/// size of 0).
struct ElementCopy {
  memref::LoadOp load;
  memref::StoreOp store;
  /// The selects from the load to the store, innermost first, and their
  /// conditions.
  SmallVector<arith::SelectOp> selects;
  SmallVector<Value> masks;
  /// The innermost source index. When a mask is `x < bound` for the
  /// innermost index `min(x, bound - 1)` (a padded dimension clamped into
  /// the buffer), it is `x`, which stays consecutive along a row; the copy
  /// then clamps whole groups instead.
  Value innerIndex;
  int64_t maskBound = 0;
  /// The position of that mask in `masks`.
  int64_t clampMask = -1;
};

/// The innermost index `x` and the bound of one of `copy`'s masks when its
/// load index is `min(x, bound - 1)` and that mask `x < bound`.
void matchInnerClamp(ElementCopy &copy) {
  copy.innerIndex = copy.load.getIndices().back();
  Operation *min = copy.innerIndex.getDefiningOp();
  if (!min || !isa<arith::MinUIOp, arith::MinSIOp>(min))
    return;
  std::optional<int64_t> last = getConstantIntValue(min->getOperand(1));
  if (!last)
    return;
  for (auto [position, mask] : llvm::enumerate(copy.masks)) {
    auto cmp = mask.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      continue;
    std::optional<int64_t> bound = getConstantIntValue(cmp.getRhs());
    if (!bound || *last + 1 != *bound || *bound <= 0 ||
        cmp.getLhs() != min->getOperand(0) ||
        (cmp.getPredicate() != arith::CmpIPredicate::ult &&
         cmp.getPredicate() != arith::CmpIPredicate::slt))
      continue;
    copy.innerIndex = cmp.getLhs();
    copy.maskBound = *bound;
    copy.clampMask = position;
    return;
  }
}

std::optional<ElementCopy> matchElementCopy(Operation &op) {
  auto load = dyn_cast<memref::LoadOp>(op);
  if (!load || !isGlobal(load.getMemRef()) || !load->hasOneUse() ||
      load.getIndices().empty())
    return std::nullopt;
  ElementCopy copy;
  copy.load = load;
  Value stored = load.getResult();
  while (auto select = dyn_cast<arith::SelectOp>(*stored.getUsers().begin())) {
    if (select.getTrueValue() != stored || !select->hasOneUse() ||
        select->getBlock() != load->getBlock() ||
        !(matchPattern(select.getFalseValue(), m_AnyZeroFloat()) ||
          matchPattern(select.getFalseValue(), m_Zero())))
      return std::nullopt;
    copy.selects.push_back(select);
    copy.masks.push_back(select.getCondition());
    stored = select.getResult();
  }
  auto store = dyn_cast<memref::StoreOp>(*stored.getUsers().begin());
  if (!store || store.getValueToStore() != stored ||
      store->getBlock() != load->getBlock() ||
      !store.getMemRef().getDefiningOp<memref::AllocaOp>() ||
      !mlc::isWorkgroupMemory(store.getMemRef()))
    return std::nullopt;
  copy.store = store;
  matchInnerClamp(copy);
  return copy;
}

/// `index` as one affine expression of its (fully composed) operands.
affine::AffineValueMap getValueMap(Value index) {
  AffineMap map = AffineMap::getMultiDimIdentityMap(1, index.getContext());
  SmallVector<Value> operands{index};
  affine::fullyComposeAffineMapAndOperands(&map, &operands);
  affine::canonicalizeMapAndOperands(&map, &operands);
  return affine::AffineValueMap(map, operands);
}

/// `b - a` when it is a constant.
std::optional<int64_t> getConstantDifference(Value a, Value b) {
  if (a == b)
    return 0;
  affine::AffineValueMap difference;
  affine::AffineValueMap::difference(getValueMap(b), getValueMap(a),
                                     &difference);
  AffineExpr expr =
      simplifyAffineExpr(difference.getResult(0), difference.getNumDims(),
                         difference.getNumSymbols());
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  return std::nullopt;
}

/// Whether `index`, the innermost index into `memref`, addresses a multiple
/// of `elements` elements from the buffer's start (which is 16-byte
/// aligned): the index and every outer stride are multiples.
bool isAligned(Value memref, Value index, int64_t elements) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.getLayout().isIdentity() || type.isDynamicDim(type.getRank() - 1) ||
      type.getDimSize(type.getRank() - 1) % elements != 0)
    return false;
  affine::AffineValueMap map = getValueMap(index);
  return map.getResult(0).getLargestKnownDivisor() % elements == 0;
}

/// `count` element copies from `copies[first]` on that form one async
/// copy: same buffers, same outer indices, innermost indices consecutive
/// and aligned, and the same masks for all: each the same value, or each
/// `x < bound` of its own innermost index with `bound` a multiple of `count`
/// (the aligned group is then wholly inside or wholly outside).
bool formsAsyncCopy(ArrayRef<ElementCopy> copies, size_t first, int64_t count) {
  if (first + count > copies.size())
    return false;
  ElementCopy base = copies[first];
  ValueRange srcIndices = base.load.getIndices();
  ValueRange dstIndices = base.store.getIndices();
  if (dstIndices.empty() ||
      !isAligned(base.load.getMemRef(), base.innerIndex, count) ||
      !isAligned(base.store.getMemRef(), dstIndices.back(), count))
    return false;
  for (int64_t q = 1; q < count; ++q) {
    ElementCopy copy = copies[first + q];
    bool sameMask = copy.masks.size() == base.masks.size();
    for (auto [position, mask] : llvm::enumerate(copy.masks))
      sameMask &=
          mask == base.masks[position] ||
          (base.clampMask == static_cast<int64_t>(position) &&
           copy.clampMask == base.clampMask && base.maskBound % count == 0 &&
           copy.maskBound == base.maskBound);
    if (copy.load.getMemRef() != base.load.getMemRef() ||
        copy.store.getMemRef() != base.store.getMemRef() || !sameMask ||
        copy.load.getIndices().drop_back() != srcIndices.drop_back() ||
        copy.store.getIndices().drop_back() != dstIndices.drop_back() ||
        getConstantDifference(base.innerIndex, copy.innerIndex) != q ||
        getConstantDifference(dstIndices.back(),
                              copy.store.getIndices().back()) != q)
      return false;
  }
  return true;
}

/// An async copy to build: `elements` elements from the indices of
/// `base`'s load to those of its store.
struct AsyncCopy {
  ElementCopy base;
  int64_t elements;
};

/// The ops that read a shared buffer and that this pass can re-index.
bool isReindexableRead(Operation *op, Value buffer) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef() == buffer;
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(op))
    return ldmatrix.getSrcMemref() == buffer;
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getBase() == buffer;
  return false;
}

/// The read `op` of the old buffer as a read of `stage` of `multi`.
void reindexRead(RewriterBase &rewriter, Operation *op, Value multi,
                 Value stage) {
  rewriter.setInsertionPoint(op);
  auto withStage = [&](ValueRange indices) {
    SmallVector<Value> result{stage};
    llvm::append_range(result, indices);
    return result;
  };
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    rewriter.replaceOpWithNewOp<memref::LoadOp>(
        load, multi, withStage(load.getIndices()), load.getNontemporal());
  } else if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    rewriter.replaceOpWithNewOp<nvgpu::LdMatrixOp>(
        ldmatrix, ldmatrix.getRes().getType(), multi,
        withStage(ldmatrix.getIndices()), ldmatrix.getTranspose(),
        ldmatrix.getNumTiles());
  } else {
    auto vload = cast<vector::LoadOp>(op);
    rewriter.replaceOpWithNewOp<vector::LoadOp>(
        vload, vload.getVectorType(), multi, withStage(vload.getIndices()));
  }
}

/// One stage of a buffer: rows of an even number of 16-byte chunks padded
/// by one, so that the 8 rows an ldmatrix (or a warp's vector accesses)
/// reads start in 8 different groups of 4 banks (TVM dlight's padded
/// shared tiles).
SmallVector<int64_t> getStageShape(MemRefType type, bool pad) {
  SmallVector<int64_t> shape(type.getShape());
  // Rows longer than shared memory (hostile shapes) are never padded.
  std::optional<int64_t> rowBits =
      llvm::checkedMul(shape.back(), int64_t(type.getElementTypeBitWidth()));
  int64_t rowBytes =
      rowBits && *rowBits < (int64_t(1) << 40) ? *rowBits / 8 : 8;
  if (pad && type.getRank() >= 2 && rowBytes % 16 == 0 &&
      (rowBytes / 16) % 2 == 0)
    shape.back() += 16 * 8 / type.getElementTypeBitWidth();
  return shape;
}

class Pipeliner {
public:
  Pipeliner(scf::ForOp loop, int64_t stages, bool pad)
      : loop(loop), stages(stages), pad(pad) {}

  LogicalResult run();

private:
  LogicalResult matchCopies();
  LogicalResult collectSlice();
  /// The async copies of step `iv` into `stage`, predicated by `inRange`
  /// when given; returns their group's token.
  Value emitCopies(OpBuilder &builder, Value iv, Value stage, Value inRange);

  scf::ForOp loop;
  int64_t stages;
  bool pad;
  int64_t lower = 0, upper = 0, step = 1;
  /// A dynamic upper bound (step 1), computed before the loop: e.g. a
  /// causal attention's last key tile, which depends on the query tile.
  Value dynamicUpper;
  SmallVector<AsyncCopy> asyncCopies;
  /// The element copies' loads, masks and stores, erased once replaced.
  SmallVector<Operation *> copyOps;
  /// The index computations of the copies, in program order.
  SmallVector<Operation *> slice;
  /// The shared buffers written and their multi-buffered replacements.
  llvm::SetVector<Value> buffers;
  DenseMap<Value, Value> multiBuffers;
};

LogicalResult Pipeliner::matchCopies() {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> st = getConstantIntValue(loop.getStep());
  if (!lb || !st || *st <= 0 || loop.getNumRegionIterArgs())
    return failure();
  lower = *lb;
  step = *st;
  if (!ub) {
    // A dynamic trip count, possibly below the stages: every copy, the
    // prologue's too, is predicated on its step.
    if (step != 1)
      return failure();
    dynamicUpper = loop.getUpperBound();
  } else {
    if (llvm::divideCeil(*ub - *lb, *st) < 2)
      return failure();
    // The last step's start plus one step: iterations past it are off.
    upper = *lb + llvm::divideCeil(*ub - *lb, *st) * *st;
    stages = std::min<int64_t>(stages, llvm::divideCeil(*ub - *lb, *st));
  }

  // Tensor-core loops only: the SIMT Matmul rule's 8 x 8 register tile
  // leaves no register for the copies' addresses (its 4 x 4 tile keeps the
  // register prefetch of mlc-gpu-pipeline-shared-copies).
  if (!loop.getBody()
           ->walk([](nvgpu::MmaSyncOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return failure();
  SmallVector<ElementCopy> copies;
  for (Operation &op : loop.getBody()->without_terminator())
    if (std::optional<ElementCopy> copy = matchElementCopy(op))
      copies.push_back(*copy);
  if (copies.empty() || writesGlobalMemory(loop))
    return failure();
  // Widest first: 16, 8, then 4 bytes; anything else stays synchronous,
  // so the loop is left alone.
  for (size_t i = 0; i < copies.size();) {
    unsigned bits = copies[i].load.getType().getIntOrFloatBitWidth();
    int64_t width = 0;
    for (int64_t bytes : {16, 8, 4}) {
      int64_t count = bytes * 8 / bits;
      if (count >= 1 && count * bits == bytes * 8 &&
          formsAsyncCopy(copies, i, count)) {
        width = count;
        break;
      }
    }
    if (width == 0)
      return failure();
    asyncCopies.push_back({copies[i], width});
    i += width;
  }
  for (ElementCopy copy : copies) {
    copyOps.push_back(copy.store);
    llvm::append_range(copyOps, llvm::reverse(copy.selects));
    copyOps.push_back(copy.load);
    buffers.insert(copy.store.getMemRef());
  }
  // The buffers: written by these copies only, read in the loop only, after
  // the copies of the same step.
  Operation *lastCopy = copies.back().store;
  for (ElementCopy copy : copies)
    if (lastCopy->isBeforeInBlock(copy.store))
      lastCopy = copy.store;
  for (Value buffer : buffers) {
    for (OpOperand &use : buffer.getUses()) {
      Operation *user = use.getOwner();
      if (llvm::is_contained(copyOps, user))
        continue;
      if (!loop->isProperAncestor(user) || !isReindexableRead(user, buffer))
        return failure();
      Operation *statement = loop.getBody()->findAncestorOpInBlock(*user);
      if (!statement || !lastCopy->isBeforeInBlock(statement))
        return failure();
    }
  }
  return success();
}

LogicalResult Pipeliner::collectSlice() {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> needed;
  SmallVector<Value> worklist;
  for (AsyncCopy copy : asyncCopies) {
    llvm::append_range(worklist, copy.base.load.getIndices().drop_back());
    worklist.push_back(copy.base.innerIndex);
    llvm::append_range(worklist, copy.base.store.getIndices());
    llvm::append_range(worklist, copy.base.masks);
  }
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def))
      continue;
    if (!isPure(def) || def->getNumRegions())
      return failure();
    llvm::append_range(worklist, def->getOperands());
  }
  for (Operation &op : body->without_terminator())
    if (needed.contains(&op))
      slice.push_back(&op);
  return success();
}

Value Pipeliner::emitCopies(OpBuilder &builder, Value iv, Value stage,
                            Value inRange) {
  Location loc = loop.getLoc();
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation *op : slice)
    builder.clone(*op, mapping);
  SmallVector<Value> tokens;
  for (AsyncCopy copy : asyncCopies) {
    SmallVector<Value> srcIndices, dstIndices{stage};
    for (Value index : copy.base.load.getIndices().drop_back())
      srcIndices.push_back(mapping.lookupOrDefault(index));
    Value inner = mapping.lookupOrDefault(copy.base.innerIndex);
    if (copy.base.maskBound != 0) {
      // The group's start clamped into the buffer (masked groups read
      // nothing, but their address stays valid).
      inner = arith::MinUIOp::create(
          builder, loc, inner,
          arith::ConstantIndexOp::create(builder, loc,
                                         copy.base.maskBound - copy.elements));
    }
    srcIndices.push_back(inner);
    for (Value index : copy.base.store.getIndices())
      dstIndices.push_back(mapping.lookupOrDefault(index));
    // Steps past the last and masked elements read nothing (zero-fill).
    Value copied = inRange;
    for (Value base : copy.base.masks) {
      Value mask = mapping.lookupOrDefault(base);
      copied =
          copied ? arith::AndIOp::create(builder, loc, copied, mask) : mask;
    }
    Value srcElements;
    if (copied)
      srcElements = arith::SelectOp::create(
          builder, loc, copied,
          arith::ConstantIndexOp::create(builder, loc, copy.elements),
          arith::ConstantIndexOp::create(builder, loc, 0));
    // cp.async.cg (bypassing L1) exists for 16 bytes only.
    unsigned bytes =
        copy.elements * copy.base.load.getType().getIntOrFloatBitWidth() / 8;
    auto asyncCopy = nvgpu::DeviceAsyncCopyOp::create(
        builder, loc, nvgpu::DeviceAsyncTokenType::get(builder.getContext()),
        multiBuffers.lookup(copy.base.store.getMemRef()), dstIndices,
        copy.base.load.getMemRef(), srcIndices,
        builder.getIndexAttr(copy.elements), srcElements,
        bytes == 16 ? builder.getUnitAttr() : UnitAttr());
    tokens.push_back(asyncCopy.getAsyncToken());
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      builder, loc, nvgpu::DeviceAsyncTokenType::get(builder.getContext()),
      tokens);
}

/// Static shared memory of a kernel (PTX's limit for `.shared` variables).
constexpr int64_t kStaticSharedBytes = 48 * 1024;

LogicalResult Pipeliner::run() {
  if (failed(matchCopies()) || failed(collectSlice()))
    return failure();
  // As many stages as fit beside the kernel's other shared buffers.
  // Each size capped at the limit, so that the sums cannot overflow.
  auto capped = [](std::optional<int64_t> bytes) {
    return std::min<int64_t>(bytes.value_or(kStaticSharedBytes + 1),
                             kStaticSharedBytes + 1);
  };
  int64_t otherBytes = 0, stageBytes = 0;
  loop->getParentOfType<gpu::LaunchOp>().walk([&](memref::AllocaOp alloca) {
    if (!mlc::isWorkgroupMemory(alloca) || buffers.contains(alloca.getResult()))
      return;
    otherBytes += capped(mlc::getStaticByteSize(alloca.getType()));
  });
  for (Value buffer : buffers) {
    auto type = cast<MemRefType>(buffer.getType());
    stageBytes += capped(mlc::getStaticByteSize(
        MemRefType::get(getStageShape(type, pad), type.getElementType())));
  }
  while (stages > 2 && otherBytes + stages * stageBytes > kStaticSharedBytes)
    --stages;
  if (otherBytes + stages * stageBytes > kStaticSharedBytes)
    return failure();
  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();

  // The buffers with a leading stage dimension.
  for (Value buffer : buffers) {
    auto alloca = buffer.getDefiningOp<memref::AllocaOp>();
    auto type = cast<MemRefType>(buffer.getType());
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, getStageShape(type, pad));
    rewriter.setInsertionPoint(alloca);
    auto multi = memref::AllocaOp::create(
        rewriter, alloca.getLoc(),
        MemRefType::get(shape, type.getElementType(), AffineMap(),
                        type.getMemorySpace()),
        alloca.getAlignmentAttr());
    multiBuffers[buffer] = multi;
  }

  // The end of the steps, and the start of the last step (where the copies
  // of the steps past it point, reading nothing).
  rewriter.setInsertionPoint(loop);
  Value end, lastStart;
  if (dynamicUpper) {
    end = dynamicUpper;
    Value lowerValue = arith::ConstantIndexOp::create(rewriter, loc, lower);
    lastStart = arith::MaxSIOp::create(
        rewriter, loc,
        arith::SubIOp::create(
            rewriter, loc, end,
            arith::ConstantIndexOp::create(rewriter, loc, step)),
        lowerValue);
  } else {
    end = arith::ConstantIndexOp::create(rewriter, loc, upper);
    lastStart = arith::ConstantIndexOp::create(rewriter, loc, upper - step);
  }

  // Prologue: steps 0 .. stages - 2, a group each; step 0 waited for.
  Value lastPrologueGroup;
  for (int64_t s = 0; s + 1 < stages; ++s) {
    Value iv = arith::ConstantIndexOp::create(rewriter, loc, lower + s * step);
    Value stage = arith::ConstantIndexOp::create(rewriter, loc, s);
    Value inRange;
    if (dynamicUpper) {
      inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                      iv, end);
      iv = arith::MinSIOp::create(rewriter, loc, iv, lastStart);
    }
    lastPrologueGroup = emitCopies(rewriter, iv, stage, inRange);
  }
  nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, lastPrologueGroup,
                                   rewriter.getI32IntegerAttr(stages - 2));
  gpu::BarrierOp::create(rewriter, loc);

  // The body: step k + stages - 1 into the buffer that step k - 1 read,
  // then step k's compute, then wait for step k + 1.
  Value iv = loop.getInductionVar();
  rewriter.setInsertionPointToStart(loop.getBody());
  AffineExpr d0 = rewriter.getAffineDimExpr(0);
  AffineExpr stepIndex = (d0 - lower).floorDiv(step);
  Value ahead = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(1, 0, d0 + (stages - 1) * step), iv);
  Value inRange = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::slt, ahead, end);
  // Past the last step nothing is read; the address stays in bounds.
  Value clamped = arith::MinSIOp::create(rewriter, loc, ahead, lastStart);
  Value aheadStage = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(1, 0, (stepIndex + stages - 1) % stages),
      iv);
  Value group = emitCopies(rewriter, clamped, aheadStage, inRange);
  Value stage = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(1, 0, stepIndex % stages), iv);
  for (Value buffer : buffers) {
    SmallVector<Operation *> reads;
    for (Operation *user : buffer.getUsers())
      if (!llvm::is_contained(copyOps, user))
        reads.push_back(user);
    for (Operation *read : reads)
      reindexRead(rewriter, read, multiBuffers.lookup(buffer), stage);
  }
  rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, group,
                                   rewriter.getI32IntegerAttr(stages - 2));
  gpu::BarrierOp::create(rewriter, loc);
  // The groups past the last step (nothing read) are drained.
  rewriter.setInsertionPointAfter(loop);
  nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, lastPrologueGroup,
                                   rewriter.getI32IntegerAttr(0));

  // The element copies go (each copy's store, mask and load, in that order
  // in copyOps: users first); their index computations too, once unused.
  for (Operation *op : copyOps)
    rewriter.eraseOp(op);
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      rewriter.eraseOp(op);
  for (Value buffer : buffers)
    rewriter.eraseOp(buffer.getDefiningOp());
  // The index computations of the other element copies, now unused.
  SmallVector<Operation *> bodyOps;
  for (Operation &op : loop.getBody()->without_terminator())
    bodyOps.push_back(&op);
  for (Operation *op : llvm::reverse(bodyOps))
    if (op->use_empty() && isPure(op))
      rewriter.eraseOp(op);

  return success();
}

/// The padding of getStageShape for the workgroup buffers that ldmatrix
/// reads and no pipeline multi-buffered (e.g. a flash-attention kernel's Q
/// tile, copied once before its loop), while the kernel's static shared
/// memory stays within the limit (after the pipelines took their stages).
/// Loads, stores and ldmatrix index rows and columns as they are, so the
/// padding only changes the buffer's type; multi-buffered rows are padded
/// already, to an odd number of 16-byte pieces, and stay as they are.
void padLdmatrixSources(Operation *root) {
  auto bytes = [](MemRefType type) {
    return mlc::getStaticByteSize(type).value_or(kStaticSharedBytes + 1);
  };
  root->walk([&](gpu::LaunchOp launch) {
    int64_t sharedBytes = 0;
    SmallVector<memref::AllocaOp> candidates;
    launch.walk([&](memref::AllocaOp alloca) {
      MemRefType type = alloca.getType();
      if (!mlc::isWorkgroupMemory(alloca) || !type.hasStaticShape())
        return;
      sharedBytes += bytes(type);
      bool readByLdmatrix = false, indexedOnly = true;
      for (Operation *user : alloca->getUsers()) {
        readByLdmatrix |= isa<nvgpu::LdMatrixOp>(user);
        indexedOnly &= isa<nvgpu::LdMatrixOp, memref::LoadOp, memref::StoreOp,
                           vector::LoadOp, vector::StoreOp>(user);
      }
      if (readByLdmatrix && indexedOnly && type.getLayout().isIdentity() &&
          getStageShape(type, /*pad=*/true) != type.getShape())
        candidates.push_back(alloca);
    });
    for (memref::AllocaOp alloca : candidates) {
      MemRefType type = alloca.getType();
      SmallVector<int64_t> shape = getStageShape(type, /*pad=*/true);
      auto padded =
          MemRefType::get(shape, type.getElementType(),
                          MemRefLayoutAttrInterface(), type.getMemorySpace());
      int64_t extra = bytes(padded) - bytes(type);
      if (sharedBytes + extra > kStaticSharedBytes)
        continue;
      sharedBytes += extra;
      alloca.getResult().setType(padded);
    }
  });
}

struct GPUAsyncCopyPipelinePass
    : public mlc::impl::GPUAsyncCopyPipelinePassBase<GPUAsyncCopyPipelinePass> {
  using Base::Base;

  void runOnOperation() override {
    if (stages < 2 || stages > 8) {
      getOperation().emitError("mlc-gpu-async-copy-pipeline: stages must be "
                               "in [2, 8], got ")
          << static_cast<int64_t>(stages);
      return signalPassFailure();
    }
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      launch.getBody().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    });
    for (scf::ForOp loop : loops)
      (void)Pipeliner(loop, stages, pad).run();
    if (pad)
      padLdmatrixSources(getOperation());
  }
};

} // namespace
