//===- TensorizeMMA.cpp - mma_sync loop nests to ldmatrix + mma.sync ------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's tensorize with its mma intrinsics (ldmatrix, mma_sync), on the loop
// nests that the tensor-core Matmul rule annotates. The rule splits the
// loops so that each thread computes exactly the accumulator elements that
// mma.sync.m16n8k16 leaves in its registers (PTX ISA, "Matrix fragments for
// mma.m16n8k16": lane = 4 g + t holds rows g and g + 8, columns 2t and
// 2t + 1 of the 16 x 8 tile), so the accumulator accesses stay the thread's
// own; only the operand loads change, to one ldmatrix per operand whose
// lanes each point at one row of an 8 x 8 tile.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Codegen/GPU/Utils.h"

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"

namespace mlc {
#define GEN_PASS_DEF_GPUTENSORIZEMMAPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using mlc::tensorir::dependsOn;

namespace {

/// The loop nest of one warp's 16 x 8 x k tile: h (2) { p (2) { kk (k) {
/// C[..] = C[..] + extf(A[..]) * extf(B[..]) } } } with f16 or bf16 A and B
/// (m16n8k16), or C[..] + A[..] * B[..] with f32 A and B (m16n8k8, tf32).
struct MmaNest {
  /// K of the mma shape: 16, or 8 for tf32 (A and B f32).
  int64_t k;
  scf::ForOp h, p, kk;
  memref::LoadOp a, b, c;
  memref::StoreOp store;
  /// The dimensions of A and B that M, N and K index.
  unsigned aRowDim, aKDim, bColDim, bKDim;
};

bool hasExtent(scf::ForOp loop, int64_t extent) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  return lb && *lb == 0 && ub && *ub == extent && step && *step == 1;
}

/// The only loop in `loop`'s body (everything else index arithmetic).
scf::ForOp getNestedLoop(scf::ForOp loop) {
  scf::ForOp nested;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto inner = dyn_cast<scf::ForOp>(op); inner && !nested) {
      nested = inner;
      continue;
    }
    if (op.getNumRegions() != 0 || !isPure(&op))
      return nullptr;
  }
  return nested;
}

/// The one index of `load` that depends on `iv`, if exactly one does.
std::optional<unsigned> getDimOf(memref::LoadOp load, Value iv) {
  std::optional<unsigned> dim;
  for (auto [i, index] : llvm::enumerate(load.getIndices())) {
    if (!dependsOn(index, {iv}))
      continue;
    if (dim)
      return std::nullopt;
    dim = i;
  }
  return dim;
}

/// The column order of a B tile stored K x N in shared memory. The
/// tensor-core Matmul rule gives lane (g, t) the columns 16 t + 2 nt + p of
/// its block's 64 (a contiguous 4 x 16 box of C), so the 8 columns of mma
/// tile nt (n = 2 t + p) lie 16 apart in pairs; stored at 8 nt + 2 t + p
/// they are contiguous, and ldmatrix.trans loads the B fragment.
AffineMap getBColumnPermutation(MLIRContext *context) {
  AffineExpr c = getAffineDimExpr(0, context);
  return AffineMap::get(1, 0,
                        (c.floorDiv(2) % 8) * 8 + c.floorDiv(16) * 2 + c % 2);
}

/// Stores `buffer`'s columns in the order of getBColumnPermutation: every
/// access's last index goes through it. Only for a shared alloca of 64
/// columns that is read and written by scalar loads and stores.
LogicalResult permuteBColumns(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!buffer.getDefiningOp<memref::AllocaOp>() || type.getRank() < 2 ||
      type.getShape().back() != 64 ||
      llvm::any_of(buffer.getUsers(), [](Operation *user) {
        return !isa<memref::LoadOp, memref::StoreOp>(user);
      }))
    return failure();
  AffineMap permutation = getBColumnPermutation(buffer.getContext());
  for (Operation *user : llvm::to_vector(buffer.getUsers())) {
    OpBuilder b(user);
    MutableOperandRange indices =
        isa<memref::LoadOp>(user)
            ? cast<memref::LoadOp>(user).getIndicesMutable()
            : cast<memref::StoreOp>(user).getIndicesMutable();
    OpOperand &last = indices[indices.size() - 1];
    last.set(affine::AffineApplyOp::create(b, user->getLoc(), permutation,
                                           ValueRange{last.get()}));
  }
  return success();
}

