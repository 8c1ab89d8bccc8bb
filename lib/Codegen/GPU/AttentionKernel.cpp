//===- AttentionKernel.cpp - fused flash attention on tensor cores --------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// softmax(Q Kᵀ) V as one kernel, FlashAttention's online softmax: a thread
// block owns BM query rows of one (batch, head) and walks the keys in steps
// of BN, keeping the running row maximum m, the running sum l and the
// unnormalized output O; a step computes the scores S = Q Kᵀ of its keys,
// the new maximum, P = exp(S - m_new), rescales l and O by exp(m - m_new)
// and adds P V. Nothing of size S x S_kv reaches global memory.
//
// Unlike a schedule, the online softmax is a different algorithm, so the
// kernel is written as TensorIR (as TVM's attention kernels are written in
// TVMScript): the stages of each step are thread-bound loop nests one after
// another (mlc-gpu-thread-sync puts barriers between them), every buffer is
// indexed by logical coordinates and shrunk to the tile by
// tensorir-compact-buffer-allocation, and the two products are mma_sync
// nests of the tensor-core Matmul rule's form (thread (g, t) of warp w owns
// rows ((w 8 + g) 2 + mt) 2 + h and columns (t nTiles + nt) 2 + p of each
// tile), which mlc-gpu-tensorize-mma turns into ldmatrix + mma.sync. S and O
// pass through shared memory between the stages (FlashAttention-1's
// layout rather than FA-2's registers): every stage then runs serially on
// the host too (emulate-gpu-schedule), and the tile fits the 48 KiB of
// static shared memory.
//
// The scores' scale, bias and mask and the output's cast are the legalized
// kernel's own: its T_attention_scores and T_attention bodies are cloned
// into the new stages.
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

