//===- TensorIRTransformOps.cpp - tensorir schedule transform ops -*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/TransformOps/TensorIRTransformOps.h"

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"

using namespace mlir;
using namespace mlc::tensorir;
using mlir::transform::TransformResults;
using mlir::transform::TransformRewriter;
using mlir::transform::TransformState;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// `[?, 4, %p]`: the split factors, `?` stored as 0 and a param operand as
/// ShapedType::kDynamic.
static ParseResult
parseFactors(OpAsmParser &parser,
             SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamicFactors,
             DenseI64ArrayAttr &factors) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            if (succeeded(parser.parseOptionalQuestion())) {
              values.push_back(0);
              return success();
            }
            OpAsmParser::UnresolvedOperand operand;
            OptionalParseResult parsedOperand =
                parser.parseOptionalOperand(operand);
            if (parsedOperand.has_value()) {
              if (failed(*parsedOperand))
                return failure();
              dynamicFactors.push_back(operand);
              values.push_back(ShapedType::kDynamic);
              return success();
            }
            int64_t value = 0;
            if (parser.parseInteger(value))
              return failure();
            values.push_back(value);
            return success();
          }))
    return failure();
  factors = parser.getBuilder().getDenseI64ArrayAttr(values);
  return success();
}

static void printFactors(OpAsmPrinter &p, Operation *,
                         OperandRange dynamicFactors,
                         DenseI64ArrayAttr factors) {
  p << '[';
  unsigned next = 0;
  llvm::interleaveComma(factors.asArrayRef(), p, [&](int64_t f) {
    if (ShapedType::isDynamic(f) && next < dynamicFactors.size())
      p << dynamicFactors[next++];
    else if (f == 0)
      p << '?';
    else
      p << f;
  });
  p << ']';
}

/// `[?, 4]`: static factors only (pad_einsum's padding).
static ParseResult parseFactors(OpAsmParser &parser,
                                DenseI64ArrayAttr &factors) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (failed(parseFactors(parser, operands, factors)))
    return failure();
  if (!operands.empty())
    return parser.emitError(loc, "expected constant factors, got a param");
  return success();
}

static void printFactors(OpAsmPrinter &p, Operation *op,
                         DenseI64ArrayAttr factors) {
  printFactors(p, op, OperandRange(nullptr, 0), factors);
}

/// The single payload op of `handle`, which must be an `OpT`.
template <typename OpT>
static DiagnosedSilenceableFailure getSingle(TransformState &state,
                                             Operation *transformOp,
                                             Value handle, OpT &result) {
  auto ops = llvm::to_vector(state.getPayloadOps(handle));
  if (ops.size() != 1)
    return emitDefiniteFailure(transformOp)
           << "expected a handle to one '" << OpT::getOperationName()
           << "', got " << ops.size() << " payload ops";
  result = dyn_cast<OpT>(ops.front());
  if (!result)
    return emitDefiniteFailure(transformOp)
           << "expected a handle to a '" << OpT::getOperationName()
           << "', got '" << ops.front()->getName() << "'";
  return DiagnosedSilenceableFailure::success();
}

template <typename OpT>
static DiagnosedSilenceableFailure
getAll(TransformState &state, Operation *transformOp, ValueRange handles,
       SmallVectorImpl<OpT> &result) {
  for (Value handle : handles) {
    OpT op;
    DiagnosedSilenceableFailure diag =
        getSingle(state, transformOp, handle, op);
    if (!diag.succeeded())
      return diag;
    result.push_back(op);
  }
  return DiagnosedSilenceableFailure::success();
}

/// The prim_func around `op`, whose schedule the primitive changes.
static PrimFuncOp getFunc(Operation *op) {
  return op->getParentOfType<PrimFuncOp>();
}

/// The effects of a query: reads `operand`'s handle and the payload,
/// produces the op's results (get_block, get_loops, the sampling ops).
static void
queryEffects(MutableOperandRange operand, Operation *op,
             SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(operand, effects);
  transform::producesHandle(op->getOpResults(), effects);
  transform::onlyReadsPayload(effects);
}

