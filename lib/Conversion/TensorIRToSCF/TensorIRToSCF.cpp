//===- TensorIRToSCF.cpp - tensorir to func/scf/memref ----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Lowers tensorir prim_funcs to upstream loop-level IR: prim_func to
// func.func, for to scf.for/scf.parallel, blocks inlined with their iteration
// variables replaced by the bindings, init and where to scf.if, alloc_buffer
// to memref.alloc (+ memref.dealloc).
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/TensorIRToSCF/Passes.h"

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Transforms/LoopAnnotations.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace mlc {
#define GEN_PASS_DEF_CONVERTTENSORIRTOSCF
#include "mlc/Conversion/TensorIRToSCF/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

namespace {

/// `tensorir.prim_func` -> `func.func`; returns the new function.
func::FuncOp lowerPrimFunc(RewriterBase &rewriter, PrimFuncOp prim) {
  rewriter.setInsertionPoint(prim);
  auto func = func::FuncOp::create(rewriter, prim.getLoc(), prim.getSymName(),
                                   prim.getFunctionType());
  if (StringAttr visibility = prim.getSymVisibilityAttr())
    func.setSymVisibilityAttr(visibility);
  if (ArrayAttr argAttrs = prim.getArgAttrsAttr())
    func.setArgAttrsAttr(argAttrs);
  // Discardable attributes other than tensorir's own (tensorir.noalias is
  // only meaningful on a prim_func) carry over.
  for (NamedAttribute attr : prim->getDiscardableAttrs())
    if (!attr.getName().strref().starts_with("tensorir."))
      func->setAttr(attr.getName(), attr.getValue());
  rewriter.inlineRegionBefore(prim.getBody(), func.getBody(), func.end());
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  rewriter.setInsertionPoint(terminator);
  rewriter.replaceOpWithNewOp<func::ReturnOp>(terminator);
  rewriter.eraseOp(prim);
  return func;
}

/// `tensorir.alloc_buffer` -> `memref.alloc` (+ `memref.dealloc` before the
/// terminator of its scope).
void lowerAllocBuffer(RewriterBase &rewriter, AllocBufferOp op,
                      bool insertDealloc) {
  rewriter.setInsertionPoint(op);
  auto type = cast<MemRefType>(op.getBuffer().getType());
  auto alloc = memref::AllocOp::create(rewriter, op.getLoc(), type,
                                       op.getDynamicSizes());
  rewriter.replaceOp(op, alloc.getResult());
  if (!insertDealloc)
    return;
  // The scope is the enclosing function (already a func.func) or block; both
  // have a single body block whose terminator ends the scope.
  rewriter.setInsertionPoint(alloc->getBlock()->getTerminator());
  memref::DeallocOp::create(rewriter, alloc.getLoc(), alloc.getResult());
}

/// The `index` constants of one function, created once at its start.
class IndexConstants {
public:
  explicit IndexConstants(func::FuncOp func)
      : entry(&func.getBody().front()), loc(func.getLoc()) {}

  Value get(int64_t value) {
    Value &constant = constants[value];
    if (constant)
      return constant;
    // In creation order at the start of the function (not at a fixed
    // iterator: the ops there may be rewritten meanwhile).
    OpBuilder builder(loc.getContext());
    if (last)
      builder.setInsertionPointAfter(last);
    else
      builder.setInsertionPointToStart(entry);
    last = arith::ConstantIndexOp::create(builder, loc, value);
    constant = last->getResult(0);
    return constant;
  }
  Value get(OpFoldResult ofr) {
    if (auto value = dyn_cast<Value>(ofr))
      return value;
    return get(cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
  }

private:
  Block *entry;
  Location loc;
  Operation *last = nullptr;
  // Not a DenseMap: its keys INT64_MAX and INT64_MIN are reserved, and a
  // loop may have those bounds.
  std::map<int64_t, Value> constants;
};

/// LLVM loop metadata that carries out a `vectorized` or `unrolled` kind:
/// vectorization enabled; full unrolling for a constant trip count, else
/// unrolling enabled. Null for other kinds.
LLVM::LoopAnnotationAttr getLoopAnnotation(ForOp op) {
  MLIRContext *ctx = op.getContext();
  auto no = BoolAttr::get(ctx, false), yes = BoolAttr::get(ctx, true);
  LLVM::LoopVectorizeAttr vectorize;
  LLVM::LoopUnrollAttr unroll;
  if (op.getKind() == ForKind::vectorized) {
    vectorize = LLVM::LoopVectorizeAttr::get(ctx, /*disable=*/no, {}, {}, {},
                                             {}, {}, {});
  } else if (op.getKind() == ForKind::unrolled) {
    bool constantTrips = op.getConstantLowerBound() &&
                         op.getConstantUpperBound() && op.getConstantStep();
    unroll =
        LLVM::LoopUnrollAttr::get(ctx, /*disable=*/no, {}, {},
                                  constantTrips ? yes : BoolAttr(), {}, {}, {});
  } else {
    return nullptr;
  }
  return LLVM::LoopAnnotationAttr::get(ctx, {}, vectorize, {}, unroll, {}, {},
                                       {}, {}, {}, {}, {}, {}, {}, {}, {});
}

/// `tensorir.for` -> `scf.for` / `scf.parallel`.
void lowerFor(RewriterBase &rewriter, ForOp op, IndexConstants &constants) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value lb = constants.get(op.getLowerBound());
  Value ub = constants.get(op.getUpperBound());
  Value step = constants.get(op.getStep());
  Block *body = op.getBodyBlock();
  rewriter.eraseOp(body->getTerminator());

  Operation *loop;
  Value iv;
  Operation *bodyEnd;
  if (op.getKind() == ForKind::parallel) {
    auto parallel = scf::ParallelOp::create(rewriter, loc, ValueRange{lb},
                                            ValueRange{ub}, ValueRange{step});
    loop = parallel;
    iv = parallel.getInductionVars().front();
    bodyEnd = parallel.getBody()->getTerminator();
  } else {
    auto serial = scf::ForOp::create(rewriter, loc, lb, ub, step);
    loop = serial;
    iv = serial.getInductionVar();
    bodyEnd = serial.getBody()->getTerminator();
  }
  // Serialized thread bindings are plain loops on the host.
  if (op.getKind() != ForKind::serial &&
      op.getKind() != ForKind::thread_binding)
    loop->setAttr(TensorIRDialect::getLoopKindAttrName(),
                  ForKindAttr::get(rewriter.getContext(), op.getKind()));
  if (LLVM::LoopAnnotationAttr annotation = getLoopAnnotation(op))
    loop->setAttr(kLoopAnnotationAttrName, annotation);
  if (DictionaryAttr annotations = op.getAnnotationsAttr())
    loop->setAttr(TensorIRDialect::getLoopAnnotationsAttrName(), annotations);
  rewriter.inlineBlockBefore(body, bodyEnd, ValueRange{iv});
  rewriter.eraseOp(op);
}

/// `value`, computed in `body` from the lane `lane` and values that do not
/// depend on it, as an affine expression of the lane (d0) and of those
/// values (symbols, collected in `symbols`). The index arithmetic of `body`
/// is expanded also where it does not depend on the lane, so that its
/// constant factors show (`s * 768` rather than a symbol for the product).
std::optional<AffineExpr> expressInLane(Value value, Value lane, Block *body,
                                        SmallVectorImpl<Value> &symbols,
                                        unsigned depth = 0) {
  MLIRContext *ctx = lane.getContext();
  if (depth > 32)
    return std::nullopt;
  if (value == lane)
    return getAffineDimExpr(0, ctx);
  if (std::optional<int64_t> cst = getConstantIntValue(value))
    return getAffineConstantExpr(*cst, ctx);
  Operation *def = value.getDefiningOp();
  bool invariant = !dependsOn(value, {lane});
  std::optional<AffineExpr> expanded;
  if (def && def->getBlock() == body) {
    if (isa<affine::AffineApplyOp>(def)) {
      expanded = expressAffineApply(def, [&](Value operand) {
        return expressInLane(operand, lane, body, symbols, depth + 1);
      });
    } else if (def->getNumOperands() == 2) {
      std::optional<AffineExpr> lhs =
          expressInLane(def->getOperand(0), lane, body, symbols, depth + 1);
      std::optional<AffineExpr> rhs =
          lhs ? expressInLane(def->getOperand(1), lane, body, symbols,
                              depth + 1)
              : std::nullopt;
      if (lhs && rhs)
        expanded = combineIndexOp(def, *lhs, *rhs);
    }
  }
  if (expanded || !invariant)
    return expanded;
  auto *it = llvm::find(symbols, value);
  if (it == symbols.end()) {
    symbols.push_back(value);
    it = symbols.end() - 1;
  }
  return getAffineSymbolExpr(it - symbols.begin(), ctx);
}

/// The lane count L of the `vectorized` loop `loop` (lanes 0 .. L - 1).
std::optional<int64_t> getLaneCount(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (lower != 0 || step != 1 || !upper || *upper < 1)
    return std::nullopt;
  return *upper;
}

/// Whether `x` is `base + lane` in the `vectorized` loop `loop` with `base`
/// a multiple of its lane count that does not depend on the lane (a
/// vector's elements, the vector aligned to its width).
bool isAlignedLaneOffset(Value x, scf::ForOp loop) {
  std::optional<int64_t> lanes = getLaneCount(loop);
  SmallVector<Value> symbols;
  std::optional<AffineExpr> index =
      lanes ? expressInLane(x, loop.getInductionVar(), loop.getBody(), symbols)
            : std::nullopt;
  if (!index)
    return false;
  MLIRContext *ctx = loop.getContext();
  AffineExpr base = index->replaceDims({getAffineConstantExpr(0, ctx)});
  auto rest = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
      *index - base - getAffineDimExpr(0, ctx), 1, symbols.size()));
  return rest && rest.getValue() == 0 &&
         simplifyAffineExpr(base, 1, symbols.size()).getLargestKnownDivisor() %
                 *lanes ==
             0;
}