namespace {

/// Keys per step.
constexpr int64_t kKeyTile = 32;
/// Static shared memory of a kernel.
constexpr int64_t kMaxSharedBytes = 48 * 1024;

/// The stages of relax.nn.attention's legalized kernel, in order.
constexpr StringLiteral kStageNames[] = {
    "T_attention_qk",  "T_attention_scores", "T_attention_max",
    "T_attention_exp", "T_attention_sum",    "T_attention_pv",
    "T_attention"};

struct AttentionMatch {
  SmallVector<Operation *> statements;
  BlockOp scores, output;
  Value q, k, v, out;
  /// The buffers the cloned bodies read in place of the new values.
  Value qkBuffer, pvBuffer, sumBuffer;
  int64_t batch, seq, heads, headDim, kvSeq, valueDim;
  Type elementType;
};

/// The memref loads in `block`'s body (not nested deeper), in order.
SmallVector<memref::LoadOp> getLoads(BlockOp block) {
  SmallVector<memref::LoadOp> loads;
  for (Operation &op : *block.getBodyBlock())
    if (auto load = dyn_cast<memref::LoadOp>(op))
      loads.push_back(load);
  return loads;
}

/// The only store in `block`'s body (not in its init).
memref::StoreOp getStore(BlockOp block) {
  memref::StoreOp store;
  for (Operation &op : *block.getBodyBlock())
    if (auto s = dyn_cast<memref::StoreOp>(op)) {
      if (store)
        return nullptr;
      store = s;
    }
  return store;
}

/// Whether `value` is defined at the top level of the function before
/// `root` (e.g. a constant hoisted there by folding): the fused kernel,
/// placed at `root`, can use it.
bool isDefinedBefore(Value value, Operation *root) {
  Operation *def = value.getDefiningOp();
  return def && def->getBlock() == root->getBlock() &&
         def->isBeforeInBlock(root);
}

FailureOr<AttentionMatch> matchAttention(PrimFuncOp func, ForOp root) {
  AttentionMatch match;
  SmallVector<BlockOp> blocks;
  for (Operation *op = root; op; op = op->getNextNode()) {
    if (isa<AllocBufferOp, ReturnOp>(op) ||
        (op->getNumRegions() == 0 && isMemoryEffectFree(op)))
      continue;
    auto loop = dyn_cast<ForOp>(op);
    if (!loop || loop.getKind() != ForKind::serial)
      return failure();
    SmallVector<BlockOp> nested;
    loop.walk([&](BlockOp b) { nested.push_back(b); });
    if (nested.size() != 1 || blocks.size() == std::size(kStageNames) ||
        nested.front().getName() != kStageNames[blocks.size()])
      return failure();
    blocks.push_back(nested.front());
    match.statements.push_back(op);
  }
  if (blocks.size() != std::size(kStageNames))
    return failure();
  BlockOp qk = blocks[0], pv = blocks[5];
  match.scores = blocks[1];
  match.output = blocks[6];
  auto isArgument = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner()->getParentOp() == func.getOperation();
  };
  SmallVector<memref::LoadOp> qkLoads = getLoads(qk);
  SmallVector<memref::LoadOp> pvLoads = getLoads(pv);
  memref::StoreOp qkStore = getStore(qk), pvStore = getStore(pv),
                  scoresStore = getStore(match.scores),
                  outStore = getStore(match.output);
  if (qkLoads.size() != 3 || pvLoads.size() != 3 || !qkStore || !pvStore ||
      !scoresStore || !outStore)
    return failure();
  match.q = qkLoads[0].getMemRef();
  match.k = qkLoads[1].getMemRef();
  match.v = pvLoads[1].getMemRef();
  match.out = outStore.getMemRef();
  match.qkBuffer = qkStore.getMemRef();
  match.pvBuffer = pvStore.getMemRef();
  match.sumBuffer =
      getStore(blocks[4]) ? getStore(blocks[4]).getMemRef() : Value();
  if (!isArgument(match.q) || !isArgument(match.k) || !isArgument(match.v) ||
      !isArgument(match.out) || !match.sumBuffer)
    return failure();
  // The cloned bodies: the scores read the product (and maybe a bias
  // argument); the output reads the product with V and the row sums.
  for (memref::LoadOp load : getLoads(match.scores))
    if (load.getMemRef() != match.qkBuffer && !isArgument(load.getMemRef()))
      return failure();
  for (memref::LoadOp load : getLoads(match.output))
    if (load.getMemRef() != match.pvBuffer &&
        load.getMemRef() != match.sumBuffer)
      return failure();
  // The bodies must not see values from outside (they are cloned
  // elsewhere) but the buffers that the new stages replace.
  for (BlockOp block : {match.scores, match.output}) {
    WalkResult outside = block.getBody().walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
            !isArgument(operand) && !isDefinedBefore(operand, root) &&
            operand != match.qkBuffer && operand != match.pvBuffer &&
            operand != match.sumBuffer && operand != scoresStore.getMemRef())
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (outside.wasInterrupted())
      return failure();
  }

  auto qType = cast<MemRefType>(match.q.getType());
  auto kType = cast<MemRefType>(match.k.getType());
  auto vType = cast<MemRefType>(match.v.getType());
  if (!qType.hasStaticShape() || !kType.hasStaticShape() ||
      !vType.hasStaticShape() || qType.getRank() != 4)
    return failure();
  match.elementType = qType.getElementType();
  if (!isa<Float16Type, BFloat16Type>(match.elementType) ||
      kType.getElementType() != match.elementType ||
      vType.getElementType() != match.elementType ||
      !cast<MemRefType>(match.qkBuffer.getType()).getElementType().isF32())
    return failure();
  match.batch = qType.getDimSize(0);
  match.seq = qType.getDimSize(1);
  match.heads = qType.getDimSize(2);
  match.headDim = qType.getDimSize(3);
  match.kvSeq = kType.getDimSize(1);
  match.valueDim = vType.getDimSize(3);
  return match;
}

/// Builds affine.apply ops at the builder's insertion point.
struct Affine {
  OpBuilder &b;
  Location loc;

  Value apply(AffineExpr expr, ValueRange dims) {
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(dims.size(), 0, expr), dims);
  }
  AffineExpr d(unsigned i) { return b.getAffineDimExpr(i); }
};

class AttentionBuilder {
public:
  AttentionBuilder(RewriterBase &rewriter, AttentionMatch &m, int64_t rows)
      : rewriter(rewriter), m(m), loc(m.scores.getLoc()), rows(rows),
        warps(rows / 32) {}

