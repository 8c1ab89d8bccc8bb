//===- RelaxOps.cpp - relax dialect operations ------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Utils/NNShapeFunctions.h"
#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cmath>

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `tir_vars [n, n * 2]` (optional).
static ParseResult parseTirVars(OpAsmParser &parser, ShapeAttr &tirVars) {
  if (failed(parser.parseOptionalKeyword("tir_vars")))
    return success();
  SymbolScope scope(parser.getContext());
  SmallVector<AffineExpr> dims;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        return parseSymDim(parser, scope, dims.emplace_back());
      }))
    return failure();
  tirVars = ShapeAttr::get(parser.getContext(), scope.getNames(), dims);
  return success();
}

static void printTirVars(OpAsmPrinter &printer, Operation *,
                         ShapeAttr tirVars) {
  if (!tirVars)
    return;
  // The format glues this directive to the `)` (no space when absent).
  printer << " tir_vars [";
  llvm::interleaveComma(tirVars.getDims(), printer, [&](AffineExpr dim) {
    printSymDim(printer.getStream(), dim, tirVars.getNames());
  });
  printer << "]";
}

// Shared by the op classes of RelaxOps.td (used in extraClassDefinition).
static LogicalResult inferBroadcastBinary(
    MLIRContext *context, std::optional<Location> location, Type lhs, Type rhs,
    SmallVectorImpl<Type> &inferredReturnTypes, bool boolResult = false);
static LogicalResult inferSameType(std::optional<Location> location, Type data,
                                   std::optional<int64_t> axis,
                                   SmallVectorImpl<Type> &inferredReturnTypes);
static LogicalResult inferReduce(MLIRContext *context,
                                 std::optional<Location> location, Type data,
                                 DenseI64ArrayAttr axis, bool keepdims,
                                 SmallVectorImpl<Type> &inferredReturnTypes,
                                 Type elementType = {});
static LogicalResult inferPool2D(std::optional<Location> location, Type data,
                                 const nn::Pool2DAttrs &attrs,
                                 SmallVectorImpl<Type> &inferredReturnTypes);
static LogicalResult
inferChannelNorm(std::optional<Location> location, Type data, Type gamma,
                 Type beta, int64_t channelAxis, double epsilon,
                 std::optional<int64_t> numGroups,
                 SmallVectorImpl<Type> &inferredReturnTypes);

#define GET_OP_CLASSES
#include "mlc/Dialect/Relax/IR/RelaxOps.cpp.inc"

//===----------------------------------------------------------------------===//
// DataflowOp / OutputOp
//===----------------------------------------------------------------------===//

void DataflowOp::build(OpBuilder &builder, OperationState &state,
                       TypeRange resultTypes) {
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  body->push_back(new Block);
  if (resultTypes.empty())
    ensureTerminator(*body, builder, state.location);
}

OutputOp DataflowOp::getOutput() {
  return cast<OutputOp>(getBody().front().getTerminator());
}

LogicalResult DataflowOp::verify() {
  if ((*this)->getParentOfType<DataflowOp>())
    return emitOpError("cannot be nested in another relax.dataflow");
  OutputOp output = getOutput();
  if (output.getValues().size() != getNumResults())
    return emitOpError("has ")
           << getNumResults() << " results but its relax.output yields "
           << output.getValues().size() << " values";
  for (auto [i, value, result] :
       llvm::enumerate(output.getValues(), getResults())) {
    if (value.getType() != result.getType())
      return emitOpError("result #")
             << i << " has type " << result.getType()
             << " but relax.output yields " << value.getType();
  }
  return success();
}

namespace {
/// Drops results of a dataflow block that have no uses, together with their
/// `relax.output` operands (the ops computing them may then be dead).
struct RemoveUnusedDataflowResults : OpRewritePattern<DataflowOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DataflowOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<unsigned> used;
    for (OpResult result : op->getResults())
      if (!result.use_empty())
        used.push_back(result.getResultNumber());
    if (used.size() == op.getNumResults())
      return failure();
    OutputOp output = op.getOutput();
    SmallVector<Value> values;
    SmallVector<Type> types;
    for (unsigned i : used) {
      values.push_back(output.getValues()[i]);
      types.push_back(op.getResult(i).getType());
    }
    OperationState state(op.getLoc(), op->getName());
    state.addTypes(types);
    state.addAttributes(op->getAttrs());
    state.addRegion();
    Operation *newOp = rewriter.create(state);
    rewriter.inlineRegionBefore(op.getBody(), newOp->getRegion(0),
                                newOp->getRegion(0).end());
    rewriter.modifyOpInPlace(output,
                             [&] { output.getValuesMutable().assign(values); });
    for (auto [j, i] : llvm::enumerate(used))
      rewriter.replaceAllUsesWith(op.getResult(i), newOp->getResult(j));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void DataflowOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<RemoveUnusedDataflowResults>(context);
}

