//===- TensorIRUtils.cpp - tensorir analyses --------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlc::tensorir;

//===----------------------------------------------------------------------===//
// Static ranges
//===----------------------------------------------------------------------===//

// Divisors are positive here (a constant > 0), so neither overflows.
static int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && (a < 0));
}
static int64_t ceilDiv(int64_t a, int64_t b) {
  return a / b + ((a % b != 0) && (a > 0));
}

// Interval arithmetic on index ranges; a bound that int64_t cannot hold
// (sizes near 2^63 that users can write) is no static range.
static std::optional<IndexRange> makeRange(std::optional<int64_t> min,
                                           std::optional<int64_t> max) {
  if (!min || !max)
    return std::nullopt;
  return IndexRange{*min, *max};
}
static std::optional<IndexRange> addRanges(const IndexRange &a,
                                           const IndexRange &b) {
  return makeRange(llvm::checkedAdd(a.min, b.min),
                   llvm::checkedAdd(a.max, b.max));
}
static std::optional<IndexRange> subRanges(const IndexRange &a,
                                           const IndexRange &b) {
  return makeRange(llvm::checkedSub(a.min, b.max),
                   llvm::checkedSub(a.max, b.min));
}
static std::optional<IndexRange> mulRanges(const IndexRange &a,
                                           const IndexRange &b) {
  int64_t products[4];
  int64_t lhs[] = {a.min, a.min, a.max, a.max};
  int64_t rhs[] = {b.min, b.max, b.min, b.max};
  for (int i = 0; i < 4; ++i) {
    std::optional<int64_t> product = llvm::checkedMul(lhs[i], rhs[i]);
    if (!product)
      return std::nullopt;
    products[i] = *product;
  }
  return IndexRange{*std::min_element(products, products + 4),
                    *std::max_element(products, products + 4)};
}

/// Appends the terms of the sum `expr` as (expression, coefficient) pairs.
static void flattenSum(AffineExpr expr, int64_t coefficient,
                       SmallVectorImpl<std::pair<AffineExpr, int64_t>> &terms) {
  if (expr.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    flattenSum(bin.getLHS(), coefficient, terms);
    flattenSum(bin.getRHS(), coefficient, terms);
    return;
  }
  if (expr.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    if (auto cst = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
      if (std::optional<int64_t> c =
              llvm::checkedMul(coefficient, cst.getValue())) {
        flattenSum(bin.getLHS(), *c, terms);
        return;
      }
    }
  }
  terms.push_back({expr, coefficient});
}

/// `expr` with each pair of terms k * x - k * c * (x floordiv c) of a sum
/// written as k * (x mod c), the form MLIR's simplification expands a
/// modulo into: interval arithmetic over the expanded form loses that it
/// is never negative.
static AffineExpr recoverModulos(AffineExpr expr) {
  if (expr.getKind() != AffineExprKind::Add)
    return expr;
  SmallVector<std::pair<AffineExpr, int64_t>> terms;
  flattenSum(expr, 1, terms);
  bool changed = false;
  for (auto &[term, coefficient] : terms) {
    if (term.getKind() != AffineExprKind::FloorDiv || coefficient == 0)
      continue;
    auto div = cast<AffineBinaryOpExpr>(term);
    auto divisor = dyn_cast<AffineConstantExpr>(div.getRHS());
    if (!divisor || divisor.getValue() <= 0 ||
        coefficient % divisor.getValue() != 0)
      continue;
    // -(coefficient / c), which overflows only for INT64_MIN / 1.
    int64_t quotient = coefficient / divisor.getValue();
    if (quotient == std::numeric_limits<int64_t>::min())
      continue;
    int64_t k = -quotient;
    for (auto &[other, otherCoefficient] : terms) {
      if (other != div.getLHS() || otherCoefficient != k)
        continue;
      term = div.getLHS() % divisor;
      coefficient = k;
      otherCoefficient = 0;
      changed = true;
      break;
    }
  }
  if (!changed)
    return expr;
  // Constant terms summed here with checked arithmetic (MLIR folds
  // constant products and sums without overflow checks).
  int64_t constant = 0;
  AffineExpr sum = getAffineConstantExpr(0, expr.getContext());
  for (auto [term, coefficient] : terms) {
    if (coefficient == 0)
      continue;
    if (auto cst = dyn_cast<AffineConstantExpr>(term)) {
      std::optional<int64_t> product =
          llvm::checkedMul(cst.getValue(), coefficient);
      std::optional<int64_t> total =
          product ? llvm::checkedAdd(constant, *product) : std::nullopt;
      if (!total)
        return expr;
      constant = *total;
      continue;
    }
    sum = sum + term * coefficient;
  }
  return sum + constant;
}

