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
// another (mlc-gpu-thread-sync puts barriers between them where shared
// memory needs them), every buffer is indexed by logical coordinates, and
// the two products are mma_sync nests of the tensor-core Matmul rule's form
// (thread (g, t) of warp w owns rows ((w 8 + g) mtTiles + mt) 2 + h and
// columns 8 nt + 2 t + p of each tile, mma.sync's accumulator layout),
// which mlc-gpu-tensorize-mma turns into ldmatrix + mma.sync.
//
// FlashAttention-2's layout: S, P, O and the row statistics are `local`
// buffers that the stages' thread nests share. tensorir-compact-buffer-
// allocation shrinks each to the thread's part (threadIdx loops of one tag
// are one thread), so they live in registers: P, left by S's accumulator in
// the layout of the A operand of P V, feeds that mma directly. A row's keys
// are spread over its four lanes (t): the step's row maximum is a
// cross-thread reduction over t (two shuffles, every lane keeping the
// result), each lane keeps its own running sum of P, and the four sums are
// added once, at the end. Only Q (once) and each step's K and V pass
// through shared memory, K and V by cp.async (mlc-gpu-async-copy-pipeline).
//
// Under the host emulation (emulate-gpu-schedule) the threads run one after
// another and the local buffers keep every thread's part, so the stages
// stay correct there: a row's four lanes each repeat the row's statistics,
// which is why the rescaling factor and the new maximum are separate thread
// nests.
//
// The scores' scale, bias and mask and the output's cast are the legalized
// kernel's own: its T_attention_scores and T_attention bodies are cloned
// into the new stages. A causal mask among them (select(j <= i + c, s,
// -inf)) also ends each query tile's key loop after the last key tile its
// rows see, so a square causal attention does half the work.

//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Codegen/GPU/Utils.h"
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
/// Thread blocks that fill a GPU (an H100 has 132 SMs): fewer leave SMs
/// idle, so smaller query tiles are taken.
constexpr int64_t kMinThreadBlocks = 128;

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
  /// A causal mask in the scores body: key j of row i is visible iff
  /// j <= i + causalOffset (TopLeft: 0; BottomRight: S_kv - S).
  std::optional<int64_t> causalOffset;
};

/// `value` as `row + c` (c a constant); c.
std::optional<int64_t> getOffsetFrom(Value value, Value row) {
  if (value == row)
    return 0;
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [base, offset] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())})
    if (base == row)
      return mlc::evaluateIndex(offset);
  return std::nullopt;
}

/// The causal mask of the legalized scores body, if the value it stores is
/// select(key <= row + c, x, -inf) (or key < row + c + 1): c.
std::optional<int64_t> matchCausalMask(BlockOp scores, memref::StoreOp store) {
  auto select = store.getValueToStore().getDefiningOp<arith::SelectOp>();
  Block *body = scores.getBodyBlock();
  if (!select || body->getNumArguments() != 4)
    return std::nullopt;
  auto lowest = select.getFalseValue().getDefiningOp<arith::ConstantOp>();
  auto lowestValue =
      lowest ? dyn_cast<FloatAttr>(lowest.getValue()) : FloatAttr();
  auto compare = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!lowestValue || !lowestValue.getValue().isInfinity() ||
      !lowestValue.getValue().isNegative() || !compare ||
      compare.getLhs() != body->getArgument(3))
    return std::nullopt;
  std::optional<int64_t> offset =
      getOffsetFrom(compare.getRhs(), body->getArgument(2));
  if (!offset)
    return std::nullopt;
  switch (compare.getPredicate()) {
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return *offset;
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return *offset - 1;
  default:
    return std::nullopt;
  }
}

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
  match.causalOffset = matchCausalMask(match.scores, scoresStore);
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
  AttentionBuilder(RewriterBase &rewriter, AttentionMatch &m, int64_t rows,
                   int64_t mtTiles)
      : rewriter(rewriter), m(m), loc(m.scores.getLoc()), rows(rows),
        mtTiles(mtTiles), warps(rows / (16 * mtTiles)),
        seqPad(llvm::alignTo(m.seq, rows)),
        kvPad(llvm::alignTo(m.kvSeq, kKeyTile)),
        headPad(llvm::alignTo(m.headDim, 16)),
        valuePad(llvm::alignTo(m.valueDim, 64)) {}

  void build(ForOp root);