LogicalResult DataflowOp::verifyRegions() {
  for (Operation &op : getBody().front()) {
    if (isa<OutputOp>(op) || isMemoryEffectFree(&op))
      continue;
    // A call of a fused primitive function (relax-fuse-ops) is pure.
    if (auto call = dyn_cast<CallOpInterface>(op))
      if (Operation *callee = call.resolveCallable();
          callee && callee->hasAttr("relax.primitive"))
        continue;
    InFlightDiagnostic diag =
        emitOpError("contains '")
        << op.getName()
        << "', which may have side effects; a dataflow block may only hold "
           "side-effect-free operations";
    diag.attachNote(op.getLoc()) << "side-effecting operation here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CallTIROp
//===----------------------------------------------------------------------===//

/// Checks that tensor `tensorType` (operand or result `what`) can be passed
/// as the parameter `paramType` of a destination-passing callee.
static LogicalResult checkBuffer(Operation *op, StringRef callee,
                                 unsigned paramIndex, Type paramType,
                                 StringRef what, Type tensorType) {
  auto tensor = cast<RankedTensorType>(tensorType);
  auto shaped = dyn_cast<ShapedType>(paramType);
  if (!shaped || !isa<MemRefType, RankedTensorType>(paramType) ||
      !shaped.hasRank())
    return op->emitOpError("parameter #")
           << paramIndex << " of @" << callee << " has type " << paramType
           << "; expected a ranked buffer for " << what << " (" << tensorType
           << ")";
  auto mismatch = [&]() {
    return op->emitOpError()
           << what << " (" << tensorType << ") does not match parameter #"
           << paramIndex << " of @" << callee << " (" << paramType << "): ";
  };
  if (shaped.getElementType() != tensor.getElementType())
    return mismatch() << "element type " << tensor.getElementType() << " vs "
                      << shaped.getElementType();
  if (shaped.getRank() != tensor.getRank())
    return mismatch() << "rank " << tensor.getRank() << " vs "
                      << shaped.getRank();
  for (auto [i, t, p] : llvm::enumerate(tensor.getShape(), shaped.getShape()))
    if (!ShapedType::isDynamic(t) && !ShapedType::isDynamic(p) && t != p)
      return mismatch() << "dimension " << i << ": " << t << " vs " << p;
  return success();
}

LogicalResult CallTIROp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee =
      symbolTable.lookupNearestSymbolFrom(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'@")
           << getCallee() << "' does not reference a function in the module";
  auto fn = dyn_cast<FunctionOpInterface>(callee);
  if (!fn)
    return emitOpError("'@") << getCallee() << "' is a '" << callee->getName()
                             << "', not a function";
  ArrayRef<Type> params = fn.getArgumentTypes();
  unsigned numArgs = getArgs().size(), numResults = getNumResults();
  unsigned numVars = getTirVars() ? getTirVars()->getRank() : 0;
  if (params.size() != numArgs + numResults + numVars) {
    InFlightDiagnostic diag =
        emitOpError("'@") << getCallee() << "' takes " << params.size()
                          << " parameters, but destination-passing style needs "
                          << numArgs << " (arguments) + " << numResults
                          << " (results)";
    if (numVars)
      diag << " + " << numVars << " (tir_vars)";
    return diag << " = " << numArgs + numResults + numVars;
  }
  for (unsigned i = 0; i < numVars; ++i) {
    Type param = params[numArgs + numResults + i];
    if (!param.isIntOrIndex())
      return emitOpError("parameter #")
             << numArgs + numResults + i << " of @" << getCallee()
             << " has type " << param
             << "; expected an integer or index for tir_vars entry #" << i;
  }
  for (auto [i, arg] : llvm::enumerate(getArgs()))
    if (failed(checkBuffer(*this, getCallee(), i, params[i],
                           "operand #" + std::to_string(i), arg.getType())))
      return failure();
  for (auto [i, result] : llvm::enumerate(getResults()))
    if (failed(checkBuffer(*this, getCallee(), numArgs + i, params[numArgs + i],
                           "result #" + std::to_string(i), result.getType())))
      return failure();
  return success();
}

LogicalResult CallTIROp::verify() {
  std::optional<ShapeAttr> tirVars = getTirVars();
  if (!tirVars)
    return success();
  // Names the operands' shapes bind.
  llvm::SmallDenseSet<StringAttr> bound;
  for (Value arg : getArgs())
    if (auto shape = dyn_cast_or_null<ShapeAttr>(
            cast<RankedTensorType>(arg.getType()).getEncoding()))
      bound.insert(shape.getNames().begin(), shape.getNames().end());
  for (auto [i, dim] : llvm::enumerate(tirVars->getDims()))
    if (!dim)
      return emitOpError("tir_vars entry #") << i << " is unknown ('?')";
  for (StringAttr name : tirVars->getNames())
    if (!bound.contains(name))
      return emitOpError("tir_vars uses '")
             << name.getValue() << "', which no operand's #relax.shape binds";
  return success();
}

//===----------------------------------------------------------------------===//
// CallDPSPackedOp
//===----------------------------------------------------------------------===//

LogicalResult CallDPSPackedOp::verify() {
  if (getCallee().empty())
    return emitOpError("needs a non-empty callee name");
  return success();
}

void CallDPSPackedOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Pure unless marked (TVM registers call_dps_packed with FPurity=true).
  if (!getHasSideEffects())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// MatchCastOp
//===----------------------------------------------------------------------===//

LogicalResult MatchCastOp::verify() {
  auto from = getValue().getType(), to = getResult().getType();
  if (from.getElementType() != to.getElementType())
    return emitOpError("cannot change the element type: ")
           << from.getElementType() << " vs " << to.getElementType();
  if (from.getRank() != to.getRank())
    return emitOpError("cannot change the rank: ")
           << from.getRank() << " vs " << to.getRank();
  for (auto [i, a, b] : llvm::enumerate(from.getShape(), to.getShape()))
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return emitOpError("dimension ")
             << i << " is statically " << a << " but the target type has " << b;
  return success();
}

OpFoldResult MatchCastOp::fold(FoldAdaptor) {
  if (getValue().getType() == getResult().getType())
    return getValue();
  return {};
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult
ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                             ValueRange operands, DictionaryAttr attributes,
                             OpaqueProperties properties, RegionRange regions,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  ConstantOp::Adaptor adaptor(operands, attributes, properties, regions);
  ElementsAttr value = adaptor.getValueAttr();
  if (!value)
    return emitOptionalError(location, "relax.constant needs a 'value'");
  if (!isa<RankedTensorType>(value.getType()))
    return emitOptionalError(location,
                             "relax.constant value must have a ranked tensor "
                             "type, got ",
                             value.getType());
  inferredReturnTypes.push_back(value.getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// High-level operators
//===----------------------------------------------------------------------===//

bool mlc::relax::detail::areCompatibleResultTypes(TypeRange lhs,
                                                  TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip(lhs, rhs)) {
    auto lt = dyn_cast<RankedTensorType>(l), rt = dyn_cast<RankedTensorType>(r);
    if (!lt || !rt)
      return l == r;
    if (lt.getShape() != rt.getShape() ||
        lt.getElementType() != rt.getElementType())
      return false;
    if (lt.getEncoding() && rt.getEncoding() &&
        lt.getEncoding() != rt.getEncoding())
      return false;
  }
  return true;
}

static std::string shapeString(const SymbolScope &scope,
                               ArrayRef<SymDim> dims) {
  return "(" + scope.print(dims) + ")";
}

/// Broadcasts `lhs` and `rhs` (over `scope`), reporting a conflict with both
/// shapes and the conflicting expressions.
static FailureOr<SymShape> broadcastOrError(std::optional<Location> location,
                                            const SymbolScope &scope,
                                            ArrayRef<SymDim> lhs,
                                            ArrayRef<SymDim> rhs) {
  std::string detail;
  FailureOr<SymShape> result = broadcastSymbolicShapes(
      lhs, rhs, scope, [&](const Twine &msg) { detail = msg.str(); });
  if (failed(result))
    (void)emitOptionalError(location, "cannot broadcast ",
                            shapeString(scope, lhs), " and ",
                            shapeString(scope, rhs), ": ", detail);
  return result;
}

/// Result type of an elementwise binary op with NumPy broadcasting; with
/// `boolResult` (comparisons) the element type is `i1`.
static LogicalResult inferBroadcastBinary(
    MLIRContext *context, std::optional<Location> location, Type lhs, Type rhs,
    SmallVectorImpl<Type> &inferredReturnTypes, bool boolResult) {
  auto lhsType = dyn_cast<RankedTensorType>(lhs);
  auto rhsType = dyn_cast<RankedTensorType>(rhs);
  if (!lhsType || !rhsType)
    return emitOptionalError(location, "operands must be ranked tensors");
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOptionalError(location, "element types differ: lhs ",
                             lhsType.getElementType(), " vs rhs ",
                             rhsType.getElementType());
  SymbolScope scope(context);
  SymShape lhsShape = getSymbolicShape(lhsType, scope);
  SymShape rhsShape = getSymbolicShape(rhsType, scope);
  FailureOr<SymShape> result =
      broadcastOrError(location, scope, lhsShape, rhsShape);
  if (failed(result))
    return failure();
  Type elementType =
      boolResult ? IntegerType::get(context, 1) : lhsType.getElementType();
  inferredReturnTypes.push_back(
      getSymbolicTensorType(*result, elementType, scope));
  return success();
}

/// Result type of an op returning the type of its operand `data`, checking
/// `axis` (if any) against its rank.
static LogicalResult inferSameType(std::optional<Location> location, Type data,
                                   std::optional<int64_t> axis,
                                   SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = dyn_cast<RankedTensorType>(data);
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  if (axis) {
    std::string detail;
    if (failed(normalizeAxis(*axis, type.getRank(),
                             [&](const Twine &msg) { detail = msg.str(); })))
      return emitOptionalError(location, detail);
  }
  inferredReturnTypes.push_back(type);
  return success();
}

LogicalResult
AddOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                        ValueRange operands, DictionaryAttr attributes,
                        OpaqueProperties properties, RegionRange regions,
                        SmallVectorImpl<Type> &inferredReturnTypes) {
  AddOp::Adaptor adaptor(operands, attributes, properties, regions);
  return inferBroadcastBinary(context, location, adaptor.getLhs().getType(),
                              adaptor.getRhs().getType(), inferredReturnTypes);
}

//===----------------------------------------------------------------------===//
// AstypeOp, ClipOp, WhereOp
//===----------------------------------------------------------------------===//

LogicalResult
AstypeOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                           ValueRange operands, DictionaryAttr attributes,
                           OpaqueProperties properties, RegionRange regions,
                           SmallVectorImpl<Type> &inferredReturnTypes) {
  AstypeOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  TypeAttr dtype = adaptor.getDtypeAttr();
  if (!dtype || !isa<IntegerType, FloatType>(dtype.getValue()))
    return emitOptionalError(location,
                             "dtype must be an integer or float type");
  inferredReturnTypes.push_back(RankedTensorType::get(
      type.getShape(), dtype.getValue(), type.getEncoding()));
  return success();
}

LogicalResult
ClipOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                         ValueRange operands, DictionaryAttr attributes,
                         OpaqueProperties properties, RegionRange regions,
                         SmallVectorImpl<Type> &inferredReturnTypes) {
  ClipOp::Adaptor adaptor(operands, attributes, properties, regions);
  if (adaptor.getMinAttr() && adaptor.getMaxAttr() &&
      adaptor.getMin().convertToDouble() > adaptor.getMax().convertToDouble())
    return emitOptionalError(
        location, "min (", adaptor.getMin().convertToDouble(),
        ") is greater than max (", adaptor.getMax().convertToDouble(), ")");
  return inferSameType(location, adaptor.getData().getType(), std::nullopt,
                       inferredReturnTypes);
}