std::optional<IndexRange>
mlc::tensorir::getStaticExprRange(AffineExpr expr,
                                  ArrayRef<std::optional<IndexRange>> dims,
                                  ArrayRef<std::optional<IndexRange>> symbols) {
  if (AffineExpr recovered = recoverModulos(expr); recovered != expr)
    return getStaticExprRange(recovered, dims, symbols);
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return IndexRange{cst.getValue(), cst.getValue()};
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size() ? dims[dim.getPosition()]
                                           : std::nullopt;
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return sym.getPosition() < symbols.size() ? symbols[sym.getPosition()]
                                              : std::nullopt;
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<IndexRange> lhs =
      getStaticExprRange(bin.getLHS(), dims, symbols);
  if (!lhs)
    return std::nullopt;
  std::optional<IndexRange> rhs =
      getStaticExprRange(bin.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    if (!rhs)
      return std::nullopt;
    return addRanges(*lhs, *rhs);
  case AffineExprKind::Mul:
    if (!rhs)
      return std::nullopt;
    return mulRanges(*lhs, *rhs);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    auto cst = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!cst || cst.getValue() <= 0)
      return std::nullopt;
    int64_t d = cst.getValue();
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return IndexRange{floorDiv(lhs->min, d), floorDiv(lhs->max, d)};
    return IndexRange{ceilDiv(lhs->min, d), ceilDiv(lhs->max, d)};
  }
  case AffineExprKind::Mod: {
    auto cst = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!cst || cst.getValue() <= 0)
      return std::nullopt;
    int64_t d = cst.getValue();
    if (lhs->min >= 0 && lhs->max < d)
      return lhs;
    return IndexRange{0, d - 1};
  }
  default:
    return std::nullopt;
  }
}

static std::optional<IndexRange> getStaticIndexRangeImpl(Value value,
                                                         unsigned depth) {
  if (depth > 32)
    return std::nullopt;
  if (std::optional<int64_t> cst = getConstantIntValue(value))
    return IndexRange{*cst, *cst};
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_or_null<ForOp>(owner)) {
      std::optional<int64_t> lb = loop.getConstantLowerBound();
      std::optional<int64_t> ub = loop.getConstantUpperBound();
      std::optional<int64_t> step = loop.getConstantStep();
      if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
        return std::nullopt;
      std::optional<int64_t> span = llvm::checkedSub(*ub - 1, *lb);
      if (!span)
        return std::nullopt;
      return IndexRange{*lb, *lb + (*span / *step) * *step};
    }
    if (auto block = dyn_cast_or_null<BlockOp>(owner)) {
      if (arg.getArgNumber() >= block.getNumIterVars() ||
          block.getStaticExtents().size() != block.getNumIterVars())
        return std::nullopt;
      std::optional<int64_t> extent =
          block.getConstantExtent(arg.getArgNumber());
      if (!extent || *extent <= 0)
        return std::nullopt;
      return IndexRange{0, *extent - 1};
    }
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<std::optional<IndexRange>> operands;
    for (Value operand : apply.getMapOperands())
      operands.push_back(getStaticIndexRangeImpl(operand, depth + 1));
    ArrayRef<std::optional<IndexRange>> all(operands);
    return getStaticExprRange(map.getResult(0),
                              all.take_front(map.getNumDims()),
                              all.drop_front(map.getNumDims()));
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return getStaticIndexRangeImpl(def->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    std::optional<IndexRange> lhs =
        getStaticIndexRangeImpl(def->getOperand(0), depth + 1);
    std::optional<IndexRange> rhs =
        getStaticIndexRangeImpl(def->getOperand(1), depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    if (isa<arith::AddIOp>(def))
      return addRanges(*lhs, *rhs);
    if (isa<arith::SubIOp>(def))
      return subRanges(*lhs, *rhs);
    return mulRanges(*lhs, *rhs);
  }
  return std::nullopt;
}

std::optional<IndexRange> mlc::tensorir::getStaticIndexRange(Value value) {
  return getStaticIndexRangeImpl(value, 0);
}

SmallVector<std::optional<IndexRange>>
mlc::tensorir::getIterVarRanges(BlockOp block) {
  SmallVector<std::optional<IndexRange>> ranges;
  unsigned n = block.getNumIterVars();
  bool wellFormed = block.getStaticExtents().size() == n;
  for (unsigned i = 0; i < n; ++i) {
    std::optional<int64_t> extent =
        wellFormed ? block.getConstantExtent(i) : std::nullopt;
    if (extent && *extent > 0)
      ranges.push_back(IndexRange{0, *extent - 1});
    else
      ranges.push_back(std::nullopt);
  }
  return ranges;
}

//===----------------------------------------------------------------------===//
// inferAccessRegions
//===----------------------------------------------------------------------===//

namespace {
/// Expresses index values inside a block as affine expressions of its
/// iteration variables (dims 0..N-1) and of the induction variables of loops
/// inside the block (dims N.., to be relaxed over their ranges).
class IndexExpressor {
public:
  explicit IndexExpressor(BlockOp block)
      : block(block), numIterVars(block.getNumIterVars()),
        ctx(block.getContext()) {}