  void build(ForOp root);

private:
  /// A thread-bound loop (or a plain one with `kind`).
  ForOp loop(int64_t extent, StringRef name, ForKind kind = ForKind::serial,
             StringRef tag = {}) {
    auto l = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                           rewriter.getIndexAttr(extent),
                           rewriter.getIndexAttr(1), kind, tag);
    l.setIvName(name);
    rewriter.setInsertionPoint(l.getBodyBlock()->getTerminator());
    return l;
  }

  /// Opens the thread nest (threadIdx.z = w, y = g, x = t) of a stage at
  /// the builder's insertion point; returns its outermost loop.
  ForOp threads(StringRef stage) {
    ForOp w = loop(warps, (stage + "_w").str(), ForKind::thread_binding,
                   "threadIdx.z");
    g = loop(8, (stage + "_g").str(), ForKind::thread_binding, "threadIdx.y")
            .getInductionVar();
    t = loop(4, (stage + "_t").str(), ForKind::thread_binding, "threadIdx.x")
            .getInductionVar();
    this->w = w.getInductionVar();
    return w;
  }

  /// A block over the given iteration variables at the insertion point.
  BlockOp block(StringRef name, ArrayRef<IterVarType> types,
                ArrayRef<int64_t> extents, ValueRange bindings,
                function_ref<void(OpBuilder &, Location, ValueRange)> body) {
    SmallVector<OpFoldResult> sizes =
        llvm::map_to_vector(extents, [&](int64_t e) -> OpFoldResult {
          return rewriter.getIndexAttr(e);
        });
    auto op =
        BlockOp::create(rewriter, loc, name, types, sizes, bindings, body);
    FailureOr<AccessRegions> regions = inferAccessRegions(op);
    if (succeeded(regions)) {
      op.setReadRegions(regions->readBuffers, regions->reads);
      op.setWriteRegions(regions->writeBuffers, regions->writes);
    }
    return op;
  }

  Value alloc(ArrayRef<int64_t> shape, Type type, StringRef name,
              StringRef scope) {
    auto op = AllocBufferOp::create(rewriter, loc, MemRefType::get(shape, type),
                                    {}, name);
    op.setScopeAttr(rewriter.getStringAttr(scope));
    return op;
  }

  /// The (b, n) coordinates of the thread block and its first query row.
  SmallVector<Value> tileOrigin(Affine &a) {
    return {a.apply(a.d(0).floorDiv(m.heads), {bh}),
            a.apply(a.d(0) % m.heads, {bh}), a.apply(a.d(0) * rows, {qTile})};
  }

  /// This thread's element of the (rows x H_v) output tile at one step.
  struct OTileElement {
    SmallVector<Value> origin; // tileOrigin
    Value row, col;            // of this thread's element at this step
  };

  /// An unrolled loop `name` over which the block's threads cover the
  /// (rows x H_v) tile, four consecutive columns per thread and step; the
  /// insertion point is left inside it.
  OTileElement oTileLoop(StringRef name) {
    ForOp step = loop(m.valueDim, name, ForKind::unrolled);
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    AffineExpr index = ((a.d(0) * warps + a.d(1)) * 8 + a.d(2)) * 4 + a.d(3);
    SmallVector<Value> ivs{step.getInductionVar(), w, g, t, origin[2]};
    Value row = a.apply(a.d(4) + index.floorDiv(m.valueDim), ivs);
    Value col = a.apply(index % m.valueDim, ivs);
    return {origin, row, col};
  }

  /// Row of the thread's accumulator element (mt, h) in the tile.
  AffineExpr accRow(Affine &a, unsigned wD, unsigned gD, unsigned mtD,
                    unsigned hD) {
    return ((a.d(wD) * 8 + a.d(gD)) * 2 + a.d(mtD)) * 2 + a.d(hD);
  }

  /// acc[accIdx] += extf(lhs[lhsIdx]) * extf(rhs[rhsIdx]) in f32: the body
  /// of an mma_sync nest.
  void accumulate(OpBuilder &b, Location l, Value acc, ValueRange accIdx,
                  Value lhs, ValueRange lhsIdx, Value rhs, ValueRange rhsIdx) {
    Value x = memref::LoadOp::create(b, l, lhs, lhsIdx);
    Value y = memref::LoadOp::create(b, l, rhs, rhsIdx);
    Value prod =
        arith::MulFOp::create(b, l, arith::ExtFOp::create(b, l, f32, x),
                              arith::ExtFOp::create(b, l, f32, y));
    Value old = memref::LoadOp::create(b, l, acc, accIdx);
    memref::StoreOp::create(b, l, arith::AddFOp::create(b, l, old, prod), acc,
                            accIdx);
  }

  /// The (h, p, kk) loops of one mma.sync.m16n8k16 tile, h annotated for
  /// mlc-gpu-tensorize-mma; returns their induction variables.
  std::array<Value, 3> mmaLoops(StringRef stage) {
    ForOp h = loop(2, (stage + "_h").str());
    h.setAnnotationsAttr(rewriter.getDictionaryAttr(rewriter.getNamedAttr(
        kMmaSyncAnnotation, rewriter.getStringAttr("m16n8k16"))));
    Value p = loop(2, (stage + "_p").str()).getInductionVar();
    Value kk = loop(16, (stage + "_kk").str()).getInductionVar();
    return {h.getInductionVar(), p, kk};
  }

  void buildCopies(bool keys);
  void buildScores();
  void buildSoftmaxStep();
  void buildProduct();
  void buildInit();
  void buildOutput();

  RewriterBase &rewriter;
  AttentionMatch &m;
  Location loc;
  int64_t rows, warps;
  Value bh, qTile, keyTile;
  Value w, g, t;
  Value qShared, kShared, vShared, sShared, pShared, oShared, maxShared,
      sumShared, alphaShared, sLocal, oLocal, maxLocal, sumLocal;
  Type f32;
};