LogicalResult WhereOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  WhereOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto cond = dyn_cast<RankedTensorType>(adaptor.getCondition().getType());
  auto x = dyn_cast<RankedTensorType>(adaptor.getX().getType());
  auto y = dyn_cast<RankedTensorType>(adaptor.getY().getType());
  if (!cond || !x || !y)
    return emitOptionalError(location, "operands must be ranked tensors");
  if (x.getElementType() != y.getElementType())
    return emitOptionalError(location, "element types differ: x ",
                             x.getElementType(), " vs y ", y.getElementType());
  SymbolScope scope(context);
  SymShape xShape = getSymbolicShape(x, scope);
  SymShape yShape = getSymbolicShape(y, scope);
  SymShape condShape = getSymbolicShape(cond, scope);
  FailureOr<SymShape> xy = broadcastOrError(location, scope, xShape, yShape);
  if (failed(xy))
    return failure();
  FailureOr<SymShape> result =
      broadcastOrError(location, scope, condShape, *xy);
  if (failed(result))
    return failure();
  inferredReturnTypes.push_back(
      getSymbolicTensorType(*result, x.getElementType(), scope));
  return success();
}

LogicalResult MatmulOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  MatmulOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto lhsType = dyn_cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhsType = dyn_cast<RankedTensorType>(adaptor.getRhs().getType());
  if (!lhsType || !rhsType)
    return emitOptionalError(location, "operands must be ranked tensors");
  if (lhsType.getRank() < 1 || rhsType.getRank() < 1)
    return emitOptionalError(
        location, "operands must have rank >= 1, got lhs rank ",
        lhsType.getRank(), " and rhs rank ", rhsType.getRank());
  Type elementType = lhsType.getElementType();
  if (TypeAttr outDtype = adaptor.getOutDtypeAttr()) {
    elementType = outDtype.getValue();
  } else if (lhsType.getElementType() != rhsType.getElementType()) {
    return emitOptionalError(
        location, "element types differ: lhs ", lhsType.getElementType(),
        " vs rhs ", rhsType.getElementType(), " (set out_dtype to mix them)");
  }

  SymbolScope scope(context);
  SymShape lhs = getSymbolicShape(lhsType, scope);
  SymShape rhs = getSymbolicShape(rhsType, scope);
  // numpy.matmul: a 1-D lhs is a row (1, k), a 1-D rhs a column (k, 1); the
  // added dimension is dropped from the result.
  bool lhsVector = lhs.size() == 1, rhsVector = rhs.size() == 1;
  if (lhsVector)
    lhs.insert(lhs.begin(), scope.getConstant(1));
  if (rhsVector)
    rhs.push_back(scope.getConstant(1));
  SymDim lhsReduce = lhs[lhs.size() - 1], rhsReduce = rhs[rhs.size() - 2];
  if (lhsReduce && rhsReduce && lhsReduce != rhsReduce)
    return emitOptionalError(
        location, "reduction dimensions differ: lhs dimension ",
        lhsType.getRank() - 1, " vs rhs dimension ",
        rhsVector ? 0 : rhsType.getRank() - 2, ": ", scope.print(lhsReduce),
        " vs ", scope.print(rhsReduce));

  FailureOr<SymShape> batch = broadcastOrError(
      location, scope, ArrayRef(lhs).drop_back(2), ArrayRef(rhs).drop_back(2));
  if (failed(batch))
    return failure();
  SymShape result = *batch;
  if (!lhsVector)
    result.push_back(lhs[lhs.size() - 2]);
  if (!rhsVector)
    result.push_back(rhs.back());
  inferredReturnTypes.push_back(
      getSymbolicTensorType(result, elementType, scope));
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

/// Collects the message of a shared shape function's error.
namespace {
struct ErrorText {
  std::string text;
  void operator()(const Twine &msg) { text = msg.str(); }
};
} // namespace

LogicalResult PermuteDimsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  PermuteDimsOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  std::optional<ArrayRef<int64_t>> axes;
  if (auto attr = adaptor.getAxesAttr())
    axes = attr.asArrayRef();
  ErrorText error;
  SmallVector<int64_t> perm;
  if (failed(inferTransposePermutation(type.getRank(), axes, perm, error)))
    return emitOptionalError(location, error.text);
  SymbolScope scope(context);
  SymShape shape = getSymbolicShape(type, scope);
  SymShape result;
  for (int64_t axis : perm)
    result.push_back(shape[axis]);
  inferredReturnTypes.push_back(
      getSymbolicTensorType(result, type.getElementType(), scope));
  return success();
}

/// The permutation `op` applies (its `axes`, or the reversal by default);
/// empty when the operand is not a ranked tensor.
static SmallVector<int64_t> getPermutation(PermuteDimsOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getData().getType());
  std::optional<ArrayRef<int64_t>> axes;
  if (auto attr = op.getAxesAttr())
    axes = attr.asArrayRef();
  ErrorText error;
  SmallVector<int64_t> perm;
  if (!type ||
      failed(inferTransposePermutation(type.getRank(), axes, perm, error)))
    return {};
  return perm;
}

OpFoldResult PermuteDimsOp::fold(FoldAdaptor) {
  SmallVector<int64_t> perm = getPermutation(*this);
  if (perm.empty())
    return {};
  bool composedInPlace = false;
  if (auto inner = getData().getDefiningOp<PermuteDimsOp>()) {
    SmallVector<int64_t> innerPerm = getPermutation(inner);
    if (innerPerm.size() != perm.size())
      return {};
    // Result dimension i is the inner result's dimension perm[i], which is
    // the inner operand's dimension innerPerm[perm[i]].
    SmallVector<int64_t> composed;
    for (int64_t axis : perm)
      composed.push_back(innerPerm[axis]);
    getDataMutable().assign(inner.getData());
    setAxesAttr(DenseI64ArrayAttr::get(getContext(), composed));
    perm = std::move(composed);
    composedInPlace = true;
  }
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())) &&
      getData().getType() == getType())
    return getData();
  return composedInPlace ? OpFoldResult(getResult()) : OpFoldResult();
}

LogicalResult ReshapeOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  ReshapeOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  if (!adaptor.getShapeAttr())
    return emitOptionalError(location, "relax.reshape needs a 'shape'");
  ErrorText error;
  SmallVector<int64_t> result;
  if (failed(inferReshapeShape(type.getShape(), adaptor.getShape(), result,
                               error)))
    return emitOptionalError(location, error.text);
  // Symbolic sizes: 0 copies the input's dimension; -1 is the input's
  // element count over the other sizes, kept when the symbolic factors cancel
  // down to at most one (`[b, t, 4, 16]` to `[0, 0, -1]` gives `[b, t, 64]`).
  SymbolScope scope(context);
  SymShape input = getSymbolicShape(type, scope);
  auto factor = [](ArrayRef<SymDim> dims, int64_t &constant,
                   SmallVectorImpl<SymDim> &symbolic) {
    for (SymDim dim : dims) {
      if (!dim)
        return false;
      if (auto c = dyn_cast<AffineConstantExpr>(dim))
        constant *= c.getValue();
      else
        symbolic.push_back(dim);
    }
    return true;
  };
  SymShape shape;
  for (auto [i, size] : llvm::enumerate(adaptor.getShape()))
    shape.push_back(size == 0 && i < input.size()
                        ? input[i]
                        : (size > 0 ? scope.getConstant(size) : SymDim()));
  for (auto [i, size] : llvm::enumerate(adaptor.getShape())) {
    if (size != -1)
      continue;
    if (!ShapedType::isDynamic(result[i])) {
      shape[i] = scope.getConstant(result[i]);
      continue;
    }
    int64_t inConstant = 1, outConstant = 1;
    SmallVector<SymDim> inSymbols, outSymbols;
    SmallVector<SymDim> others(shape.begin(), shape.end());
    others.erase(others.begin() + i);
    if (!factor(input, inConstant, inSymbols) ||
        !factor(others, outConstant, outSymbols))
      continue;
    bool cancelled = llvm::all_of(outSymbols, [&](SymDim dim) {
      auto *it = llvm::find(inSymbols, dim);
      if (it == inSymbols.end())
        return false;
      inSymbols.erase(it);
      return true;
    });
    if (!cancelled || outConstant == 0 || inConstant % outConstant ||
        inSymbols.size() > 1)
      continue;
    int64_t quotient = inConstant / outConstant;
    shape[i] = inSymbols.empty() ? scope.getConstant(quotient)
                                 : inSymbols.front() * quotient;
  }
  inferredReturnTypes.push_back(
      getSymbolicTensorType(shape, type.getElementType(), scope));
  return success();
}

