//===- AnnotateOpPattern.cpp - TVM pattern kinds of prim_funcs --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's PatternKindAnalyzer (src/relax/analysis/tir_op_pattern_kind.cc) on
// tensorir: buffer indices are SSA values, so TVM's `same_as` on index
// expressions is Value identity, and "the variables an index uses" are the
// block arguments (and values from above) its def chain reaches.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::tensorir {
#define GEN_PASS_DEF_TENSORIRANNOTATEOPPATTERN
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"
} // namespace mlc::tensorir

using namespace mlir;
using namespace mlc::tensorir;

namespace {

using Kind = OpPatternKind;

static Kind maxKind(Kind a, Kind b) {
  return static_cast<uint32_t>(a) >= static_cast<uint32_t>(b) ? a : b;
}

static bool isConstantZero(Value v) {
  APInt value;
  return matchPattern(v, m_ConstantInt(&value)) && value.isZero();
}

/// The leaves of the def chain of `index` inside `scope`: block arguments of
/// `scope`'s nested regions and values defined above `scope`. Constants are
/// not variables and are dropped. Returns false when a leaf is neither (an
/// op with regions, a call, ...), i.e. the index cannot be analysed.
static bool collectIndexVars(Value index, Operation *scope,
                             llvm::SetVector<Value> &vars) {
  SmallVector<Value> worklist{index};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (matchPattern(v, m_Constant()))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !scope->isProperAncestor(def)) {
      vars.insert(v);
      continue;
    }
    if (def->getNumRegions() != 0)
      return false;
    // A gathered index (take): the variables are those of the load's
    // indices, not the buffer.
    if (auto load = dyn_cast<memref::LoadOp>(def))
      llvm::append_range(worklist, load.getIndices());
    else
      llvm::append_range(worklist, def->getOperands());
  }
  return true;
}

/// The accesses of one block (TVM visits `block->body`, not `block->init`,
/// and nested blocks are looked at on their own).
struct BlockAccesses {
  SmallVector<memref::StoreOp> stores;
  SmallVector<memref::LoadOp> loads;
  bool unknownEffects = false;
};

static BlockAccesses collectAccesses(BlockOp block) {
  BlockAccesses acc;
  block.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<InitOp, BlockOp>(op))
      return WalkResult::skip();
    if (auto store = dyn_cast<memref::StoreOp>(op))
      acc.stores.push_back(store);
    else if (auto load = dyn_cast<memref::LoadOp>(op))
      acc.loads.push_back(load);
    else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
             !isMemoryEffectFree(op))
      acc.unknownEffects = true;
    return WalkResult::advance();
  });
  return acc;
}

class PatternKindAnalyzer {
public:
  explicit PatternKindAnalyzer(PrimFuncOp func) : func(func) {}

  Kind run() {
    // Accesses outside every block are not TE-style code.
    bool stray = false;
    func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<BlockOp>(op))
        return WalkResult::skip();
      if (!isa<AllocBufferOp>(op) &&
          !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
          !isMemoryEffectFree(op))
        stray = true;
      return WalkResult::advance();
    });
    if (stray)
      return Kind::opaque;
    func.getBody().walk<WalkOrder::PreOrder>(
        [&](BlockOp block) { visitBlock(block); });
    return kind;
  }