  std::optional<AffineExpr> express(Value value, unsigned depth = 0) {
    if (depth > 32)
      return std::nullopt;
    if (std::optional<int64_t> cst = getConstantIntValue(value))
      return getAffineConstantExpr(*cst, ctx);
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == block.getBodyBlock())
        return getAffineDimExpr(arg.getArgNumber(), ctx);
      auto loop = dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp());
      if (!loop || !block->isProperAncestor(loop))
        return std::nullopt;
      std::optional<IndexRange> range = getStaticIndexRange(arg);
      if (!range)
        return std::nullopt;
      auto [it, inserted] =
          innerLoopDims.try_emplace(arg, numIterVars + innerRanges.size());
      if (inserted)
        innerRanges.push_back(*range);
      return getAffineDimExpr(it->second, ctx);
    }
    Operation *def = value.getDefiningOp();
    if (!def || !block->isProperAncestor(def))
      return std::nullopt;
    if (isa<affine::AffineApplyOp>(def))
      return expressAffineApply(
          def, [&](Value operand) { return express(operand, depth + 1); });
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      return express(def->getOperand(0), depth + 1);
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
      std::optional<AffineExpr> lhs = express(def->getOperand(0), depth + 1);
      std::optional<AffineExpr> rhs = express(def->getOperand(1), depth + 1);
      if (!lhs || !rhs)
        return std::nullopt;
      return combineIndexOp(def, *lhs, *rhs);
    }
    return std::nullopt;
  }

  /// The least (`upper` = false) or greatest (`upper` = true) value of `expr`
  /// over the inner loop variables, as a function of the iteration variables.
  std::optional<AffineExpr> relax(AffineExpr expr, bool upper) {
    unsigned numDims = numIterVars + innerRanges.size();
    bool usesInner = false;
    for (unsigned d = numIterVars; d < numDims; ++d)
      usesInner |= expr.isFunctionOfDim(d);
    if (!usesInner) {
      // simplifyAffineExpr would rewrite `a mod c` inside a sum as
      // `a - (a floordiv c) * c`, whose range bounds are much looser.
      bool divides = false;
      expr.walk([&](AffineExpr sub) {
        divides |= sub.getKind() == AffineExprKind::Mod ||
                   sub.getKind() == AffineExprKind::FloorDiv ||
                   sub.getKind() == AffineExprKind::CeilDiv;
      });
      return divides ? expr : simplifyAffineExpr(expr, numIterVars, 0);
    }
    SimpleAffineExprFlattener flattener(numDims, 0);
    if (failed(flattener.walkPostOrder(expr)) ||
        flattener.operandExprStack.size() != 1 || flattener.numLocals != 0)
      return std::nullopt;
    ArrayRef<int64_t> coeffs = flattener.operandExprStack.back();
    AffineExpr result = getAffineConstantExpr(coeffs.back(), ctx);
    for (unsigned d = 0; d < numDims; ++d) {
      int64_t c = coeffs[d];
      if (c == 0)
        continue;
      if (d < numIterVars) {
        result = result + getAffineDimExpr(d, ctx) * c;
        continue;
      }
      const IndexRange &range = innerRanges[d - numIterVars];
      bool takeMax = (c > 0) == upper;
      result = result + c * (takeMax ? range.max : range.min);
    }
    return simplifyAffineExpr(result, numIterVars, 0);
  }

private:
  BlockOp block;
  unsigned numIterVars;
  MLIRContext *ctx;
  DenseMap<Value, unsigned> innerLoopDims;
  SmallVector<IndexRange> innerRanges;
};

/// Per-dimension half-open bounds of one buffer access, as affine
/// expressions of the iteration variables.
struct AccessBox {
  SmallVector<AffineExpr> lower, upper;
};

class RegionCollector {
public:
  RegionCollector(BlockOp block) : block(block), expressor(block) {}