private:
  /// A thread-bound loop (or a plain one with `kind`).
  ForOp loop(int64_t extent, StringRef name, ForKind kind = ForKind::serial,
             StringRef tag = {}) {
    return loop(rewriter.getIndexAttr(extent), name, kind, tag);
  }
  ForOp loop(OpFoldResult extent, StringRef name,
             ForKind kind = ForKind::serial, StringRef tag = {}) {
    auto l = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0), extent,
                           rewriter.getIndexAttr(1), kind, tag);
    l.setIvName(name);
    rewriter.setInsertionPoint(l.getBodyBlock()->getTerminator());
    return l;
  }

  /// An unrolled loop; returns its induction variable.
  Value unrolled(int64_t extent, const Twine &name) {
    return loop(extent, name.str(), ForKind::unrolled).getInductionVar();
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

  /// The query row of the thread's accumulator element (mt, h): the
  /// tensor-core Matmul rule's rows ((w 8 + g) mtTiles + mt) 2 + h of the
  /// tile.
  Value rowOf(Affine &a, Value mt, Value h) {
    return a.apply(a.d(4) * rows +
                       ((a.d(0) * 8 + a.d(1)) * mtTiles + a.d(2)) * 2 + a.d(3),
                   {w, g, mt, h, qTile});
  }

  /// The key of the thread's score element (nt, p) of the step: column
  /// 8 nt + 2 t + p, mma.sync's own accumulator layout, which is also the
  /// layout of its A operand, so P stays in registers for P V.
  AffineExpr keyInTile(AffineExpr nt, AffineExpr t, AffineExpr p) {
    return nt * 8 + t * 2 + p;
  }
  Value keyOf(Affine &a, Value nt, Value p) {
    return a.apply(a.d(3) * kKeyTile + keyInTile(a.d(0), a.d(1), a.d(2)),
                   {nt, t, p, keyTile});
  }

  /// The column of V and O within a 64-column part: 8 nt + 2 t + p, the
  /// accumulator layout, so that each mma tile's 8 columns of V are
  /// contiguous (ldmatrix.trans loads them as they are; V's copy stores 16
  /// bytes at a time).
  Value valueColOf(Affine &a, Value nt, Value p) {
    return a.apply(a.d(0) * 8 + a.d(1) * 2 + a.d(2), {nt, t, p});
  }

  /// Unrolled loops over the thread's elements of the output accumulator
  /// (mt, 64-column part cb, nt, h, p); returns their row, part and column
  /// in the part.
  std::array<Value, 3> outputElementLoops(StringRef stage) {
    Value mt = unrolled(mtTiles, stage + "_mt");
    Value cb = unrolled(valuePad / 64, stage + "_cb");
    Value nt = unrolled(8, stage + "_nt");
    Value h = unrolled(2, stage + "_h");
    Value p = unrolled(2, stage + "_p");
    Affine a{rewriter, loc};
    return {rowOf(a, mt, h), cb, valueColOf(a, nt, p)};
  }

  /// Unrolled loops over the thread's rows (mt, h).
  std::pair<Value, Value> rowLoops(StringRef stage) {
    Value mt = unrolled(mtTiles, stage + "_mt");
    Value h = unrolled(2, stage + "_h");
    return {mt, h};
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

  /// The maximum to subtract: `max`, or 0 while every score so far is
  /// -inf (masked), so that exp gives 0 rather than NaN.
  Value shift(OpBuilder &b, Location l, Value max) {
    Value lowest = arith::ConstantOp::create(
        b, l, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
    Value isLowest =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, max, lowest);
    Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
    return arith::SelectOp::create(b, l, isLowest, zero, max).getResult();
  }

  /// exp(x - shift(max)) as exp2(x log2(e) - shift(max) log2(e)), as
  /// FlashAttention computes it: one fma and ex2.approx on NVIDIA GPUs,
  /// where math.exp's range reduction costs ten instructions per element.
  Value expShifted(OpBuilder &b, Location l, Value x, Value max) {
    Value log2e =
        arith::ConstantOp::create(b, l, b.getF32FloatAttr(1.4426950408889634));
    // contract: x log2(e) - c may become one fma.
    auto contract = arith::FastMathFlags::contract;
    Value scaledShift = arith::MulFOp::create(b, l, shift(b, l, max), log2e);
    Value scaled = arith::MulFOp::create(b, l, x, log2e, contract);
    return math::Exp2Op::create(
        b, l, arith::SubFOp::create(b, l, scaled, scaledShift, contract));
  }

  /// The loop over the key tiles. Under a causal mask (keys j <= i + c
  /// visible, c >= 0) a query tile stops after the last tile any of its
  /// rows sees: the tiles after it would add exp(-inf) = 0 (half of the
  /// work, for a square causal attention).
  ForOp keyTileLoop() {
    int64_t tiles = kvPad / kKeyTile;
    std::optional<int64_t> offset = m.causalOffset;
    if (!offset || *offset < 0 || rows - 1 + *offset >= m.kvSeq)
      return loop(tiles, "kv_tile");
    AffineExpr q = rewriter.getAffineDimExpr(0);
    AffineMap seen =
        AffineMap::get(1, 0,
                       {(q * rows + rows - 1 + *offset).floorDiv(kKeyTile) + 1,
                        rewriter.getAffineConstantExpr(tiles)},
                       rewriter.getContext());
    Value count = affine::AffineMinOp::create(rewriter, loc, seen, qTile);
    return loop(OpFoldResult(count), "kv_tile");
  }

  void buildCopies(bool keys);
  void buildInit();
  void buildScores();
  void buildRowMax();
  void buildStatistics();
  void buildProbabilities();
  void buildRowSum();
  void buildProduct();
  void buildOutput();

  RewriterBase &rewriter;
  AttentionMatch &m;
  Location loc;
  /// Query rows per thread block, 16-row mma tiles per warp, warps.
  int64_t rows, mtTiles, warps;
  /// The sizes the tiles cover: S, S_kv, H and H_v rounded up to whole
  /// query tiles, key tiles, mma K steps and 64-column parts. The copies
  /// zero-fill Q, K and V past their ends, the scores of keys past S_kv
  /// are -inf, and the output's store is predicated on the real S and H_v.
  int64_t seqPad, kvPad, headPad, valuePad;
  Value bh, qTile, keyTile;
  Value w, g, t;
  Value qShared, kShared, vShared;
  /// Registers of each thread (local buffers indexed by logical
  /// coordinates; tensorir-compact-buffer-allocation keeps each thread's
  /// part): the scores' accumulator, the scaled/masked scores, P, the
  /// output's accumulator, the running row maximum, the step's row maximum,
  /// the rescaling factor, the running row sums of each thread's keys
  /// ([.., 4]: keys 8 nt + 2 t + p of lane t) and their total.
  Value sLocal, scoresLocal, pLocal, oLocal, maxLocal, stepMaxLocal, alphaLocal,
      sumLocal, totalLocal;
  Type f32;
};

/// input[b, row, n, col] of a [B, length, N, width] input, or 0 where the
/// row or the column is past its end (a padded tile): the indices clamped
/// into the input and the load selected against zero, which cp.async does
/// by zero-filling (mlc-gpu-async-copy-pipeline; width % 8 == 0, so a
/// 16-byte piece is wholly inside or outside).
static Value loadOrZero(OpBuilder &b, Location l, Value input,
                        ArrayRef<Value> index, int64_t length,
                        int64_t lengthPad, int64_t width, int64_t widthPad) {
  Value row = index[1], col = index[3];
  auto clamp = [&](Value x, int64_t end) -> std::pair<Value, Value> {
    Value bound = arith::ConstantIndexOp::create(b, l, end);
    Value last = arith::ConstantIndexOp::create(b, l, end - 1);
    return {arith::MinUIOp::create(b, l, x, last),
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, x, bound)};
  };
  Value rowInside, colInside;
  if (lengthPad != length)
    std::tie(row, rowInside) = clamp(row, length);
  if (widthPad != width)
    std::tie(col, colInside) = clamp(col, width);
  Value x = memref::LoadOp::create(b, l, input, {index[0], row, index[2], col});
  Value zero;
  if (rowInside || colInside)
    zero = arith::ConstantOp::create(b, l, b.getZeroAttr(x.getType()));
  // The column's mask first: the copy recognizes the clamp it guards.
  for (Value inside : {colInside, rowInside})
    if (inside)
      x = arith::SelectOp::create(b, l, inside, x, zero);
  return x;
}