LogicalResult ExpandDimsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  ExpandDimsOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  if (!adaptor.getAxisAttr())
    return emitOptionalError(location, "relax.expand_dims needs an 'axis'");
  int64_t outRank = type.getRank() + adaptor.getAxis().size();
  SmallVector<bool> isNew(outRank, false);
  for (int64_t axis : adaptor.getAxis()) {
    ErrorText error;
    FailureOr<int64_t> pos = normalizeAxis(axis, outRank, error);
    if (failed(pos))
      return emitOptionalError(location, error.text);
    if (isNew[*pos])
      return emitOptionalError(location, "axis ", axis,
                               " is repeated (result dimension ", *pos, ")");
    isNew[*pos] = true;
  }
  SymbolScope scope(context);
  SymShape shape = getSymbolicShape(type, scope);
  SymShape result;
  auto next = shape.begin();
  for (bool added : isNew)
    result.push_back(added ? scope.getConstant(1) : *next++);
  inferredReturnTypes.push_back(
      getSymbolicTensorType(result, type.getElementType(), scope));
  return success();
}

//===----------------------------------------------------------------------===//
// SqueezeOp, SplitOp, StridedSliceOp, TakeOp, BroadcastToOp
//===----------------------------------------------------------------------===//

/// The type of a result whose static shape `sizes` was computed by a shared
/// shape function: dimension i is `data`'s symbolic dimension `source[i]`
/// when that is >= 0 (a dimension passed through), else the static size (or
/// `?`).
static RankedTensorType passThroughType(MLIRContext *context,
                                        RankedTensorType data,
                                        ArrayRef<int64_t> sizes,
                                        ArrayRef<int64_t> source,
                                        Type elementType) {
  SymbolScope scope(context);
  SymShape shape = getSymbolicShape(data, scope);
  SymShape result;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (i < source.size() && source[i] >= 0)
      result.push_back(shape[source[i]]);
    else
      result.push_back(ShapedType::isDynamic(size) ? SymDim()
                                                   : scope.getConstant(size));
  }
  return getSymbolicTensorType(result, elementType, scope);
}

/// `axis` in [0, rank), or -1 when it is out of range (already reported by
/// the shared shape function).
static int64_t validAxis(int64_t axis, int64_t rank) {
  ErrorText error;
  FailureOr<int64_t> pos = normalizeAxis(axis, rank, error);
  return succeeded(pos) ? *pos : -1;
}

LogicalResult SqueezeOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  SqueezeOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  std::optional<ArrayRef<int64_t>> axes;
  if (adaptor.getAxisAttr())
    axes = adaptor.getAxisAttr().asArrayRef();
  SmallVector<int64_t> sizes;
  ErrorText error;
  if (failed(inferSqueezeShape(type.getShape(), axes, sizes, error)))
    return emitOptionalError(location, error.text);
  SmallVector<bool> removed(type.getRank(), false);
  if (axes) {
    for (int64_t axis : *axes)
      if (int64_t pos = validAxis(axis, type.getRank()); pos >= 0)
        removed[pos] = true;
  } else {
    for (auto [i, size] : llvm::enumerate(type.getShape()))
      removed[i] = size == 1;
  }
  SmallVector<int64_t> source;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (!removed[i])
      source.push_back(i);
  inferredReturnTypes.push_back(
      passThroughType(context, type, sizes, source, type.getElementType()));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  SplitOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  Attribute split = adaptor.getIndicesOrSectionsAttr();
  if (!split)
    return emitOptionalError(location,
                             "relax.split needs 'indices_or_sections'");
  SmallVector<SmallVector<int64_t>> shapes;
  ErrorText error;
  // Type inference runs before the verifier (importers build ops through
  // it): the attribute's kind is checked here.
  LogicalResult ok = failure();
  if (auto sections = dyn_cast<IntegerAttr>(split)) {
    ok = inferSplitShapes(type.getShape(), sections.getInt(), adaptor.getAxis(),
                          shapes, error);
  } else if (auto indices = dyn_cast<DenseI64ArrayAttr>(split)) {
    ok = inferSplitShapes(type.getShape(), indices.asArrayRef(),
                          adaptor.getAxis(), shapes, error);
  } else {
    std::string text;
    llvm::raw_string_ostream(text) << split;
    return emitOptionalError(location,
                             "'indices_or_sections' must be an i64 integer or "
                             "an array<i64: ...>, got ",
                             text);
  }
  if (failed(ok))
    return emitOptionalError(location, error.text);
  SmallVector<int64_t> source =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  if (int64_t axis = validAxis(adaptor.getAxis(), type.getRank()); axis >= 0)
    source[axis] = -1;
  for (ArrayRef<int64_t> sizes : shapes)
    inferredReturnTypes.push_back(
        passThroughType(context, type, sizes, source, type.getElementType()));
  return success();
}

LogicalResult StridedSliceOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  StridedSliceOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  if (!adaptor.getBeginAttr() || !adaptor.getEndAttr())
    return emitOptionalError(location,
                             "relax.strided_slice needs 'begin' and 'end'");
  std::optional<ArrayRef<int64_t>> strides, axes;
  if (adaptor.getStridesAttr())
    strides = adaptor.getStridesAttr().asArrayRef();
  if (adaptor.getAxesAttr())
    axes = adaptor.getAxesAttr().asArrayRef();
  SmallVector<int64_t> sizes;
  ErrorText error;
  if (failed(inferStridedSliceShape(type.getShape(), adaptor.getBegin(),
                                    adaptor.getEnd(), strides, axes, "end",
                                    sizes, error)))
    return emitOptionalError(location, error.text);
  // Dimensions not sliced pass through with their symbolic expressions.
  SmallVector<int64_t> source =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  if (axes) {
    for (int64_t axis : *axes)
      if (int64_t pos = validAxis(axis, type.getRank()); pos >= 0)
        source[pos] = -1;
  } else {
    for (int64_t i = 0, e = std::min<int64_t>(adaptor.getBegin().size(),
                                              type.getRank());
         i < e; ++i)
      source[i] = -1;
  }
  inferredReturnTypes.push_back(
      passThroughType(context, type, sizes, source, type.getElementType()));
  return success();
}

LogicalResult
TakeOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                         ValueRange operands, DictionaryAttr attributes,
                         OpaqueProperties properties, RegionRange regions,
                         SmallVectorImpl<Type> &inferredReturnTypes) {
  TakeOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto indices = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
  if (!type || !indices)
    return emitOptionalError(location, "operands must be ranked tensors");
  StringRef mode = adaptor.getMode();
  if (mode != "clip" && mode != "wrap" && mode != "fast")
    return emitOptionalError(location, "mode must be clip, wrap or fast, not '",
                             mode, "'");
  std::optional<int64_t> axis;
  if (adaptor.getAxisAttr())
    axis = adaptor.getAxisAttr().getInt();
  SmallVector<int64_t> sizes;
  ErrorText error;
  if (failed(inferTakeShape(type.getShape(), indices.getShape(), axis,
                            /*batchDims=*/0, sizes, error)))
    return emitOptionalError(location, error.text);
  inferredReturnTypes.push_back(
      RankedTensorType::get(sizes, type.getElementType()));
  return success();
}

