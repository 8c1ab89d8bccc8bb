//===- ScheduleLayout.cpp - transform_block_layout and reindex --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's sch.transform_block_layout and sch.reindex. Together they bring a
// block whose buffers are indexed by combinations of its iteration variables
// (a convolution: x[n, c, y + ry, x + rx]) into the einsum form of a GEMM
// (dlight's normalize_to_matmul): transform_block_layout fuses iteration
// variables into the GEMM's i, j and k, and reindex gives the block buffers
// indexed by exactly those variables (an im2col matrix for the input),
// copied by blocks of their own that later schedules inline.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlc::tensorir;
using namespace mlc::tensorir::schedutil;

//===----------------------------------------------------------------------===//
// Fusions of iteration variables (ScheduleUtils.h)
//===----------------------------------------------------------------------===//

static std::string print(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << expr;
  return text;
}

/// The coefficient of each dimension in `expr`, a sum of dimensions times
/// constants (no constant term); false for anything else.
static bool getLinearCoefficients(AffineExpr expr,
                                  SmallVectorImpl<int64_t> &coefficients) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    coefficients[dim.getPosition()] += 1;
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (expr.getKind() == AffineExprKind::Add)
    return getLinearCoefficients(bin.getLHS(), coefficients) &&
           getLinearCoefficients(bin.getRHS(), coefficients);
  if (expr.getKind() != AffineExprKind::Mul)
    return false;
  auto scale = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!scale)
    return false;
  SmallVector<int64_t> inner(coefficients.size(), 0);
  if (!getLinearCoefficients(bin.getLHS(), inner))
    return false;
  for (auto [c, i] : llvm::zip(coefficients, inner))
    c += i * scale.getValue();
  return true;
}

FailureOr<SmallVector<SmallVector<FusedDim>>>
schedutil::matchFusion(AffineMap map, ArrayRef<int64_t> extents,
                       function_ref<InFlightDiagnostic()> error) {
  if (map.getNumDims() != extents.size() || map.getNumSymbols() != 0)
    return error() << "the index map has " << map.getNumDims()
                   << " dimensions and " << map.getNumSymbols()
                   << " symbols, expected " << extents.size()
                   << " dimensions (one per iteration variable) and no symbol";
  SmallVector<SmallVector<FusedDim>> fusions;
  llvm::SmallBitVector used(extents.size());
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    SmallVector<int64_t> coefficients(extents.size(), 0);
    if (!getLinearCoefficients(expr, coefficients))
      return error() << "result " << r << " (" << print(expr)
                     << ") is not a sum of dimensions times constants";
    SmallVector<FusedDim> fused;
    for (auto [d, c] : llvm::enumerate(coefficients)) {
      if (c == 0)
        continue;
      if (used.test(d))
        return error() << "dimension d" << d
                       << " is used by more than one result";
      used.set(d);
      fused.push_back({static_cast<unsigned>(d), c});
    }
    if (fused.empty())
      return error() << "result " << r << " (" << print(expr)
                     << ") uses no dimension";
    // Row-major: the innermost stride 1, each stride the next one times
    // the next extent.
    llvm::stable_sort(fused, [](const FusedDim &a, const FusedDim &b) {
      return a.stride > b.stride;
    });
    int64_t stride = 1;
    for (const FusedDim &f : llvm::reverse(fused)) {
      if (f.stride != stride)
        return error() << "result " << r << " (" << print(expr)
                       << ") is not a row-major fusion of its dimensions "
                          "(d"
                       << f.dim << " has stride " << f.stride << ", expected "
                       << stride << ")";
      stride *= extents[f.dim];
    }
    fusions.push_back(std::move(fused));
  }
  if (!used.all())
    return error() << "dimension d" << used.find_first_unset()
                   << " is used by no result";
  return fusions;
}

AffineExpr schedutil::getUnfusedExpr(AffineExpr fused, ArrayRef<FusedDim> dims,
                                     unsigned position,
                                     ArrayRef<int64_t> extents) {
  if (dims.size() == 1)
    return fused;
  AffineExpr digit = fused.floorDiv(dims[position].stride);
  if (position == 0)
    return digit;
  return digit % extents[dims[position].dim];
}

/// `expr` as one digit of a dimension in a mixed radix: d, d mod b,
/// d floordiv a or (d floordiv a) mod b.
static std::optional<std::tuple<unsigned, int64_t, std::optional<int64_t>>>
matchDigit(AffineExpr expr) {
  // `lhs <kind> c` with a positive constant c: c, and expr becomes lhs.
  auto peel = [&](AffineExprKind kind) -> std::optional<int64_t> {
    if (expr.getKind() != kind)
      return std::nullopt;
    auto bin = cast<AffineBinaryOpExpr>(expr);
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!c || c.getValue() < 1)
      return std::nullopt;
    expr = bin.getLHS();
    return c.getValue();
  };
  std::optional<int64_t> radix = peel(AffineExprKind::Mod);
  int64_t divisor = peel(AffineExprKind::FloorDiv).value_or(1);
  auto dim = dyn_cast<AffineDimExpr>(expr);
  if (!dim)
    return std::nullopt;
  return std::make_tuple(dim.getPosition(), divisor, radix);
}