/// Copies a tile of rows x width elements of a [B, L, N, width] input into
/// `shared` ([B, N, L, width], or [B, N, width / 64, L, 64] for V): 16
/// bytes (8 elements) per thread and step, consecutive threads on
/// consecutive pieces of a row.
void AttentionBuilder::buildCopies(bool keys) {
  struct Copy {
    Value input, shared;
    int64_t tileRows, width;
    StringRef name;
    bool split;
  };
  SmallVector<Copy> copies;
  if (!keys)
    copies.push_back({m.q, qShared, rows, m.headDim, "Q_shared", false});
  else
    copies = {{m.k, kShared, kKeyTile, m.headDim, "K_shared", false},
              {m.v, vShared, kKeyTile, m.valueDim, "V_shared", true}};
  for (const Copy &c : copies) {
    OpBuilder::InsertionGuard guard(rewriter);
    threads(c.name);
    int64_t pieces = c.tileRows * c.width / 8;
    int64_t threadCount = warps * 32;
    ForOp step =
        loop(pieces / threadCount, (c.name + "_i").str(), ForKind::unrolled);
    ForOp lane = loop(8, (c.name + "_v").str(), ForKind::vectorized);
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    Value tileStart = keys ? a.apply(a.d(0) * kKeyTile, {keyTile}) : origin[2];
    AffineExpr piece = ((a.d(0) * warps + a.d(1)) * 8 + a.d(2)) * 4 + a.d(3);
    Value row = a.apply(piece.floorDiv(c.width / 8) + a.d(4),
                        {step.getInductionVar(), w, g, t, tileStart});
    Value col =
        a.apply((piece % (c.width / 8)) * 8 + a.d(4),
                {step.getInductionVar(), w, g, t, lane.getInductionVar()});
    int64_t length = keys ? m.kvSeq : m.seq;
    block(c.name,
          {IterVarType::spatial, IterVarType::spatial, IterVarType::spatial,
           IterVarType::spatial},
          {m.batch, m.heads, length, c.width}, {origin[0], origin[1], row, col},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value x = memref::LoadOp::create(b, l, c.input,
                                             {iv[0], iv[2], iv[1], iv[3]});
            if (!c.split) {
              memref::StoreOp::create(b, l, x, c.shared,
                                      {iv[0], iv[1], iv[2], iv[3]});
              return;
            }
            Affine ba{b, l};
            Value part = ba.apply(ba.d(0).floorDiv(64), {iv[3]});
            Value within = ba.apply(ba.d(0) % 64, {iv[3]});
            memref::StoreOp::create(b, l, x, c.shared,
                                    {iv[0], iv[1], part, iv[2], within});
          });
  }
}

