//===- TensorIRToLinalg.cpp - raise te.compute blocks to linalg -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Raises tensorir blocks that are plain te.compute stages (a perfect nest of
// serial loops around one block with affine loads, scalar math and one store
// at the spatial iteration variables) to linalg.generic on the same memrefs,
// so that upstream tiling and vectorization can schedule them. Blocks that do
// not fit are left untouched for convert-tensorir-to-scf.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/TensorIRToLinalg/Passes.h"
#include "mlir/IR/Verifier.h"

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SmallBitVector.h"

#include <limits>

namespace mlc {
#define GEN_PASS_DEF_CONVERTTENSORIRTOLINALG
#include "mlc/Conversion/TensorIRToLinalg/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

namespace {

/// The affine expression of `value` in the block's iteration variables, or
/// null when it is not affine (or not computed inside the block from them).
AffineExpr getAffineExpr(Value value, BlockOp block, MLIRContext *ctx) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == block.getBodyBlock())
      return getAffineDimExpr(arg.getArgNumber(), ctx);
    return {};
  }
  Operation *def = value.getDefiningOp();
  if (auto cst = dyn_cast<arith::ConstantIndexOp>(def))
    return getAffineConstantExpr(cst.value(), ctx);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return {};
  AffineExpr lhs = getAffineExpr(def->getOperand(0), block, ctx);
  AffineExpr rhs = getAffineExpr(def->getOperand(1), block, ctx);
  if (!lhs || !rhs)
    return {};
  if (isa<arith::AddIOp>(def))
    return lhs + rhs;
  if (isa<arith::SubIOp>(def))
    return lhs - rhs;
  // Products stay affine only with a constant factor.
  if (!lhs.isSymbolicOrConstant() && !rhs.isSymbolicOrConstant())
    return {};
  return lhs * rhs;
}

/// The access map of a load/store's indices, or std::nullopt.
std::optional<AffineMap> getAccessMap(ValueRange indices, BlockOp block) {
  MLIRContext *ctx = block.getContext();
  SmallVector<AffineExpr> exprs;
  for (Value index : indices) {
    AffineExpr expr = getAffineExpr(index, block, ctx);
    if (!expr)
      return std::nullopt;
    exprs.push_back(expr);
  }
  return AffineMap::get(block.getNumIterVars(), 0, exprs, ctx);
}

/// Scalar ops that may be cloned into a linalg body.
bool isRaisableScalarOp(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1)
    return false;
  Dialect *dialect = op->getDialect();
  if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect))
    return false;
  return llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); }) &&
         op->getResult(0).getType().isIntOrIndexOrFloat();
}

/// Whether `op` transitively uses one of `values` (within the block body).
bool usesAnyOf(Value value, ArrayRef<Value> values) {
  if (llvm::is_contained(values, value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value v) { return usesAnyOf(v, values); });
}

/// One block that fits, with the loops around it.
struct RaisePlan {
  BlockOp block;
  ForOp outermost;
  SmallVector<int64_t> extents;
  memref::StoreOp store;
  AffineMap outputMap;
  // Inputs: distinct (buffer, map); `loadInput[load]` = input number, or -1
  // for the accumulator (a load of the output element).
  SmallVector<std::pair<Value, AffineMap>> inputs;
  DenseMap<Operation *, int> loadInput;
  memref::StoreOp initStore;
  // Reduce iteration variables that no access indexes as a whole (a pooling
  // window's `y * 2 + ky`): linalg takes their ranges from an extra input
  // that the body does not read, as upstream's pooling ops do.
  SmallVector<unsigned> windowDims;
};

/// The perfect nest of serial loops from 0 with static extents around
/// `block` (no predicate), iteration variable i bound to loop i: its
/// outermost loop and the extents; null when there is none.
ForOp matchNest(BlockOp block, SmallVectorImpl<int64_t> &extents) {
  if (block.getPredicate() || !block.getDynamicExtents().empty())
    return nullptr;
  unsigned numIters = block.getNumIterVars();
  if (numIters == 0)
    return nullptr;
  // The perfect nest of loops, innermost first.
  SmallVector<ForOp> loops;
  Operation *inner = block;
  for (unsigned i = 0; i < numIters; ++i) {
    auto loop = dyn_cast<ForOp>(inner->getParentOp());
    // Exactly one op (plus the terminator) in the loop body.
    if (!loop || loop.getBodyBlock()->getOperations().size() != 2 ||
        loop.getKind() != ForKind::serial || loop.getAnnotations())
      return nullptr;
    std::optional<int64_t> lb = loop.getConstantLowerBound();
    std::optional<int64_t> ub = loop.getConstantUpperBound();
    std::optional<int64_t> step = loop.getConstantStep();
    if (!lb || *lb != 0 || !ub || *ub <= 0 || !step || *step != 1)
      return nullptr;
    loops.push_back(loop);
    inner = loop;
  }
  std::reverse(loops.begin(), loops.end());
  for (unsigned i = 0; i < numIters; ++i) {
    std::optional<int64_t> extent = block.getConstantExtent(i);
    if (block.getBindings()[i] != loops[i].getInductionVar() || !extent ||
        *extent != *loops[i].getConstantUpperBound())
      return nullptr;
    extents.push_back(*extent);
  }
  return loops.front();
}