  /// Records an access of `buffer`; `lower`/`upper` are per-dimension bounds
  /// with std::nullopt for "unknown" (whole dimension).
  LogicalResult add(Value buffer, bool isWrite,
                    ArrayRef<std::optional<AffineExpr>> lower,
                    ArrayRef<std::optional<AffineExpr>> upper) {
    auto type = cast<MemRefType>(buffer.getType());
    MLIRContext *ctx = block.getContext();
    AccessBox region;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (lower[d] && upper[d]) {
        region.lower.push_back(*lower[d]);
        region.upper.push_back(*upper[d]);
        continue;
      }
      if (failed(wholeDim(buffer, d, region)))
        return failure();
    }
    (void)ctx;
    auto &map = isWrite ? writes : reads;
    auto [it, inserted] = map.insert({buffer, region});
    if (inserted)
      return success();
    // Bounding box with the previous accesses.
    AccessBox &prev = it->second;
    unsigned n = block.getNumIterVars();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      auto lo = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(region.lower[d] - prev.lower[d], n, 0));
      auto hi = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(region.upper[d] - prev.upper[d], n, 0));
      if (!lo || !hi) {
        if (failed(wholeDim(buffer, d, prev, /*replace=*/true)))
          return failure();
        continue;
      }
      if (lo.getValue() < 0)
        prev.lower[d] = region.lower[d];
      if (hi.getValue() > 0)
        prev.upper[d] = region.upper[d];
    }
    return success();
  }

  /// Records a load/store with the given indices.
  LogicalResult addPoint(Value buffer, bool isWrite, ValueRange indices) {
    SmallVector<std::optional<AffineExpr>> lower, upper;
    for (Value index : indices) {
      std::optional<AffineExpr> e = expressor.express(index);
      std::optional<AffineExpr> lo, hi;
      if (e) {
        lo = expressor.relax(*e, /*upper=*/false);
        hi = expressor.relax(*e, /*upper=*/true);
      }
      lower.push_back(lo);
      upper.push_back(hi ? std::optional<AffineExpr>(*hi + 1) : std::nullopt);
    }
    return add(buffer, isWrite, lower, upper);
  }

  /// Records the declared regions of a nested block, relaxed over its
  /// bindings.
  LogicalResult addNested(BlockOp inner, Value buffer, bool isWrite,
                          BufferRegionAttr region) {
    SmallVector<AffineExpr> bindings;
    bool known = true;
    for (Value binding : inner.getBindings()) {
      std::optional<AffineExpr> e = expressor.express(binding);
      if (!e) {
        known = false;
        break;
      }
      bindings.push_back(*e);
    }
    SmallVector<std::optional<AffineExpr>> lower, upper;
    AffineMap lowerMap = region.getLowerBounds().getValue();
    AffineMap upperMap = region.getUpperBounds().getValue();
    for (unsigned d = 0, e = lowerMap.getNumResults(); d < e; ++d) {
      std::optional<AffineExpr> lo, hi;
      if (known) {
        lo = expressor.relax(lowerMap.getResult(d).replaceDims(bindings),
                             /*upper=*/false);
        std::optional<AffineExpr> last = expressor.relax(
            upperMap.getResult(d).replaceDims(bindings) - 1, /*upper=*/true);
        if (last)
          hi = *last + 1;
      }
      lower.push_back(lo);
      upper.push_back(hi);
    }
    return add(buffer, isWrite, lower, upper);
  }

  /// Records an opaque use: the whole buffer, read and/or written.
  LogicalResult addWhole(Value buffer, bool read, bool write) {
    auto type = cast<MemRefType>(buffer.getType());
    SmallVector<std::optional<AffineExpr>> none(type.getRank(), std::nullopt);
    if (read && failed(add(buffer, /*isWrite=*/false, none, none)))
      return failure();
    if (write && failed(add(buffer, /*isWrite=*/true, none, none)))
      return failure();
    return success();
  }

  AccessRegions finish() {
    AccessRegions result;
    MLIRContext *ctx = block.getContext();
    unsigned n = block.getNumIterVars();
    bool hasInit = static_cast<bool>(block.getInitOp());
    auto toAttr = [&](const AccessBox &region) -> Attribute {
      return BufferRegionAttr::get(
          ctx, AffineMapAttr::get(AffineMap::get(n, 0, region.lower, ctx)),
          AffineMapAttr::get(AffineMap::get(n, 0, region.upper, ctx)));
    };
    for (auto &[buffer, region] : reads) {
      // TVM: the accumulator of a reduction is not listed as read.
      if (hasInit && writes.count(buffer))
        continue;
      result.readBuffers.push_back(buffer);
      result.reads.push_back(toAttr(region));
    }
    for (auto &[buffer, region] : writes) {
      result.writeBuffers.push_back(buffer);
      result.writes.push_back(toAttr(region));
    }
    return result;
  }

private:
  LogicalResult wholeDim(Value buffer, int64_t d, AccessBox &region,
                         bool replace = false) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.isDynamicDim(d)) {
      InFlightDiagnostic diag =
          block.emitOpError("cannot infer the access region of block '")
          << block.getName() << "': an access of dimension " << d
          << " of a buffer of type " << type
          << " is not affine in the iteration variables and the dimension "
             "has dynamic size";
      diag.attachNote(buffer.getLoc()) << "buffer defined here";
      return failure();
    }
    MLIRContext *ctx = block.getContext();
    AffineExpr lo = getAffineConstantExpr(0, ctx);
    AffineExpr hi = getAffineConstantExpr(type.getDimSize(d), ctx);
    if (replace) {
      region.lower[d] = lo;
      region.upper[d] = hi;
    } else {
      region.lower.push_back(lo);
      region.upper.push_back(hi);
    }
    return success();
  }

  BlockOp block;
  IndexExpressor expressor;
  llvm::MapVector<Value, AccessBox> reads, writes;
};
} // namespace