/// S = Q Kᵀ for the step's keys, in each thread's accumulators, then
/// scaled, biased and masked (the legalized scores body) into S_shared.
void AttentionBuilder::buildScores() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("S");
  const int64_t nTiles = kKeyTile / 8;
  auto spatial4 = SmallVector<IterVarType>(4, IterVarType::spatial);
  SmallVector<int64_t> scoreExtents{m.batch, m.heads, m.seq, m.kvSeq};
  Affine a{rewriter, loc};
  auto rowOf = [&](Value mt, Value h) {
    return a.apply(a.d(4) * rows + accRow(a, 0, 1, 2, 3), {w, g, mt, h, qTile});
  };
  auto colOf = [&](Value nt, Value p) {
    return a.apply(a.d(3) * kKeyTile + (a.d(0) * nTiles + a.d(1)) * 2 + a.d(2),
                   {t, nt, p, keyTile});
  };
  SmallVector<Value> origin = tileOrigin(a);
  Value b0 = origin[0], n0 = origin[1];
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value mt = loop(2, "S_init_mt", ForKind::unrolled).getInductionVar();
    Value nt = loop(nTiles, "S_init_nt", ForKind::unrolled).getInductionVar();
    Value h = loop(2, "S_init_h", ForKind::unrolled).getInductionVar();
    Value p = loop(2, "S_init_p", ForKind::unrolled).getInductionVar();
    block("S_init", spatial4, scoreExtents,
          {b0, n0, rowOf(mt, h), colOf(nt, p)},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
            memref::StoreOp::create(b, l, zero, sLocal, iv);
          });
  }
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value kt =
        loop(m.headDim / 16, "S_kt", ForKind::unrolled).getInductionVar();
    Value mt = loop(2, "S_mt", ForKind::unrolled).getInductionVar();
    Value nt = loop(nTiles, "S_nt", ForKind::unrolled).getInductionVar();
    std::array<Value, 3> mma = mmaLoops("S");
    Value h = mma[0], p = mma[1], kk = mma[2];
    Value kd = a.apply(a.d(0) * 16 + a.d(1), {kt, kk});
    SmallVector<IterVarType> types = spatial4;
    types.push_back(IterVarType::reduce);
    SmallVector<int64_t> extents = scoreExtents;
    extents.push_back(m.headDim);
    block("S_update", types, extents, {b0, n0, rowOf(mt, h), colOf(nt, p), kd},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            accumulate(b, l, sLocal, iv.take_front(4), qShared,
                       {iv[0], iv[1], iv[2], iv[4]}, kShared,
                       {iv[0], iv[1], iv[3], iv[4]});
          });
  }
  // The legalized scores body, reading the accumulator.
  Value mt = loop(2, "S_out_mt", ForKind::unrolled).getInductionVar();
  Value nt = loop(nTiles, "S_out_nt", ForKind::unrolled).getInductionVar();
  Value h = loop(2, "S_out_h", ForKind::unrolled).getInductionVar();
  Value p = loop(2, "S_out_p", ForKind::unrolled).getInductionVar();
  block("T_attention_scores", spatial4, scoreExtents,
        {b0, n0, rowOf(mt, h), colOf(nt, p)},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          IRMapping map;
          for (auto [from, to] :
               llvm::zip(m.scores.getBodyBlock()->getArguments(), iv))
            map.map(from, to);
          for (Operation &op : m.scores.getBodyBlock()->without_terminator()) {
            if (auto load = dyn_cast<memref::LoadOp>(op);
                load && load.getMemRef() == m.qkBuffer) {
              map.map(load.getResult(),
                      memref::LoadOp::create(b, l, sLocal, iv).getResult());
              continue;
            }
            if (auto store = dyn_cast<memref::StoreOp>(op)) {
              memref::StoreOp::create(b, l, map.lookup(store.getValueToStore()),
                                      sShared, iv);
              continue;
            }
            b.clone(op, map);
          }
        });
}