/// Matches the nest under the annotated loop `h`; the reason otherwise.
FailureOr<MmaNest> matchNest(scf::ForOp h, int64_t k, std::string &why) {
  MmaNest nest;
  nest.k = k;
  nest.h = h;
  nest.p = getNestedLoop(h);
  nest.kk = nest.p ? getNestedLoop(nest.p) : nullptr;
  if (!nest.kk || !hasExtent(h, 2) || !hasExtent(nest.p, 2) ||
      !hasExtent(nest.kk, k)) {
    why = "expected loops of 2, 2 and " + std::to_string(k) +
          " iterations from 0, perfectly nested";
    return failure();
  }
  SmallVector<memref::LoadOp> loads;
  for (Operation &op : nest.kk.getBody()->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      loads.push_back(load);
    else if (auto store = dyn_cast<memref::StoreOp>(op); store && !nest.store)
      nest.store = store;
    else if (op.getNumRegions() != 0 || !isPure(&op)) {
      why = "unexpected operation '" + op.getName().getStringRef().str() +
            "' in the tile";
      return failure();
    }
  }
  // C = C + extf(A) * extf(B), A and B in shared memory.
  auto add = nest.store
                 ? nest.store.getValueToStore().getDefiningOp<arith::AddFOp>()
                 : nullptr;
  if (!add || loads.size() != 3) {
    why = "expected C = C + extf(A) * extf(B)";
    return failure();
  }
  nest.c = add.getLhs().getDefiningOp<memref::LoadOp>();
  auto mul = add.getRhs().getDefiningOp<arith::MulFOp>();
  if (!nest.c || !mul) {
    nest.c = add.getRhs().getDefiningOp<memref::LoadOp>();
    mul = add.getLhs().getDefiningOp<arith::MulFOp>();
  }
  // The operands: extended (16-bit inputs) or not (tf32).
  auto operand = [&](Value value) -> Value {
    if (k == 8)
      return value;
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    return ext ? ext.getIn() : nullptr;
  };
  Value aValue = mul ? operand(mul.getLhs()) : nullptr;
  Value bValue = mul ? operand(mul.getRhs()) : nullptr;
  if (!nest.c || !aValue || !bValue ||
      nest.c.getMemRef() != nest.store.getMemRef() ||
      nest.c.getIndices() != nest.store.getIndices() ||
      !nest.c.getType().isF32()) {
    why = k == 8 ? "expected C = C + A * B with an f32 C"
                 : "expected C = C + extf(A) * extf(B) with an f32 C";
    return failure();
  }
  nest.a = aValue.getDefiningOp<memref::LoadOp>();
  nest.b = bValue.getDefiningOp<memref::LoadOp>();
  if (!nest.a || !nest.b) {
    why = k == 8 ? "expected f32 A and B loaded from memory (m16n8k8 is "
                   "the tf32 mma)"
                 : "expected A and B loaded from memory";
    return failure();
  }
  // A is the operand indexed by h (the rows), B the one indexed by p.
  if (llvm::any_of(nest.a.getIndices(), [&](Value index) {
        return dependsOn(index, {nest.p.getInductionVar()});
      }))
    std::swap(nest.a, nest.b);
  Type elementType = nest.a.getType();
  if (k == 8 && (!elementType.isF32() || !nest.b.getType().isF32())) {
    why = "expected f32 A and B (m16n8k8 is the tf32 mma)";
    return failure();
  }
  if (k == 16 && (elementType != nest.b.getType() ||
                  !isa<Float16Type, BFloat16Type>(elementType))) {
    why = "expected f16 or bf16 A and B of one type";
    return failure();
  }
  // A may be the thread's own registers: a flash-attention kernel's P,
  // left by an earlier mma in the accumulator layout that is also A's.
  bool aPrivate =
      mlc::getGPUAddressSpace(nest.a.getMemRef()) == gpu::AddressSpace::Private;
  if ((!aPrivate && !mlc::isWorkgroupMemory(nest.a.getMemRef())) ||
      !mlc::isWorkgroupMemory(nest.b.getMemRef())) {
    why = "expected A in workgroup (shared) or private memory and B in "
          "workgroup memory";
    return failure();
  }
  std::optional<unsigned> aRow = getDimOf(nest.a, h.getInductionVar());
  std::optional<unsigned> aK = getDimOf(nest.a, nest.kk.getInductionVar());
  std::optional<unsigned> bCol = getDimOf(nest.b, nest.p.getInductionVar());
  std::optional<unsigned> bK = getDimOf(nest.b, nest.kk.getInductionVar());
  unsigned aLast = nest.a.getIndices().size() - 1,
           bLast = nest.b.getIndices().size() - 1;
  if (!aRow || !aK || !bCol || !bK || *aRow == *aK || *bCol == *bK ||
      (*aRow != aLast && *aK != aLast) || (*bCol != bLast && *bK != bLast) ||
      dependsOn(nest.a.getIndices()[*aRow], {nest.p.getInductionVar()}) ||
      dependsOn(nest.b.getIndices()[*bCol], {h.getInductionVar()})) {
    why = "expected A indexed by (row, k) and B by (k, column), one of them "
          "innermost";
    return failure();
  }
  nest.aRowDim = *aRow;
  nest.aKDim = *aK;
  nest.bColDim = *bCol;
  nest.bKDim = *bK;
  return nest;
}

