//===- TensorizeWgmma.cpp - wgmma loop nests to TMA + warpgroup MMA -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The Hopper Matmul rule leaves, in each thread block of one warpgroup, a
// loop nest computing a 128 x N tile of C (N = 128, or 64 for narrow GEMMs)
// in shared memory over all of K (each thread one row: a correct SIMT
// program, and what the host emulation runs). Here that nest becomes what
// Hopper runs: thread 0 loads 128 x 64 tiles of A and 64 x N tiles of B
// with TMA into a ring of shared-memory stages (128-byte swizzle, zero fill
// past the ends), each stage's arrival tracked by an mbarrier, while the
// warpgroup multiplies the stages that have arrived with wgmma.mma_async
// (m64nNk16) into registers; the accumulator is stored to the tile's shared
// buffer at the end, where the rule's write-back (with the fused epilogue)
// reads it. The layout of the stages follows upstream MLIR's sm90 GEMM
// integration tests: A as one 128 x 64 box, B as N / 64 boxes of 64 x 64
// side by side, B transposed for wgmma (N contiguous). An implicit GEMM's A
// (`wgmma_a = "gather"`) is copied by the threads instead, in the same
// swizzled layout.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Codegen/GPU/Utils.h"

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_GPUTENSORIZEWGMMAPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using mlc::tensorir::cloneValue;
using mlc::tensorir::dependsOn;