/// Checks every condition of the pass description; fills `plan`.
bool matchBlock(BlockOp block, RaisePlan &plan) {
  plan.outermost = matchNest(block, plan.extents);
  if (!plan.outermost)
    return false;
  unsigned numIters = block.getNumIterVars();

  // The body: ops, with the store last.
  Block *body = block.getBodyBlock();
  auto ops = llvm::make_range(body->begin(), std::prev(body->end()));
  if (ops.empty())
    return false;
  auto store = dyn_cast<memref::StoreOp>(*std::prev(body->end(), 2));
  if (!store)
    return false;
  plan.store = store;
  Value output = store.getMemRef();
  SmallVector<Value> reduceVars;
  SmallVector<AffineExpr> outputExprs;
  llvm::SmallBitVector seen(numIters);
  for (unsigned i = 0; i < numIters; ++i)
    if (block.isReduceIterVar(i))
      reduceVars.push_back(block.getIterVar(i));
  for (Value index : store.getIndices()) {
    auto arg = dyn_cast<BlockArgument>(index);
    if (!arg || arg.getOwner() != body ||
        block.isReduceIterVar(arg.getArgNumber()) ||
        seen.test(arg.getArgNumber()))
      return false;
    seen.set(arg.getArgNumber());
    outputExprs.push_back(
        getAffineDimExpr(arg.getArgNumber(), block.getContext()));
  }
  for (unsigned i = 0; i < numIters; ++i)
    if (!block.isReduceIterVar(i) && !seen.test(i))
      return false;
  plan.outputMap = AffineMap::get(numIters, 0, outputExprs, block.getContext());

  for (Operation &op : ops) {
    if (&op == store.getOperation())
      continue;
    if (auto init = dyn_cast<InitOp>(op)) {
      // One store of a value computed without the reduce variables.
      Block &initBody = init.getBody().front();
      if (initBody.getOperations().size() < 2)
        return false;
      auto initStore = dyn_cast<memref::StoreOp>(*std::prev(initBody.end(), 2));
      if (!initStore || initStore.getMemRef() != output ||
          initStore.getIndices() != store.getIndices() ||
          usesAnyOf(initStore.getValue(), reduceVars))
        return false;
      for (Operation &initOp : initBody.without_terminator()) {
        if (&initOp != initStore.getOperation() && !isRaisableScalarOp(&initOp))
          return false;
        for (Value operand : initOp.getOperands())
          if (llvm::is_contained(reduceVars, operand))
            return false;
      }
      plan.initStore = initStore;
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value buffer = load.getMemRef();
      // Buffers come from outside the block (arguments or alloc_buffer).
      if (buffer.getParentBlock() == body)
        return false;
      if (buffer == output) {
        if (load.getIndices() != store.getIndices())
          return false;
        plan.loadInput[load] = -1;
        continue;
      }
      std::optional<AffineMap> map = getAccessMap(load.getIndices(), block);
      if (!map)
        return false;
      auto *it = llvm::find(plan.inputs, std::make_pair(buffer, *map));
      plan.loadInput[load] = it - plan.inputs.begin();
      if (it == plan.inputs.end())
        plan.inputs.push_back({buffer, *map});
      continue;
    }
    if (!isRaisableScalarOp(&op))
      return false;
  }
  // The output is only written by the store; no input may alias it.
  for (auto &input : plan.inputs)
    if (input.first == output)
      return false;
  // linalg derives the loop ranges from the operand shapes: every iteration
  // variable must be a whole index of some access (not so for e.g. group
  // norm's `c = g * 3 + i` with the group size only in a loop bound), or a
  // reduce variable that a window operand provides.
  SmallVector<AffineMap> maps;
  for (auto &input : plan.inputs)
    maps.push_back(input.second);
  maps.push_back(plan.outputMap);
  llvm::SmallBitVector indexed(numIters);
  for (AffineMap map : maps)
    for (AffineExpr expr : map.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        indexed.set(dim.getPosition());
  for (unsigned i = 0; i < numIters; ++i) {
    if (indexed.test(i))
      continue;
    if (!block.isReduceIterVar(i))
      return false;
    plan.windowDims.push_back(i);
  }
  if (!plan.windowDims.empty()) {
    SmallVector<AffineExpr> window;
    for (unsigned d : plan.windowDims)
      window.push_back(getAffineDimExpr(d, block.getContext()));
    maps.push_back(AffineMap::get(numIters, 0, window, block.getContext()));
  }
  return static_cast<bool>(
      inversePermutation(concatAffineMaps(maps, block.getContext())));
}

/// Clones the scalar ops of `ops` (all but loads/stores) into the current
/// insertion point; iteration variables map to `linalg.index`.
void cloneScalarOps(OpBuilder &b, Location loc,
                    iterator_range<Block::iterator> ops, BlockOp block,
                    ArrayRef<int64_t> iterToDim, IRMapping &mapping) {
  for (unsigned i = 0; i < block.getNumIterVars(); ++i) {
    if (iterToDim[i] < 0)
      continue;
    Value iterVar = block.getIterVar(i);
    // Only materialize the index when the scalar code uses it.
    if (llvm::any_of(iterVar.getUsers(), [](Operation *user) {
          return !isa<memref::LoadOp, memref::StoreOp>(user);
        }))
      mapping.map(iterVar, linalg::IndexOp::create(b, loc, iterToDim[i]));
  }
  for (Operation &op : ops) {
    if (isa<memref::LoadOp, memref::StoreOp, InitOp, YieldOp>(op))
      continue;
    b.clone(op, mapping);
  }
}

/// Raises the block of `plan`; returns false, leaving the loops as they
/// are, when the generic linalg would build is invalid (a load that reads a
/// part of a larger buffer, e.g. split's inputs, breaks linalg's rule that
/// each operand dimension spans its loop range).
bool raise(RewriterBase &rewriter, RaisePlan &plan) {
  BlockOp block = plan.block;
  Location loc = block.getLoc();
  MLIRContext *ctx = block.getContext();
  Value output = plan.store.getMemRef();
  unsigned numIters = block.getNumIterVars();
  rewriter.setInsertionPoint(plan.outermost);

  linalg::GenericOp initGeneric;
  if (plan.initStore) {
    // Over the output's dimensions: dimension j is iteration variable
    // store-index j.
    unsigned rank = plan.outputMap.getNumResults();
    SmallVector<int64_t> iterToDim(numIters, -1);
    for (auto [j, expr] : llvm::enumerate(plan.outputMap.getResults()))
      iterToDim[cast<AffineDimExpr>(expr).getPosition()] = j;
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Block &initBody = block.getInitOp().getBody().front();
    initGeneric = linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, ValueRange{}, ValueRange{output}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange) {
          IRMapping mapping;
          cloneScalarOps(b, nested, initBody.without_terminator(), block,
                         iterToDim, mapping);
          linalg::YieldOp::create(
              b, nested, mapping.lookupOrDefault(plan.initStore.getValue()));
        });
  }

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (auto &[buffer, map] : plan.inputs) {
    inputs.push_back(buffer);
    maps.push_back(map);
  }
  memref::AllocaOp window;
  if (!plan.windowDims.empty()) {
    // A shape-only operand (never read): bytes, on the stack, allocated once
    // at the function entry.
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> results;
    for (unsigned d : plan.windowDims) {
      shape.push_back(plan.extents[d]);
      results.push_back(getAffineDimExpr(d, ctx));
    }
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(
        &block->getParentOfType<PrimFuncOp>().getBody().front());
    window = memref::AllocaOp::create(
        rewriter, loc, MemRefType::get(shape, rewriter.getI8Type()));
    inputs.push_back(window);
    maps.push_back(AffineMap::get(numIters, 0, results, ctx));
  }
  maps.push_back(plan.outputMap);
  SmallVector<utils::IteratorType> iterators;
  SmallVector<int64_t> iterToDim;
  for (unsigned i = 0; i < numIters; ++i) {
    iterators.push_back(block.isReduceIterVar(i)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
    iterToDim.push_back(i);
  }
  Block *body = block.getBodyBlock();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, inputs, ValueRange{output}, maps, iterators,
      [&](OpBuilder &b, Location nested, ValueRange args) {
        IRMapping mapping;
        for (auto [load, input] : plan.loadInput) {
          Value arg = input < 0 ? args.back() : args[input];
          mapping.map(load->getResult(0), arg);
        }
        cloneScalarOps(b, nested,
                       llvm::make_range(body->begin(), std::prev(body->end())),
                       block, iterToDim, mapping);
        linalg::YieldOp::create(b, nested,
                                mapping.lookupOrDefault(plan.store.getValue()));
      });
  // The index arithmetic of the loads was cloned too; drop what is unused.
  SmallVector<Operation *> bodyOps =
      llvm::map_to_vector(generic.getBody()->without_terminator(),
                          [](Operation &op) { return &op; });
  for (Operation *op : llvm::reverse(bodyOps))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  {
    ScopedDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    if (failed(mlir::verify(generic)) ||
        (initGeneric && failed(mlir::verify(initGeneric)))) {
      rewriter.eraseOp(generic);
      if (initGeneric)
        rewriter.eraseOp(initGeneric);
      if (window)
        rewriter.eraseOp(window);
      return false;
    }
  }
  rewriter.eraseOp(plan.outermost);
  return true;
}