/// `value` recomputed before the nest with some values replaced (`subst`:
/// induction variables and the lane by constants): the pure ops it comes
/// from are cloned where they are inside the nest or see a replaced value.
class Recompute {
public:
  Recompute(OpBuilder &builder, Operation *nest, IRMapping subst)
      : builder(builder), nest(nest), map(std::move(subst)) {}

  FailureOr<Value> get(Value value) {
    if (Value mapped = map.lookupOrNull(value))
      return mapped;
    Operation *def = value.getDefiningOp();
    if (!def)
      return value;
    bool inside = nest->isAncestor(def);
    bool changed = false;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> result = get(operand);
      if (failed(result))
        return failure();
      changed |= *result != operand;
    }
    if (!inside && !changed)
      return value;
    if (def->getNumRegions() != 0 || !isPure(def))
      return failure();
    Operation *clone = builder.clone(*def, map);
    for (auto [from, to] : llvm::zip(def->getResults(), clone->getResults()))
      map.map(from, to);
    return map.lookup(value);
  }

  FailureOr<SmallVector<Value>> get(ValueRange values) {
    SmallVector<Value> result;
    for (Value v : values) {
      FailureOr<Value> r = get(v);
      if (failed(r))
        return failure();
      result.push_back(*r);
    }
    return result;
  }

private:
  OpBuilder &builder;
  Operation *nest;
  IRMapping map;
};

/// The thread ids of a warp's lanes: lane = 4 g + t with g = threadIdx.y
/// (8) and t = threadIdx.x (4), as the tensor-core Matmul rule binds them.
struct Lane {
  Value g, t;
};

/// Builds the operands and accumulator of one mma.sync from the SIMT nest:
/// every value is the nest's own load evaluated at chosen (g, t, h, p, kk).
class MmaBuilder {
public:
  MmaBuilder(MmaNest nest, Lane lane)
      : nest(nest), lane(lane), b(nest.h), loc(nest.h.getLoc()) {}