namespace {

/// The tile of C (M x N), the K of one stage, and the warpgroup's threads.
constexpr int64_t kTileM = 128, kTileK = 64, kThreads = 128;
/// B's boxes are 64 columns wide: 128 bytes, the widest row the 128-byte
/// swizzle allows.
constexpr int64_t kBoxN = 64;
/// Shared-memory stages in flight (32 KiB each): three let two thread
/// blocks share an SM, one's epilogue overlapping the other's main loop
/// (an H200 measured 2, 3 and 4 stages at 0.059, 0.061, 0.067 ms for
/// 4096 x 768 x 3072 and 0.242, 0.236, 0.250 ms for 4096^3, f16).
constexpr int64_t kMaxStages = 3;
/// The 128-byte swizzle wants its tiles 1024-byte aligned.
constexpr int64_t kStageAlignment = 1024;
/// Shared memory a thread block may use on sm_90 (227 KiB).
constexpr int64_t kMaxSharedBytes = 227 * 1024;
/// The most dimensions a tensor map has.
constexpr int64_t kMaxTensorMapRank = 5;
/// Spins of one mbarrier.try_wait before it is retried.
constexpr int64_t kWaitTicks = 10000000;

/// One annotated nest: `tile` (N) { k (K) { [if (row < M)] { [if (k == 0)
/// C[.., row, n] = 0]; C[.., row, n] += extf(A[.., row, k]) *
/// extf(B[.., k, n]) } } }, row and n offsets of the thread id and `tile`'s
/// variable.
struct WgmmaNest {
  scf::ForOp tile, kLoop;
  /// The tile's columns: the wgmma's N (m64n128k16 or m64n64k16).
  int64_t tileN;
  memref::LoadOp a, b;
  memref::StoreOp store;
  memref::AllocaOp acc;
  gpu::LaunchOp launch;
  int64_t k;
  /// A gathered by the threads (`wgmma_a = "gather"`): the value the nest
  /// multiplies, `a` or select(aPredicate, a, 0), and the conditions of the
  /// scf.ifs around the accumulation that depend on the thread (its row is
  /// in range).
  bool gatherA = false;
  Value aPredicate;
  SmallVector<Value> rowGuards;
  /// B read at (rows.., n) whose leading indices, functions of k alone,
  /// address row k of B with its leading dimensions collapsed (an HWIO
  /// weight).
  bool collapseB = false;
};

FailureOr<WgmmaNest> matchNest(scf::ForOp tile, int64_t tileN, bool gatherA,
                               std::string &why) {
  WgmmaNest nest;
  nest.tile = tile;
  nest.tileN = tileN;
  nest.gatherA = gatherA;
  nest.launch = tile->getParentOfType<gpu::LaunchOp>();
  if (!nest.launch) {
    why = "it is not inside a gpu.launch";
    return failure();
  }
  auto isConstant = [](Value v, int64_t c) {
    std::optional<int64_t> value = getConstantIntValue(v);
    return value && *value == c;
  };
  if (!isConstant(nest.launch.getBlockSizeX(), kThreads) ||
      !isConstant(nest.launch.getBlockSizeY(), 1) ||
      !isConstant(nest.launch.getBlockSizeZ(), 1)) {
    why = "its launch is not one warpgroup (128 x 1 x 1 threads)";
    return failure();
  }
  if (!isConstant(tile.getLowerBound(), 0) ||
      !isConstant(tile.getUpperBound(), tileN) ||
      !isConstant(tile.getStep(), 1)) {
    why =
        "the tile loop does not run over " + std::to_string(tileN) + " columns";
    return failure();
  }
  SmallVector<scf::ForOp> inner;
  tile.getBody()->walk([&](scf::ForOp l) { inner.push_back(l); });
  if (inner.size() != 1 || !isConstant(inner[0].getLowerBound(), 0) ||
      !isConstant(inner[0].getStep(), 1) ||
      !getConstantIntValue(inner[0].getUpperBound())) {
    why = "the tile loop does not hold exactly one K loop of static extent";
    return failure();
  }
  nest.kLoop = inner[0];
  nest.k = *getConstantIntValue(nest.kLoop.getUpperBound());
  Value kIv = nest.kLoop.getInductionVar();
  Value nIv = tile.getInductionVar();
  Value tx = nest.launch.getThreadIds().x;

  // The accumulation: the one store whose value is acc + extf(a) * extf(b).
  SmallVector<memref::StoreOp> stores;
  nest.kLoop.walk([&](memref::StoreOp s) { stores.push_back(s); });
  for (memref::StoreOp s : stores) {
    auto add = s.getValue().getDefiningOp<arith::AddFOp>();
    if (!add)
      continue;
    for (int accOperand = 0; accOperand < 2; ++accOperand) {
      auto accLoad =
          add->getOperand(accOperand).getDefiningOp<memref::LoadOp>();
      auto mul = add->getOperand(1 - accOperand).getDefiningOp<arith::MulFOp>();
      if (!accLoad || !mul || accLoad.getMemRef() != s.getMemRef())
        continue;
      SmallVector<Value> operands;
      for (Value operand : mul->getOperands())
        if (auto ext = operand.getDefiningOp<arith::ExtFOp>())
          operands.push_back(ext.getIn());
      if (operands.size() != 2)
        continue;
      // A's row follows the thread, not the column; B's column the tile
      // loop, not the thread.
      for (int first = 0; first < 2; ++first) {
        Value aPredicate, bPredicate;
        memref::LoadOp a =
            mlc::matchZeroPaddedLoad(operands[first], &aPredicate);
        memref::LoadOp b =
            mlc::matchZeroPaddedLoad(operands[1 - first], &bPredicate);
        if (!a || !b || bPredicate || (aPredicate && !gatherA))
          continue;
        if (gatherA ? !dependsOn(operands[first], {tx}) ||
                          dependsOn(operands[first], {nIv})
                    : a.getIndices().size() < 2 ||
                          !dependsOn(a.getIndices().drop_back().back(), {tx}) ||
                          dependsOn(a.getIndices().drop_back().back(), {nIv}) ||
                          a.getIndices().back() != kIv)
          continue;
        if (b.getIndices().size() < 2 ||
            !dependsOn(b.getIndices().back(), {nIv}) ||
            dependsOn(b.getIndices().back(), {tx}))
          continue;
        bool collapseB = false;
        if (b.getIndices().drop_back().back() != kIv) {
          // Evaluated with k alone known: an index that uses the thread or
          // the column has no value.
          if (!b.getMemRefType().hasStaticShape() ||
              !mlc::addressesRows(b, kIv, nest.k, DenseMap<Value, int64_t>()))
            continue;
          collapseB = true;
        }
        nest.a = a;
        nest.b = b;
        nest.aPredicate = aPredicate;
        nest.collapseB = collapseB;
        nest.store = s;
      }
    }
  }
  if (!nest.store) {
    why = gatherA ? "it does not accumulate extf(A) * extf(B[.., k, n]) with "
                    "A ([select(c, ] load [, 0)]) depending on the thread and "
                    "B's rows on k"
                  : "it does not accumulate extf(A[.., row, k]) * "
                    "extf(B[.., k, n])";
    return failure();
  }
  // The guards of the accumulation: those of the thread's row (which a
  // gathered A's copies take as their predicate) and those of the column
  // (which TMA's zero fill and the write-back's masks cover).
  for (Operation *op = nest.store->getParentOp(); gatherA && op != nest.kLoop;
       op = op->getParentOp()) {
    auto guard = dyn_cast<scf::IfOp>(op);
    if (!guard) {
      why = "its accumulation is nested in a '" +
            op->getName().getStringRef().str() + "' inside the K loop";
      return failure();
    }
    // Its conjuncts (a block's predicate: row < M and col < N).
    SmallVector<Value> conjuncts{guard.getCondition()};
    while (!conjuncts.empty()) {
      Value condition = conjuncts.pop_back_val();
      if (auto both = condition.getDefiningOp<arith::AndIOp>()) {
        conjuncts.append({both.getLhs(), both.getRhs()});
        continue;
      }
      bool onColumn = dependsOn(condition, {nIv});
      if (dependsOn(condition, {kIv}) ||
          (onColumn && dependsOn(condition, {tx}))) {
        why = "a guard of its accumulation depends on k, or on both the row "
              "and the column";
        return failure();
      }
      if (!onColumn)
        nest.rowGuards.push_back(condition);
    }
  }
  nest.acc = nest.store.getMemRef().getDefiningOp<memref::AllocaOp>();
  MemRefType accType = nest.store.getMemRefType();
  // A GEMM of fewer than 128 rows or columns has its accumulator shrunk to
  // them (tensorir-compact-buffer-allocation); leading dimensions are 1.
  auto isTile = [&](MemRefType type) {
    if (type.getRank() < 2 || !type.hasStaticShape())
      return false;
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rows = shape[shape.size() - 2], columns = shape.back();
    return llvm::all_of(shape.drop_back(2), [](int64_t d) { return d == 1; }) &&
           rows >= 1 && rows <= kTileM && columns >= 1 && columns <= tileN;
  };
  if (!nest.acc ||
      !nest.acc->getParentRegion()->isAncestor(&nest.launch.getBody()) ||
      !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(accType) ||
      !accType.getElementType().isF32() || !isTile(accType)) {
    why = "its accumulator is no f32 buffer of at most 128 x " +
          std::to_string(tileN) + " in the kernel's shared memory";
    return failure();
  }
  for (Operation *user : nest.acc->getUsers())
    if (!tile->isAncestor(user) && !tile->isBeforeInBlock(user) &&
        !(user->getBlock() != tile->getBlock() &&
          tile->getBlock()->findAncestorOpInBlock(*user) &&
          tile->isBeforeInBlock(
              tile->getBlock()->findAncestorOpInBlock(*user)))) {
      why = "its accumulator is used before the nest";
      return failure();
    }
  // A smaller accumulator is read and written in place in the whole tile
  // (a strided view), which loads and stores accept.
  if (accType.getNumElements() != kTileM * tileN)
    for (Operation *user : nest.acc->getUsers())
      if (!tile->isAncestor(user) &&
          !isa<memref::LoadOp, memref::StoreOp>(user)) {
        why = "its accumulator, smaller than the tile, is used by '" +
              user->getName().getStringRef().str() +
              "' after the nest; only loads and stores can read it there";
        return failure();
      }
  if (gatherA && nest.a.getMemRefType().getShape().back() % 8 != 0) {
    why = "the rows of the gathered A are no whole number of 16-byte pieces";
    return failure();
  }
  for (memref::LoadOp load : {nest.a, nest.b}) {
    MemRefType type = load.getMemRefType();
    if (!isa<Float16Type, BFloat16Type>(type.getElementType()) ||
        type.getElementType() != nest.a.getMemRefType().getElementType() ||
        !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getRank() > 5 ||
        nest.launch->isAncestor(
            load.getMemRef().getParentRegion()->getParentOp())) {
      why = "A and B are not f16 or bf16 buffers of static shape and "
            "identity layout (rank <= 5) defined outside the kernel";
      return failure();
    }
    // TMA reads rows of whole 16-byte pieces.
    if (type.getShape().back() * 2 % 16 != 0) {
      why = "a row of A or B is no whole number of 16-byte pieces";
      return failure();
    }
  }
  return nest;
}

class WgmmaBuilder {
public:
  WgmmaBuilder(WgmmaNest nest)
      : nest(nest), b(nest.tile), loc(nest.tile.getLoc()),
        workgroup(gpu::AddressSpaceAttr::get(nest.tile.getContext(),
                                             gpu::AddressSpace::Workgroup)),
        elementType(nest.a.getMemRefType().getElementType()) {}