/// Copies a tile of rows x width elements of a [B, L, N, width] input into
/// `shared` ([B, N, L, width], or [B, N, width / 64, L, 64] for V; L and
/// width padded to whole tiles, zeros past the input's ends): 16 bytes (8
/// elements) per thread and step, consecutive threads on consecutive
/// pieces of a row.
void AttentionBuilder::buildCopies(bool keys) {
  struct Copy {
    Value input, shared;
    int64_t tileRows, width, widthPad;
    StringRef name;
    bool split;
  };
  SmallVector<Copy> copies;
  if (!keys)
    copies.push_back(
        {m.q, qShared, rows, m.headDim, headPad, "Q_shared", false});
  else
    copies = {{m.k, kShared, kKeyTile, m.headDim, headPad, "K_shared", false},
              {m.v, vShared, kKeyTile, m.valueDim, valuePad, "V_shared", true}};
  for (const Copy &c : copies) {
    OpBuilder::InsertionGuard guard(rewriter);
    threads(c.name);
    int64_t pieces = c.tileRows * c.widthPad / 8;
    int64_t threadCount = warps * 32;
    ForOp step =
        loop(pieces / threadCount, (c.name + "_i").str(), ForKind::unrolled);
    ForOp lane = loop(8, (c.name + "_v").str(), ForKind::vectorized);
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    Value tileStart = keys ? a.apply(a.d(0) * kKeyTile, {keyTile}) : origin[2];
    AffineExpr piece = ((a.d(0) * warps + a.d(1)) * 8 + a.d(2)) * 4 + a.d(3);
    SmallVector<Value> pieceIvs{step.getInductionVar(), w, g, t};
    int64_t piecesPerRow = c.widthPad / 8;
    Value row = a.apply(
        piece.floorDiv(piecesPerRow) + a.d(4),
        {pieceIvs[0], pieceIvs[1], pieceIvs[2], pieceIvs[3], tileStart});
    int64_t length = keys ? m.kvSeq : m.seq;
    int64_t lengthPad = keys ? kvPad : seqPad;
    auto load = [&](OpBuilder &b, Location l, Value bIdx, Value r, Value n,
                    Value col) {
      return loadOrZero(b, l, c.input, {bIdx, r, n, col}, length, lengthPad,
                        c.width, c.widthPad);
    };
    SmallVector<IterVarType> types(c.split ? 5 : 4, IterVarType::spatial);
    if (!c.split) {
      Value col = a.apply((piece % piecesPerRow) * 8 + a.d(4),
                          {pieceIvs[0], pieceIvs[1], pieceIvs[2], pieceIvs[3],
                           lane.getInductionVar()});
      block(c.name, types, {m.batch, m.heads, lengthPad, c.widthPad},
            {origin[0], origin[1], row, col},
            [&](OpBuilder &b, Location l, ValueRange iv) {
              Value x = load(b, l, iv[0], iv[2], iv[1], iv[3]);
              memref::StoreOp::create(b, l, x, c.shared,
                                      {iv[0], iv[1], iv[2], iv[3]});
            });
      continue;
    }
    // V by (64-column part, column in it): a piece of 8 lies in one part,
    // so both indices are linear in the vector lane (cp.async copies it).
    Value part = a.apply((piece % piecesPerRow).floorDiv(8), pieceIvs);
    Value within = a.apply((piece % piecesPerRow) % 8 * 8 + a.d(4),
                           {pieceIvs[0], pieceIvs[1], pieceIvs[2], pieceIvs[3],
                            lane.getInductionVar()});
    block(c.name, types, {m.batch, m.heads, lengthPad, c.widthPad / 64, 64},
          {origin[0], origin[1], row, part, within},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Affine ba{b, l};
            Value col = ba.apply(ba.d(0) * 64 + ba.d(1), {iv[3], iv[4]});
            Value x = load(b, l, iv[0], iv[2], iv[1], col);
            memref::StoreOp::create(b, l, x, c.shared,
                                    {iv[0], iv[1], iv[3], iv[2], iv[4]});
          });
  }
}