/// Sets `func` to the prim_func around `payload`; a definite failure of
/// `transformOp` when there is none.
static DiagnosedSilenceableFailure
getFunc(Operation *transformOp, Operation *payload, PrimFuncOp &func) {
  func = getFunc(payload);
  if (!func)
    return emitDefiniteFailure(
        transformOp, "the payload is not inside a 'tensorir.prim_func'");
  return DiagnosedSilenceableFailure::success();
}

static SmallVector<Operation *> toOps(ArrayRef<ForOp> loops) {
  return llvm::map_to_vector(loops, [](ForOp l) -> Operation * { return l; });
}

/// Sets each result to one op, in order.
static void setResults(TransformResults &results, ResultRange handles,
                       ArrayRef<Operation *> ops) {
  for (auto [handle, op] : llvm::zip(handles, ops))
    results.set(cast<OpResult>(handle), {op});
}

/// The failure of a primitive whose diagnostic is already emitted at the
/// payload.
static DiagnosedSilenceableFailure scheduleFailed() {
  return DiagnosedSilenceableFailure::definiteFailure();
}

/// Runs `fn(schedule, block)` on the one block of `op`'s block handle, in a
/// Schedule of its prim_func.
template <typename OpT, typename Fn>
static DiagnosedSilenceableFailure applyToBlock(OpT op, TransformState &state,
                                                TransformRewriter &rewriter,
                                                Fn fn) {
  BlockOp block;
  DiagnosedSilenceableFailure diag =
      getSingle(state, op.getOperation(), op.getBlock(), block);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found =
          getFunc(op.getOperation(), block, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  if (failed(fn(sch, block)))
    return scheduleFailed();
  return DiagnosedSilenceableFailure::success();
}

#define GET_OP_CLASSES
#include "mlc/Dialect/TensorIR/TransformOps/TensorIRTransformOps.cpp.inc"

namespace mlc::tensorir::schedule {

//===----------------------------------------------------------------------===//
// get_block / get_loops
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure GetBlockOp::apply(TransformRewriter &rewriter,
                                              TransformResults &results,
                                              TransformState &state) {
  SmallVector<Operation *> found;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    target->walk([&](PrimFuncOp func) {
      if (BlockOp block = func.lookupBlock(getName()))
        found.push_back(block);
    });
  }
  if (found.empty())
    return emitDefiniteFailure()
           << "no block named '" << getName() << "' in the target";
  if (found.size() > 1)
    return emitDefiniteFailure()
           << found.size() << " prim_funcs have a block named '" << getName()
           << "'; pass one prim_func as the target";
  results.set(cast<OpResult>(getBlock()), found);
  return DiagnosedSilenceableFailure::success();
}

void GetBlockOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  queryEffects(getTargetMutable(), getOperation(), effects);
}

DiagnosedSilenceableFailure GetLoopsOp::apply(TransformRewriter &rewriter,
                                              TransformResults &results,
                                              TransformState &state) {
  BlockOp block;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getBlock(), block);
  if (!diag.succeeded())
    return diag;
  SmallVector<ForOp> loops = Schedule::getLoops(block);
  if (loops.size() != getLoops().size())
    return emitDefiniteFailure()
           << "block '" << block.getName() << "' has " << loops.size()
           << " loops but the op has " << getLoops().size() << " results";
  setResults(results, getOperation()->getResults(), toOps(loops));
  return DiagnosedSilenceableFailure::success();
}

void GetLoopsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  queryEffects(getBlockMutable(), getOperation(), effects);
}

//===----------------------------------------------------------------------===//
// split / fuse / reorder / tile
//===----------------------------------------------------------------------===//