  LogicalResult build() {
    const int64_t kTiles = llvm::divideCeil(nest.k, kTileK);
    const int64_t stages = std::clamp<int64_t>(kTiles, 2, kMaxStages);
    const int64_t aBytes = kTileM * kTileK * 2,
                  bBytes = kTileK * nest.tileN * 2;
    const int64_t stageBytes = aBytes + bBytes;
    // The bytes TMA brings into a stage (its mbarrier's transaction count):
    // not A's when the threads gather it.
    tmaBytes = nest.gatherA ? bBytes : stageBytes;
    const int64_t dynamicBytes =
        kStageAlignment +
        std::max<int64_t>(stages * stageBytes, kTileM * nest.tileN * 4);
    int64_t staticBytes = 0;
    nest.launch.walk([&](memref::AllocaOp alloca) {
      MemRefType type = alloca.getType();
      if (alloca != nest.acc &&
          gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
        // Capped at the limit, so that the sum cannot overflow.
        staticBytes += std::min<int64_t>(
            mlc::getStaticByteSize(type).value_or(kMaxSharedBytes + 1),
            kMaxSharedBytes + 1);
    });
    if (staticBytes + dynamicBytes > kMaxSharedBytes)
      return nest.tile.emitError("the wgmma kernel needs ")
             << staticBytes + dynamicBytes
             << " bytes of shared memory; a thread block has at most "
             << kMaxSharedBytes;
    if (nest.launch.getDynamicSharedMemorySize())
      return nest.tile.emitError(
          "the wgmma kernel's launch has dynamic shared memory already");

    // Host: the tensor maps of A (unless the threads gather it) and B
    // (their boxes outermost first); B's leading dimensions collapsed into
    // its K rows when it is read so.
    OpBuilder host(nest.launch);
    Value aMap;
    if (!nest.gatherA)
      aMap = createTensorMap(host, nest.a.getMemRef(), {kTileM, kTileK});
    Value bMemref = nest.b.getMemRef();
    if (nest.collapseB) {
      int64_t rank = nest.b.getMemRefType().getRank();
      ReassociationIndices rows =
          llvm::to_vector(llvm::seq<int64_t>(0, rank - 1));
      bMemref = memref::CollapseShapeOp::create(
          host, loc, bMemref, ArrayRef<ReassociationIndices>{rows, {rank - 1}});
    }
    Value bMap = createTensorMap(host, bMemref, {kTileK, kBoxN});
    Value dynamicSize = arith::ConstantIntOp::create(
        host, loc, host.getI32Type(), dynamicBytes);
    nest.launch.getDynamicSharedMemorySizeMutable().assign(dynamicSize);

    // The tile's origin: the load indices with the thread, the column and
    // k at 0 (rows of A and columns of B then start at the tile's).
    IRMapping atOrigin;
    Value zero = index(0);
    atOrigin.map(nest.launch.getThreadIds().x, zero);
    atOrigin.map(nest.tile.getInductionVar(), zero);
    atOrigin.map(nest.kLoop.getInductionVar(), zero);
    SmallVector<Value> aOrigin, bOrigin;
    if (!nest.gatherA)
      for (Value i : nest.a.getIndices())
        aOrigin.push_back(cloneValue(i, atOrigin, b, nest.tile));
    if (nest.collapseB)
      bOrigin = {
          zero, cloneValue(nest.b.getIndices().back(), atOrigin, b, nest.tile)};
    else
      for (Value i : nest.b.getIndices())
        bOrigin.push_back(cloneValue(i, atOrigin, b, nest.tile));

    // Kernel: the stages in dynamic shared memory, 1024-byte aligned.
    dynamic = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dynamic);
    Value misalignment =
        arith::RemUIOp::create(b, loc, address, index(kStageAlignment));
    base = arith::RemUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, index(kStageAlignment), misalignment),
        index(kStageAlignment));
    // A gathered A's descriptors take their layout (the 128-byte swizzle)
    // from the type of a map that is never read.
    if (nest.gatherA)
      aMap = UnrealizedConversionCastOp::create(
                 b, loc, getTensorMapType(2, {kTileM, kTileK}),
                 ValueRange{LLVM::ZeroOp::create(
                     b, loc, LLVM::LLVMPointerType::get(b.getContext()))})
                 .getResult(0);