/// gather_elements / scatter_elements: `indices` has the data's rank, the
/// axis is valid, and off the axis the indices are no larger than the data.
static LogicalResult checkElementIndices(std::optional<Location> location,
                                         RankedTensorType type,
                                         RankedTensorType indices,
                                         int64_t axisAttr) {
  int64_t rank = type.getRank();
  if (indices.getRank() != rank)
    return emitOptionalError(location, "indices of rank ", indices.getRank(),
                             " for data of rank ", rank,
                             "; they must be equal");
  int64_t axis = validAxis(axisAttr, rank);
  if (axis < 0)
    return emitOptionalError(location, "axis ", axisAttr,
                             " is out of range for rank ", rank);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && !indices.isDynamicDim(d) && !type.isDynamicDim(d) &&
        indices.getDimSize(d) > type.getDimSize(d))
      return emitOptionalError(
          location, "indices dimension ", d, " (", indices.getDimSize(d),
          ") is larger than the data's (", type.getDimSize(d), ")");
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  GatherElementsOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto indices = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
  if (!type || !indices)
    return emitOptionalError(location, "operands must be ranked tensors");
  if (failed(checkElementIndices(location, type, indices, adaptor.getAxis())))
    return failure();
  inferredReturnTypes.push_back(RankedTensorType::get(
      indices.getShape(), type.getElementType(), indices.getEncoding()));
  return success();
}

/// What the scatter ops check alike: ranked operands, a known `reduction`,
/// updates of the data's element type.
static LogicalResult checkScatterOperands(std::optional<Location> location,
                                          Type data, Type indices, Type updates,
                                          StringRef reduction,
                                          RankedTensorType &dataType,
                                          RankedTensorType &indicesType,
                                          RankedTensorType &updatesType) {
  dataType = dyn_cast<RankedTensorType>(data);
  indicesType = dyn_cast<RankedTensorType>(indices);
  updatesType = dyn_cast<RankedTensorType>(updates);
  if (!dataType || !indicesType || !updatesType)
    return emitOptionalError(location, "operands must be ranked tensors");
  if (!llvm::is_contained({"update", "add", "mul", "min", "max"}, reduction))
    return emitOptionalError(location,
                             "reduction must be update, add, mul, min or max, "
                             "not '",
                             reduction, "'");
  if (updatesType.getElementType() != dataType.getElementType())
    return emitOptionalError(location, "updates of element type ",
                             updatesType.getElementType(), " for data of ",
                             dataType.getElementType());
  return success();
}

LogicalResult ScatterElementsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  ScatterElementsOp::Adaptor adaptor(operands, attributes, properties, regions);
  RankedTensorType type, indices, updates;
  if (failed(checkScatterOperands(
          location, adaptor.getData().getType(), adaptor.getIndices().getType(),
          adaptor.getUpdates().getType(), adaptor.getReduction(), type, indices,
          updates)))
    return failure();
  if (indices.getShape() != updates.getShape())
    return emitOptionalError(location, "indices of shape [", indices.getShape(),
                             "] but updates of shape [", updates.getShape(),
                             "]; they must be equal");
  if (failed(checkElementIndices(location, type, indices, adaptor.getAxis())))
    return failure();
  inferredReturnTypes.push_back(type);
  return success();
}

LogicalResult
ScatterNDOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                              ValueRange operands, DictionaryAttr attributes,
                              OpaqueProperties properties, RegionRange regions,
                              SmallVectorImpl<Type> &inferredReturnTypes) {
  ScatterNDOp::Adaptor adaptor(operands, attributes, properties, regions);
  RankedTensorType type, indices, updates;
  if (failed(checkScatterOperands(
          location, adaptor.getData().getType(), adaptor.getIndices().getType(),
          adaptor.getUpdates().getType(), adaptor.getReduction(), type, indices,
          updates)))
    return failure();
  if (indices.getRank() < 1 || indices.isDynamicDim(indices.getRank() - 1) ||
      indices.getShape().back() < 1 ||
      indices.getShape().back() > type.getRank())
    return emitOptionalError(
        location, "indices of shape [", indices.getShape(),
        "] must end in a static size from 1 to the data's rank ",
        type.getRank());
  // updates: indices.shape[:-1] + data.shape[k:].
  int64_t k = indices.getShape().back();
  SmallVector<int64_t> expected(indices.getShape().drop_back());
  llvm::append_range(expected, type.getShape().drop_front(k));
  bool matches = updates.getRank() == (int64_t)expected.size();
  for (size_t i = 0; matches && i < expected.size(); ++i)
    matches = ShapedType::isDynamic(expected[i]) || updates.isDynamicDim(i) ||
              updates.getDimSize(i) == expected[i];
  if (!matches)
    return emitOptionalError(location, "updates of shape [", updates.getShape(),
                             "] for indices of shape [", indices.getShape(),
                             "] and data of shape [", type.getShape(),
                             "]; expected [", expected, "]");
  inferredReturnTypes.push_back(type);
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  BroadcastToOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  if (!adaptor.getShapeAttr())
    return emitOptionalError(location, "relax.broadcast_to needs a 'shape'");
  SmallVector<int64_t> sizes;
  ErrorText error;
  if (failed(inferBroadcastToShape(type.getShape(), adaptor.getShape(), sizes,
                                   error)))
    return emitOptionalError(location, error.text);
  inferredReturnTypes.push_back(
      RankedTensorType::get(sizes, type.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and concatenation
//===----------------------------------------------------------------------===//

static LogicalResult inferReduce(MLIRContext *context,
                                 std::optional<Location> location, Type data,
                                 DenseI64ArrayAttr axis, bool keepdims,
                                 SmallVectorImpl<Type> &inferredReturnTypes,
                                 Type elementType) {
  auto type = dyn_cast<RankedTensorType>(data);
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  std::optional<ArrayRef<int64_t>> axes;
  if (axis)
    axes = axis.asArrayRef();
  ErrorText error;
  SmallVector<int64_t> reduced;
  if (failed(inferReduceAxes(type.getRank(), axes, /*exclude=*/false, reduced,
                             error)))
    return emitOptionalError(location, error.text);
  SymbolScope scope(context);
  SymShape shape = getSymbolicShape(type, scope);
  SymShape result;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(reduced, static_cast<int64_t>(i)))
      result.push_back(dim);
    else if (keepdims)
      result.push_back(scope.getConstant(1));
  }
  inferredReturnTypes.push_back(getSymbolicTensorType(
      result, elementType ? elementType : type.getElementType(), scope));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  ConcatOp::Adaptor adaptor(operands, attributes, properties, regions);
  if (adaptor.getInputs().empty())
    return emitOptionalError(location, "relax.concat needs at least one input");
  SmallVector<RankedTensorType> types;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value input : adaptor.getInputs()) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type)
      return emitOptionalError(location, "inputs must be ranked tensors");
    if (!types.empty() &&
        type.getElementType() != types.front().getElementType())
      return emitOptionalError(location, "element types differ: input #0 ",
                               types.front().getElementType(), " vs input #",
                               types.size(), " ", type.getElementType());
    types.push_back(type);
    shapes.push_back(type.getShape());
  }
  // The shared shape function checks ranks and the sizes off the axis.
  ErrorText error;
  SmallVector<int64_t> staticResult;
  if (failed(inferConcatenateShape(shapes, adaptor.getAxis(), staticResult,
                                   error)))
    return emitOptionalError(location, error.text);
  int64_t axis = *normalizeAxis(adaptor.getAxis(), types.front().getRank(),
                                /*emitError=*/nullptr);
  // Symbolically: the axis sizes add up; off the axis, take the first input's
  // dimension unless it is unknown.
  SymbolScope scope(context);
  SmallVector<SymShape> syms;
  for (RankedTensorType type : types)
    syms.push_back(getSymbolicShape(type, scope));
  SymShape result = syms.front();
  for (size_t d = 0; d < result.size(); ++d) {
    if (static_cast<int64_t>(d) == axis) {
      SymDim sum = scope.getConstant(0);
      for (const SymShape &sym : syms)
        sum = sum && sym[d] ? sum + sym[d] : SymDim();
      // Flattening simplification makes `n + m + n` canonical (`n * 2 + m`).
      result[d] =
          sum ? simplifyAffineExpr(sum, 0, scope.getNames().size()) : sum;
      continue;
    }
    for (const SymShape &sym : syms)
      if (!result[d])
        result[d] = sym[d];
  }
  inferredReturnTypes.push_back(
      getSymbolicTensorType(result, types.front().getElementType(), scope));
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