/// Replaces each ShapedType::kDynamic of `factors` by the integer of the
/// next param of `dynamicFactors` (split's and tile's param factors).
static DiagnosedSilenceableFailure
resolveParamFactors(TransformState &state, Operation *transformOp,
                    ValueRange dynamicFactors,
                    SmallVectorImpl<int64_t> &factors) {
  auto next = dynamicFactors.begin();
  for (int64_t &factor : factors) {
    if (!ShapedType::isDynamic(factor))
      continue;
    ArrayRef<Attribute> values = state.getParams(*next++);
    auto value = values.size() == 1 ? dyn_cast<IntegerAttr>(values.front())
                                    : IntegerAttr();
    if (!value)
      return emitDefiniteFailure(transformOp)
             << "expected each param factor to hold one integer, got "
             << values.size() << " values";
    factor = value.getInt();
    if (factor <= 0)
      return emitDefiniteFailure(transformOp)
             << "param factor " << factor << " is not positive";
  }
  return DiagnosedSilenceableFailure::success();
}

/// The verifier of a factor list with param operands (split, tile).
static LogicalResult verifyParamFactors(Operation *op,
                                        ArrayRef<int64_t> factors,
                                        ValueRange dynamicFactors) {
  int64_t numDynamic = llvm::count_if(factors, ShapedType::isDynamic);
  if (numDynamic != int64_t(dynamicFactors.size()))
    return op->emitOpError()
           << numDynamic << " dynamic factors in the list but "
           << dynamicFactors.size() << " param operands";
  return success();
}

LogicalResult SplitOp::verify() {
  if (getFactors().size() != getLoops().size())
    return emitOpError() << getFactors().size() << " factors but "
                         << getLoops().size() << " results";
  return verifyParamFactors(getOperation(), getFactors(), getDynamicFactors());
}

DiagnosedSilenceableFailure SplitOp::apply(TransformRewriter &rewriter,
                                           TransformResults &results,
                                           TransformState &state) {
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getTarget(), loop);
  if (!diag.succeeded())
    return diag;
  SmallVector<int64_t> factors(getFactors());
  diag =
      resolveParamFactors(state, getOperation(), getDynamicFactors(), factors);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found = getFunc(getOperation(), loop, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  FailureOr<SmallVector<ForOp>> loops = sch.split(loop, factors);
  if (failed(loops))
    return scheduleFailed();
  setResults(results, getOperation()->getResults(), toOps(*loops));
  return DiagnosedSilenceableFailure::success();
}

void SplitOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::onlyReadsHandle(getDynamicFactorsMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// sample_perfect_tile / sample_categorical
//===----------------------------------------------------------------------===//

/// Sets `result` to the one integer `value`.
static void setParam(TransformResults &results, Value result, int64_t value) {
  Builder b(result.getContext());
  results.setParams(cast<OpResult>(result), {b.getI64IntegerAttr(value)});
}

LogicalResult SamplePerfectTileOp::verify() {
  if (getFactors().empty())
    return emitOpError("expected at least one result");
  int64_t maxInnermostFactor = getMaxInnermostFactorAttr().getInt();
  if (maxInnermostFactor < 0)
    return emitOpError("max_innermost_factor ")
           << maxInnermostFactor << " is negative (0: no limit)";
  if (std::optional<ArrayRef<int64_t>> decision = getDecision()) {
    if (decision->size() != getFactors().size())
      return emitOpError("the decision has ")
             << decision->size() << " factors but the op has "
             << getFactors().size() << " results";
    for (int64_t factor : *decision)
      if (factor <= 0)
        return emitOpError("decision factor ") << factor << " is not positive";
    if (maxInnermostFactor > 0 && decision->back() > maxInnermostFactor)
      return emitOpError("the innermost factor ")
             << decision->back() << " of the decision exceeds "
             << "max_innermost_factor " << maxInnermostFactor;
  }
  return success();
}

DiagnosedSilenceableFailure
SamplePerfectTileOp::apply(TransformRewriter &rewriter,
                           TransformResults &results, TransformState &state) {
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getTarget(), loop);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found = getFunc(getOperation(), loop, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  sch.seed(getSeed());
  FailureOr<SmallVector<int64_t>> factors = sch.samplePerfectTile(
      loop, getFactors().size(), getMaxInnermostFactorAttr().getInt(),
      getDecision());
  if (failed(factors))
    return scheduleFailed();
  for (auto [result, factor] : llvm::zip(getFactors(), *factors))
    setParam(results, result, factor);
  return DiagnosedSilenceableFailure::success();
}

void SamplePerfectTileOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  queryEffects(getTargetMutable(), getOperation(), effects);
}