/// topi.nn.pad's stage (the `pad_temp` of convolutions and pooling, built
/// by LegalizeNN's buildPad): out[v] = select(in bounds, in[clamp(v -
/// before)], pad) with, for each padded dimension d, s = v_d - before_d,
/// in bounds = s >= 0 and s < in_d, the index max(min(s, in_d - 1), 0).
/// Its clamped loads are not affine, so matchBlock leaves it as scalar
/// loops on one thread; it is the same as filling `out` with the pad value
/// and copying `in` into the subview at `before`, two ops the default
/// schedule vectorizes and runs in parallel.
struct PadPlan {
  ForOp outermost;
  Value input, output;
  TypedAttr padValue;
  SmallVector<int64_t> before;
};

bool matchPad(BlockOp block, PadPlan &plan) {
  SmallVector<int64_t> extents;
  plan.outermost = matchNest(block, extents);
  if (!plan.outermost || block.getInitOp())
    return false;
  Block *body = block.getBodyBlock();
  // The store before the terminator (an empty block has none).
  if (body->getOperations().size() < 2)
    return false;
  auto store = dyn_cast<memref::StoreOp>(*std::prev(body->end(), 2));
  if (!store)
    return false;
  unsigned rank = block.getNumIterVars();
  for (unsigned d = 0; d < rank; ++d)
    if (block.isReduceIterVar(d))
      return false;
  if (store.getIndices().size() != rank)
    return false;
  for (auto [d, index] : llvm::enumerate(store.getIndices()))
    if (index != block.getIterVar(d))
      return false;
  auto select = store.getValue().getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != body)
    return false;
  auto load = select.getTrueValue().getDefiningOp<memref::LoadOp>();
  auto padValue = select.getFalseValue().getDefiningOp<arith::ConstantOp>();
  if (!load || load->getBlock() != body || !padValue ||
      load.getIndices().size() != rank)
    return false;
  plan.padValue = padValue.getValue();
  plan.input = load.getMemRef();
  plan.output = store.getMemRef();
  auto inType = dyn_cast<MemRefType>(plan.input.getType());
  auto outType = dyn_cast<MemRefType>(plan.output.getType());
  if (!inType || !outType || !inType.hasStaticShape() ||
      !outType.hasStaticShape() || plan.input.getParentBlock() == body ||
      plan.input == plan.output ||
      inType.getElementType() != outType.getElementType())
    return false;

  // Each index: v_d itself, or max(min(v_d + c, in_d - 1), 0) with c <= 0.
  // `shifted[d]` is that v_d + c (null for v_d itself).
  SmallVector<Value> shifted(rank);
  plan.before.assign(rank, 0);
  for (auto [d, index] : llvm::enumerate(load.getIndices())) {
    int64_t inSize = inType.getDimSize(d);
    if (index == block.getIterVar(d)) {
      if (inSize != outType.getDimSize(d))
        return false;
      continue;
    }
    auto max = index.getDefiningOp<arith::MaxSIOp>();
    if (!max || !isConstantIntValue(max.getRhs(), 0))
      return false;
    auto min = max.getLhs().getDefiningOp<arith::MinSIOp>();
    if (!min || !isConstantIntValue(min.getRhs(), inSize - 1))
      return false;
    Value s = min.getLhs();
    if (s != block.getIterVar(d)) {
      auto add = s.getDefiningOp<arith::AddIOp>();
      auto c = add ? add.getRhs().getDefiningOp<arith::ConstantIndexOp>()
                   : arith::ConstantIndexOp();
      // (INT64_MIN has no negation.)
      if (!add || add.getLhs() != block.getIterVar(d) || !c || c.value() > 0 ||
          c.value() == std::numeric_limits<int64_t>::min())
        return false;
      plan.before[d] = -c.value();
    }
    // The padding after must not be negative (no cropping).
    if (plan.before[d] > outType.getDimSize(d) - inSize)
      return false;
    shifted[d] = s;
  }
  // The condition: exactly s_d >= 0 and s_d < in_d for each padded d,
  // joined by andi.
  SmallVector<Value> leaves, worklist{select.getCondition()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto andOp = v.getDefiningOp<arith::AndIOp>()) {
      worklist.append({andOp.getLhs(), andOp.getRhs()});
      continue;
    }
    leaves.push_back(v);
  }
  llvm::SmallBitVector lower(rank), upper(rank);
  for (Value leaf : leaves) {
    auto cmp = leaf.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      return false;
    auto *it = llvm::find(shifted, cmp.getLhs());
    if (!cmp.getLhs() || it == shifted.end())
      return false;
    unsigned d = it - shifted.begin();
    if (cmp.getPredicate() == arith::CmpIPredicate::sge &&
        isConstantIntValue(cmp.getRhs(), 0))
      lower.set(d);
    else if (cmp.getPredicate() == arith::CmpIPredicate::slt &&
             isConstantIntValue(cmp.getRhs(), inType.getDimSize(d)))
      upper.set(d);
    else
      return false;
  }
  for (unsigned d = 0; d < rank; ++d)
    if (static_cast<bool>(shifted[d]) != (lower.test(d) && upper.test(d)))
      return false;
  // Nothing else in the body: the index and condition arithmetic.
  for (Operation &op : body->without_terminator())
    if (&op != store.getOperation() && &op != load.getOperation() &&
        !isRaisableScalarOp(&op))
      return false;
  return true;
}