/// A condition equivalent to `condition` for every lane of `loop` (lanes
/// 0 .. L - 1) that does not depend on the lane, built before `guard`; null
/// if none is known. `x + lane < N` (`ult` or `slt`) with `x` and `N`
/// multiples of L, the column mask of a tile that a vector of L lanes
/// divides, holds for every lane exactly when `x < N`; conjunctions are
/// taken apart.
Value getLaneInvariantCondition(Value condition, scf::ForOp loop,
                                scf::IfOp guard) {
  Value lane = loop.getInductionVar();
  Block *body = loop.getBody();
  if (!dependsOn(condition, {lane}))
    return condition;
  Operation *def = condition.getDefiningOp();
  if (!def || def->getBlock() != body)
    return nullptr;
  OpBuilder builder(guard);
  if (auto both = dyn_cast<arith::AndIOp>(def)) {
    Value lhs = getLaneInvariantCondition(both.getLhs(), loop, guard);
    Value rhs =
        lhs ? getLaneInvariantCondition(both.getRhs(), loop, guard) : nullptr;
    return rhs ? arith::AndIOp::create(builder, both.getLoc(), lhs, rhs)
                     .getResult()
               : nullptr;
  }
  auto compare = dyn_cast<arith::CmpIOp>(def);
  std::optional<int64_t> lanes = getLaneCount(loop);
  if (!compare || !lanes ||
      (compare.getPredicate() != arith::CmpIPredicate::ult &&
       compare.getPredicate() != arith::CmpIPredicate::slt))
    return nullptr;
  std::optional<int64_t> bound = getConstantIntValue(compare.getRhs());
  if (!bound || *bound % *lanes != 0 || dependsOn(compare.getRhs(), {lane}) ||
      !isAlignedLaneOffset(compare.getLhs(), loop))
    return nullptr;
  // The index at lane 0.
  IRMapping atFirstLane;
  atFirstLane.map(
      lane,
      arith::ConstantIndexOp::create(builder, loop.getLoc(), 0).getResult());
  Value first = cloneValue(compare.getLhs(), atFirstLane, builder, loop);
  return arith::CmpIOp::create(builder, compare.getLoc(),
                               compare.getPredicate(), first, compare.getRhs())
      .getResult();
}