LogicalResult SampleCategoricalOp::verify() {
  IntegerAttr decision = getDecisionAttr();
  std::string error = checkCategorical(
      getCandidates().size(), getProbs(),
      decision ? std::optional<int64_t>(decision.getInt()) : std::nullopt);
  if (!error.empty())
    return emitOpError() << error;
  return success();
}

DiagnosedSilenceableFailure
SampleCategoricalOp::apply(TransformRewriter &rewriter,
                           TransformResults &results, TransformState &state) {
  RandomEngine rng(getSeed());
  IntegerAttr decision = getDecisionAttr();
  int64_t index =
      decision ? decision.getInt() : drawCategorical(getProbs(), rng);
  setParam(results, getResult(), getCandidates()[index]);
  return DiagnosedSilenceableFailure::success();
}

void SampleCategoricalOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::onlyReadsPayload(effects);
}

LogicalResult SampleComputeLocationOp::verify() {
  if (IntegerAttr decision = getDecisionAttr();
      decision && decision.getInt() < -1)
    return emitOpError("decision ")
           << decision.getInt()
           << " is not -1 (where the block is) or a location index";
  return success();
}

DiagnosedSilenceableFailure
SampleComputeLocationOp::apply(TransformRewriter &rewriter,
                               TransformResults &results,
                               TransformState &state) {
  return applyToBlock(
      *this, state, rewriter, [&](Schedule &sch, BlockOp block) {
        sch.seed(getSeed());
        IntegerAttr decision = getDecisionAttr();
        FailureOr<std::pair<int64_t, ForOp>> location =
            sch.sampleComputeLocation(
                block, decision ? std::optional<int64_t>(decision.getInt())
                                : std::nullopt);
        if (failed(location))
          return failure();
        SmallVector<Operation *> payload;
        if (location->second)
          payload.push_back(location->second);
        results.set(cast<OpResult>(getLocation()), payload);
        return success();
      });
}

void SampleComputeLocationOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  queryEffects(getBlockMutable(), getOperation(), effects);
}

DiagnosedSilenceableFailure
CollectComputeLocationsOp::apply(TransformRewriter &rewriter,
                                 TransformResults &results,
                                 TransformState &state) {
  return applyToBlock(*this, state, rewriter,
                      [&](Schedule &sch, BlockOp block) {
                        SmallVector<Operation *> payload;
                        for (ForOp loop : sch.collectComputeLocations(block))
                          payload.push_back(loop);
                        results.set(cast<OpResult>(getLocations()), payload);
                        return success();
                      });
}

void CollectComputeLocationsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  queryEffects(getBlockMutable(), getOperation(), effects);
}

DiagnosedSilenceableFailure FuseOp::apply(TransformRewriter &rewriter,
                                          TransformResults &results,
                                          TransformState &state) {
  SmallVector<ForOp> loops;
  DiagnosedSilenceableFailure diag =
      getAll(state, getOperation(), getLoops(), loops);
  if (!diag.succeeded())
    return diag;
  if (loops.empty())
    return emitDefiniteFailure() << "expected loops to fuse";
  Schedule sch(getFunc(loops.front()), rewriter);
  FailureOr<ForOp> fused = sch.fuse(loops);
  if (failed(fused))
    return scheduleFailed();
  results.set(cast<OpResult>(getFused()), {fused->getOperation()});
  return DiagnosedSilenceableFailure::success();
}

void FuseOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getLoopsMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure ReorderOp::apply(TransformRewriter &rewriter,
                                             TransformResults &results,
                                             TransformState &state) {
  SmallVector<ForOp> loops;
  DiagnosedSilenceableFailure diag =
      getAll(state, getOperation(), getLoops(), loops);
  if (!diag.succeeded())
    return diag;
  if (loops.empty())
    return DiagnosedSilenceableFailure::success();
  Schedule sch(getFunc(loops.front()), rewriter);
  if (failed(sch.reorder(loops)))
    return scheduleFailed();
  return DiagnosedSilenceableFailure::success();
}

void ReorderOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getLoopsMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure TileOp::apply(TransformRewriter &rewriter,
                                          TransformResults &results,
                                          TransformState &state) {
  SmallVector<ForOp> loops;
  DiagnosedSilenceableFailure diag =
      getAll(state, getOperation(), getLoops(), loops);
  if (!diag.succeeded())
    return diag;
  if (loops.empty() || getTiled().size() != 2 * loops.size())
    return emitDefiniteFailure()
           << "expected 2 results per loop, got " << getTiled().size()
           << " for " << loops.size() << " loops";
  SmallVector<int64_t> sizes(getSizes());
  diag = resolveParamFactors(state, getOperation(), getDynamicSizes(), sizes);
  if (!diag.succeeded())
    return diag;
  Schedule sch(getFunc(loops.front()), rewriter);
  FailureOr<SmallVector<ForOp>> tiled = sch.tile(loops, sizes);
  if (failed(tiled))
    return scheduleFailed();
  setResults(results, getOperation()->getResults(), toOps(*tiled));
  return DiagnosedSilenceableFailure::success();
}

LogicalResult TileOp::verify() {
  if (llvm::is_contained(getSizes(), 0))
    return emitOpError("a tile size is '?'; sizes are integers or params");
  return verifyParamFactors(getOperation(), getSizes(), getDynamicSizes());
}

void TileOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getLoopsMutable(), effects);
  transform::onlyReadsHandle(getDynamicSizesMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// parallel / vectorize / unroll / bind
//===----------------------------------------------------------------------===//

template <typename OpT, typename Fn>
static DiagnosedSilenceableFailure applyLoopKind(OpT op, TransformState &state,
                                                 TransformRewriter &rewriter,
                                                 Fn fn) {
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, op.getOperation(), op.getTarget(), loop);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found =
          getFunc(op.getOperation(), loop, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  if (failed(fn(sch, loop)))
    return scheduleFailed();
  return DiagnosedSilenceableFailure::success();
}

#define LOOP_KIND_EFFECTS(OP)                                                  \
  void OP::getEffects(                                                         \
      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {               \
    transform::onlyReadsHandle(getTargetMutable(), effects);                   \
    transform::modifiesPayload(effects);                                       \
  }

DiagnosedSilenceableFailure ParallelOp::apply(TransformRewriter &rewriter,
                                              TransformResults &,
                                              TransformState &state) {
  return applyLoopKind(*this, state, rewriter,
                       [](Schedule &sch, ForOp l) { return sch.parallel(l); });
}
LOOP_KIND_EFFECTS(ParallelOp)

DiagnosedSilenceableFailure VectorizeOp::apply(TransformRewriter &rewriter,
                                               TransformResults &,
                                               TransformState &state) {
  return applyLoopKind(*this, state, rewriter,
                       [](Schedule &sch, ForOp l) { return sch.vectorize(l); });
}
LOOP_KIND_EFFECTS(VectorizeOp)

DiagnosedSilenceableFailure UnrollOp::apply(TransformRewriter &rewriter,
                                            TransformResults &,
                                            TransformState &state) {
  return applyLoopKind(*this, state, rewriter,
                       [](Schedule &sch, ForOp l) { return sch.unroll(l); });
}
LOOP_KIND_EFFECTS(UnrollOp)

DiagnosedSilenceableFailure BindOp::apply(TransformRewriter &rewriter,
                                          TransformResults &,
                                          TransformState &state) {
  StringRef tag = getThreadTag();
  return applyLoopKind(*this, state, rewriter, [&](Schedule &sch, ForOp l) {
    return sch.bind(l, tag);
  });
}
LOOP_KIND_EFFECTS(BindOp)

#undef LOOP_KIND_EFFECTS

//===----------------------------------------------------------------------===//
// decompose_reduction / reverse_compute_at
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
DecomposeReductionOp::apply(TransformRewriter &rewriter,
                            TransformResults &results, TransformState &state) {
  BlockOp block;
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getBlock(), block);
  if (!diag.succeeded())
    return diag;
  diag = getSingle(state, getOperation(), getLoop(), loop);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found = getFunc(getOperation(), block, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  FailureOr<BlockOp> init = sch.decomposeReduction(block, loop);
  if (failed(init))
    return scheduleFailed();
  results.set(cast<OpResult>(getInit()), {init->getOperation()});
  return DiagnosedSilenceableFailure::success();
}

void DecomposeReductionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::onlyReadsHandle(getLoopMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
ReverseComputeAtOp::apply(TransformRewriter &rewriter, TransformResults &,
                          TransformState &state) {
  BlockOp block;
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getBlock(), block);
  if (!diag.succeeded())
    return diag;
  diag = getSingle(state, getOperation(), getLoop(), loop);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found = getFunc(getOperation(), block, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  if (failed(sch.reverseComputeAt(block, loop)))
    return scheduleFailed();
  return DiagnosedSilenceableFailure::success();
}

void ReverseComputeAtOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::onlyReadsHandle(getLoopMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure ComputeAtOp::apply(TransformRewriter &rewriter,
                                               TransformResults &,
                                               TransformState &state) {
  BlockOp block;
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getBlock(), block);
  if (!diag.succeeded())
    return diag;
  // TVM's root location (sample_compute_location's -1): stay.
  if (llvm::range_size(state.getPayloadOps(getLoop())) == 0)
    return DiagnosedSilenceableFailure::success();
  diag = getSingle(state, getOperation(), getLoop(), loop);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found = getFunc(getOperation(), block, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  if (failed(sch.computeAt(block, loop)))
    return scheduleFailed();
  return DiagnosedSilenceableFailure::success();
}

void ComputeAtOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::onlyReadsHandle(getLoopMutable(), effects);
  transform::modifiesPayload(effects);
}

/// The effects of a primitive applied to a block handle that returns
/// nothing: the handle stays valid, the payload changes.
static void
blockPrimitiveEffects(MutableOperandRange block,
                      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(block, effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure ComputeInlineOp::apply(TransformRewriter &rewriter,
                                                   TransformResults &,
                                                   TransformState &state) {
  return applyToBlock(*this, state, rewriter, [](Schedule &sch, BlockOp b) {
    return sch.computeInline(b);
  });
}

void ComputeInlineOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  blockPrimitiveEffects(getBlockMutable(), effects);
}

DiagnosedSilenceableFailure
ReverseComputeInlineOp::apply(TransformRewriter &rewriter, TransformResults &,
                              TransformState &state) {
  return applyToBlock(*this, state, rewriter, [&](Schedule &sch, BlockOp b) {
    return sch.reverseComputeInline(b, getKeepInput());
  });
}

void ReverseComputeInlineOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  blockPrimitiveEffects(getBlockMutable(), effects);
}

DiagnosedSilenceableFailure PadEinsumOp::apply(TransformRewriter &rewriter,
                                               TransformResults &,
                                               TransformState &state) {
  return applyToBlock(*this, state, rewriter, [&](Schedule &sch, BlockOp b) {
    return sch.padEinsum(b, getPadding());
  });
}

void PadEinsumOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  blockPrimitiveEffects(getBlockMutable(), effects);
}

template <typename OpT, typename Fn>
static DiagnosedSilenceableFailure
applyCache(OpT op, TransformRewriter &rewriter, TransformResults &results,
           TransformState &state, Fn fn) {
  if (op.getBufferIndex() < 0)
    return ::mlir::emitDefiniteFailure(op.getOperation(),
                                       "the buffer index must not be negative");
  Operation *copy = nullptr;
  DiagnosedSilenceableFailure diag =
      applyToBlock(op, state, rewriter, [&](Schedule &sch, BlockOp b) {
        FailureOr<BlockOp> result =
            fn(sch, b, op.getBufferIndex(), op.getStorageScope());
        if (failed(result))
          return failure();
        copy = result->getOperation();
        return success();
      });
  if (!diag.succeeded())
    return diag;
  results.set(cast<OpResult>(op.getCopy()), {copy});
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure CacheReadOp::apply(TransformRewriter &rewriter,
                                               TransformResults &results,
                                               TransformState &state) {
  return applyCache(*this, rewriter, results, state,
                    [](Schedule &sch, BlockOp b, int64_t i, StringRef scope) {
                      return sch.cacheRead(b, i, scope);
                    });
}

void CacheReadOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure CacheWriteOp::apply(TransformRewriter &rewriter,
                                                TransformResults &results,
                                                TransformState &state) {
  return applyCache(*this, rewriter, results, state,
                    [](Schedule &sch, BlockOp b, int64_t i, StringRef scope) {
                      return sch.cacheWrite(b, i, scope);
                    });
}

void CacheWriteOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure RFactorOp::apply(TransformRewriter &rewriter,
                                             TransformResults &results,
                                             TransformState &state) {
  ForOp loop;
  DiagnosedSilenceableFailure diag =
      getSingle(state, getOperation(), getTarget(), loop);
  if (!diag.succeeded())
    return diag;
  PrimFuncOp func;
  if (DiagnosedSilenceableFailure found = getFunc(getOperation(), loop, func);
      !found.succeeded())
    return found;
  Schedule sch(func, rewriter);
  FailureOr<BlockOp> rf = sch.rfactor(loop);
  if (failed(rf))
    return scheduleFailed();
  results.set(cast<OpResult>(getRfBlock()), {rf->getOperation()});
  return DiagnosedSilenceableFailure::success();
}

void RFactorOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
TransformBlockLayoutOp::apply(TransformRewriter &rewriter, TransformResults &,
                              TransformState &state) {
  return applyToBlock(*this, state, rewriter, [&](Schedule &sch, BlockOp b) {
    return sch.transformBlockLayout(b, getIndexMap());
  });
}

void TransformBlockLayoutOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  blockPrimitiveEffects(getBlockMutable(), effects);
}

LogicalResult ReindexOp::verify() {
  if (getBufferIndexType() != "read" && getBufferIndexType() != "write")
    return emitOpError(
               "buffer_index_type must be \"read\" or \"write\", got \"")
           << getBufferIndexType() << "\"";
  if (static_cast<int64_t>(getBufferIndex()) < 0)
    return emitOpError("buffer_index must not be negative, got ")
           << static_cast<int64_t>(getBufferIndex());
  return success();
}

DiagnosedSilenceableFailure ReindexOp::apply(TransformRewriter &rewriter,
                                             TransformResults &results,
                                             TransformState &state) {
  Operation *copy = nullptr;
  DiagnosedSilenceableFailure diag =
      applyToBlock(*this, state, rewriter, [&](Schedule &sch, BlockOp b) {
        FailureOr<BlockOp> result =
            sch.reindex(b, getBufferIndex(), getBufferIndexType() == "write");
        if (failed(result))
          return failure();
        copy = result->getOperation();
        return success();
      });
  if (!diag.succeeded())
    return diag;
  results.set(cast<OpResult>(getCopy()), {copy});
  return DiagnosedSilenceableFailure::success();
}

void ReindexOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

} // namespace mlc::tensorir::schedule

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

namespace {
class TensorIRTransformDialectExtension
    : public transform::TransformDialectExtension<
          TensorIRTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(
      TensorIRTransformDialectExtension)

  using Base::Base;

  void init() {
    declareGeneratedDialect<TensorIRDialect>();
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "mlc/Dialect/TensorIR/TransformOps/TensorIRTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlc::tensorir::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<TensorIRTransformDialectExtension>();
}