/// The step's softmax: per row (one per thread) the new maximum, P =
/// exp(S - m_new) in the input type, its sum, and the rescaling of the
/// running statistics.
void AttentionBuilder::buildSoftmaxStep() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("softmax");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  Value b0 = origin[0], n0 = origin[1];
  Value row = a.apply(a.d(3) * rows + (a.d(0) * 8 + a.d(1)) * 4 + a.d(2),
                      {w, g, t, qTile});
  SmallVector<IterVarType> rowTypes(3, IterVarType::spatial);
  SmallVector<int64_t> rowExtents{m.batch, m.heads, m.seq};
  // The row reductions run over the step's keys only: (b, n, i, key tile)
  // spatial, the key within the tile reduced, so that their init (which
  // runs when the reduce variable is 0) starts every step.
  SmallVector<IterVarType> reduceTypes(4, IterVarType::spatial);
  reduceTypes.push_back(IterVarType::reduce);
  SmallVector<int64_t> reduceExtents{m.batch, m.heads, m.seq,
                                     m.kvSeq / kKeyTile, kKeyTile};
  // The scores' indices of reduction iteration variables (b, n, i, tile,
  // key in tile).
  auto scoreIndices = [&](OpBuilder &b, Location l, ValueRange iv) {
    Affine ba{b, l};
    return SmallVector<Value>{
        iv[0], iv[1], iv[2],
        ba.apply(ba.d(0) * kKeyTile + ba.d(1), {iv[3], iv[4]})};
  };
  SmallVector<IterVarType> elementTypes(4, IterVarType::spatial);
  SmallVector<int64_t> elementExtents{m.batch, m.heads, m.seq, m.kvSeq};
  auto keyOf = [&](Value c) {
    return a.apply(a.d(1) * kKeyTile + a.d(0), {c, keyTile});
  };
  // The maximum to subtract: m_new, or 0 while every score so far is -inf
  // (masked), so that exp gives 0 rather than NaN.
  auto shift = [&](OpBuilder &b, Location l, Value max) {
    Value lowest = arith::ConstantOp::create(
        b, l, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
    Value isLowest =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, max, lowest);
    Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
    return arith::SelectOp::create(b, l, isLowest, zero, max).getResult();
  };
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value c = loop(kKeyTile, "max_c").getInductionVar();
    block("attention_row_max", reduceTypes, reduceExtents,
          {b0, n0, row, keyTile, c},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            ValueRange r = iv.take_front(3);
            InitOp::create(b, l, [&](OpBuilder &ib, Location il) {
              Value old = memref::LoadOp::create(ib, il, maxShared, r);
              memref::StoreOp::create(ib, il, old, maxLocal, r);
            });
            Value s =
                memref::LoadOp::create(b, l, sShared, scoreIndices(b, l, iv));
            Value acc = memref::LoadOp::create(b, l, maxLocal, r);
            memref::StoreOp::create(
                b, l, arith::MaximumFOp::create(b, l, acc, s), maxLocal, r);
          });
  }
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value c = loop(kKeyTile, "p_c").getInductionVar();
    block("attention_p", elementTypes, elementExtents, {b0, n0, row, keyOf(c)},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value s = memref::LoadOp::create(b, l, sShared, iv);
            Value max =
                memref::LoadOp::create(b, l, maxLocal, iv.take_front(3));
            Value e = math::ExpOp::create(
                b, l, arith::SubFOp::create(b, l, s, shift(b, l, max)));
            memref::StoreOp::create(
                b, l, arith::TruncFOp::create(b, l, m.elementType, e), pShared,
                iv);
          });
  }
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value c = loop(kKeyTile, "sum_c").getInductionVar();
    block("attention_row_sum", reduceTypes, reduceExtents,
          {b0, n0, row, keyTile, c},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            ValueRange r = iv.take_front(3);
            InitOp::create(b, l, [&](OpBuilder &ib, Location il) {
              Value zero =
                  arith::ConstantOp::create(ib, il, ib.getF32FloatAttr(0));
              memref::StoreOp::create(ib, il, zero, sumLocal, r);
            });
            // The sum of the rounded P that multiplies V: the weights are
            // normalized exactly.
            Value pv = arith::ExtFOp::create(
                b, l, f32,
                memref::LoadOp::create(b, l, pShared, scoreIndices(b, l, iv))
                    .getResult());
            Value acc = memref::LoadOp::create(b, l, sumLocal, r);
            memref::StoreOp::create(b, l, arith::AddFOp::create(b, l, acc, pv),
                                    sumLocal, r);
          });
  }
  block("attention_statistics", rowTypes, rowExtents, {b0, n0, row},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          Value oldMax = memref::LoadOp::create(b, l, maxShared, iv);
          Value newMax = memref::LoadOp::create(b, l, maxLocal, iv);
          Value alpha = math::ExpOp::create(
              b, l, arith::SubFOp::create(b, l, oldMax, shift(b, l, newMax)));
          Value oldSum = memref::LoadOp::create(b, l, sumShared, iv);
          Value stepSum = memref::LoadOp::create(b, l, sumLocal, iv);
          Value sum = arith::AddFOp::create(
              b, l, arith::MulFOp::create(b, l, oldSum, alpha), stepSum);
          memref::StoreOp::create(b, l, alpha, alphaShared, iv);
          memref::StoreOp::create(b, l, sum, sumShared, iv);
          memref::StoreOp::create(b, l, newMax, maxShared, iv);
        });
}