FailureOr<AccessRegions> mlc::tensorir::inferAccessRegions(BlockOp block) {
  RegionCollector collector(block);
  auto isLocal = [&](Value buffer) {
    Region *region = buffer.getParentRegion();
    return region && block.getBody().isAncestor(region);
  };
  WalkResult result = block.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) -> WalkResult {
        if (auto inner = dyn_cast<BlockOp>(op)) {
          AccessRegions nested;
          if (inner.getReads() && inner.getWrites()) {
            nested.readBuffers = llvm::to_vector(inner.getReadBuffers());
            nested.reads = llvm::to_vector(inner.getReadsAttr().getValue());
            nested.writeBuffers = llvm::to_vector(inner.getWriteBuffers());
            nested.writes = llvm::to_vector(inner.getWritesAttr().getValue());
          } else {
            FailureOr<AccessRegions> inferred = inferAccessRegions(inner);
            if (failed(inferred))
              return WalkResult::interrupt();
            nested = std::move(*inferred);
          }
          for (auto [buffer, region] :
               llvm::zip(nested.readBuffers, nested.reads))
            if (!isLocal(buffer) &&
                failed(collector.addNested(inner, buffer, /*isWrite=*/false,
                                           cast<BufferRegionAttr>(region))))
              return WalkResult::interrupt();
          for (auto [buffer, region] :
               llvm::zip(nested.writeBuffers, nested.writes))
            if (!isLocal(buffer) &&
                failed(collector.addNested(inner, buffer, /*isWrite=*/true,
                                           cast<BufferRegionAttr>(region))))
              return WalkResult::interrupt();
          // Bindings and extents are index values, not buffers.
          return WalkResult::skip();
        }
        if (auto load = dyn_cast<memref::LoadOp>(op)) {
          if (!isLocal(load.getMemRef()) &&
              failed(collector.addPoint(load.getMemRef(), /*isWrite=*/false,
                                        load.getIndices())))
            return WalkResult::interrupt();
          return WalkResult::advance();
        }
        if (auto store = dyn_cast<memref::StoreOp>(op)) {
          if (!isLocal(store.getMemRef()) &&
              failed(collector.addPoint(store.getMemRef(), /*isWrite=*/true,
                                        store.getIndices())))
            return WalkResult::interrupt();
          return WalkResult::advance();
        }
        if (isa<memref::DimOp>(op))
          return WalkResult::advance();
        auto effects = dyn_cast<MemoryEffectOpInterface>(op);
        for (Value operand : op->getOperands()) {
          if (!isa<MemRefType>(operand.getType()) || isLocal(operand))
            continue;
          // Whole buffer, read and/or written as the op's memory effects
          // say (both when it does not say).
          bool read = true, write = true;
          if (effects) {
            SmallVector<MemoryEffects::EffectInstance> instances;
            effects.getEffectsOnValue(operand, instances);
            read = llvm::any_of(instances, [](auto &e) {
              return isa<MemoryEffects::Read>(e.getEffect());
            });
            write = llvm::any_of(instances, [](auto &e) {
              return isa<MemoryEffects::Write>(e.getEffect());
            });
          }
          if (failed(collector.addWhole(operand, read, write)))
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();
  return collector.finish();
}

std::string mlc::tensorir::getBufferName(Value buffer) {
  if (auto alloc = buffer.getDefiningOp<AllocBufferOp>())
    if (auto name = alloc.getName())
      return name->str();
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    if (auto func = dyn_cast<PrimFuncOp>(arg.getOwner()->getParentOp()))
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "tensorir.name"))
        return name.str();
  return "buffer";
}

void mlc::tensorir::refreshAccessRegions(RewriterBase &rewriter, BlockOp block,
                                         bool force) {
  if (!force && !block.getReads() && !block.getWrites())
    return;
  FailureOr<AccessRegions> regions = inferAccessRegions(block);
  if (failed(regions))
    return;
  rewriter.modifyOpInPlace(block, [&] {
    block.setReadRegions(regions->readBuffers, regions->reads);
    block.setWriteRegions(regions->writeBuffers, regions->writes);
  });
}

BlockArgument mlc::tensorir::addSpatialIterVar(RewriterBase &rewriter,
                                               BlockOp block, Value binding,
                                               int64_t extent, StringRef name) {
  MLIRContext *ctx = block.getContext();
  rewriter.modifyOpInPlace(block, [&] {
    SmallVector<Attribute> types(block.getIterTypes().getValue());
    types.push_back(IterVarTypeAttr::get(ctx, IterVarType::spatial));
    block.setIterTypesAttr(ArrayAttr::get(ctx, types));
    SmallVector<int64_t> extents(block.getStaticExtents());
    extents.push_back(extent);
    block.setStaticExtents(extents);
    if (std::optional<ArrayAttr> names = block.getIterVarNames()) {
      SmallVector<Attribute> newNames(names->getValue());
      newNames.push_back(StringAttr::get(ctx, name));
      block.setIterVarNamesAttr(ArrayAttr::get(ctx, newNames));
    }
    block.getBindingsMutable().append(binding);
  });
  return block.getBodyBlock()->addArgument(IndexType::get(ctx),
                                           binding.getLoc());
}

//===----------------------------------------------------------------------===//
// matchReductionBlock
//===----------------------------------------------------------------------===//