LogicalResult
PadOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                        ValueRange operands, DictionaryAttr attributes,
                        OpaqueProperties properties, RegionRange regions,
                        SmallVectorImpl<Type> &inferredReturnTypes) {
  PadOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  if (!adaptor.getPadWidthAttr())
    return emitOptionalError(location, "relax.nn.pad needs a 'pad_width'");
  StringRef mode = adaptor.getPadMode();
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return emitOptionalError(
        location, "pad_mode must be constant, edge or reflect, not '", mode,
        "'");
  ArrayRef<int64_t> width = adaptor.getPadWidth();
  ErrorText error;
  FailureOr<nn::Shape> sizes = nn::inferPadShape(type.getShape(), width, error);
  if (failed(sizes))
    return emitOptionalError(location, error.text);
  SmallVector<int64_t> source;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    source.push_back(width[2 * i] == 0 && width[2 * i + 1] == 0 ? i : -1);
  inferredReturnTypes.push_back(
      passThroughType(context, type, *sizes, source, type.getElementType()));
  return success();
}

/// The type of an NN op's result with static shape `sizes`: its batch
/// dimension ('N' of `outLayout`, "" meaning `dataLayout`) keeps `data`'s
/// symbolic batch size.
static RankedTensorType batchPassThroughType(RankedTensorType data,
                                             ArrayRef<int64_t> sizes,
                                             StringRef dataLayout,
                                             StringRef outLayout,
                                             Type elementType) {
  if (outLayout.empty())
    outLayout = dataLayout;
  size_t in = dataLayout.find('N'), out = outLayout.find('N');
  SmallVector<int64_t> source(sizes.size(), -1);
  if (in < (size_t)data.getRank() && out < sizes.size())
    source[out] = in;
  return passThroughType(data.getContext(), data, sizes, source, elementType);
}

LogicalResult Conv2DOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Conv2DOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto data = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto weight = dyn_cast<RankedTensorType>(adaptor.getWeight().getType());
  if (!data || !weight)
    return emitOptionalError(location, "operands must be ranked tensors");
  nn::Conv2DAttrs attrs;
  attrs.strides = adaptor.getStrides();
  attrs.padding = adaptor.getPadding();
  attrs.dilation = adaptor.getDilation();
  attrs.groups = adaptor.getGroups();
  attrs.dataLayout = adaptor.getDataLayout();
  attrs.kernelLayout = adaptor.getKernelLayout();
  attrs.outLayout = adaptor.getOutLayout();
  ErrorText error;
  FailureOr<nn::Shape> shape =
      nn::inferConv2DShape(data.getShape(), weight.getShape(), attrs, error);
  if (failed(shape))
    return emitOptionalError(location, error.text);
  Type elementType = data.getElementType();
  if (TypeAttr outDtype = adaptor.getOutDtypeAttr())
    elementType = outDtype.getValue();
  else if (weight.getElementType() != elementType)
    return emitOptionalError(
        location, "element types differ: data ", elementType, " vs weight ",
        weight.getElementType(), " (set out_dtype to mix them)");
  inferredReturnTypes.push_back(batchPassThroughType(
      data, *shape, attrs.dataLayout, attrs.outLayout, elementType));
  return success();
}

LogicalResult Conv2DTransposeOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Conv2DTransposeOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto data = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto weight = dyn_cast<RankedTensorType>(adaptor.getWeight().getType());
  if (!data || !weight)
    return emitOptionalError(location, "operands must be ranked tensors");
  nn::Conv2DTransposeAttrs attrs;
  attrs.strides = adaptor.getStrides();
  attrs.padding = adaptor.getPadding();
  attrs.dilation = adaptor.getDilation();
  attrs.outputPadding = adaptor.getOutputPadding();
  attrs.groups = adaptor.getGroups();
  attrs.dataLayout = adaptor.getDataLayout();
  attrs.kernelLayout = adaptor.getKernelLayout();
  attrs.outLayout = adaptor.getOutLayout();
  ErrorText error;
  FailureOr<nn::Shape> shape = nn::inferConv2DTransposeShape(
      data.getShape(), weight.getShape(), attrs, error);
  if (failed(shape))
    return emitOptionalError(location, error.text);
  Type elementType = data.getElementType();
  if (TypeAttr outDtype = adaptor.getOutDtypeAttr())
    elementType = outDtype.getValue();
  else if (weight.getElementType() != elementType)
    return emitOptionalError(
        location, "element types differ: data ", elementType, " vs weight ",
        weight.getElementType(), " (set out_dtype to mix them)");
  inferredReturnTypes.push_back(batchPassThroughType(
      data, *shape, attrs.dataLayout, attrs.outLayout, elementType));
  return success();
}

static LogicalResult inferPool2D(std::optional<Location> location, Type data,
                                 const nn::Pool2DAttrs &attrs,
                                 SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = dyn_cast<RankedTensorType>(data);
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  ErrorText error;
  FailureOr<nn::Shape> shape =
      nn::inferPool2DShape(type.getShape(), attrs, error);
  if (failed(shape))
    return emitOptionalError(location, error.text);
  inferredReturnTypes.push_back(batchPassThroughType(
      type, *shape, attrs.layout, attrs.outLayout, type.getElementType()));
  return success();
}

LogicalResult AdaptiveAvgPool2DOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  AdaptiveAvgPool2DOp::Adaptor adaptor(operands, attributes, properties,
                                       regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  ArrayRef<int64_t> outputSize;
  if (auto attr = adaptor.getOutputSizeAttr())
    outputSize = attr.asArrayRef();
  ErrorText error;
  FailureOr<nn::Shape> shape = nn::inferAdaptivePool2DShape(
      type.getShape(), outputSize, adaptor.getLayout(), adaptor.getOutLayout(),
      error);
  if (failed(shape))
    return emitOptionalError(location, error.text);
  inferredReturnTypes.push_back(
      batchPassThroughType(type, *shape, adaptor.getLayout(),
                           adaptor.getOutLayout(), type.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// instance_norm / group_norm (`numGroups` set): per-channel gamma and beta,
/// the result has the type of `data`.
static LogicalResult
inferChannelNorm(std::optional<Location> location, Type data, Type gamma,
                 Type beta, int64_t channelAxis, double epsilon,
                 std::optional<int64_t> numGroups,
                 SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = dyn_cast<RankedTensorType>(data);
  if (!type)
    return emitOptionalError(location, "operands must be ranked tensors");
  ErrorText error;
  FailureOr<int64_t> axis =
      nn::normalizeAxis(channelAxis, type.getRank(), "channel_axis", error);
  if (failed(axis))
    return emitOptionalError(location, error.text);
  std::pair<Type, StringRef> params[] = {{gamma, "gamma"}, {beta, "beta"}};
  for (auto [paramType, what] : params) {
    auto param = dyn_cast<RankedTensorType>(paramType);
    if (!param)
      return emitOptionalError(location, "operands must be ranked tensors");
    if (param.getElementType() != type.getElementType())
      return emitOptionalError(location, what, " has element type ",
                               param.getElementType(), " but data has ",
                               type.getElementType());
    if (failed(nn::checkChannelVector(type.getShape(), *axis, param.getShape(),
                                      what, error)))
      return emitOptionalError(location, error.text);
  }
  if (numGroups) {
    int64_t channels = type.getDimSize(*axis);
    if (*numGroups < 1)
      return emitOptionalError(location, "num_groups must be >= 1 but got ",
                               *numGroups);
    if (!ShapedType::isDynamic(channels) && channels % *numGroups != 0)
      return emitOptionalError(
          location, "data has ", channels, " channels (dimension ", *axis,
          "), which is not divisible by num_groups=", *numGroups);
  }
  if (epsilon < 0)
    return emitOptionalError(location, "epsilon must be >= 0");
  inferredReturnTypes.push_back(type);
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  BatchNormOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto data = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!data)
    return emitOptionalError(location, "operands must be ranked tensors");
  ErrorText error;
  FailureOr<int64_t> axis =
      nn::normalizeAxis(adaptor.getAxis(), data.getRank(), "axis", error);
  if (failed(axis))
    return emitOptionalError(location, error.text);
  std::pair<Value, StringRef> params[] = {
      {adaptor.getGamma(), "gamma"},
      {adaptor.getBeta(), "beta"},
      {adaptor.getMovingMean(), "moving_mean"},
      {adaptor.getMovingVar(), "moving_var"}};
  for (auto [value, what] : params) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return emitOptionalError(location, "operands must be ranked tensors");
    if (type.getElementType() != data.getElementType())
      return emitOptionalError(location, what, " has element type ",
                               type.getElementType(), " but data has ",
                               data.getElementType());
    if (failed(nn::checkChannelVector(data.getShape(), *axis, type.getShape(),
                                      what, error)))
      return emitOptionalError(location, error.text);
  }
  if (adaptor.getEpsilon().isNegative())
    return emitOptionalError(location, "epsilon must be >= 0");
  int64_t channels = data.getDimSize(*axis);
  if (ShapedType::isDynamic(channels))
    channels =
        cast<RankedTensorType>(adaptor.getMovingMean().getType()).getDimSize(0);
  auto vec = RankedTensorType::get({channels}, data.getElementType());
  inferredReturnTypes.append({data, vec, vec});
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  LayerNormOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto data = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!data)
    return emitOptionalError(location, "operands must be ranked tensors");
  if (!adaptor.getAxesAttr())
    return emitOptionalError(location, "relax.nn.layer_norm needs 'axes'");
  // gamma and beta have the shape of data at the (distinct) axes.
  SmallVector<int64_t> expected;
  SmallVector<bool> seen(data.getRank(), false);
  for (int64_t a : adaptor.getAxes()) {
    ErrorText error;
    FailureOr<int64_t> axis = normalizeAxis(a, data.getRank(), error);
    if (failed(axis))
      return emitOptionalError(location, error.text);
    if (seen[*axis])
      return emitOptionalError(location, "axis ", a, " is repeated");
    seen[*axis] = true;
    expected.push_back(data.getDimSize(*axis));
  }
  std::pair<Value, StringRef> params[] = {{adaptor.getGamma(), "gamma"},
                                          {adaptor.getBeta(), "beta"}};
  for (auto [value, what] : params) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return emitOptionalError(location, "operands must be ranked tensors");
    if (type.getElementType() != data.getElementType())
      return emitOptionalError(location, what, " has element type ",
                               type.getElementType(), " but data has ",
                               data.getElementType());
    bool ok = type.getRank() == static_cast<int64_t>(expected.size());
    for (size_t i = 0; ok && i < expected.size(); ++i)
      ok = ShapedType::isDynamic(expected[i]) ||
           ShapedType::isDynamic(type.getDimSize(i)) ||
           expected[i] == type.getDimSize(i);
    if (!ok)
      return emitOptionalError(
          location, what, " has shape ", formatShape(type.getShape()),
          " but data has shape ", formatShape(expected), " at axes");
  }
  if (adaptor.getEpsilon().isNegative())
    return emitOptionalError(location, "epsilon must be >= 0");
  inferredReturnTypes.push_back(data);
  return success();
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