/// O = O alpha + P V in each thread's accumulators (read from and written
/// back to O_shared).
void AttentionBuilder::buildProduct() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("O");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  Value b0 = origin[0], n0 = origin[1];
  auto rowOf = [&](Value mt, Value h) {
    return a.apply(a.d(4) * rows + accRow(a, 0, 1, 2, 3), {w, g, mt, h, qTile});
  };
  // Columns cb 64 + 16 t + 2 nt + p: the B operand (V, stored keys x 64
  // columns per cb) takes ldmatrix.trans on mlc-gpu-tensorize-mma's
  // permuted columns.
  auto colOf = [&](Value nt, Value p) {
    return a.apply((a.d(0) * 8 + a.d(1)) * 2 + a.d(2), {t, nt, p});
  };
  const int64_t parts = m.valueDim / 64;
  SmallVector<IterVarType> types(5, IterVarType::spatial);
  SmallVector<int64_t> extents{m.batch, m.heads, m.seq, parts, 64};
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value mt = loop(2, "O_init_mt", ForKind::unrolled).getInductionVar();
    Value cb = loop(parts, "O_init_cb", ForKind::unrolled).getInductionVar();
    Value nt = loop(8, "O_init_nt", ForKind::unrolled).getInductionVar();
    Value h = loop(2, "O_init_h", ForKind::unrolled).getInductionVar();
    Value p = loop(2, "O_init_p", ForKind::unrolled).getInductionVar();
    block("O_rescale", types, extents, {b0, n0, rowOf(mt, h), cb, colOf(nt, p)},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value o = memref::LoadOp::create(b, l, oShared, iv);
            Value alpha =
                memref::LoadOp::create(b, l, alphaShared, iv.take_front(3));
            memref::StoreOp::create(b, l, arith::MulFOp::create(b, l, o, alpha),
                                    oLocal, iv);
          });
  }
  {
    OpBuilder::InsertionGuard g2(rewriter);
    Value kt = loop(kKeyTile / 16, "O_kt", ForKind::unrolled).getInductionVar();
    Value mt = loop(2, "O_mt", ForKind::unrolled).getInductionVar();
    Value cb = loop(parts, "O_cb", ForKind::unrolled).getInductionVar();
    Value nt = loop(8, "O_nt", ForKind::unrolled).getInductionVar();
    std::array<Value, 3> mma = mmaLoops("O");
    Value h = mma[0], p = mma[1], kk = mma[2];
    Value key =
        a.apply(a.d(2) * kKeyTile + a.d(0) * 16 + a.d(1), {kt, kk, keyTile});
    SmallVector<IterVarType> updateTypes = types;
    updateTypes.push_back(IterVarType::reduce);
    SmallVector<int64_t> updateExtents = extents;
    updateExtents.push_back(m.kvSeq);
    block("O_update", updateTypes, updateExtents,
          {b0, n0, rowOf(mt, h), cb, colOf(nt, p), key},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            accumulate(b, l, oLocal, iv.take_front(5), pShared,
                       {iv[0], iv[1], iv[2], iv[5]}, vShared,
                       {iv[0], iv[1], iv[3], iv[5], iv[4]});
          });
  }
  Value mt = loop(2, "O_out_mt", ForKind::unrolled).getInductionVar();
  Value cb = loop(parts, "O_out_cb", ForKind::unrolled).getInductionVar();
  Value nt = loop(8, "O_out_nt", ForKind::unrolled).getInductionVar();
  Value h = loop(2, "O_out_h", ForKind::unrolled).getInductionVar();
  Value p = loop(2, "O_out_p", ForKind::unrolled).getInductionVar();
  block("O_store", types, extents, {b0, n0, rowOf(mt, h), cb, colOf(nt, p)},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          memref::StoreOp::create(
              b, l, memref::LoadOp::create(b, l, oLocal, iv), oShared, iv);
        });
}

/// O = 0, m = -inf, l = 0 for the thread block's rows.
void AttentionBuilder::buildInit() {
  {
    OpBuilder::InsertionGuard guard(rewriter);
    threads("init_stats");
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    Value row = a.apply(a.d(3) + (a.d(0) * 8 + a.d(1)) * 4 + a.d(2),
                        {w, g, t, origin[2]});
    block("attention_init_statistics",
          SmallVector<IterVarType>(3, IterVarType::spatial),
          {m.batch, m.heads, m.seq}, {origin[0], origin[1], row},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value lowest = arith::ConstantOp::create(
                b, l,
                b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
            Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
            memref::StoreOp::create(b, l, lowest, maxShared, iv);
            memref::StoreOp::create(b, l, zero, sumShared, iv);
          });
  }
  OpBuilder::InsertionGuard guard(rewriter);
  threads("init_o");
  auto [origin, row, col] = oTileLoop("init_o_i");
  Affine a{rewriter, loc};
  Value part = a.apply(a.d(0).floorDiv(64), {col});
  Value within = a.apply(a.d(0) % 64, {col});
  block("attention_init_o", SmallVector<IterVarType>(5, IterVarType::spatial),
        {m.batch, m.heads, m.seq, m.valueDim / 64, 64},
        {origin[0], origin[1], row, part, within},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
          memref::StoreOp::create(b, l, zero, oShared, iv);
        });
}

/// out = O / l through the legalized output body (its cast).
void AttentionBuilder::buildOutput() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("out");
  auto [origin, row, col] = oTileLoop("out_i");
  block("T_attention", SmallVector<IterVarType>(4, IterVarType::spatial),
        {m.batch, m.seq, m.heads, m.valueDim}, {origin[0], row, origin[1], col},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          IRMapping map;
          for (auto [from, to] :
               llvm::zip(m.output.getBodyBlock()->getArguments(), iv))
            map.map(from, to);
          Affine ba{b, l};
          for (Operation &op : m.output.getBodyBlock()->without_terminator()) {
            auto load = dyn_cast<memref::LoadOp>(op);
            if (load && load.getMemRef() == m.pvBuffer) {
              Value part = ba.apply(ba.d(0).floorDiv(64), {iv[3]});
              Value within = ba.apply(ba.d(0) % 64, {iv[3]});
              map.map(load.getResult(),
                      memref::LoadOp::create(
                          b, l, oShared, {iv[0], iv[2], iv[1], part, within})
                          .getResult());
              continue;
            }
            if (load && load.getMemRef() == m.sumBuffer) {
              map.map(
                  load.getResult(),
                  memref::LoadOp::create(b, l, sumShared, {iv[0], iv[2], iv[1]})
                      .getResult());
              continue;
            }
            b.clone(op, map);
          }
        });
}