/// Whether `value` is the identity of the combiner `op`.
bool mlc::tensorir::isIdentityOf(Operation *op, Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    const APFloat &v = f.getValue();
    if (isa<arith::AddFOp>(op))
      return v.isZero();
    if (isa<arith::MulFOp>(op))
      return v.isExactlyValue(1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
      return v.isInfinity() && v.isNegative();
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
      return v.isInfinity() && !v.isNegative();
    return false;
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    const APInt &v = i.getValue();
    if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp>(op))
      return v.isZero();
    if (isa<arith::MulIOp>(op))
      return v.isOne();
    if (isa<arith::AndIOp>(op))
      return v.isAllOnes();
    if (isa<arith::MaxSIOp>(op))
      return v.isMinSignedValue();
    if (isa<arith::MinSIOp>(op))
      return v.isMaxSignedValue();
    if (isa<arith::MaxUIOp>(op))
      return v.isZero();
    if (isa<arith::MinUIOp>(op))
      return v.isAllOnes();
  }
  return false;
}

std::optional<ReductionBlock>
mlc::tensorir::matchReductionBlock(BlockOp block, std::string *why) {
  std::string name = ("block '" + block.getName() + "'").str();
  auto fail = [&](const Twine &reason) -> std::optional<ReductionBlock> {
    if (why)
      *why = reason.str();
    return std::nullopt;
  };
  InitOp init = block.getInitOp();
  if (!init)
    return fail(name + " has no tensorir.init");
  memref::StoreOp initStore;
  Attribute identity;
  for (Operation &op : init.getBody().front().without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (initStore || !matchPattern(store.getValue(), m_Constant(&identity)))
        return fail(Twine() + "the init of " + name +
                    " is not one store of a constant");
      initStore = store;
    } else if (!isMemoryEffectFree(&op)) {
      return fail(Twine() + "the init of " + name +
                  " has side effects besides its store");
    }
  }
  memref::StoreOp store;
  for (Operation &op : block.getBodyBlock()->without_terminator())
    if (auto s = dyn_cast<memref::StoreOp>(op)) {
      if (store)
        return fail(Twine() + name + " stores more than once");
      store = s;
    }
  if (!store || store != &*std::prev(block.getBodyBlock()->end(), 2))
    return fail(Twine() + "the last op of " + name + " must be its only store");
  Value buffer = store.getMemRef();
  if (!initStore || initStore.getMemRef() != buffer ||
      initStore.getIndices() != store.getIndices())
    return fail(Twine() + "the init of " + name +
                " does not initialise what it stores");
  SmallVector<unsigned> storeVars;
  for (Value index : store.getIndices()) {
    auto arg = dyn_cast<BlockArgument>(index);
    if (!arg || arg.getOwner() != block.getBodyBlock() ||
        block.isReduceIterVar(arg.getArgNumber()) ||
        llvm::is_contained(storeVars, arg.getArgNumber()))
      return fail(Twine() + "the store of " + name +
                  " is not at distinct spatial iteration variables");
    storeVars.push_back(arg.getArgNumber());
  }
  Operation *combiner = store.getValue().getDefiningOp();
  if (!combiner || combiner->getNumOperands() != 2 ||
      combiner->getBlock() != block.getBodyBlock() ||
      !isIdentityOf(combiner, identity))
    return fail(Twine() + "the stored value of " + name +
                " is not a combiner (add, mul, max, min, ...) "
                "whose identity the init stores");
  memref::LoadOp accLoad;
  int accOperand = -1;
  for (int k = 0; k < 2; ++k)
    if (auto load = combiner->getOperand(k).getDefiningOp<memref::LoadOp>();
        load && load.getMemRef() == buffer &&
        load.getIndices() == store.getIndices()) {
      accLoad = load;
      accOperand = k;
    }
  if (!accLoad)
    return fail(Twine() + "the combiner of " + name +
                " does not read the accumulator");
  for (Operation *user : buffer.getUsers())
    if (block->isAncestor(user) && user != accLoad.getOperation() &&
        user != store.getOperation() && user != initStore &&
        user != block.getOperation())
      return fail(Twine() + name + " uses the accumulator elsewhere");
  ReductionBlock result;
  result.initStore = initStore;
  result.identity = identity;
  result.store = store;
  result.accLoad = accLoad;
  result.combiner = combiner;
  result.accOperand = accOperand;
  result.storeIterVars = std::move(storeVars);
  return result;
}

//===----------------------------------------------------------------------===//
// inlineBlock
//===----------------------------------------------------------------------===//