/// m = -inf, the row sums 0 and O = 0 for the thread's rows.
void AttentionBuilder::buildInit() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("init");
  {
    OpBuilder::InsertionGuard inner(rewriter);
    auto [mt, h] = rowLoops("init_stats");
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    Value row = rowOf(a, mt, h);
    // Each of the row's four threads (t) sets its own copy.
    block(
        "attention_init_max", SmallVector<IterVarType>(3, IterVarType::spatial),
        {m.batch, m.heads, seqPad}, {origin[0], origin[1], row},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          Value lowest = arith::ConstantOp::create(
              b, l, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
          memref::StoreOp::create(b, l, lowest, maxLocal, iv);
        });
    block("attention_init_sum",
          SmallVector<IterVarType>(4, IterVarType::spatial),
          {m.batch, m.heads, seqPad, 4}, {origin[0], origin[1], row, t},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
            memref::StoreOp::create(b, l, zero, sumLocal, iv);
          });
  }
  auto [row, cb, col] = outputElementLoops("init_o");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  block("attention_init_o", SmallVector<IterVarType>(5, IterVarType::spatial),
        {m.batch, m.heads, seqPad, valuePad / 64, 64},
        {origin[0], origin[1], row, cb, col},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
          memref::StoreOp::create(b, l, zero, oLocal, iv);
        });
}