void AttentionBuilder::build(ForOp root) {
  f32 = rewriter.getF32Type();
  rewriter.setInsertionPoint(root);
  Type type = m.elementType;
  int64_t b = m.batch, n = m.heads, s = m.seq, skv = m.kvSeq;
  qShared = alloc({b, n, s, m.headDim}, type, "Q_shared", "shared");
  kShared = alloc({b, n, skv, m.headDim}, type, "K_shared", "shared");
  vShared = alloc({b, n, m.valueDim / 64, skv, 64}, type, "V_shared", "shared");
  sShared = alloc({b, n, s, skv}, f32, "S_shared", "shared");
  pShared = alloc({b, n, s, skv}, type, "P_shared", "shared");
  oShared = alloc({b, n, s, m.valueDim / 64, 64}, f32, "O_shared", "shared");
  maxShared = alloc({b, n, s}, f32, "max_shared", "shared");
  sumShared = alloc({b, n, s}, f32, "sum_shared", "shared");
  alphaShared = alloc({b, n, s}, f32, "alpha_shared", "shared");
  sLocal = alloc({b, n, s, skv}, f32, "S_local", "local");
  oLocal = alloc({b, n, s, m.valueDim / 64, 64}, f32, "O_local", "local");
  maxLocal = alloc({b, n, s}, f32, "max_local", "local");
  sumLocal = alloc({b, n, s}, f32, "sum_local", "local");

  bh = loop(b * n, "bh", ForKind::thread_binding, "blockIdx.y")
           .getInductionVar();
  qTile = loop(s / rows, "q_tile", ForKind::thread_binding, "blockIdx.x")
              .getInductionVar();
  buildInit();
  buildCopies(/*keys=*/false);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    keyTile = loop(skv / kKeyTile, "kv_tile").getInductionVar();
    buildCopies(/*keys=*/true);
    buildScores();
    buildSoftmaxStep();
    buildProduct();
  }
  buildOutput();
}

} // namespace

LogicalResult mlc::buildFusedAttention(RewriterBase &rewriter, PrimFuncOp func,
                                       ForOp root) {
  FailureOr<AttentionMatch> match = matchAttention(func, root);
  if (failed(match))
    return failure();
  AttentionMatch &m = *match;
  // Tiles: mma K steps of 16 over the head dimension, V in 64-column
  // parts, whole query and key tiles.
  if (m.headDim % 16 != 0 || m.valueDim % 64 != 0 || m.kvSeq % kKeyTile != 0)
    return failure();
  auto sharedBytes = [&](int64_t rows) {
    int64_t half = 2, single = 4;
    return rows * m.headDim * half +
           kKeyTile * (m.headDim + m.valueDim) * half +
           rows * kKeyTile * (single + half) + rows * m.valueDim * single +
           3 * rows * single;
  };
  int64_t rows = 0;
  for (int64_t candidate : {64, 32})
    if (m.seq % candidate == 0 && sharedBytes(candidate) <= kMaxSharedBytes) {
      rows = candidate;
      break;
    }
  // Copies: whole 16-byte pieces per thread.
  if (rows == 0 || (rows * m.headDim / 8) % rows != 0 ||
      (kKeyTile * m.headDim / 8) % rows != 0 ||
      (kKeyTile * m.valueDim / 8) % rows != 0 || m.batch * m.heads > 65535 ||
      m.seq / rows > 65535)
    return failure();
  AttentionBuilder(rewriter, m, rows).build(root);
  // The legalized stages and their buffers go.
  llvm::SetVector<Operation *> temporaries;
  for (Operation *statement : m.statements)
    statement->walk([&](memref::StoreOp store) {
      if (auto alloc = store.getMemRef().getDefiningOp<AllocBufferOp>())
        temporaries.insert(alloc);
    });
  for (Operation *statement : llvm::reverse(m.statements))
    rewriter.eraseOp(statement);
  for (Operation *alloc : temporaries)
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
  return success();
}