  Value constant(int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(b, loc, v);
    return c;
  }
  /// `expr` of (g, t).
  Value ofLane(AffineExpr expr) {
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(2, 0, expr),
                                         ValueRange{lane.g, lane.t});
  }

  /// The indices of `load` with the given replacements (null: unchanged).
  FailureOr<SmallVector<Value>> indicesAt(memref::LoadOp load, Value g, Value t,
                                          Value h, Value p, Value kk) {
    IRMapping subst;
    std::pair<Value, Value> replacements[] = {{lane.g, g},
                                              {lane.t, t},
                                              {nest.h.getInductionVar(), h},
                                              {nest.p.getInductionVar(), p},
                                              {nest.kk.getInductionVar(), kk}};
    for (auto [from, to] : replacements)
      if (to)
        subst.map(from, to);
    return Recompute(b, nest.h, subst).get(load.getIndices());
  }

  /// `count` x `perRegister` elements of `load` (a 32-bit register holds
  /// two 16-bit elements, or one f32), element (q, e) at the indices `at(q,
  /// e)` gives.
  FailureOr<Value>
  gather(memref::LoadOp load, int64_t count, int64_t perRegister,
         function_ref<FailureOr<SmallVector<Value>>(int64_t, int64_t)> at) {
    SmallVector<Value> elements;
    for (int64_t q = 0; q < count; ++q) {
      for (int64_t e = 0; e < perRegister; ++e) {
        FailureOr<SmallVector<Value>> index = at(q, e);
        if (failed(index))
          return failure();
        elements.push_back(
            memref::LoadOp::create(b, loc, load.getMemRef(), *index));
      }
    }
    auto type = VectorType::get({count, perRegister}, load.getType());
    return Value(vector::FromElementsOp::create(b, loc, type, elements));
  }

  /// A and B elements per 32-bit fragment register: two f16 or bf16, one
  /// tf32. ldmatrix moves 16-bit pairs, so one 8 x 8 matrix row is always
  /// 16 bytes: 8 k values, or 4 of tf32 (k / 2 either way).
  int64_t perRegister() const { return nest.k == 16 ? 2 : 1; }

  /// A (16 x k, rows g + 8h): one ldmatrix.x4 when k is A's innermost
  /// dimension of a shared buffer (lane l points at row l % 16 in mma order
  /// and k (k / 2) (l / 16)), else element by element (from the thread's
  /// own registers, these are its elements). Register 2q + e of the f16
  /// fragment (a0..a7 of the PTX ISA) is row g + 8 (q % 2), k 2t + e + 8 (q
  /// / 2); register q of the tf32 one row g + 8 (q % 2), k t + 4 (q / 2).
  FailureOr<Value> buildA() {
    AffineExpr g = b.getAffineDimExpr(0), t = b.getAffineDimExpr(1);
    AffineExpr l = g * 4 + t;
    int64_t half = nest.k / 2, perReg = perRegister();
    if (nest.aKDim == nest.a.getIndices().size() - 1 &&
        mlc::isWorkgroupMemory(nest.a.getMemRef())) {
      FailureOr<SmallVector<Value>> index = indicesAt(
          nest.a, ofLane(l % 8), constant(0), ofLane(l.floorDiv(8) % 2),
          constant(0), ofLane(l.floorDiv(16) * half));
      if (failed(index))
        return failure();
      return Value(nvgpu::LdMatrixOp::create(
          b, loc, VectorType::get({4, perReg}, nest.a.getType()),
          nest.a.getMemRef(), *index, /*transpose=*/false, /*numTiles=*/4));
    }
    return gather(nest.a, 4, perReg, [&](int64_t q, int64_t e) {
      return indicesAt(nest.a, nullptr, nullptr, constant(q % 2), constant(0),
                       ofLane(t * perReg + e + half * (q / 2)));
    });
  }

  /// B (k x 8, columns 2t + p): one ldmatrix.x2 when k is B's innermost
  /// dimension (lane l points at column l % 8, k (k / 2) ((l / 8) % 2)),
  /// else element by element: register 2q + e of the f16 fragment (b0..b3)
  /// is k 2t + e + 8q, column g; register q of the tf32 one k t + 4q,
  /// column g.
  FailureOr<Value> buildB() {
    AffineExpr g = b.getAffineDimExpr(0), t = b.getAffineDimExpr(1);
    AffineExpr l = g * 4 + t;
    int64_t half = nest.k / 2, perReg = perRegister();
    if (nest.bKDim == nest.b.getIndices().size() - 1) {
      FailureOr<SmallVector<Value>> index = indicesAt(
          nest.b, constant(0), ofLane((l % 8).floorDiv(2)), constant(0),
          ofLane(l % 2), ofLane((l.floorDiv(8) % 2) * half));
      if (failed(index))
        return failure();
      return Value(nvgpu::LdMatrixOp::create(
          b, loc, VectorType::get({2, perReg}, nest.b.getType()),
          nest.b.getMemRef(), *index, /*transpose=*/false, /*numTiles=*/2));
    }
    // B stored K x N with its columns permuted (permuteBColumns): lane l
    // points at row k = l % 16 of the tile's 8 contiguous columns.
    // ldmatrix.trans transposes 16-bit elements, so not for tf32.
    if (nest.k == 16 && hasContiguousBColumns()) {
      FailureOr<SmallVector<Value>> index =
          indicesAt(nest.b, constant(0), constant(0), constant(0), constant(0),
                    ofLane(l % 16));
      if (failed(index))
        return failure();
      return Value(nvgpu::LdMatrixOp::create(
          b, loc, VectorType::get({2, 2}, nest.b.getType()), nest.b.getMemRef(),
          *index, /*transpose=*/true, /*numTiles=*/2));
    }
    return gather(nest.b, 2, perReg, [&](int64_t q, int64_t e) {
      return indicesAt(nest.b, constant(0), ofLane(g.floorDiv(2)), constant(0),
                       ofLane(g % 2), ofLane(t * perReg + e + half * q));
    });
  }

  /// Whether B's column n = 2t + p of the tile is stored at the column of
  /// n = 0 plus n, 8-aligned (checked on the load's index for all t, p).
  bool hasContiguousBColumns() {
    Value column = nest.b.getIndices()[nest.bColDim];
    Value tValue = lane.t, pValue = nest.p.getInductionVar();
    std::optional<int64_t> first = mlc::evaluateIndex(
        column, DenseMap<Value, int64_t>{{tValue, 0}, {pValue, 0}});
    if (!first || *first % 8 != 0)
      return false;
    for (int64_t tv = 0; tv < 4; ++tv)
      for (int64_t pv = 0; pv < 2; ++pv)
        if (mlc::evaluateIndex(
                column, DenseMap<Value, int64_t>{{tValue, tv}, {pValue, pv}}) !=
            *first + 2 * tv + pv)
          return false;
    return true;
  }

  /// The thread's own accumulator elements (h, p), the mma's C fragment;
  /// `indices` gets where each is stored.
  FailureOr<Value> buildC(SmallVectorImpl<SmallVector<Value>> &indices) {
    return gather(nest.c, 2, 2, [&](int64_t h, int64_t p) {
      FailureOr<SmallVector<Value>> index = indicesAt(
          nest.c, nullptr, nullptr, constant(h), constant(p), constant(0));
      if (succeeded(index))
        indices.push_back(*index);
      return index;
    });
  }

  LogicalResult build() {
    FailureOr<Value> a = buildA();
    FailureOr<Value> bFragment = failure(), c = failure();
    SmallVector<SmallVector<Value>> cIndices;
    if (succeeded(a))
      bFragment = buildB();
    if (succeeded(bFragment))
      c = buildC(cIndices);
    if (failed(c))
      return nest.h.emitError("cannot tensorize the mma_sync loop: the "
                              "indices are not pure functions of the loops "
                              "and threads");
    Value result = nvgpu::MmaSyncOp::create(b, loc, *a, *bFragment, *c,
                                            ArrayRef<int64_t>{16, 8, nest.k},
                                            /*tf32Enabled=*/nest.k == 8);
    for (auto [e, index] : llvm::enumerate(cIndices)) {
      Value element = vector::ExtractOp::create(
          b, loc, result, ArrayRef<int64_t>{int64_t(e) / 2, int64_t(e) % 2});
      memref::StoreOp::create(b, loc, element, nest.store.getMemRef(), index);
    }
    return success();
  }