/// S = Q Kᵀ for the step's keys in each thread's accumulators, then
/// scaled, biased and masked (the legalized scores body).
void AttentionBuilder::buildScores() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("S");
  const int64_t nTiles = kKeyTile / 8;
  auto spatial4 = SmallVector<IterVarType>(4, IterVarType::spatial);
  SmallVector<int64_t> scoreExtents{m.batch, m.heads, seqPad, kvPad};
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  Value b0 = origin[0], n0 = origin[1];
  {
    OpBuilder::InsertionGuard inner(rewriter);
    Value mt = unrolled(mtTiles, "S_init_mt");
    Value nt = unrolled(nTiles, "S_init_nt");
    Value h = unrolled(2, "S_init_h");
    Value p = unrolled(2, "S_init_p");
    block("S_init", spatial4, scoreExtents,
          {b0, n0, rowOf(a, mt, h), keyOf(a, nt, p)},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
            memref::StoreOp::create(b, l, zero, sLocal, iv);
          });
  }
  {
    OpBuilder::InsertionGuard inner(rewriter);
    Value kt = unrolled(headPad / 16, "S_kt");
    Value mt = unrolled(mtTiles, "S_mt");
    Value nt = unrolled(nTiles, "S_nt");
    std::array<Value, 3> mma = mmaLoops("S");
    Value h = mma[0], p = mma[1], kk = mma[2];
    Value kd = a.apply(a.d(0) * 16 + a.d(1), {kt, kk});
    SmallVector<IterVarType> types = spatial4;
    types.push_back(IterVarType::reduce);
    SmallVector<int64_t> extents = scoreExtents;
    extents.push_back(headPad);
    block("S_update", types, extents,
          {b0, n0, rowOf(a, mt, h), keyOf(a, nt, p), kd},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            accumulate(b, l, sLocal, iv.take_front(4), qShared,
                       {iv[0], iv[1], iv[2], iv[4]}, kShared,
                       {iv[0], iv[1], iv[3], iv[4]});
          });
  }
  // The legalized scores body, reading the accumulator. In padded tiles
  // it sees the last row and key in place of those past the ends (a bias
  // is read inside its buffer), and keys past S_kv score -inf (P = 0).
  Value mt = unrolled(mtTiles, "S_out_mt");
  Value nt = unrolled(nTiles, "S_out_nt");
  Value h = unrolled(2, "S_out_h");
  Value p = unrolled(2, "S_out_p");
  block("T_attention_scores", spatial4, scoreExtents,
        {b0, n0, rowOf(a, mt, h), keyOf(a, nt, p)},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          SmallVector<Value> legal(iv);
          Value keyInside;
          for (auto [dim, end, pad] :
               {std::tuple(2, m.seq, seqPad), std::tuple(3, m.kvSeq, kvPad)}) {
            if (end == pad)
              continue;
            legal[dim] = arith::MinUIOp::create(
                b, l, iv[dim], arith::ConstantIndexOp::create(b, l, end - 1));
            if (dim == 3)
              keyInside = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::ult, iv[dim],
                  arith::ConstantIndexOp::create(b, l, end));
          }
          IRMapping map;
          for (auto [from, to] :
               llvm::zip(m.scores.getBodyBlock()->getArguments(), legal))
            map.map(from, to);
          for (Operation &op : m.scores.getBodyBlock()->without_terminator()) {
            if (auto load = dyn_cast<memref::LoadOp>(op);
                load && load.getMemRef() == m.qkBuffer) {
              map.map(load.getResult(),
                      memref::LoadOp::create(b, l, sLocal, iv).getResult());
              continue;
            }
            if (auto store = dyn_cast<memref::StoreOp>(op)) {
              Value score = map.lookup(store.getValueToStore());
              if (keyInside)
                score = arith::SelectOp::create(
                    b, l, keyInside, score,
                    arith::ConstantOp::create(
                        b, l,
                        b.getF32FloatAttr(
                            -std::numeric_limits<float>::infinity())));
              memref::StoreOp::create(b, l, score, scoresLocal, iv);
              continue;
            }
            b.clone(op, map);
          }
        });
}

/// The step's maximum of each row: each thread over its keys, then across
/// the row's four threads (a cross-thread reduction over t, which
/// convert-tensorir-to-gpu turns into two shuffles; every thread keeps the
/// result).
void AttentionBuilder::buildRowMax() {
  OpBuilder::InsertionGuard guard(rewriter);
  auto [mt, h] = rowLoops("max");
  threads("max");
  Value nt = unrolled(kKeyTile / 8, "max_nt");
  Value p = unrolled(2, "max_p");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  // (b, n, i, key tile) spatial, the key within the tile reduced, so that
  // the init runs at every step.
  SmallVector<IterVarType> types(4, IterVarType::spatial);
  types.push_back(IterVarType::reduce);
  block("attention_row_max", types,
        {m.batch, m.heads, seqPad, kvPad / kKeyTile, kKeyTile},
        {origin[0], origin[1], rowOf(a, mt, h), keyTile,
         a.apply(keyInTile(a.d(0), a.d(1), a.d(2)), {nt, t, p})},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          ValueRange r = iv.take_front(3);
          InitOp::create(b, l, [&](OpBuilder &ib, Location il) {
            Value lowest = arith::ConstantOp::create(
                ib, il,
                ib.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
            memref::StoreOp::create(ib, il, lowest, stepMaxLocal, r);
          });
          Affine ba{b, l};
          Value key = ba.apply(ba.d(0) * kKeyTile + ba.d(1), {iv[3], iv[4]});
          Value s = memref::LoadOp::create(b, l, scoresLocal,
                                           {iv[0], iv[1], iv[2], key});
          Value acc = memref::LoadOp::create(b, l, stepMaxLocal, r);
          memref::StoreOp::create(b, l, arith::MaximumFOp::create(b, l, acc, s),
                                  stepMaxLocal, r);
        });
}