/// Puts a `vectorized` loop whose body is guarded by one condition that does
/// not depend on the lane (a tile's row mask: `where` of a block whose rows
/// are no whole number of tiles) inside that condition. Unrolled, the lanes'
/// accesses then share one basic block, where LLVM merges them into vector
/// loads and stores; each lane under its own copy of the condition kept
/// them scalar.
void hoistLaneInvariantGuard(scf::ForOp loop) {
  // The loop moves into the scf.if: nothing may use a result of it.
  if (loop.getNumResults() != 0)
    return;
  Block *body = loop.getBody();
  scf::IfOp guard;
  for (Operation &op : body->without_terminator()) {
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (ifOp && !guard && ifOp.getNumResults() == 0 &&
        ifOp.getElseRegion().empty()) {
      guard = ifOp;
      continue;
    }
    // Only side-effect free ops around the guard (the lanes' indices).
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return;
  }
  if (!guard || &body->back() != guard->getNextNode())
    return;
  // A condition that depends on the lane but has the same value for all of
  // them (a column mask that the lanes' vector divides) is replaced by one
  // that does not.
  if (Value invariant =
          getLaneInvariantCondition(guard.getCondition(), loop, guard))
    guard.getConditionMutable().assign(invariant);
  // The ops of the body that compute the condition: none may use the lane.
  SetVector<Operation *> slice;
  SmallVector<Value> worklist{guard.getCondition()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == loop.getInductionVar())
      return;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || !slice.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> hoisted(slice.begin(), slice.end());
  llvm::sort(hoisted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : hoisted)
    op->moveBefore(loop);
  OpBuilder builder(loop);
  auto outer = scf::IfOp::create(builder, loop.getLoc(), guard.getCondition(),
                                 /*withElseRegion=*/false);
  loop->moveBefore(outer.thenBlock()->getTerminator());
  Block *then = guard.thenBlock();
  then->getTerminator()->erase();
  body->getOperations().splice(Block::iterator(guard), then->getOperations());
  guard->erase();
}