/// Limits that keep folding from stalling compilation on big constants.
static constexpr int64_t kMaxFoldElements = int64_t(1) << 20;
static constexpr int64_t kMaxFoldMultiplyAdds = int64_t(1) << 24;

DenseElementsAttr mlc::relax::getDenseElements(Attribute attr) {
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr))
    return dense;
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr);
  if (!resource || resource.getType().getElementType().isInteger(1))
    return {};
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return {};
  bool splat = false;
  if (!DenseElementsAttr::isValidRawBuffer(resource.getType(), blob->getData(),
                                           splat))
    return {};
  return DenseElementsAttr::getFromRawBuffer(resource.getType(),
                                             blob->getData());
}

/// Flat index into an operand of shape `operand` (right-aligned to `result`,
/// size-1 dims broadcast) for the multi-index `index` of the result.
static int64_t broadcastIndex(ArrayRef<int64_t> result,
                              ArrayRef<int64_t> operand,
                              ArrayRef<int64_t> index) {
  int64_t flat = 0;
  size_t offset = result.size() - operand.size();
  for (size_t d = 0; d < operand.size(); ++d)
    flat = flat * operand[d] + (operand[d] == 1 ? 0 : index[offset + d]);
  return flat;
}

/// Multi-index of the flat position `flat` in `shape`.
static SmallVector<int64_t> unflatten(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int d = shape.size() - 1; d >= 0; --d) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

/// Scalar arithmetic on APFloat or APInt element values.
namespace {
template <typename T> struct Arith;
template <> struct Arith<APFloat> {
  static APFloat add(const APFloat &a, const APFloat &b) { return a + b; }
  static APFloat mul(const APFloat &a, const APFloat &b) { return a * b; }
  static APFloat zero(Type type) {
    return APFloat::getZero(cast<FloatType>(type).getFloatSemantics());
  }
};
template <> struct Arith<APInt> {
  static APInt add(const APInt &a, const APInt &b) { return a + b; }
  static APInt mul(const APInt &a, const APInt &b) { return a * b; }
  static APInt zero(Type type) {
    return APInt::getZero(type.getIntOrFloatBitWidth());
  }
};
} // namespace

template <typename T>
static DenseElementsAttr foldAdd(RankedTensorType type, DenseElementsAttr lhs,
                                 DenseElementsAttr rhs) {
  auto l = llvm::to_vector(lhs.getValues<T>());
  auto r = llvm::to_vector(rhs.getValues<T>());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<T> values;
  values.reserve(type.getNumElements());
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    SmallVector<int64_t> index = unflatten(i, shape);
    values.push_back(Arith<T>::add(
        l[broadcastIndex(shape, lhs.getType().getShape(), index)],
        r[broadcastIndex(shape, rhs.getType().getShape(), index)]));
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr lhs = getDenseElements(adaptor.getLhs());
  DenseElementsAttr rhs = getDenseElements(adaptor.getRhs());
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!lhs || !rhs || !type || !type.hasStaticShape() || type.getEncoding() ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  Type elementType = type.getElementType();
  if (isa<FloatType>(elementType))
    return foldAdd<APFloat>(type, lhs, rhs);
  if (isa<IntegerType>(elementType))
    return foldAdd<APInt>(type, lhs, rhs);
  return {};
}

template <typename T>
static DenseElementsAttr foldMatmul(RankedTensorType type,
                                    DenseElementsAttr lhs,
                                    DenseElementsAttr rhs) {
  auto l = llvm::to_vector(lhs.getValues<T>());
  auto r = llvm::to_vector(rhs.getValues<T>());
  // numpy.matmul promotion: (K) -> (1, K) on the left, (K) -> (K, 1) on the
  // right; the result, with those unit dims kept, has the same element order.
  SmallVector<int64_t> ls(lhs.getType().getShape());
  SmallVector<int64_t> rs(rhs.getType().getShape());
  if (ls.size() == 1)
    ls.insert(ls.begin(), 1);
  if (rs.size() == 1)
    rs.push_back(1);
  int64_t m = ls[ls.size() - 2], k = ls.back(), n = rs.back();
  ArrayRef<int64_t> lb = ArrayRef(ls).drop_back(2);
  ArrayRef<int64_t> rb = ArrayRef(rs).drop_back(2);
  SmallVector<int64_t> batch(std::max(lb.size(), rb.size()), 1);
  for (size_t i = 0; i < batch.size(); ++i) {
    size_t fromRight = batch.size() - 1 - i;
    int64_t a = fromRight < lb.size() ? lb[lb.size() - 1 - fromRight] : 1;
    int64_t b = fromRight < rb.size() ? rb[rb.size() - 1 - fromRight] : 1;
    batch[i] = std::max(a, b);
  }
  int64_t numBatch = 1;
  for (int64_t b : batch)
    numBatch *= b;
  if (numBatch * m * n * std::max<int64_t>(k, 1) > kMaxFoldMultiplyAdds)
    return {};
  SmallVector<T> values;
  values.reserve(numBatch * m * n);
  for (int64_t bi = 0; bi < numBatch; ++bi) {
    SmallVector<int64_t> index = unflatten(bi, batch);
    int64_t lBase = broadcastIndex(batch, lb, index) * m * k;
    int64_t rBase = broadcastIndex(batch, rb, index) * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T acc = Arith<T>::zero(type.getElementType());
        for (int64_t x = 0; x < k; ++x)
          acc = Arith<T>::add(
              acc, Arith<T>::mul(l[lBase + i * k + x], r[rBase + x * n + j]));
        values.push_back(acc);
      }
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult MatmulOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr lhs = getDenseElements(adaptor.getLhs());
  DenseElementsAttr rhs = getDenseElements(adaptor.getRhs());
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!lhs || !rhs || !type || !type.hasStaticShape() || type.getEncoding() ||
      type.getNumElements() > kMaxFoldElements ||
      lhs.getElementType() != type.getElementType() ||
      rhs.getElementType() != type.getElementType())
    return {};
  Type elementType = type.getElementType();
  if (isa<FloatType>(elementType))
    return foldMatmul<APFloat>(type, lhs, rhs);
  if (isa<IntegerType>(elementType))
    return foldMatmul<APInt>(type, lhs, rhs);
  return {};
}