private:
  MmaNest nest;
  Lane lane;
  OpBuilder b;
  Location loc;
  DenseMap<int64_t, Value> constants;
};

FailureOr<MmaNest> matchTile(scf::ForOp h, int64_t k) {
  // The index computations of the tile once each (the accumulator's load
  // and store indices as the same values).
  IRRewriter rewriter(h.getContext());
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, h);
  std::string why;
  FailureOr<MmaNest> matched = matchNest(h, k, why);
  if (failed(matched))
    return h.emitError("cannot tensorize the mma_sync loop: ") << why;
  return matched;
}

/// The lane's thread ids: the launch must be 4 x 8 threads in x and y.
FailureOr<Lane> getLane(scf::ForOp loop) {
  auto launch = loop->getParentOfType<gpu::LaunchOp>();
  if (!launch) {
    loop.emitError("mma_sync loop outside a gpu.launch");
    return failure();
  }
  std::optional<int64_t> x = getConstantIntValue(launch.getBlockSizeX());
  std::optional<int64_t> y = getConstantIntValue(launch.getBlockSizeY());
  if (!x || !y || *x != 4 || *y != 8) {
    loop.emitError("mma_sync loop in a launch that is not 4 x 8 threads in "
                   "x and y (a warp's lanes, lane = 4 threadIdx.y + "
                   "threadIdx.x)");
    return failure();
  }
  return Lane{launch.getThreadIds().y, launch.getThreadIds().x};
}