/// Rewrites the loads and stores in the `vectorized` loop `loop` whose last
/// two indices are (x div C, x rem C), with C the buffer's last dimension
/// (a reshape inlined by relax-fuse-tir), to index the buffer with those
/// two dimensions collapsed by x itself: the lanes' addresses are then
/// visibly consecutive, and LLVM merges the accesses into vector ones.
void flattenDelinearizedAccesses(scf::ForOp loop) {
  SmallVector<Operation *> accesses;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    auto load = dyn_cast<memref::LoadOp>(op);
    auto store = dyn_cast<memref::StoreOp>(op);
    Value memref = load ? load.getMemRef() : store.getMemRef();
    ValueRange indices = load ? load.getIndices() : store.getIndices();
    auto type = cast<MemRefType>(memref.getType());
    int64_t rank = type.getRank();
    if (rank < 2 || !type.getLayout().isIdentity() ||
        ShapedType::isDynamic(type.getShape().back()))
      continue;
    auto rem = indices[rank - 1].getDefiningOp<arith::RemUIOp>();
    auto div = indices[rank - 2].getDefiningOp<arith::DivUIOp>();
    if (!rem || !div || rem.getLhs() != div.getLhs() ||
        getConstantIntValue(rem.getRhs()) != type.getShape().back() ||
        getConstantIntValue(div.getRhs()) != type.getShape().back())
      continue;
    OpBuilder builder(op);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank - 2; ++d)
      groups.push_back({d});
    groups.push_back({rank - 2, rank - 1});
    Value collapsed =
        memref::CollapseShapeOp::create(builder, op->getLoc(), memref, groups);
    SmallVector<Value> newIndices(indices.drop_back(2));
    newIndices.push_back(rem.getLhs());
    if (load) {
      auto flat =
          memref::LoadOp::create(builder, op->getLoc(), collapsed, newIndices);
      load.getResult().replaceAllUsesWith(flat.getResult());
    } else {
      memref::StoreOp::create(builder, op->getLoc(), store.getValue(),
                              collapsed, newIndices);
    }
    op->erase();
  }
}