void mlc::tensorir::inlineBlock(RewriterBase &rewriter, BlockOp block,
                                Value zero) {
  Location loc = block.getLoc();
  if (InitOp init = block.getInitOp()) {
    // The condition is on the iteration variables, which become the
    // bindings below.
    rewriter.setInsertionPoint(init);
    Value cond;
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
      if (!block.isReduceIterVar(i))
        continue;
      if (!zero)
        zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value first = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, block.getIterVar(i), zero);
      cond = cond
                 ? arith::AndIOp::create(rewriter, loc, cond, first).getResult()
                 : first;
    }
    Block *initBody = &init.getBody().front();
    rewriter.eraseOp(initBody->getTerminator());
    if (!cond) {
      // No reduce variable (the verifier rejects this): run it always.
      rewriter.inlineBlockBefore(initBody, init);
    } else {
      auto ifOp = scf::IfOp::create(rewriter, loc, cond, /*withElse=*/false);
      rewriter.inlineBlockBefore(initBody, ifOp.thenBlock()->getTerminator());
    }
    rewriter.eraseOp(init);
  }
  SmallVector<Value> bindings(block.getBindings());
  Block *body = block.getBodyBlock();
  rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPoint(block);
  if (Value predicate = block.getPredicate()) {
    auto ifOp = scf::IfOp::create(rewriter, loc, predicate, /*withElse=*/false);
    rewriter.inlineBlockBefore(body, ifOp.thenBlock()->getTerminator(),
                               bindings);
  } else {
    rewriter.inlineBlockBefore(body, block, bindings);
  }
  rewriter.eraseOp(block);
}

//===----------------------------------------------------------------------===//
// dependsOn
//===----------------------------------------------------------------------===//

Value mlc::tensorir::cloneValue(Value value, IRMapping &map, OpBuilder &b,
                                Operation *scope) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def || !scope->isProperAncestor(def))
    return value;
  for (Value operand : def->getOperands())
    cloneValue(operand, map, b, scope);
  b.clone(*def, map);
  return map.lookup(value);
}

int mlc::tensorir::getHardwareIndex(StringRef tag) {
  return llvm::StringSwitch<int>(tag)
      .Case("blockIdx.x", 0)
      .Case("blockIdx.y", 1)
      .Case("blockIdx.z", 2)
      .Case("threadIdx.x", 3)
      .Case("threadIdx.y", 4)
      .Case("threadIdx.z", 5)
      .Default(-1);
}

bool mlc::tensorir::dependsOn(Value value, ArrayRef<Value> ivs) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<void *, 16> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (llvm::is_contained(ivs, v))
      return true;
    if (!visited.insert(v.getAsOpaquePointer()).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    llvm::append_range(worklist, def->getOperands());
    // An op with regions may use the values inside.
    if (def->getNumRegions() != 0) {
      bool found = false;
      def->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (llvm::is_contained(ivs, operand))
            found = true;
      });
      if (found)
        return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// hasReshapePattern
//===----------------------------------------------------------------------===//

/// `value`, an index computed in `block` from its iteration variables (dims
/// 0..N-1) by add, sub, mul, and div or rem by positive constants (the
/// values are non-negative, so unsigned and floor division agree), as an
/// affine expression.
static std::optional<AffineExpr> expressIndex(BlockOp block, Value value,
                                              unsigned depth = 0) {
  MLIRContext *ctx = block.getContext();
  if (depth > 64)
    return std::nullopt;
  if (std::optional<int64_t> cst = getConstantIntValue(value))
    return getAffineConstantExpr(*cst, ctx);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != block.getBodyBlock())
      return std::nullopt;
    return getAffineDimExpr(arg.getArgNumber(), ctx);
  }
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumOperands() != 2 ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
           arith::FloorDivSIOp, arith::RemUIOp>(def))
    return std::nullopt;
  std::optional<AffineExpr> lhs =
      expressIndex(block, def->getOperand(0), depth + 1);
  std::optional<AffineExpr> rhs =
      expressIndex(block, def->getOperand(1), depth + 1);
  if (!lhs || !rhs)
    return std::nullopt;
  return mlc::tensorir::combineIndexOp(def, *lhs, *rhs);
}

std::optional<AffineExpr> mlc::tensorir::expressAffineApply(
    Operation *op, function_ref<std::optional<AffineExpr>(Value)> express) {
  auto apply = cast<affine::AffineApplyOp>(op);
  AffineMap map = apply.getAffineMap();
  SmallVector<AffineExpr> operands;
  for (Value operand : apply.getMapOperands()) {
    std::optional<AffineExpr> e = express(operand);
    if (!e)
      return std::nullopt;
    operands.push_back(*e);
  }
  ArrayRef<AffineExpr> all(operands);
  return map.getResult(0).replaceDimsAndSymbols(
      all.take_front(map.getNumDims()), all.drop_front(map.getNumDims()));
}

std::optional<AffineExpr>
mlc::tensorir::combineIndexOp(Operation *op, AffineExpr lhs, AffineExpr rhs) {
  if (isa<arith::AddIOp>(op))
    return lhs + rhs;
  if (isa<arith::SubIOp>(op))
    return lhs - rhs;
  if (isa<arith::MulIOp>(op)) {
    if (!isa<AffineConstantExpr>(lhs) && !isa<AffineConstantExpr>(rhs))
      return std::nullopt;
    return lhs * rhs;
  }
  if (!isa<arith::DivUIOp, arith::FloorDivSIOp, arith::RemUIOp>(op))
    return std::nullopt;
  auto divisor = dyn_cast<AffineConstantExpr>(rhs);
  if (!divisor || divisor.getValue() <= 0)
    return std::nullopt;
  if (isa<arith::RemUIOp>(op))
    return lhs % divisor.getValue();
  return lhs.floorDiv(divisor.getValue());
}