//===----------------------------------------------------------------------===//
// PReLU and image resizing
//===----------------------------------------------------------------------===//

LogicalResult PReluOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  PReluOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto data = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto alpha = dyn_cast<RankedTensorType>(adaptor.getAlpha().getType());
  if (!data || !alpha)
    return emitOptionalError(location, "operands must be ranked tensors");
  ErrorText error;
  FailureOr<int64_t> axis =
      nn::normalizeAxis(adaptor.getAxis(), data.getRank(), "axis", error);
  if (failed(axis) ||
      failed(nn::checkChannelVector(data.getShape(), *axis, alpha.getShape(),
                                    "alpha", error)))
    return emitOptionalError(location, error.text);
  if (alpha.getElementType() != data.getElementType())
    return emitOptionalError(location, "element types differ: data ",
                             data.getElementType(), " vs alpha ",
                             alpha.getElementType());
  inferredReturnTypes.push_back(data);
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  AttentionOp::Adaptor adaptor(operands, attributes, properties, regions);
  std::pair<Value, StringRef> inputs[] = {{adaptor.getQuery(), "query"},
                                          {adaptor.getKey(), "key"},
                                          {adaptor.getValue(), "value"}};
  SymbolScope scope(context);
  SmallVector<SymShape> shapes;
  Type elementType;
  for (auto [value, what] : inputs) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return emitOptionalError(location, "operands must be ranked tensors");
    if (type.getRank() != 4)
      return emitOptionalError(location, what,
                               " must have rank 4 (batch, sequence, heads, "
                               "head dimension), got rank ",
                               type.getRank());
    if (!isa<Float16Type, BFloat16Type, Float32Type>(type.getElementType()))
      return emitOptionalError(location, what,
                               " must hold float16, bfloat16 or float32, got ",
                               type.getElementType());
    if (elementType && type.getElementType() != elementType)
      return emitOptionalError(location, what, " has element type ",
                               type.getElementType(), " but query has ",
                               elementType);
    elementType = type.getElementType();
    shapes.push_back(getSymbolicShape(type, scope));
  }
  const SymShape &q = shapes[0], &k = shapes[1], &v = shapes[2];
  // (operand, dimension, operand, dimension, what): dimensions that must
  // agree.
  struct Agreement {
    unsigned lhs, lhsDim, rhs, rhsDim;
    StringRef what;
  };
  const Agreement agreements[] = {
      {0, 0, 1, 0, "batch size"},      {0, 0, 2, 0, "batch size"},
      {0, 2, 1, 2, "number of heads"}, {0, 2, 2, 2, "number of heads"},
      {0, 3, 1, 3, "head dimension"},  {1, 1, 2, 1, "sequence length"}};
  for (const Agreement &a : agreements) {
    SymDim lhs = shapes[a.lhs][a.lhsDim], rhs = shapes[a.rhs][a.rhsDim];
    if (lhs && rhs && lhs != rhs)
      return emitOptionalError(
          location, std::get<1>(inputs[a.lhs]), " and ",
          std::get<1>(inputs[a.rhs]), " differ in ", a.what, ": ",
          std::get<1>(inputs[a.lhs]), " dimension ", a.lhsDim, " is ",
          scope.print(lhs), ", ", std::get<1>(inputs[a.rhs]), " dimension ",
          a.rhsDim, " is ", scope.print(rhs));
  }
  if (Value bias = adaptor.getBias()) {
    auto type = dyn_cast<RankedTensorType>(bias.getType());
    if (!type)
      return emitOptionalError(location, "operands must be ranked tensors");
    if (type.getElementType() != elementType)
      return emitOptionalError(location, "bias has element type ",
                               type.getElementType(), " but query has ",
                               elementType);
    SymShape scores{q[0], q[2], q[1], k[1]};
    SymShape biasShape = getSymbolicShape(type, scope);
    FailureOr<SymShape> broadcast =
        broadcastOrError(location, scope, biasShape, scores);
    if (failed(broadcast))
      return failure();
    if (*broadcast != scores)
      return emitOptionalError(location, "bias of shape ",
                               shapeString(scope, biasShape),
                               " does not broadcast to the scores' shape ",
                               shapeString(scope, scores));
  }
  if (FloatAttr scale = adaptor.getScaleAttr();
      scale && !std::isfinite(scale.getValueAsDouble()))
    return emitOptionalError(location, "scale must be finite, got ",
                             scale.getValueAsDouble());
  if (StringAttr mask = adaptor.getCausalMaskAttr();
      mask && mask.getValue() != "TopLeft" && mask.getValue() != "BottomRight")
    return emitOptionalError(location,
                             "causal_mask must be \"TopLeft\" or "
                             "\"BottomRight\", got \"",
                             mask.getValue(), "\"");
  inferredReturnTypes.push_back(
      getSymbolicTensorType({q[0], q[1], q[2], v[3]}, elementType, scope));
  return success();
}

LogicalResult Resize2DOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Resize2DOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto type = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  if (!type)
    return emitOptionalError(location, "operand must be a ranked tensor");
  ErrorText error;
  FailureOr<SmallVector<int64_t, 4>> perm =
      nn::getLayoutPermutation(adaptor.getLayout(), "NCHW", "layout", error);
  if (failed(perm))
    return emitOptionalError(location, error.text);
  if (type.getRank() != 4)
    return emitOptionalError(location, "data must be a 4-D tensor (",
                             adaptor.getLayout(), ") but has rank ",
                             type.getRank());
  if (!adaptor.getSizeAttr())
    return emitOptionalError(location, "relax.image.resize2d needs a 'size'");
  ArrayRef<int64_t> size = adaptor.getSize();
  if (size.empty() || size.size() > 2 ||
      llvm::any_of(size, [](int64_t v) { return v < 1; })) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(size, os);
    return emitOptionalError(
        location, "size must have 1 or 2 values >= 1 but is [", text, "]");
  }
  if (adaptor.getRoi().size() != 4)
    return emitOptionalError(location,
                             "roi must have 4 values (start_h, start_w, end_h, "
                             "end_w) but has ",
                             adaptor.getRoi().size());
  StringRef method = adaptor.getMethod();
  if (!llvm::is_contained({"nearest_neighbor", "linear", "cubic"}, method))
    return emitOptionalError(
        location, "method must be nearest_neighbor, linear or cubic, not '",
        method, "'");
  StringRef mode = adaptor.getCoordinateTransformationMode();
  if (!llvm::is_contained({"half_pixel", "align_corners", "asymmetric",
                           "pytorch_half_pixel", "tf_half_pixel_for_nn",
                           "tf_crop_and_resize"},
                          mode))
    return emitOptionalError(
        location,
        "coordinate_transformation_mode must be half_pixel, align_corners, "
        "asymmetric, pytorch_half_pixel, tf_half_pixel_for_nn or "
        "tf_crop_and_resize, not '",
        mode, "'");
  StringRef rounding = adaptor.getRoundingMethod();
  if (!llvm::is_contained({"", "round", "round_prefer_floor",
                           "round_prefer_ceil", "floor", "ceil"},
                          rounding))
    return emitOptionalError(
        location,
        "rounding_method must be round, round_prefer_floor, round_prefer_ceil, "
        "floor, ceil or empty, not '",
        rounding, "'");
  Type elementType = type.getElementType();
  if (TypeAttr outDtype = adaptor.getOutDtypeAttr())
    elementType = outDtype.getValue();
  if (!elementType.isIntOrFloat())
    return emitOptionalError(location,
                             "out_dtype must be an integer or float "
                             "type, not '",
                             elementType, "'");
  // N and C keep their (symbolic) sizes; H and W become `size`.
  SmallVector<int64_t> sizes(type.getShape());
  SmallVector<int64_t> source = {0, 1, 2, 3};
  int64_t h = (*perm)[2], w = (*perm)[3];
  sizes[h] = size[0];
  sizes[w] = size.back();
  source[h] = source[w] = -1;
  inferredReturnTypes.push_back(
      passThroughType(context, type, sizes, source, elementType));
  return success();
}