void raisePad(RewriterBase &rewriter, PadPlan &plan) {
  Location loc = plan.outermost.getLoc();
  rewriter.setInsertionPoint(plan.outermost);
  auto inType = cast<MemRefType>(plan.input.getType());
  auto outType = cast<MemRefType>(plan.output.getType());
  Value padValue = arith::ConstantOp::create(rewriter, loc, plan.padValue);
  SmallVector<int64_t> ones(inType.getRank(), 1);
  // Only the border is filled: a fill of the whole buffer wrote the
  // interior twice (MobileNet-v2's padded depthwise inputs: 9 % of its time
  // in memset). A slab per side of each padded dimension (the corners
  // twice); dynamic shapes fill everything.
  if (!inType.hasStaticShape() || !outType.hasStaticShape()) {
    linalg::FillOp::create(rewriter, loc, padValue, plan.output);
  } else {
    SmallVector<int64_t> zeros(outType.getRank(), 0);
    for (int64_t d = 0; d < outType.getRank(); ++d) {
      int64_t before = plan.before[d];
      int64_t after = outType.getDimSize(d) - before - inType.getDimSize(d);
      for (auto [offset, size] :
           {std::pair{int64_t(0), before},
            std::pair{before + inType.getDimSize(d), after}}) {
        if (size <= 0)
          continue;
        SmallVector<int64_t> offsets = zeros;
        SmallVector<int64_t> sizes = llvm::to_vector(outType.getShape());
        offsets[d] = offset;
        sizes[d] = size;
        Value slab = memref::SubViewOp::create(rewriter, loc, plan.output,
                                               offsets, sizes, ones);
        linalg::FillOp::create(rewriter, loc, padValue, slab);
      }
    }
  }
  Value interior = memref::SubViewOp::create(
      rewriter, loc, plan.output, plan.before, inType.getShape(), ones);
  linalg::CopyOp::create(rewriter, loc, plan.input, interior);
  rewriter.eraseOp(plan.outermost);
}

struct ConvertTensorIRToLinalgPass
    : public mlc::impl::ConvertTensorIRToLinalgBase<
          ConvertTensorIRToLinalgPass> {
  void runOnOperation() override {
    SmallVector<RaisePlan> plans;
    SmallVector<PadPlan> pads;
    getOperation().walk([&](BlockOp block) {
      RaisePlan plan;
      plan.block = block;
      PadPlan pad;
      if (matchBlock(block, plan))
        plans.push_back(std::move(plan));
      else if (matchPad(block, pad))
        pads.push_back(std::move(pad));
    });
    IRRewriter rewriter(&getContext());
    for (RaisePlan &plan : plans)
      (void)raise(rewriter, plan);
    for (PadPlan &pad : pads)
      raisePad(rewriter, pad);
  }
};

} // namespace