    auto barrierType =
        nvgpu::MBarrierGroupType::get(b.getContext(), workgroup, stages);
    barriers = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
    Value tx = nest.launch.getThreadIds().x;
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tx, index(0));
    ifThen(first, [&] {
      for (int64_t s = 0; s < stages; ++s)
        nvgpu::MBarrierInitOp::create(b, loc, barriers, index(1), index(s),
                                      Value());
      if (aMap && !nest.gatherA)
        nvgpu::TmaPrefetchOp::create(b, loc, aMap, Value());
      nvgpu::TmaPrefetchOp::create(b, loc, bMap, Value());
    });
    gpu::BarrierOp::create(b, loc);

    // Thread 0 issues the TMA loads of k-tile t into stage t mod `stages`.
    auto issue = [&](Value t) {
      Value stage = arith::RemUIOp::create(b, loc, t, index(stages));
      Value stageBase = stageOffset(stage, stageBytes);
      nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers, index(tmaBytes),
                                              stage, Value());
      Value k0 = arith::MulIOp::create(b, loc, t, index(kTileK));
      if (!nest.gatherA) {
        SmallVector<Value> aCoords(aOrigin);
        aCoords.back() = k0;
        loadTile(aMap, aCoords, stageBase, stage);
      }
      for (int64_t half = 0; half < nest.tileN / kBoxN; ++half) {
        SmallVector<Value> bCoords(bOrigin);
        bCoords[bCoords.size() - 2] = k0;
        bCoords.back() =
            arith::AddIOp::create(b, loc, bOrigin.back(), index(half * kBoxN));
        Value at = arith::AddIOp::create(
            b, loc, stageBase, index(aBytes + half * kTileK * kBoxN * 2));
        loadTile(bMap, bCoords, at, stage);
      }
    };
    // With a gathered A, every thread also copies its part of A's k-tile t
    // (one cp.async group per k-tile).
    auto issueAll = [&](Value t) {
      ifThen(first, [&] { issue(t); });
      if (!nest.gatherA)
        return;
      Value stage = arith::RemUIOp::create(b, loc, t, index(stages));
      gatherTile(t, stageOffset(stage, stageBytes));
    };
    auto prologue = [&](llvm::function_ref<void(Value)> body) {
      scf::ForOp loop = scf::ForOp::create(
          b, loc, index(0), index(std::min(stages - 1, kTiles)), index(1));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      body(loop.getInductionVar());
    };
    if (nest.gatherA)
      prologue([&](Value t) {
        issueAll(t);
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
      });
    else
      ifThen(first, [&] { prologue(issue); });

    // The main loop: wait for stage t, multiply it, let stage t - 1 (whose
    // wgmma the warpgroup has now finished) take k-tile t + stages - 1.
    auto accType = nvgpu::WarpgroupAccumulatorType::get(
        b.getContext(), VectorType::get({kTileM, nest.tileN}, b.getF32Type()));
    Value init = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
    auto mainLoop = scf::ForOp::create(b, loc, index(0), index(kTiles),
                                       index(1), ValueRange{init});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(mainLoop.getBody());
      Value t = mainLoop.getInductionVar();
      if (nest.gatherA) {
        // The thread's copies of k-tile t have landed (later groups may
        // still be in flight); made visible to wgmma (the async proxy) and
        // to the other threads.
        NVVM::CpAsyncWaitGroupOp::create(b, loc, stages - 2);
        NVVM::FenceProxyOp::create(
            b, loc,
            NVVM::ProxyKindAttr::get(b.getContext(),
                                     NVVM::ProxyKind::async_shared),
            NVVM::SharedSpaceAttr::get(b.getContext(),
                                       NVVM::SharedSpace::shared_cta));
        gpu::BarrierOp::create(b, loc);
      }
      Value stage = arith::RemUIOp::create(b, loc, t, index(stages));
      Value round = arith::DivUIOp::create(b, loc, t, index(stages));
      Value parity = arith::IndexCastOp::create(
          b, loc, b.getI1Type(),
          arith::RemUIOp::create(b, loc, round, index(2)));
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                             index(kWaitTicks), stage);
      Value stageBase = stageOffset(stage, stageBytes);
      Value aTile = view(stageBase, {kTileM, kTileK}, elementType);
      Value bTile =
          view(arith::AddIOp::create(b, loc, stageBase, index(aBytes)),
               {kTileK, nest.tileN}, elementType);
      Value aDescriptor = generateDescriptor(aTile, aMap);
      Value bDescriptor = generateDescriptor(bTile, bMap);
      // waitGroup 1: the previous k-tile's wgmma has finished when this
      // one is issued.
      auto mma = nvgpu::WarpgroupMmaOp::create(
          b, loc, accType, aDescriptor, bDescriptor, /*waitGroup=*/1,
          /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(),
          mainLoop.getRegionIterArg(0));
      gpu::BarrierOp::create(b, loc);
      Value next = arith::AddIOp::create(b, loc, t, index(stages - 1));
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            next, index(kTiles));
      if (nest.gatherA) {
        ifThen(inRange, [&] { issueAll(next); });
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
      } else {
        ifThen(arith::AndIOp::create(b, loc, first, inRange),
               [&] { issue(next); });
      }
      scf::YieldOp::create(b, loc, mma.getResult());
    }
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    // The accumulator's tile overlays the stages, which the other warps may
    // still read until here.
    gpu::BarrierOp::create(b, loc);
    Value accTile = view(base, {kTileM, nest.tileN}, b.getF32Type());
    nvgpu::WarpgroupMmaStoreOp::create(b, loc, mainLoop.getResult(0), accTile);
    gpu::BarrierOp::create(b, loc);

    // The write-back reads the accumulator buffer: now those bytes.
    MemRefType accBufferType = nest.acc.getType();
    if (accBufferType.getNumElements() == kTileM * nest.tileN) {
      Value accBuffer = view(base, accBufferType.getShape(), b.getF32Type());
      nest.acc.getResult().replaceUsesWithIf(accBuffer, [&](OpOperand &use) {
        return !nest.tile->isAncestor(use.getOwner());
      });
      return success();
    }
    // Fewer rows or columns: their part of the tile, rows 128 apart.
    ArrayRef<int64_t> shape = accBufferType.getShape();
    int64_t rank = accBufferType.getRank();
    Value accBuffer = memref::SubViewOp::create(
        b, loc, accTile,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(shape[rank - 2]),
                               b.getIndexAttr(shape[rank - 1])},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    if (rank > 2) {
      ReassociationIndices rows =
          llvm::to_vector(llvm::seq<int64_t>(0, rank - 1));
      accBuffer = memref::ExpandShapeOp::create(
          b, loc, shape, accBuffer,
          ArrayRef<ReassociationIndices>{rows, {rank - 1}});
    }
    for (OpOperand &use :
         llvm::make_early_inc_range(nest.acc.getResult().getUses()))
      if (!nest.tile->isAncestor(use.getOwner()))
        use.set(accBuffer);
    return success();
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  void ifThen(Value condition, llvm::function_ref<void()> body) {
    auto op = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.thenBlock());
    body();
  }

  Value stageOffset(Value stage, int64_t stageBytes) {
    return arith::AddIOp::create(
        b, loc, base, arith::MulIOp::create(b, loc, stage, index(stageBytes)));
  }

  /// A view of the dynamic shared memory at byte `offset`.
  Value view(Value offset, ArrayRef<int64_t> shape, Type type) {
    return memref::ViewOp::create(
        b, loc,
        MemRefType::get(shape, type, MemRefLayoutAttrInterface(), workgroup),
        dynamic, offset, ValueRange{});
  }

  /// Whether `memref` is a constant in host memory: a constant
  /// memref.global, or a function argument relax binds to one
  /// (`tensorir.constant`, mlc-gpu-mark-constant-arguments).
  static bool isHostConstant(Value memref) {
    if (auto collapse = memref.getDefiningOp<memref::CollapseShapeOp>())
      memref = collapse.getSrc();
    if (auto get = memref.getDefiningOp<memref::GetGlobalOp>()) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      return global && global.getConstant();
    }
    auto arg = dyn_cast<BlockArgument>(memref);
    if (!arg || !arg.getOwner()->isEntryBlock())
      return false;
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    return func &&
           func.getArgAttr(
               arg.getArgNumber(),
               mlc::tensorir::TensorIRDialect::getConstantArgAttrName());
  }

  /// Thread tx's cp.async of its part of A's k-tile t into the stage at
  /// byte `stageBase`: for p < 8, the 16 bytes of k from
  /// t * 64 + 8 * (tx mod 8) of row tx / 8 + 16 p, each the nest's A at
  /// that row and k (its first element's address, the run's predicate:
  /// the rule made the 8 elements consecutive with one predicate), zeros
  /// where the predicate, the row's guards or k < K fail, stored at chunk
  /// (tx mod 8) xor (row mod 8) of the row: the 128-byte swizzle TMA
  /// gives the B tiles and wgmma's descriptors expect.
  void gatherTile(Value t, Value stageBase) {
    constexpr int64_t kChunk = 8, kChunksPerRow = kTileK / kChunk,
                      kRowsPerPass = kThreads / kChunksPerRow;
    Value tx = nest.launch.getThreadIds().x;
    Value aTile = view(stageBase, {kTileM, kTileK}, elementType);
    Value chunk = arith::RemUIOp::create(b, loc, tx, index(kChunksPerRow));
    Value rowBase = arith::DivUIOp::create(b, loc, tx, index(kChunksPerRow));
    Value k0 = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, t, index(kTileK)),
        arith::MulIOp::create(b, loc, chunk, index(kChunk)));
    Value kInRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           k0, index(nest.k));
    Value kSafe = arith::SelectOp::create(b, loc, kInRange, k0, index(0));
    // Rows 16 apart keep their row mod 8.
    Value column = arith::MulIOp::create(
        b, loc,
        arith::XOrIOp::create(
            b, loc, chunk,
            arith::RemUIOp::create(b, loc, rowBase, index(kChunksPerRow))),
        index(kChunk));
    Value tileIv = nest.tile.getInductionVar(),
          kIv = nest.kLoop.getInductionVar();
    for (int64_t p = 0; p < kTileM / kRowsPerPass; ++p) {
      Value row =
          arith::AddIOp::create(b, loc, rowBase, index(p * kRowsPerPass));
      Value valid = kInRange;
      Value safeRow = row;
      if (!nest.rowGuards.empty()) {
        IRMapping atRow;
        atRow.map(tx, row);
        atRow.map(tileIv, index(0));
        atRow.map(kIv, kSafe);
        Value rowOk;
        for (Value guard : nest.rowGuards) {
          Value g = cloneValue(guard, atRow, b, nest.tile);
          rowOk = rowOk ? arith::AndIOp::create(b, loc, rowOk, g) : g;
        }
        // Row 0 of a tile is always in range: a safe address.
        safeRow = arith::SelectOp::create(b, loc, rowOk, row, index(0));
        valid = arith::AndIOp::create(b, loc, valid, rowOk);
      }
      IRMapping at;
      at.map(tx, safeRow);
      at.map(tileIv, index(0));
      at.map(kIv, kSafe);
      SmallVector<Value> source;
      for (Value i : nest.a.getIndices())
        source.push_back(cloneValue(i, at, b, nest.tile));
      if (nest.aPredicate)
        valid = arith::AndIOp::create(
            b, loc, valid, cloneValue(nest.aPredicate, at, b, nest.tile));
      Value sourceElements =
          arith::SelectOp::create(b, loc, valid, index(kChunk), index(0));
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), aTile,
          ValueRange{row, column}, nest.a.getMemRef(), source,
          b.getIndexAttr(kChunk), sourceElements, b.getUnitAttr());
    }
  }

  /// The type of a tensor map of boxes of `box` (the innermost dimensions;
  /// 1 in the others, `rank` in all) in shared memory, 128-byte swizzle,
  /// zeros past the end.
  nvgpu::TensorMapDescriptorType getTensorMapType(int64_t rank,
                                                  ArrayRef<int64_t> box) {
    SmallVector<int64_t> boxShape(rank - box.size(), 1);
    boxShape.append(box.begin(), box.end());
    return nvgpu::TensorMapDescriptorType::get(
        b.getContext(),
        MemRefType::get(boxShape, elementType, MemRefLayoutAttrInterface(),
                        workgroup),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }

  /// The tensor map of `memref`: boxes of `box` (the two innermost
  /// dimensions; 1 in the others), 128-byte swizzle, zeros past the end.
  /// The runtime encodes it (cuTensorMapEncodeTiled) into device memory
  /// (a host constant's map describes the device copy the runtime keeps);
  /// the kernel gets its address (gpu.func arguments must have LLVM types,
  /// and the kernels' nvgpu ops are lowered only after outlining) and views
  /// it as the nvgpu descriptor.
  Value createTensorMap(OpBuilder &host, Value memref, ArrayRef<int64_t> box) {
    auto type = cast<MemRefType>(memref.getType());
    auto mapType = getTensorMapType(type.getRank(), box);
    ArrayRef<int64_t> boxShape = mapType.getTensor().getShape();
    MLIRContext *context = host.getContext();
    auto unrankedType =
        UnrankedMemRefType::get(elementType, type.getMemorySpace());
    Value unranked = memref::CastOp::create(host, loc, unrankedType, memref);
    // cuTensorMapEncodeTiled's enums: CU_TENSOR_MAP_DATA_TYPE_FLOAT16 (6) or
    // _BFLOAT16 (9), CU_TENSOR_MAP_SWIZZLE_128B (3),
    // CU_TENSOR_MAP_L2_PROMOTION_L2_256B (3), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
    // (0: zeros); then the box, outermost first, padded with 1s to 5.
    SmallVector<Value> operands{unranked};
    auto i64 = [&](int64_t v) {
      return arith::ConstantIntOp::create(host, loc, host.getI64Type(), v)
          .getResult();
    };
    operands.append({i64(elementType.isF16() ? 6 : 9), i64(3), i64(3), i64(0)});
    for (int64_t d = 0; d < kMaxTensorMapRank; ++d)
      operands.push_back(
          i64(d < static_cast<int64_t>(boxShape.size()) ? boxShape[d] : 1));
    auto pointerType = LLVM::LLVMPointerType::get(context);
    std::string name = isHostConstant(memref)
                           ? mlc::kConstantTensorMapEncoderPrefix.str()
                           : "mlc_cuda_tensor_map_encode_tiled_";
    name += elementType.isF16() ? "f16" : "bf16";
    func::FuncOp encode = getEncodeFunction(
        name, FunctionType::get(context, ValueRange(operands).getTypes(),
                                {pointerType}));
    Value pointer =
        func::CallOp::create(host, loc, encode, operands).getResult(0);
    return UnrealizedConversionCastOp::create(b, loc, mapType, pointer)
        .getResult(0);
  }

  /// The runtime's encoding function `name`, declared in the module.
  func::FuncOp getEncodeFunction(StringRef name, FunctionType type) {
    auto module = nest.launch->getParentOfType<ModuleOp>();
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder atEnd = OpBuilder::atBlockEnd(module.getBody());
    auto decl = func::FuncOp::create(atEnd, loc, name, type);
    decl.setPrivate();
    return decl;
  }

  /// TMA of `map`'s box at `coords` (outermost first, as the load's
  /// indices) into the shared bytes at `offset`.
  void loadTile(Value map, ArrayRef<Value> coords, Value offset, Value stage) {
    auto mapType = cast<nvgpu::TensorMapDescriptorType>(map.getType());
    Value destination =
        view(offset, mapType.getTensor().getShape(), elementType);
    SmallVector<Value> innermostFirst(llvm::reverse(coords));
    nvgpu::TmaAsyncLoadOp::create(b, loc, destination, barriers, map,
                                  innermostFirst, stage, Value(), Value());
  }

  Value generateDescriptor(Value tile, Value map) {
    auto type = nvgpu::WarpgroupMatrixDescriptorType::get(
        b.getContext(), cast<MemRefType>(tile.getType()));
    return nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, type, tile,
                                                        map);
  }

  WgmmaNest nest;
  OpBuilder b;
  Location loc;
  /// The memory space of shared memory.
  gpu::AddressSpaceAttr workgroup;
  Type elementType;
  Value dynamic, base, barriers;
  int64_t tmaBytes = 0;
};