/// The rescaling factor exp(m - m_new), then the new running maximum
/// m_new. The row's four threads each compute both for their own copy, so
/// the two are separate thread nests: the host emulation runs the threads
/// one after another, and the second thread's factor must still see m.
void AttentionBuilder::buildStatistics() {
  SmallVector<IterVarType> types(3, IterVarType::spatial);
  SmallVector<int64_t> extents{m.batch, m.heads, seqPad};
  auto rowBlock = [&](StringRef name,
                      function_ref<void(OpBuilder &, Location, ValueRange)>
                          body) {
    OpBuilder::InsertionGuard guard(rewriter);
    threads(name);
    auto [mt, h] = rowLoops(name);
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    block(name, types, extents, {origin[0], origin[1], rowOf(a, mt, h)}, body);
  };
  rowBlock("attention_alpha", [&](OpBuilder &b, Location l, ValueRange iv) {
    Value oldMax = memref::LoadOp::create(b, l, maxLocal, iv);
    Value stepMax = memref::LoadOp::create(b, l, stepMaxLocal, iv);
    Value newMax = arith::MaximumFOp::create(b, l, oldMax, stepMax);
    Value alpha = expShifted(b, l, oldMax, newMax);
    memref::StoreOp::create(b, l, alpha, alphaLocal, iv);
  });
  rowBlock("attention_update_max", [&](OpBuilder &b, Location l,
                                       ValueRange iv) {
    Value oldMax = memref::LoadOp::create(b, l, maxLocal, iv);
    Value stepMax = memref::LoadOp::create(b, l, stepMaxLocal, iv);
    memref::StoreOp::create(
        b, l, arith::MaximumFOp::create(b, l, oldMax, stepMax), maxLocal, iv);
  });
}

/// P = exp(S - m) in the input type.
void AttentionBuilder::buildProbabilities() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("P");
  Value mt = unrolled(mtTiles, "P_mt");
  Value nt = unrolled(kKeyTile / 8, "P_nt");
  Value h = unrolled(2, "P_h");
  Value p = unrolled(2, "P_p");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  block("attention_p", SmallVector<IterVarType>(4, IterVarType::spatial),
        {m.batch, m.heads, seqPad, kvPad},
        {origin[0], origin[1], rowOf(a, mt, h), keyOf(a, nt, p)},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          Value s = memref::LoadOp::create(b, l, scoresLocal, iv);
          Value max = memref::LoadOp::create(b, l, maxLocal, iv.take_front(3));
          Value e = expShifted(b, l, s, max);
          memref::StoreOp::create(
              b, l, arith::TruncFOp::create(b, l, m.elementType, e), pLocal,
              iv);
        });
}

/// Each thread's running sum of its own keys' P: l alpha + the step's P
/// (the init rescales). The row's four sums are added once, at the end.
void AttentionBuilder::buildRowSum() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("sum");
  auto [mt, h] = rowLoops("sum");
  const int64_t nTiles = kKeyTile / 8;
  Value nt = unrolled(nTiles, "sum_nt");
  Value p = unrolled(2, "sum_p");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  // (b, n, i, lane t, key tile) spatial; (nt, p) of the lane's keys reduced.
  SmallVector<IterVarType> types(5, IterVarType::spatial);
  types.append({IterVarType::reduce, IterVarType::reduce});
  block("attention_row_sum", types,
        {m.batch, m.heads, seqPad, 4, kvPad / kKeyTile, nTiles, 2},
        {origin[0], origin[1], rowOf(a, mt, h), t, keyTile, nt, p},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          SmallVector<Value> r{iv[0], iv[1], iv[2], iv[3]};
          InitOp::create(b, l, [&](OpBuilder &ib, Location il) {
            Value sum = memref::LoadOp::create(ib, il, sumLocal, r);
            Value alpha =
                memref::LoadOp::create(ib, il, alphaLocal, iv.take_front(3));
            memref::StoreOp::create(
                ib, il, arith::MulFOp::create(ib, il, sum, alpha), sumLocal, r);
          });
          Affine ba{b, l};
          Value key = ba.apply(ba.d(0) * kKeyTile +
                                   keyInTile(ba.d(1), ba.d(2), ba.d(3)),
                               {iv[4], iv[5], iv[3], iv[6]});
          // The sum of the rounded P that multiplies V: the weights are
          // normalized exactly.
          Value pv = arith::ExtFOp::create(
              b, l, f32,
              memref::LoadOp::create(b, l, pLocal, {iv[0], iv[1], iv[2], key})
                  .getResult());
          Value acc = memref::LoadOp::create(b, l, sumLocal, r);
          memref::StoreOp::create(b, l, arith::AddFOp::create(b, l, acc, pv),
                                  sumLocal, r);
        });
}