/// In the `vectorized` loop `loop` of L lanes, `x divui C` and `x remui C`
/// with `x` = base + lane (base a multiple of L) and C a multiple of L (the
/// lanes stay within one run of C) become `x0 divui C` and `(x0 remui C) +
/// lane`, x0 the value at lane 0: the indices of a reshape that
/// relax-fuse-tir inlined. The division is then done once for all lanes,
/// and the lanes' addresses are visibly consecutive, so LLVM merges the
/// accesses into vector ones (the BERT layer's head merge loaded 2 bytes
/// per lane, its innermost index x rem 64 under a dimension of size 1).
void splitLaneDivRem(scf::ForOp loop) {
  std::optional<int64_t> lanes = getLaneCount(loop);
  if (!lanes || *lanes < 2)
    return;
  Value lane = loop.getInductionVar();
  SmallVector<Operation *> candidates;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isa<arith::DivUIOp, arith::RemUIOp>(op))
      continue;
    std::optional<int64_t> divisor = getConstantIntValue(op.getOperand(1));
    if (divisor && *divisor > 0 && *divisor % *lanes == 0 &&
        dependsOn(op.getOperand(0), {lane}) &&
        isAlignedLaneOffset(op.getOperand(0), loop))
      candidates.push_back(&op);
  }
  for (Operation *op : candidates) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    IRMapping atFirstLane;
    atFirstLane.map(
        lane, arith::ConstantIndexOp::create(builder, loc, 0).getResult());
    Value first = cloneValue(op->getOperand(0), atFirstLane, builder, loop);
    Value replacement;
    if (isa<arith::DivUIOp>(op)) {
      replacement =
          arith::DivUIOp::create(builder, loc, first, op->getOperand(1));
    } else {
      Value start =
          arith::RemUIOp::create(builder, loc, first, op->getOperand(1));
      replacement = arith::AddIOp::create(builder, loc, start, lane);
    }
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

/// The buffer `value` views (through view ops): a function argument or an
/// allocation, else null.
Value getBaseBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<memref::AllocOp, memref::AllocaOp>(def))
      return value;
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::SubViewOp,
             memref::CastOp, memref::ReinterpretCastOp>(def))
      return {};
    value = def->getOperand(0);
  }
  return isa<BlockArgument>(value) ? value : Value();
}

/// The iterations of an unrolled or `vectorized` loop, the ops after `begin`
/// up to `end` in one block: when their stores to outputs of the function
/// are interleaved with loads from its other buffers (a write-back that
/// reads a residual) or with stores to another output (a write-back that
/// also stores its float16 copy), the stores move after the rest, grouped
/// by buffer in their order. LLVM, which does not know that the function's
/// buffers are distinct (`noalias`), merges each buffer's loads and stores
/// into vector ones only then. Only when nothing else in the range touches
/// a stored buffer.
void groupOutputStores(Block *block, Operation *begin, Operation *end) {
  // The stores with their buffers, in order.
  SmallVector<std::pair<Value, memref::StoreOp>> stores;
  llvm::SetVector<Value> stored;
  SmallVector<Value> loaded;
  bool loadAfterStore = false;
  auto first = begin ? std::next(Block::iterator(begin)) : block->begin();
  auto last = end ? Block::iterator(end) : block->end();
  for (Operation &op : llvm::make_range(first, last)) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Value base = getBaseBuffer(store.getMemRef());
      if (!base || !isa<BlockArgument>(base))
        return;
      stores.push_back({base, store});
      stored.insert(base);
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value base = getBaseBuffer(load.getMemRef());
      if (!base)
        return;
      loaded.push_back(base);
      loadAfterStore |= !stores.empty() && isa<BlockArgument>(base);
    } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      return;
    }
  }
  if ((stored.size() < 2 && !loadAfterStore) ||
      llvm::any_of(loaded, [&](Value v) { return stored.contains(v); }))
    return;
  for (Value base : stored)
    for (auto [storeBase, store] : stores) {
      if (storeBase != base)
        continue;
      if (end)
        store->moveBefore(end);
      else
        store->moveBefore(block, block->end());
    }
}