bool schedutil::isDigitDecomposition(ArrayRef<AffineExpr> indices,
                                     ArrayRef<int64_t> extents,
                                     ArrayRef<int64_t> shape) {
  // Per dimension: (divisor, radix) of each index that is one of its digits.
  SmallVector<SmallVector<std::pair<int64_t, int64_t>>> digits(extents.size());
  for (auto [d, expr] : llvm::enumerate(indices)) {
    auto digit = matchDigit(expr);
    if (!digit || ShapedType::isDynamic(shape[d]))
      return false;
    auto [dim, divisor, radix] = *digit;
    int64_t extent = extents[dim];
    int64_t size = radix ? *radix : llvm::divideCeil(extent, divisor);
    if (size != shape[d])
      return false;
    digits[dim].push_back({divisor, size});
  }
  for (auto [dim, list] : llvm::enumerate(digits)) {
    if (list.empty()) {
      if (extents[dim] != 1)
        return false; // Several iterations would store the same element.
      continue;
    }
    llvm::sort(list);
    int64_t covered = 1;
    for (auto [divisor, size] : list) {
      if (divisor != covered)
        return false;
      covered *= size;
    }
    if (covered != extents[dim])
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// transform_block_layout
//===----------------------------------------------------------------------===//

LogicalResult Schedule::transformBlockLayoutImpl(BlockOp block,
                                                 AffineMap indexMap) {
  auto error = [&]() {
    return block.emitError("cannot transform_block_layout ")
           << describe(block) << ": ";
  };
  if (failed(checkAloneInNest(block, error, /*allowInit=*/true)))
    return failure();
  Operation *top = getTopInScope(block);
  if (failed(checkCoversDomain(block, top, error)))
    return failure();
  unsigned numIterVars = block.getNumIterVars();
  if (numIterVars == 0)
    return error() << "it has no iteration variables";
  if (Schedule::getLoops(block).size() != numIterVars)
    return error() << "its loop nest has other loops than one per iteration "
                      "variable";
  SmallVector<int64_t> extents;
  for (unsigned v = 0; v < numIterVars; ++v) {
    std::optional<int64_t> extent = block.getConstantExtent(v);
    if (!extent)
      return error() << "iteration variable " << block.getIterVarDisplayName(v)
                     << " does not have a constant extent";
    extents.push_back(*extent);
  }
  FailureOr<SmallVector<SmallVector<FusedDim>>> fusions =
      matchFusion(indexMap, extents, error);
  if (failed(fusions))
    return failure();
  // The new variables and loops are named after the ones they fuse
  // ("vn_vy_vx" in loop "n_y_x").
  auto iterVarName = [&](unsigned v) -> std::string {
    if (auto names = block.getIterVarNames(); names && v < names->size())
      return cast<StringAttr>((*names)[v]).getValue().str();
    return "v" + std::to_string(v);
  };
  auto loopName = [&](unsigned v) -> std::string {
    auto loop = cast<ForOp>(
        cast<BlockArgument>(block.getBindings()[v]).getOwner()->getParentOp());
    return loop.getIvName().value_or("l" + std::to_string(v)).str();
  };
  SmallVector<IterVarType> types;
  SmallVector<int64_t> newExtents;
  SmallVector<std::string> names, loopNames;
  for (auto [r, fused] : llvm::enumerate(*fusions)) {
    IterVarType type = block.getIterVarType(fused.front().dim);
    int64_t extent = 1;
    SmallVector<std::string> parts, loopParts;
    for (const FusedDim &f : fused) {
      if (block.getIterVarType(f.dim) != type)
        return error() << "result " << r
                       << " fuses spatial and reduce iteration variables";
      if (llvm::MulOverflow(extent, extents[f.dim], extent))
        return error() << "the extent of result " << r
                       << " overflows a 64-bit integer";
      parts.push_back(iterVarName(f.dim));
      loopParts.push_back(loopName(f.dim));
    }
    types.push_back(type);
    newExtents.push_back(extent);
    names.push_back(llvm::join(parts, "_"));
    loopNames.push_back(llvm::join(loopParts, "_"));
  }

  // The new nest: a loop per result, the block's iteration variables bound
  // to them; the old variables are computed from the new ones in the body
  // (and in its init, which must stay the first op).
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(top);
  SmallVector<Value> bindings;
  for (auto [extent, name] : llvm::zip(newExtents, loopNames)) {
    auto loop = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                              rewriter.getIndexAttr(extent));
    loop.setIvNameAttr(rewriter.getStringAttr(name));
    rewriter.setInsertionPoint(loop.getBodyBlock()->getTerminator());
    bindings.push_back(loop.getInductionVar());
  }
  // The block moves into the new nest and keeps its identity (handles to
  // it stay valid, as TVM's block random variables do).
  InitOp init = block.getInitOp();
  rewriter.moveOpBefore(block, rewriter.getInsertionBlock()->getTerminator());
  Block *body = block.getBodyBlock();
  unsigned numNew = fusions->size();
  SmallVector<Value> newVars;
  for (unsigned r = 0; r < numNew; ++r)
    newVars.push_back(body->addArgument(rewriter.getIndexType(), loc));
  // The old variables from the new ones, at the start of the body (after
  // the init) and of the init; unused ones are not built.
  auto unfuse = [&](Block *at, Operation *before, bool inInitScope) {
    OpBuilder::InsertionGuard g(rewriter);
    if (before)
      rewriter.setInsertionPoint(before);
    else
      rewriter.setInsertionPointToStart(at);
    for (auto [r, fused] : llvm::enumerate(*fusions))
      for (unsigned p = 0; p < fused.size(); ++p) {
        Value old = body->getArgument(fused[p].dim);
        auto inScope = [&](OpOperand &use) {
          bool inInit = init && init->isAncestor(use.getOwner());
          return inInit == inInitScope;
        };
        if (llvm::none_of(old.getUses(),
                          [&](OpOperand &use) { return inScope(use); }))
          continue;
        Value value = newVars[r];
        if (fused.size() != 1) {
          AffineExpr expr =
              getUnfusedExpr(rewriter.getAffineDimExpr(0), fused, p, extents);
          value = affine::AffineApplyOp::create(
              rewriter, loc, AffineMap::get(1, 0, expr), ValueRange{value});
        }
        rewriter.replaceUsesWithIf(old, value, inScope);
      }
  };
  if (init)
    unfuse(&init.getBody().front(), nullptr, /*inInitScope=*/true);
  unfuse(body, init ? init->getNextNode() : nullptr, /*inInitScope=*/false);
  body->eraseArguments(0, numIterVars);
  rewriter.modifyOpInPlace(block, [&] {
    block.setIterTypesAttr(rewriter.getArrayAttr(
        llvm::map_to_vector(types, [&](IterVarType t) -> Attribute {
          return IterVarTypeAttr::get(rewriter.getContext(), t);
        })));
    block.setStaticExtents(newExtents);
    block.getDynamicExtentsMutable().clear();
    block.getBindingsMutable().assign(bindings);
    block.setIterVarNamesAttr(rewriter.getStrArrayAttr(
        SmallVector<StringRef>(names.begin(), names.end())));
  });
  refreshAccessRegions(rewriter, block);
  rewriter.eraseOp(top);
  return success();
}

//===----------------------------------------------------------------------===//
// reindex
//===----------------------------------------------------------------------===//

FailureOr<BlockOp> Schedule::reindexImpl(BlockOp block, unsigned bufferIndex,
                                         bool write) {
  StringRef kind = write ? "write" : "read";
  auto error = [&]() {
    return block.emitError("cannot reindex ")
           << describe(block) << " " << kind << " buffer #" << bufferIndex
           << ": ";
  };
  if (failed(checkAloneInNest(block, error, /*allowInit=*/true)))
    return failure();
  Operation *top = getTopInScope(block);
  if (failed(checkCoversDomain(block, top, error)))
    return failure();
  InitOp init = block.getInitOp();
  FailureOr<AccessRegions> regions = getAccessRegions(block);
  if (failed(regions))
    return failure();
  ArrayRef<Value> buffers =
      write ? regions->writeBuffers : regions->readBuffers;
  if (bufferIndex >= buffers.size())
    return error() << "the block has " << buffers.size() << " " << kind
                   << " buffers";
  Value buffer = buffers[bufferIndex];
  if (!write && llvm::is_contained(regions->writeBuffers, buffer))
    return error() << "the block also writes buffer '" << getBufferName(buffer)
                   << "'";
  auto type = cast<MemRefType>(buffer.getType());

  // Every access indexes the buffer at the same affine function of the
  // iteration variables.
  SmallVector<Value> iterVars(block.getBodyBlock()->getArguments());
  SmallVector<Operation *> accesses;
  SmallVector<AffineExpr> indices;
  // In program order, so that a diagnostic names the later access.
  SmallVector<Operation *> users;
  block.getBody().walk([&](Operation *op) {
    if (llvm::is_contained(op->getOperands(), buffer))
      users.push_back(op);
  });
  for (Operation *user : users) {
    ValueRange operands;
    if (auto load = dyn_cast<memref::LoadOp>(user))
      operands = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(user);
             store && store.getMemRef() == buffer)
      operands = store.getIndices();
    else {
      InFlightDiagnostic diag = error()
                                << "buffer '" << getBufferName(buffer)
                                << "' is used by '" << user->getName() << "'";
      diag.attachNote(user->getLoc()) << "use is here";
      return diag;
    }
    SmallVector<AffineExpr> exprs;
    for (auto [d, index] : llvm::enumerate(operands)) {
      std::optional<AffineExpr> expr =
          toAffine(index, iterVars, rewriter.getContext());
      if (!expr) {
        InFlightDiagnostic diag =
            error() << "dimension " << d << " of buffer '"
                    << getBufferName(buffer)
                    << "' is not an affine function of the iteration "
                       "variables";
        diag.attachNote(user->getLoc()) << "access is here";
        return diag;
      }
      exprs.push_back(*expr);
    }
    if (!accesses.empty() && exprs != indices) {
      InFlightDiagnostic diag = error() << "buffer '" << getBufferName(buffer)
                                        << "' is accessed at two different "
                                           "indices";
      diag.attachNote(user->getLoc()) << "access is here";
      return diag;
    }
    indices = exprs;
    accesses.push_back(user);
  }
  if (accesses.empty())
    return error() << "its body does not access buffer '"
                   << getBufferName(buffer) << "'";

  // The reindexed buffer: one dimension per iteration variable the indices
  // use, in the block's order.
  SmallVector<unsigned> usedVars;
  SmallVector<int64_t> shape;
  for (unsigned v = 0, e = block.getNumIterVars(); v < e; ++v) {
    if (!llvm::any_of(indices,
                      [&](AffineExpr expr) { return expr.isFunctionOfDim(v); }))
      continue;
    std::optional<int64_t> extent = block.getConstantExtent(v);
    if (!extent)
      return error() << "iteration variable " << block.getIterVarDisplayName(v)
                     << " does not have a constant extent";
    usedVars.push_back(v);
    shape.push_back(*extent);
  }
  // The indices over the reindexed buffer's dimensions.
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineExpr> remap(block.getNumIterVars(),
                                getAffineConstantExpr(0, ctx));
  for (auto [p, v] : llvm::enumerate(usedVars))
    remap[v] = getAffineDimExpr(p, ctx);
  SmallVector<AffineMap> indexMaps;
  for (AffineExpr expr : indices)
    indexMaps.push_back(
        AffineMap::get(usedVars.size(), 0, expr.replaceDims(remap)));

  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  std::string name = getBufferName(buffer) + "_reindex";
  rewriter.setInsertionPoint(top);
  Value reindexed = AllocBufferOp::create(
      rewriter, loc, MemRefType::get(shape, type.getElementType()), {}, name);
  auto originalIndices = [&](OpBuilder &b, Location loc, ValueRange ivs) {
    return llvm::map_to_vector(indexMaps, [&](AffineMap map) -> Value {
      if (auto dim = dyn_cast<AffineDimExpr>(map.getResult(0)))
        return ivs[dim.getPosition()];
      return affine::AffineApplyOp::create(b, loc, map, ivs);
    });
  };
  if (write)
    rewriter.setInsertionPointAfter(top);
  BlockOp copy = createSpatialNest(
      rewriter, loc, getUniqueBlockName(block, name), shape,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> at = originalIndices(b, loc, ivs);
        if (write) {
          Value v = memref::LoadOp::create(b, loc, reindexed, ivs);
          memref::StoreOp::create(b, loc, v, buffer, at);
        } else {
          Value v = memref::LoadOp::create(b, loc, buffer, at);
          memref::StoreOp::create(b, loc, v, reindexed, ivs);
        }
      });

  // The block accesses the reindexed buffer at its iteration variables.
  SmallVector<Value> at = llvm::map_to_vector(
      usedVars, [&](unsigned v) { return block.getIterVar(v); });
  for (Operation *access : accesses) {
    rewriter.setInsertionPoint(access);
    if (auto load = dyn_cast<memref::LoadOp>(access))
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, reindexed, at);
    else {
      auto store = cast<memref::StoreOp>(access);
      rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(),
                                                   reindexed, at);
    }
  }
  // The index computations of the old accesses.
  // (The body's and the init's own ops: erasing a dead op with regions
  // would free ops nested in it that a deeper walk still holds.)
  SmallVector<Operation *> ops;
  for (Block *b :
       {block.getBodyBlock(), init ? &init.getBody().front() : nullptr})
    if (b)
      for (Operation &op : b->without_terminator())
        ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  refreshAccessRegions(rewriter, block);
  return copy;
}