/// O = O alpha + P V in each thread's accumulators, P the A operand from
/// the thread's registers.
void AttentionBuilder::buildProduct() {
  OpBuilder::InsertionGuard guard(rewriter);
  threads("O");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  Value b0 = origin[0], n0 = origin[1];
  const int64_t parts = valuePad / 64;
  SmallVector<IterVarType> types(5, IterVarType::spatial);
  SmallVector<int64_t> extents{m.batch, m.heads, seqPad, parts, 64};
  {
    OpBuilder::InsertionGuard inner(rewriter);
    auto [row, cb, col] = outputElementLoops("O_rescale");
    block("O_rescale", types, extents, {b0, n0, row, cb, col},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            Value o = memref::LoadOp::create(b, l, oLocal, iv);
            Value alpha =
                memref::LoadOp::create(b, l, alphaLocal, iv.take_front(3));
            memref::StoreOp::create(b, l, arith::MulFOp::create(b, l, o, alpha),
                                    oLocal, iv);
          });
  }
  Value kt = unrolled(kKeyTile / 16, "O_kt");
  Value mt = unrolled(mtTiles, "O_mt");
  Value cb = unrolled(parts, "O_cb");
  Value nt = unrolled(8, "O_nt");
  std::array<Value, 3> mma = mmaLoops("O");
  Value h = mma[0], p = mma[1], kk = mma[2];
  Value key =
      a.apply(a.d(2) * kKeyTile + a.d(0) * 16 + a.d(1), {kt, kk, keyTile});
  SmallVector<IterVarType> updateTypes = types;
  updateTypes.push_back(IterVarType::reduce);
  SmallVector<int64_t> updateExtents = extents;
  updateExtents.push_back(kvPad);
  block("O_update", updateTypes, updateExtents,
        {b0, n0, rowOf(a, mt, h), cb, valueColOf(a, nt, p), key},
        [&](OpBuilder &b, Location l, ValueRange iv) {
          accumulate(b, l, oLocal, iv.take_front(5), pLocal,
                     {iv[0], iv[1], iv[2], iv[5]}, vShared,
                     {iv[0], iv[1], iv[3], iv[5], iv[4]});
        });
}

/// The row sums' total across the row's four threads, then out = O / l
/// through the legalized output body (its cast), each thread storing its
/// own elements.
void AttentionBuilder::buildOutput() {
  {
    OpBuilder::InsertionGuard guard(rewriter);
    auto [mt, h] = rowLoops("total");
    threads("total");
    Affine a{rewriter, loc};
    SmallVector<Value> origin = tileOrigin(a);
    SmallVector<IterVarType> types(3, IterVarType::spatial);
    types.push_back(IterVarType::reduce);
    block("attention_row_total", types, {m.batch, m.heads, seqPad, 4},
          {origin[0], origin[1], rowOf(a, mt, h), t},
          [&](OpBuilder &b, Location l, ValueRange iv) {
            ValueRange r = iv.take_front(3);
            InitOp::create(b, l, [&](OpBuilder &ib, Location il) {
              Value zero =
                  arith::ConstantOp::create(ib, il, ib.getF32FloatAttr(0));
              memref::StoreOp::create(ib, il, zero, totalLocal, r);
            });
            Value part = memref::LoadOp::create(b, l, sumLocal, iv);
            Value acc = memref::LoadOp::create(b, l, totalLocal, r);
            memref::StoreOp::create(
                b, l, arith::AddFOp::create(b, l, acc, part), totalLocal, r);
          });
  }
  OpBuilder::InsertionGuard guard(rewriter);
  threads("out");
  auto [row, cb, col] = outputElementLoops("out");
  Affine a{rewriter, loc};
  SmallVector<Value> origin = tileOrigin(a);
  // (b, i, n, 64-column part, column in it): the output's (b, i, n, c)
  // with c = 64 part + column, so that O is indexed linearly (the thread's
  // part of O stays in registers). Rows and columns of padded tiles are not
  // stored (a block predicate); the column is also clamped into the output,
  // which the domain of a padded part overruns.
  Value inside;
  auto andInside = [&](Value index, int64_t end) {
    Value cmp = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, index,
        arith::ConstantIndexOp::create(rewriter, loc, end));
    inside = inside ? arith::AndIOp::create(rewriter, loc, inside, cmp) : cmp;
  };
  if (seqPad != m.seq)
    andInside(row, m.seq);
  if (valuePad != m.valueDim)
    andInside(a.apply(a.d(0) * 64 + a.d(1), {cb, col}), m.valueDim);
  BlockOp store = block(
      "T_attention", SmallVector<IterVarType>(5, IterVarType::spatial),
      {m.batch, m.seq, m.heads, valuePad / 64, 64},
      {origin[0], row, origin[1], cb, col},
      [&](OpBuilder &b, Location l, ValueRange iv) {
        Affine ba{b, l};
        Value column = ba.apply(ba.d(0) * 64 + ba.d(1), {iv[3], iv[4]});
        if (valuePad != m.valueDim)
          column = arith::MinUIOp::create(
              b, l, column,
              arith::ConstantIndexOp::create(b, l, m.valueDim - 1));
        IRMapping map;
        SmallVector<Value> outputIndices{iv[0], iv[1], iv[2], column};
        for (auto [from, to] :
             llvm::zip(m.output.getBodyBlock()->getArguments(), outputIndices))
          map.map(from, to);
        for (Operation &op : m.output.getBodyBlock()->without_terminator()) {
          auto load = dyn_cast<memref::LoadOp>(op);
          if (load && load.getMemRef() == m.pvBuffer) {
            map.map(load.getResult(),
                    memref::LoadOp::create(b, l, oLocal,
                                           {iv[0], iv[2], iv[1], iv[3], iv[4]})
                        .getResult());
            continue;
          }
          if (load && load.getMemRef() == m.sumBuffer) {
            map.map(
                load.getResult(),
                memref::LoadOp::create(b, l, totalLocal, {iv[0], iv[2], iv[1]})
                    .getResult());
            continue;
          }
          b.clone(op, map);
        }
      });
  if (inside)
    store.getPredicateMutable().assign(inside);
}