/// Fully unrolls the `unrolled` and `vectorized` loops of `func` with
/// constant trip counts,
/// innermost first; the others keep their loop metadata. `noalias`: the
/// function's buffers are distinct (tensorir.noalias).
void unrollLoops(func::FuncOp func, bool noalias) {
  SmallVector<std::pair<scf::ForOp, ForKind>> loops;
  func.walk<WalkOrder::PostOrder>([&](scf::ForOp loop) {
    auto kind = loop->getAttrOfType<ForKindAttr>(
        TensorIRDialect::getLoopKindAttrName());
    if (kind && (kind.getValue() == ForKind::unrolled ||
                 kind.getValue() == ForKind::vectorized))
      loops.push_back({loop, kind.getValue()});
  });
  for (auto [loop, kind] : loops) {
    if (kind == ForKind::vectorized) {
      flattenDelinearizedAccesses(loop);
      splitLaneDivRem(loop);
      hoistLaneInvariantGuard(loop);
    }
    Block *block = loop->getBlock();
    Operation *before = loop->getPrevNode(), *after = loop->getNextNode();
    if (succeeded(loopUnrollFull(loop)) && noalias)
      groupOutputStores(block, before, after);
  }
}

struct ConvertTensorIRToSCFPass
    : public mlc::impl::ConvertTensorIRToSCFBase<ConvertTensorIRToSCFPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();

    // Reject what cannot be lowered here before rewriting anything.
    bool unsupported = false;
    module.walk([&](ForOp op) {
      if (op.getKind() != ForKind::thread_binding || serializeThreadBindings)
        return;
      op.emitOpError("is bound to '")
          << op.getThreadTag().value_or("")
          << "': thread-bound loops need the GPU pipeline";
      unsupported = true;
    });
    if (unsupported)
      return signalPassFailure();

    IRRewriter rewriter(&getContext());
    // Every prim_func, also those of nested modules.
    SmallVector<PrimFuncOp> prims;
    module.walk([&](PrimFuncOp prim) {
      prims.push_back(prim);
      return WalkResult::skip();
    });
    for (PrimFuncOp prim : prims) {
      bool noalias = prim->hasAttr(TensorIRDialect::getNoAliasAttrName());
      func::FuncOp func = lowerPrimFunc(rewriter, prim);
      IndexConstants constants(func);
      // Innermost first: an op is lowered after everything nested in it, so
      // each lowering only moves already-lowered IR.
      SmallVector<Operation *> ops;
      func.walk<WalkOrder::PostOrder>([&](Operation *op) {
        if (isa<AllocBufferOp, ForOp, BlockOp>(op))
          ops.push_back(op);
      });
      for (Operation *op : ops) {
        if (auto alloc = dyn_cast<AllocBufferOp>(op))
          lowerAllocBuffer(rewriter, alloc, insertDeallocs);
        else if (auto loop = dyn_cast<ForOp>(op))
          lowerFor(rewriter, loop, constants);
        else {
          auto block = cast<BlockOp>(op);
          inlineBlock(rewriter, block,
                      block.getInitOp() ? constants.get(int64_t(0)) : Value());
        }
      }
      if (fullUnroll)
        unrollLoops(func, noalias);
    }

    // Anything tensorir left (outside a prim_func) is an error at the op.
    WalkResult leftover = module.walk<WalkOrder::PreOrder>([](Operation *op) {
      if (!isa_and_nonnull<TensorIRDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitOpError("cannot be lowered outside a 'tensorir.prim_func'");
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