struct GPUTensorizeWgmmaPass
    : public mlc::impl::GPUTensorizeWgmmaPassBase<GPUTensorizeWgmmaPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      auto annotations = loop->getAttrOfType<DictionaryAttr>(
          mlc::tensorir::TensorIRDialect::getLoopAnnotationsAttrName());
      if (annotations && annotations.get(mlc::kWgmmaAnnotation))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      auto annotations = loop->getAttrOfType<DictionaryAttr>(
          mlc::tensorir::TensorIRDialect::getLoopAnnotationsAttrName());
      auto shape = dyn_cast<StringAttr>(annotations.get(mlc::kWgmmaAnnotation));
      int64_t tileN = !shape                             ? 0
                      : shape.getValue() == "m64n128k16" ? 128
                      : shape.getValue() == "m64n64k16"  ? 64
                                                         : 0;
      if (!tileN) {
        loop.emitError("unsupported wgmma shape ")
            << annotations.get(mlc::kWgmmaAnnotation)
            << "; expected \"m64n128k16\" or \"m64n64k16\"";
        return signalPassFailure();
      }
      auto operandA =
          annotations.getAs<StringAttr>(mlc::kWgmmaOperandAAnnotation);
      if (annotations.get(mlc::kWgmmaOperandAAnnotation) &&
          (!operandA || operandA.getValue() != "gather")) {
        loop.emitError("unsupported ")
            << mlc::kWgmmaOperandAAnnotation << " "
            << annotations.get(mlc::kWgmmaOperandAAnnotation)
            << "; expected \"gather\"";
        return signalPassFailure();
      }
      std::string why;
      FailureOr<WgmmaNest> nest =
          matchNest(loop, tileN, /*gatherA=*/operandA != nullptr, why);
      if (failed(nest)) {
        loop.emitError("cannot tensorize the wgmma loop: ") << why;
        return signalPassFailure();
      }
      if (failed(WgmmaBuilder(*nest).build()))
        return signalPassFailure();
      loop.erase();
      nest->acc.erase();
    }
  }
};

} // namespace