void AttentionBuilder::build(ForOp root) {
  f32 = rewriter.getF32Type();
  rewriter.setInsertionPoint(root);
  Type type = m.elementType;
  int64_t b = m.batch, n = m.heads, s = seqPad, skv = kvPad;
  qShared = alloc({b, n, s, headPad}, type, "Q_shared", "shared");
  kShared = alloc({b, n, skv, headPad}, type, "K_shared", "shared");
  vShared = alloc({b, n, valuePad / 64, skv, 64}, type, "V_shared", "shared");
  sLocal = alloc({b, n, s, skv}, f32, "S_local", "local");
  scoresLocal = alloc({b, n, s, skv}, f32, "scores_local", "local");
  pLocal = alloc({b, n, s, skv}, type, "P_local", "local");
  oLocal = alloc({b, n, s, valuePad / 64, 64}, f32, "O_local", "local");
  maxLocal = alloc({b, n, s}, f32, "max_local", "local");
  stepMaxLocal = alloc({b, n, s}, f32, "step_max_local", "local");
  alphaLocal = alloc({b, n, s}, f32, "alpha_local", "local");
  sumLocal = alloc({b, n, s, 4}, f32, "sum_local", "local");
  totalLocal = alloc({b, n, s}, f32, "total_local", "local");

  bh = loop(b * n, "bh", ForKind::thread_binding, "blockIdx.y")
           .getInductionVar();
  qTile = loop(s / rows, "q_tile", ForKind::thread_binding, "blockIdx.x")
              .getInductionVar();
  buildInit();
  buildCopies(/*keys=*/false);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    keyTile = keyTileLoop().getInductionVar();
    buildCopies(/*keys=*/true);
    buildScores();
    buildRowMax();
    buildStatistics();
    buildProbabilities();
    buildRowSum();
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
  // Rows of Q, K and V in whole 16-byte pieces (cp.async); the tiles pad
  // the rest: the head dimension to mma K steps of 16, V to 64-column
  // parts, S and S_kv to whole query and key tiles.
  if (m.headDim % 8 != 0 || m.valueDim % 8 != 0 || m.batch * m.heads > 65535)
    return failure();
  const int64_t headPad = llvm::alignTo(m.headDim, 16);
  const int64_t valuePad = llvm::alignTo(m.valueDim, 64);
  // Shared memory holds the Q tile and K and V in at least two stages of
  // mlc-gpu-async-copy-pipeline (rows padded by 16 bytes); S, P and O stay
  // in registers.
  auto fits = [&](int64_t rows, int64_t threads) {
    int64_t half = 2, pad = 8;
    int64_t stage =
        kKeyTile * (headPad + pad + valuePad / 64 * (64 + pad)) * half;
    int64_t bytes = rows * headPad * half + 2 * stage;
    // Copies: whole 16-byte pieces per thread.
    return llvm::divideCeil(m.seq, rows) <= 65535 && bytes <= kMaxSharedBytes &&
           (rows * headPad / 8) % threads == 0 &&
           (kKeyTile * headPad / 8) % threads == 0 &&
           (kKeyTile * valuePad / 8) % threads == 0;
  };
  // A warp's rows: 32 (two 16-row mma tiles), or 16 when V has more than
  // 64 columns, whose accumulators (64 f32 registers per 64 columns and
  // mma tile) would not fit in the registers otherwise.
  int64_t mtTiles = valuePad > 64 ? 1 : 2;
  // The largest query tile that still makes enough thread blocks to fill
  // the GPU, else the smallest (most blocks).
  int64_t rows = 0;
  for (int64_t candidate : {128, 64, 32}) {
    if (!fits(candidate, candidate / (16 * mtTiles) * 32))
      continue;
    rows = candidate;
    if (m.batch * m.heads * llvm::divideCeil(m.seq, candidate) >=
        kMinThreadBlocks)
      break;
  }
  if (rows == 0)
    return failure();
  AttentionBuilder(rewriter, m, rows, mtTiles).build(root);
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