/// The row-major offset of `indices` in a buffer of static `shape`.
static AffineExpr getRowMajorOffset(ArrayRef<AffineExpr> indices,
                                    ArrayRef<int64_t> shape, MLIRContext *ctx) {
  AffineExpr offset = getAffineConstantExpr(0, ctx);
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    offset = offset + indices[d] * stride;
    stride *= shape[d];
  }
  return offset;
}

bool mlc::tensorir::hasReshapePattern(PrimFuncOp func) {
  if (func.getNumArguments() != 2)
    return false;
  auto input = dyn_cast<MemRefType>(func.getArgument(0).getType());
  auto output = dyn_cast<MemRefType>(func.getArgument(1).getType());
  if (!input || !output || !input.hasStaticShape() ||
      !output.hasStaticShape() || !input.getLayout().isIdentity() ||
      !output.getLayout().isIdentity() ||
      input.getElementType() != output.getElementType() ||
      input.getNumElements() != output.getNumElements() ||
      input.getRank() == 0 || output.getRank() == 0)
    return false;
  SmallVector<BlockOp> blocks;
  bool other = false;
  func.walk([&](Operation *op) {
    if (auto block = dyn_cast<BlockOp>(op))
      blocks.push_back(block);
    else if (!isa<ForOp, PrimFuncOp, arith::ConstantOp>(op) &&
             !op->hasTrait<OpTrait::IsTerminator>() &&
             !op->getParentOfType<BlockOp>())
      other = true;
  });
  if (other || blocks.size() != 1)
    return false;
  BlockOp block = blocks.front();
  unsigned n = block.getNumIterVars();
  if (n != output.getRank() || block.getPredicate() || block.getInitOp())
    return false;
  // The block's domain is the output's shape, each iteration variable bound
  // to its own loop over exactly that extent: the nest covers the output.
  llvm::SmallPtrSet<Operation *, 8> loops;
  for (unsigned i = 0; i < n; ++i) {
    std::optional<int64_t> extent = block.getConstantExtent(i);
    if (block.isReduceIterVar(i) || extent != output.getDimSize(i))
      return false;
    auto iv = dyn_cast<BlockArgument>(block.getBindings()[i]);
    auto loop = iv ? dyn_cast<ForOp>(iv.getOwner()->getParentOp()) : nullptr;
    if (!loop || !loops.insert(loop).second ||
        loop.getConstantLowerBound() != 0 ||
        loop.getConstantUpperBound() != extent || loop.getConstantStep() != 1)
      return false;
  }
  // The body: index arithmetic, one load of the input, one store of it to
  // the output at the iteration variables in order.
  memref::LoadOp load;
  memref::StoreOp store;
  for (Operation &op : block.getBodyBlock()->without_terminator()) {
    if (auto l = dyn_cast<memref::LoadOp>(op)) {
      if (load || l.getMemRef() != func.getArgument(0))
        return false;
      load = l;
    } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
      if (store || s.getMemRef() != func.getArgument(1))
        return false;
      store = s;
    } else if (op.getNumRegions() != 0 || !isPure(&op) ||
               !llvm::all_of(op.getResultTypes(),
                             [](Type t) { return t.isIndex(); })) {
      return false;
    }
  }
  if (!load || !store || store.getValue() != load.getResult())
    return false;
  for (unsigned i = 0; i < n; ++i)
    if (store.getIndices()[i] != block.getIterVar(i))
      return false;
  MLIRContext *ctx = func.getContext();
  SmallVector<AffineExpr> inputIndices, outputIndices;
  for (Value index : load.getIndices()) {
    std::optional<AffineExpr> e = expressIndex(block, index);
    if (!e)
      return false;
    inputIndices.push_back(*e);
  }
  for (unsigned i = 0; i < n; ++i)
    outputIndices.push_back(getAffineDimExpr(i, ctx));
  // Flattening gives floor divisions local variables, in which the mixed
  // radix arithmetic of a reshape cancels exactly. Variables of extent 1
  // are 0.
  SmallVector<AffineExpr> values;
  for (unsigned i = 0; i < n; ++i)
    values.push_back(output.getDimSize(i) == 1 ? getAffineConstantExpr(0, ctx)
                                               : getAffineDimExpr(i, ctx));
  AffineExpr difference =
      (getRowMajorOffset(inputIndices, input.getShape(), ctx) -
       getRowMajorOffset(outputIndices, output.getShape(), ctx))
          .replaceDims(values);
  AffineExpr simplified = simplifyAffineExpr(difference, n, 0);
  auto zero = dyn_cast<AffineConstantExpr>(simplified);
  return zero && zero.getValue() == 0;
}