private:
  bool isParamBuffer(Value buffer) {
    auto arg = dyn_cast<BlockArgument>(buffer);
    return arg && arg.getOwner() == &func.getBody().front();
  }

  bool isOutputBlock(BlockOp block, memref::StoreOp store) {
    if (isParamBuffer(store.getMemRef()))
      return true;
    return llvm::any_of(block.getWriteBuffers(),
                        [&](Value b) { return isParamBuffer(b); });
  }

  static bool isSameArray(ValueRange lhs, ValueRange rhs) {
    return lhs.size() == rhs.size() &&
           llvm::all_of(llvm::zip(lhs, rhs), [](auto p) {
             return std::get<0>(p) == std::get<1>(p);
           });
  }

  static bool isBroadcast(memref::StoreOp store, memref::LoadOp load) {
    ValueRange storeIdx = store.getIndices();
    ValueRange loadIdx = load.getIndices();
    MemRefType loadType = load.getMemRefType();
    size_t j = 0;
    for (auto [i, idx] : llvm::enumerate(loadIdx)) {
      // Unit dimensions indexed by 0 do not break a broadcast (B[0, j]).
      if (loadType.getDimSize(i) == 1 && isConstantZero(idx))
        continue;
      while (j < storeIdx.size() && storeIdx[j] != idx)
        ++j;
      if (j == storeIdx.size())
        return false;
    }
    return true;
  }

  /// The store indices as variables (block arguments), or failure.
  static FailureOr<DenseSet<Value>> storeVars(memref::StoreOp store) {
    DenseSet<Value> vars;
    for (Value idx : store.getIndices()) {
      if (!isa<BlockArgument>(idx))
        return failure();
      vars.insert(idx);
    }
    return vars;
  }

  bool isInjective(BlockOp block, memref::StoreOp store, memref::LoadOp load) {
    FailureOr<DenseSet<Value>> vars = storeVars(store);
    if (failed(vars))
      return false;
    for (Value idx : load.getIndices()) {
      llvm::SetVector<Value> used;
      if (!collectIndexVars(idx, block, used))
        return false;
      if (llvm::any_of(used, [&](Value v) { return !vars->contains(v); }))
        return false;
    }
    return true;
  }

  /// Some store variable is not used by the load (data reuse: matmul's A
  /// does not use j).
  bool allowsReuse(BlockOp block, memref::StoreOp store, memref::LoadOp load) {
    FailureOr<DenseSet<Value>> vars = storeVars(store);
    if (failed(vars))
      return false;
    for (Value idx : load.getIndices()) {
      llvm::SetVector<Value> used;
      if (!collectIndexVars(idx, block, used))
        return false;
      for (Value v : used)
        vars->erase(v);
    }
    return !vars->empty();
  }

  static Value stripCasts(Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (!isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncFOp,
               arith::TruncIOp, arith::SIToFPOp, arith::UIToFPOp,
               arith::FPToSIOp, arith::FPToUIOp>(def))
        break;
      v = def->getOperand(0);
    }
    return v;
  }

  /// C[...] = C[...] + A[...] * B[...] as the block's only store (TVM's
  /// IsFMA, with the add's operands in either order).
  bool isFMA(BlockOp block, const BlockAccesses &acc) {
    if (acc.stores.size() != 1)
      return false;
    memref::StoreOp store = acc.stores.front();
    Operation *add = stripCasts(store.getValueToStore()).getDefiningOp();
    if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
      return false;
    for (unsigned accIdx = 0; accIdx < 2; ++accIdx) {
      auto accLoad =
          stripCasts(add->getOperand(accIdx)).getDefiningOp<memref::LoadOp>();
      Operation *mul = stripCasts(add->getOperand(1 - accIdx)).getDefiningOp();
      if (!accLoad || accLoad.getMemRef() != store.getMemRef() ||
          !isSameArray(accLoad.getIndices(), store.getIndices()) ||
          !isa_and_nonnull<arith::MulFOp, arith::MulIOp>(mul))
        continue;
      auto lhs = stripCasts(mul->getOperand(0)).getDefiningOp<memref::LoadOp>();
      auto rhs = stripCasts(mul->getOperand(1)).getDefiningOp<memref::LoadOp>();
      if (!lhs || !rhs)
        return false;
      return allowsReuse(block, store, lhs) && allowsReuse(block, store, rhs);
    }
    return false;
  }

  /// Every index that uses a reduce variable is that variable.
  bool isPureReduce(BlockOp block, const DenseSet<Value> &reduceVars,
                    memref::LoadOp load) {
    for (Value idx : load.getIndices()) {
      llvm::SetVector<Value> used;
      if (!collectIndexVars(idx, block, used))
        return false;
      bool usesReduce =
          llvm::any_of(used, [&](Value v) { return reduceVars.contains(v); });
      if (usesReduce && !reduceVars.contains(idx))
        return false;
    }
    return true;
  }

  void visitBlock(BlockOp block) {
    BlockAccesses acc = collectAccesses(block);
    if (acc.unknownEffects || acc.stores.empty()) {
      kind = Kind::opaque;
      return;
    }
    // One store (TE compute); several only if to the same indices.
    memref::StoreOp store = acc.stores.front();
    for (memref::StoreOp other : acc.stores)
      if (!isSameArray(other.getIndices(), store.getIndices())) {
        kind = Kind::opaque;
        return;
      }

    Kind indexPattern = Kind::elemwise;
    bool hasElemwise = false;
    for (memref::LoadOp load : acc.loads) {
      if (isSameArray(store.getIndices(), load.getIndices())) {
        hasElemwise = true;
      } else if (isBroadcast(store, load)) {
        indexPattern = maxKind(indexPattern, Kind::broadcast);
      } else if (isInjective(block, store, load)) {
        indexPattern = maxKind(indexPattern, Kind::injective);
      } else {
        indexPattern = Kind::opaque;
        break;
      }
    }
    // A[i, j] = B[i, j] + C[j] counts as elementwise.
    if (indexPattern == Kind::broadcast && hasElemwise)
      indexPattern = Kind::elemwise;
    if (indexPattern != Kind::opaque) {
      // Reduce then an elementwise output block (softmax).
      if (isOutputBlock(block, store) && kind == Kind::comm_reduce)
        kind = Kind::out_ewise_fusable;
      else
        kind = maxKind(kind, indexPattern);
      return;
    }

    DenseSet<Value> reduceVars;
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
      if (block.isReduceIterVar(i))
        reduceVars.insert(block.getIterVar(i));
    if (reduceVars.empty()) {
      kind = Kind::opaque;
      return;
    }
    if (isFMA(block, acc)) {
      // Matmul, conv2d.
      kind = maxKind(kind, Kind::out_ewise_fusable);
      return;
    }
    for (memref::LoadOp load : acc.loads) {
      // Not a pure reduction: pooling.
      if (!isPureReduce(block, reduceVars, load)) {
        kind = maxKind(kind, Kind::out_ewise_fusable);
        return;
      }
    }
    kind = maxKind(kind, Kind::comm_reduce);
  }

  PrimFuncOp func;
  Kind kind = Kind::elemwise;
};

struct AnnotateOpPatternPass
    : public mlc::tensorir::impl::TensorIRAnnotateOpPatternBase<
          AnnotateOpPatternPass> {
  using Base::Base;

  void runOnOperation() override {
    PrimFuncOp func = getOperation();
    StringRef name = TensorIRDialect::getOpPatternAttrName();
    // A kind set by hand (or by an earlier run) wins, as in TVM.
    if (func->hasAttr(name))
      return markAllAnalysesPreserved();
    Kind kind = PatternKindAnalyzer(func).run();
    func->setAttr(name, OpPatternKindAttr::get(func.getContext(), kind));
  }
};

} // namespace