struct GPUTensorizeMMAPass
    : public mlc::impl::GPUTensorizeMMAPassBase<GPUTensorizeMMAPass> {
  void runOnOperation() override {
    // The annotated loops with K of their mma shape.
    SmallVector<std::pair<scf::ForOp, int64_t>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      auto annotations = loop->getAttrOfType<DictionaryAttr>(
          mlc::tensorir::TensorIRDialect::getLoopAnnotationsAttrName());
      if (!annotations)
        return;
      Attribute shape = annotations.get(mlc::kMmaSyncAnnotation);
      if (!shape)
        return;
      auto name = dyn_cast<StringAttr>(shape);
      if (!name ||
          (name.getValue() != "m16n8k16" && name.getValue() != "m16n8k8")) {
        loop.emitError("unsupported mma_sync shape ")
            << shape << "; expected \"m16n8k16\" or \"m16n8k8\" (tf32)";
        return signalPassFailure();
      }
      loops.emplace_back(loop, name.getValue() == "m16n8k8" ? 8 : 16);
    });
    SmallVector<std::pair<MmaNest, Lane>> tiles;
    for (auto [loop, k] : loops) {
      FailureOr<Lane> lane = getLane(loop);
      if (failed(lane))
        return signalPassFailure();
      FailureOr<MmaNest> nest = matchTile(loop, k);
      if (failed(nest))
        return signalPassFailure();
      tiles.emplace_back(*nest, *lane);
    }
    // B stored K x N: its columns permuted so that ldmatrix.trans applies
    // (each buffer once; the tiles then check the columns they read), unless
    // a tile already reads 8 contiguous columns (a kernel that indexes B by
    // the accumulator's own columns). Not for tf32, which ldmatrix.trans
    // cannot transpose.
    llvm::SmallDenseSet<Value> contiguous, permuted;
    for (auto &[nest, lane] : tiles)
      if (MmaBuilder(nest, lane).hasContiguousBColumns())
        contiguous.insert(nest.b.getMemRef());
    for (auto &[nest, lane] : tiles) {
      Value b = nest.b.getMemRef();
      if (nest.k == 16 && nest.bColDim == nest.b.getIndices().size() - 1 &&
          !contiguous.contains(b) && !permuted.contains(b) &&
          succeeded(permuteBColumns(b)))
        permuted.insert(b);
    }
    for (auto &[nest, lane] : tiles) {
      if (failed(MmaBuilder(nest, lane).build()))
        return signalPassFailure();
      nest.h.erase();
    }
  }
};

} // namespace
