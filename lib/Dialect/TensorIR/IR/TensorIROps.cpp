//===- TensorIROps.cpp - tensorir dialect operations ------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlc::tensorir;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The name written after `%` in the source, or "" when it is a number.
static StringRef getSourceName(const OpAsmParser::UnresolvedOperand &operand) {
  StringRef name = operand.name;
  name.consume_front("%");
  if (name.empty() || llvm::all_of(name, llvm::isDigit))
    return "";
  return name;
}

/// Parses `integer | ssa-value` into `staticValue` (ShapedType::kDynamic when
/// it is a value) and `dynamicValues`.
static ParseResult
parseIndexOrValue(OpAsmParser &parser, int64_t &staticValue,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamic) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult res = parser.parseOptionalOperand(operand);
  if (res.has_value()) {
    if (failed(*res))
      return failure();
    dynamic.push_back(operand);
    staticValue = ShapedType::kDynamic;
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseInteger(staticValue)))
    return failure();
  // INT64_MIN marks a dynamic value in the static list.
  if (ShapedType::isDynamic(staticValue))
    return parser.emitError(loc, "integer ")
           << staticValue << " is out of range (it marks a dynamic value)";
  return success();
}

static void printOpFoldResult(OpAsmPrinter &p, OpFoldResult ofr) {
  if (auto attr = dyn_cast<Attribute>(ofr))
    p << cast<IntegerAttr>(attr).getInt();
  else
    p << cast<Value>(ofr);
}

//===----------------------------------------------------------------------===//
// PrimFuncOp
//===----------------------------------------------------------------------===//

void PrimFuncOp::build(OpBuilder &builder, OperationState &state,
                       StringRef name, TypeRange argTypes,
                       ArrayRef<NamedAttribute> attrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name),
                     TypeAttr::get(builder.getFunctionType(argTypes, {})));
  state.attributes.append(attrs.begin(), attrs.end());
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type type : argTypes)
    entry->addArgument(type, state.location);
  ensureTerminator(*body, builder, state.location);
}

ParseResult PrimFuncOp::parse(OpAsmParser &parser, OperationState &result) {
  // As function_interface_impl::parseFunctionOp, but keeping the argument
  // names as `tensorir.name` argument attributes.
  Builder &builder = parser.getBuilder();
  (void)mlir::impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  StringAttr argNameAttrName =
      builder.getStringAttr(TensorIRDialect::getArgNameAttrName());
  for (OpAsmParser::Argument &arg : args) {
    StringRef name = getSourceName(arg.ssaName);
    if (name.empty() || (arg.attrs && arg.attrs.get(argNameAttrName)))
      continue;
    NamedAttrList attrs(arg.attrs);
    attrs.set(argNameAttrName, builder.getStringAttr(name));
    arg.attrs = attrs.getDictionary(builder.getContext());
  }
  SmallVector<Type> argTypes =
      llvm::map_to_vector(args, [](auto &arg) { return arg.type; });
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argTypes, resultTypes)));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(builder, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));
  Region *body = result.addRegion();
  OptionalParseResult parsed = parser.parseOptionalRegion(*body, args);
  if (!parsed.has_value())
    return parser.emitError(parser.getNameLoc(),
                            "expects a body: a prim_func cannot be a "
                            "declaration");
  if (failed(*parsed))
    return failure();
  ensureTerminator(*body, builder, result.location);
  return success();
}

void PrimFuncOp::print(OpAsmPrinter &p) {
  p << " ";
  if (auto visibility = getSymVisibilityAttr())
    p << visibility.getValue() << " ";
  p.printSymbolName(getSymName());
  p << "(";
  Block &entry = getBody().front();
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i) {
    if (i)
      p << ", ";
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr :
         cast<FunctionOpInterface>(getOperation()).getArgAttrs(i))
      if (attr.getName() != TensorIRDialect::getArgNameAttrName())
        attrs.push_back(attr);
    if (i < entry.getNumArguments())
      p.printRegionArgument(entry.getArgument(i), attrs);
  }
  p << ")";
  if (!getResultTypes().empty()) {
    p << " -> (";
    llvm::interleaveComma(getResultTypes(), p);
    p << ")";
  }
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymVisibilityAttrName(), getFunctionTypeAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

void PrimFuncOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.getArguments()) {
    if (arg.getArgNumber() >= getNumArguments())
      break;
    if (auto name = getArgAttrOfType<StringAttr>(
            arg.getArgNumber(), TensorIRDialect::getArgNameAttrName());
        name && !name.empty())
      setNameFn(arg, name.getValue());
  }
}

/// Whether `type` is, or holds elements of, a zero-width integer: no TVM
/// dtype, and LLVM cannot load or store one (its optimizer crashes).
static bool hasZeroWidthElements(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.getWidth() == 0;
}

LogicalResult PrimFuncOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("has ") << type.getNumResults()
                               << " results, but a prim_func returns nothing: "
                                  "outputs are buffer arguments";
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    if (!isa<MemRefType, IndexType, IntegerType, FloatType>(argType))
      return emitOpError("argument #")
             << i << " has type " << argType
             << ", expected a buffer (memref) or a scalar (index, integer, "
                "float)";
    if (hasZeroWidthElements(argType))
      return emitOpError("argument #")
             << i << " has type " << argType
             << ", whose zero-width integers are no TVM dtype";
  }
  return success();
}

LogicalResult PrimFuncOp::verifyRegions() {
  llvm::StringMap<BlockOp> seen;
  WalkResult result = walk([&](BlockOp block) {
    auto [it, inserted] = seen.try_emplace(block.getName(), block);
    if (!inserted) {
      InFlightDiagnostic diag = block.emitOpError("name '")
                                << block.getName()
                                << "' is already used by another block in "
                                   "prim_func @"
                                << getSymName();
      diag.attachNote(it->second.getLoc())
          << "previous block named '" << block.getName() << "' is here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

BlockOp PrimFuncOp::lookupBlock(StringRef name) {
  BlockOp found;
  walk([&](BlockOp block) {
    if (block.getName() != name)
      return WalkResult::advance();
    found = block;
    return WalkResult::interrupt();
  });
  return found;
}

//===----------------------------------------------------------------------===//
// AllocBufferOp
//===----------------------------------------------------------------------===//

ParseResult AllocBufferOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> sizes;
  MemRefType type;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::OptionalParen,
                                     [&]() -> ParseResult {
                                       return parser.parseOperand(
                                           sizes.emplace_back());
                                     }) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(sizes, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  result.addTypes(type);
  StringRef name = parser.getResultName(0).first;
  if (!name.empty() && !llvm::all_of(name, llvm::isDigit) &&
      !result.attributes.get(getNameAttrName(result.name)))
    result.addAttribute(getNameAttrName(result.name),
                        parser.getBuilder().getStringAttr(name));
  return success();
}

void AllocBufferOp::print(OpAsmPrinter &p) {
  if (!getDynamicSizes().empty())
    p << "(" << getDynamicSizes() << ")";
  p.printOptionalAttrDict((*this)->getAttrs(), {getNameAttrName()});
  p << " : " << getBuffer().getType();
}

void AllocBufferOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (auto name = getName(); name && !name->empty())
    setNameFn(getBuffer(), *name);
}

LogicalResult AllocBufferOp::verify() {
  MemRefType type = getBuffer().getType();
  if (static_cast<int64_t>(getDynamicSizes().size()) !=
      static_cast<int64_t>(type.getNumDynamicDims()))
    return emitOpError("has ")
           << getDynamicSizes().size() << " dynamic sizes, but " << type
           << " has " << type.getNumDynamicDims() << " dynamic dimensions";
  if (hasZeroWidthElements(type))
    return emitOpError("allocates ")
           << type << ", whose zero-width integers are no TVM dtype";
  Operation *parent = (*this)->getParentOp();
  if (!isa_and_nonnull<PrimFuncOp, BlockOp>(parent))
    return emitOpError("must be directly inside a 'tensorir.prim_func' or a "
                       "'tensorir.block' (its scope), not inside '")
           << (parent ? parent->getName().getStringRef() : "<none>") << "'";
  if (getScope() && !isKnownStorageScope(*getScope()))
    return emitOpError("has unknown storage scope \"")
           << *getScope()
           << "\" (expected global, shared, shared.dyn or local)";
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

void ForOp::build(
    OpBuilder &builder, OperationState &state, OpFoldResult lowerBound,
    OpFoldResult upperBound, OpFoldResult step, ForKind kind,
    StringRef threadTag,
    function_ref<void(OpBuilder &, Location, Value)> bodyBuilder) {
  if (!step)
    step = builder.getIndexAttr(1);
  SmallVector<Value> dynamic;
  SmallVector<int64_t> staticBounds;
  dispatchIndexOpFoldResults({lowerBound, upperBound, step}, dynamic,
                             staticBounds);
  state.addOperands(dynamic);
  state.addAttribute(getStaticBoundsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(staticBounds));
  state.addAttribute(getKindAttrName(state.name),
                     ForKindAttr::get(builder.getContext(), kind));
  if (!threadTag.empty())
    state.addAttribute(getThreadTagAttrName(state.name),
                       builder.getStringAttr(threadTag));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  block->addArgument(builder.getIndexType(), state.location);
  ensureTerminator(*body, builder, state.location);
  if (bodyBuilder) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    bodyBuilder(builder, state.location, block->getArgument(0));
  }
}

static OpFoldResult getMixedBound(ForOp op, unsigned index) {
  ArrayRef<int64_t> bounds = op.getStaticBounds();
  if (index >= bounds.size())
    return {};
  if (!ShapedType::isDynamic(bounds[index]))
    return IntegerAttr::get(IndexType::get(op.getContext()), bounds[index]);
  unsigned dynIndex = llvm::count_if(bounds.take_front(index), [](int64_t b) {
    return ShapedType::isDynamic(b);
  });
  if (dynIndex >= op.getDynamicBounds().size())
    return {};
  return op.getDynamicBounds()[dynIndex];
}

OpFoldResult ForOp::getLowerBound() { return getMixedBound(*this, 0); }
OpFoldResult ForOp::getUpperBound() { return getMixedBound(*this, 1); }
OpFoldResult ForOp::getStep() { return getMixedBound(*this, 2); }
std::optional<int64_t> ForOp::getConstantLowerBound() {
  return getConstantIntValue(getLowerBound());
}
std::optional<int64_t> ForOp::getConstantUpperBound() {
  return getConstantIntValue(getUpperBound());
}
std::optional<int64_t> ForOp::getConstantStep() {
  return getConstantIntValue(getStep());
}

std::optional<SmallVector<Value>> ForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}
std::optional<SmallVector<OpFoldResult>> ForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{getLowerBound()};
}
std::optional<SmallVector<OpFoldResult>> ForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{getUpperBound()};
}
std::optional<SmallVector<OpFoldResult>> ForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{getStep()};
}
SmallVector<Region *> ForOp::getLoopRegions() { return {&getBody()}; }

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  if (auto name = getIvName(); name && !name->empty() && !region.empty() &&
                               region.getNumArguments() == 1)
    setNameFn(region.getArgument(0), *name);
}

static bool isValidThreadTag(StringRef tag) {
  return llvm::is_contained({"blockIdx.x", "blockIdx.y", "blockIdx.z",
                             "threadIdx.x", "threadIdx.y", "threadIdx.z",
                             "vthread", "vthread.x", "vthread.y", "vthread.z"},
                            tag);
}

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  OpAsmParser::Argument iv;
  iv.type = builder.getIndexType();
  SmallVector<int64_t, 3> staticBounds(3, 1);
  SmallVector<OpAsmParser::UnresolvedOperand, 3> dynamic;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parseIndexOrValue(parser, staticBounds[0], dynamic) ||
      parser.parseKeyword("to") ||
      parseIndexOrValue(parser, staticBounds[1], dynamic))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("step")) &&
      parseIndexOrValue(parser, staticBounds[2], dynamic))
    return failure();

  StringRef kindName;
  ForKind kind = ForKind::serial;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&kindName,
                                            {"serial", "parallel", "vectorized",
                                             "unrolled", "thread_binding"}))) {
    kind = *symbolizeForKind(kindName);
    if (kind == ForKind::thread_binding) {
      std::string tag;
      if (parser.parseLParen() || parser.parseString(&tag) ||
          parser.parseRParen())
        return failure();
      if (!isValidThreadTag(tag))
        return parser.emitError(kindLoc, "unknown thread tag \"")
               << tag
               << "\", expected blockIdx.{x,y,z}, threadIdx.{x,y,z} or "
                  "vthread[.{x,y,z}]";
      result.addAttribute(getThreadTagAttrName(result.name),
                          builder.getStringAttr(tag));
    }
  }
  if (succeeded(parser.parseOptionalKeyword("annotations"))) {
    DictionaryAttr annotations;
    if (parser.parseAttribute(annotations))
      return failure();
    result.addAttribute(getAnnotationsAttrName(result.name), annotations);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  ensureTerminator(*body, builder, result.location);

  if (parser.resolveOperands(dynamic, builder.getIndexType(), result.operands))
    return failure();
  result.addAttribute(getStaticBoundsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(staticBounds));
  result.addAttribute(getKindAttrName(result.name),
                      ForKindAttr::get(builder.getContext(), kind));
  if (StringRef name = getSourceName(iv.ssaName);
      !name.empty() && !result.attributes.get(getIvNameAttrName(result.name)))
    result.addAttribute(getIvNameAttrName(result.name),
                        builder.getStringAttr(name));
  return success();
}

void ForOp::print(OpAsmPrinter &p) {
  p << " " << getInductionVar() << " = ";
  printOpFoldResult(p, getLowerBound());
  p << " to ";
  printOpFoldResult(p, getUpperBound());
  if (getConstantStep() != 1) {
    p << " step ";
    printOpFoldResult(p, getStep());
  }
  if (getKind() != ForKind::serial) {
    p << " " << stringifyForKind(getKind());
    if (getKind() == ForKind::thread_binding) {
      p << "(";
      p.printString(getThreadTag().value_or(""));
      p << ")";
    }
  }
  if (auto annotations = getAnnotationsAttr()) {
    p << " annotations ";
    p.printAttribute(annotations);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getStaticBoundsAttrName(), getKindAttrName(), getThreadTagAttrName(),
       getAnnotationsAttrName(), getIvNameAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ForOp::verify() {
  ArrayRef<int64_t> bounds = getStaticBounds();
  if (bounds.size() != 3)
    return emitOpError("expects 3 static bounds (lower, upper, step), got ")
           << bounds.size();
  int64_t numDynamic = llvm::count_if(
      bounds, [](int64_t b) { return ShapedType::isDynamic(b); });
  if (numDynamic != static_cast<int64_t>(getDynamicBounds().size()))
    return emitOpError("has ")
           << getDynamicBounds().size() << " dynamic bound operands, but "
           << numDynamic << " bounds are marked dynamic";
  if (std::optional<int64_t> step = getConstantStep(); step && *step <= 0)
    return emitOpError("step must be positive, got ") << *step;
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError(
        "body must have exactly one 'index' argument (the induction variable)");
  bool isThreadBinding = getKind() == ForKind::thread_binding;
  if (isThreadBinding && !getThreadTag())
    return emitOpError("kind thread_binding requires a thread tag");
  if (!isThreadBinding && getThreadTag())
    return emitOpError("has thread tag \"")
           << *getThreadTag() << "\" but kind " << stringifyForKind(getKind())
           << "; only thread_binding loops are bound to threads";
  if (isThreadBinding && !isValidThreadTag(*getThreadTag()))
    return emitOpError("unknown thread tag \"")
           << *getThreadTag()
           << "\", expected blockIdx.{x,y,z}, threadIdx.{x,y,z} or "
              "vthread[.{x,y,z}]";
  return success();
}

//===----------------------------------------------------------------------===//
// BlockOp
//===----------------------------------------------------------------------===//

void BlockOp::build(
    OpBuilder &builder, OperationState &state, StringRef name,
    ArrayRef<IterVarType> iterTypes, ArrayRef<OpFoldResult> extents,
    ValueRange bindings,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyBuilder) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Value> dynamicExtents;
  SmallVector<int64_t> staticExtents;
  dispatchIndexOpFoldResults(extents, dynamicExtents, staticExtents);
  state.addOperands(dynamicExtents);
  state.addOperands(bindings);
  state.addAttribute(getNameAttrName(state.name), builder.getStringAttr(name));
  state.addAttribute(getIterTypesAttrName(state.name),
                     builder.getArrayAttr(llvm::map_to_vector(
                         iterTypes, [&](IterVarType t) -> Attribute {
                           return IterVarTypeAttr::get(ctx, t);
                         })));
  state.addAttribute(getStaticExtentsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(staticExtents));
  state.addAttribute(getOperandSegmentSizeAttr(),
                     builder.getDenseI32ArrayAttr(
                         {static_cast<int32_t>(dynamicExtents.size()),
                          static_cast<int32_t>(bindings.size()), 0, 0, 0}));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0, e = iterTypes.size(); i < e; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  ensureTerminator(*body, builder, state.location);
  if (bodyBuilder) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    bodyBuilder(builder, state.location, block->getArguments());
  }
}

IterVarType BlockOp::getIterVarType(unsigned i) {
  return cast<IterVarTypeAttr>(getIterTypes()[i]).getValue();
}

bool BlockOp::hasReduceIterVars() {
  for (unsigned i = 0, e = getNumIterVars(); i < e; ++i)
    if (isReduceIterVar(i))
      return true;
  return false;
}

OpFoldResult BlockOp::getExtent(unsigned i) {
  ArrayRef<int64_t> extents = getStaticExtents();
  if (!ShapedType::isDynamic(extents[i]))
    return IntegerAttr::get(IndexType::get(getContext()), extents[i]);
  unsigned dynIndex = llvm::count_if(extents.take_front(i), [](int64_t e) {
    return ShapedType::isDynamic(e);
  });
  return getDynamicExtents()[dynIndex];
}

std::optional<int64_t> BlockOp::getConstantExtent(unsigned i) {
  return getConstantIntValue(getExtent(i));
}

InitOp BlockOp::getInitOp() {
  Block &body = getBody().front();
  if (body.empty())
    return {};
  return dyn_cast<InitOp>(body.front());
}

Region *BlockOp::getInitRegion() {
  InitOp init = getInitOp();
  return init ? &init.getBody() : nullptr;
}

std::string BlockOp::getIterVarDisplayName(unsigned i) {
  std::string result = "#" + std::to_string(i);
  if (auto names = getIterVarNames(); names && i < names->size())
    result += " '" + cast<StringAttr>((*names)[i]).getValue().str() + "'";
  return result;
}

void BlockOp::setReadRegions(ValueRange buffers, ArrayRef<Attribute> regions) {
  getReadBuffersMutable().assign(buffers);
  setReadsAttr(ArrayAttr::get(getContext(), regions));
}

void BlockOp::setWriteRegions(ValueRange buffers, ArrayRef<Attribute> regions) {
  getWriteBuffersMutable().assign(buffers);
  setWritesAttr(ArrayAttr::get(getContext(), regions));
}

void BlockOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  std::optional<ArrayAttr> names = getIterVarNames();
  if (!names || region.empty())
    return;
  for (auto [arg, name] : llvm::zip(region.getArguments(), *names))
    if (auto str = dyn_cast<StringAttr>(name); str && !str.empty())
      setNameFn(arg, str.getValue());
}

/// Parses `reads(...)`/`writes(...)` contents after the keyword:
///   `(` (buffer `[` dim-range (`,` dim-range)* `]`)* `:` types `)`
/// where dim-range is `affine-expr (`:` affine-expr)?` over the iteration
/// variables named in `iterVars`.
static ParseResult
parseRegionList(OpAsmParser &parser, ArrayRef<OpAsmParser::Argument> iterVars,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &buffers,
                SmallVectorImpl<Type> &types,
                SmallVectorImpl<Attribute> &regions) {
  MLIRContext *ctx = parser.getContext();
  unsigned numIterVars = iterVars.size();
  auto parseExpr = [&](AffineExpr &expr) -> ParseResult {
    SmallVector<OpAsmParser::UnresolvedOperand> dims, symbols;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseAffineExprOfSSAIds(dims, symbols, expr))
      return failure();
    if (!symbols.empty())
      return parser.emitError(loc, "buffer regions take no symbols, only "
                                   "iteration variables of the block");
    SmallVector<AffineExpr> replacements;
    for (const OpAsmParser::UnresolvedOperand &dim : dims) {
      const auto *it = llvm::find_if(iterVars, [&](const auto &arg) {
        return arg.ssaName.name == dim.name && arg.ssaName.number == dim.number;
      });
      if (it == iterVars.end())
        return parser.emitError(dim.location, "'")
               << dim.name
               << "' in a buffer region is not an iteration variable of "
                  "this block";
      replacements.push_back(getAffineDimExpr(it - iterVars.begin(), ctx));
    }
    expr = expr.replaceDims(replacements);
    return success();
  };

  auto parseEntry = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand buffer;
    SmallVector<AffineExpr> lower, upper;
    if (parser.parseOperand(buffer))
      return failure();
    auto parseDim = [&]() -> ParseResult {
      AffineExpr lo, hi;
      if (parseExpr(lo))
        return failure();
      if (succeeded(parser.parseOptionalColon())) {
        if (parseExpr(hi))
          return failure();
      } else {
        hi = lo + 1;
      }
      lower.push_back(lo);
      upper.push_back(hi);
      return success();
    };
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                       parseDim))
      return failure();
    buffers.push_back(buffer);
    regions.push_back(BufferRegionAttr::get(
        ctx, AffineMapAttr::get(AffineMap::get(numIterVars, 0, lower, ctx)),
        AffineMapAttr::get(AffineMap::get(numIterVars, 0, upper, ctx))));
    return success();
  };

  if (parser.parseLParen())
    return failure();
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(parseEntry) ||
      parser.parseColonTypeList(types) || parser.parseRParen())
    return failure();
  if (types.size() != buffers.size())
    return parser.emitError(loc, "expected ")
           << buffers.size() << " buffer types, got " << types.size();
  return success();
}

ParseResult BlockOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  MLIRContext *ctx = builder.getContext();
  std::string name;
  if (parser.parseString(&name))
    return failure();

  SmallVector<OpAsmParser::Argument> iterVars;
  SmallVector<Attribute> iterTypes, iterNames;
  SmallVector<int64_t> staticExtents;
  SmallVector<OpAsmParser::UnresolvedOperand> dynamicExtents, bindings;
  bool anyName = false;
  auto parseIterVar = [&]() -> ParseResult {
    OpAsmParser::Argument arg;
    arg.type = builder.getIndexType();
    StringRef kind;
    int64_t extent;
    OpAsmParser::UnresolvedOperand binding;
    if (parser.parseArgument(arg) || parser.parseEqual() ||
        parser.parseKeyword(&kind))
      return failure();
    std::optional<IterVarType> type = symbolizeIterVarType(kind);
    if (!type)
      return parser.emitError(parser.getCurrentLocation(),
                              "expected iteration variable kind 'spatial' "
                              "or 'reduce', got '")
             << kind << "'";
    if (parser.parseLParen() ||
        parseIndexOrValue(parser, extent, dynamicExtents) ||
        parser.parseComma() || parser.parseOperand(binding) ||
        parser.parseRParen())
      return failure();
    iterVars.push_back(arg);
    iterTypes.push_back(IterVarTypeAttr::get(ctx, *type));
    staticExtents.push_back(extent);
    bindings.push_back(binding);
    StringRef source = getSourceName(arg.ssaName);
    anyName |= !source.empty();
    iterNames.push_back(builder.getStringAttr(source));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::OptionalParen,
                                     parseIterVar))
    return failure();

  std::optional<OpAsmParser::UnresolvedOperand> predicate;
  if (succeeded(parser.parseOptionalKeyword("where"))) {
    predicate.emplace();
    if (parser.parseLParen() || parser.parseOperand(*predicate) ||
        parser.parseRParen())
      return failure();
  }

  SmallVector<OpAsmParser::UnresolvedOperand> readBuffers, writeBuffers;
  SmallVector<Type> readTypes, writeTypes;
  SmallVector<Attribute> reads, writes;
  bool hasReads = false, hasWrites = false;
  if (succeeded(parser.parseOptionalKeyword("reads"))) {
    hasReads = true;
    if (parseRegionList(parser, iterVars, readBuffers, readTypes, reads))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("writes"))) {
    hasWrites = true;
    if (parseRegionList(parser, iterVars, writeBuffers, writeTypes, writes))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("annotations"))) {
    DictionaryAttr annotations;
    if (parser.parseAttribute(annotations))
      return failure();
    result.addAttribute(getAnnotationsAttrName(result.name), annotations);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, iterVars))
    return failure();
  ensureTerminator(*body, builder, result.location);

  Type indexType = builder.getIndexType();
  if (parser.resolveOperands(dynamicExtents, indexType, result.operands) ||
      parser.resolveOperands(bindings, indexType, result.operands) ||
      (predicate && parser.resolveOperand(*predicate, builder.getI1Type(),
                                          result.operands)) ||
      parser.resolveOperands(readBuffers, readTypes, parser.getNameLoc(),
                             result.operands) ||
      parser.resolveOperands(writeBuffers, writeTypes, parser.getNameLoc(),
                             result.operands))
    return failure();

  result.addAttribute(getNameAttrName(result.name),
                      builder.getStringAttr(name));
  result.addAttribute(getIterTypesAttrName(result.name),
                      builder.getArrayAttr(iterTypes));
  result.addAttribute(getStaticExtentsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(staticExtents));
  if (hasReads)
    result.addAttribute(getReadsAttrName(result.name),
                        builder.getArrayAttr(reads));
  if (hasWrites)
    result.addAttribute(getWritesAttrName(result.name),
                        builder.getArrayAttr(writes));
  if (anyName && !result.attributes.get(getIterVarNamesAttrName(result.name)))
    result.addAttribute(getIterVarNamesAttrName(result.name),
                        builder.getArrayAttr(iterNames));
  result.addAttribute(
      getOperandSegmentSizeAttr(),
      builder.getDenseI32ArrayAttr(
          {static_cast<int32_t>(dynamicExtents.size()),
           static_cast<int32_t>(bindings.size()), predicate ? 1 : 0,
           static_cast<int32_t>(readBuffers.size()),
           static_cast<int32_t>(writeBuffers.size())}));
  return success();
}

static void printRegionList(OpAsmPrinter &p, BlockOp op, ValueRange buffers,
                            ArrayAttr regions) {
  ValueRange iterVars = op.getBody().getArguments();
  p << "(";
  llvm::interleaveComma(llvm::zip(buffers, regions), p, [&](auto pair) {
    auto [buffer, attr] = pair;
    p << buffer << "[";
    auto region = dyn_cast<BufferRegionAttr>(attr);
    AffineMap lower = region.getLowerBounds().getValue();
    AffineMap upper = region.getUpperBounds().getValue();
    for (unsigned d = 0, e = lower.getNumResults(); d < e; ++d) {
      if (d)
        p << ", ";
      AffineExpr lo = lower.getResult(d), hi = upper.getResult(d);
      p.printAffineExprOfSSAIds(lo, iterVars, {});
      AffineExpr size = simplifyAffineExpr(hi - lo, lower.getNumDims(), 0);
      if (auto cst = dyn_cast<AffineConstantExpr>(size);
          cst && cst.getValue() == 1)
        continue;
      p << ":";
      p.printAffineExprOfSSAIds(hi, iterVars, {});
    }
    p << "]";
  });
  if (!buffers.empty()) {
    p << " : ";
    llvm::interleaveComma(buffers.getTypes(), p);
  }
  p << ")";
}

void BlockOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printString(getName());
  unsigned n = getNumIterVars();
  if (n) {
    p << "(";
    for (unsigned i = 0; i < n; ++i) {
      if (i)
        p << ", ";
      p << getIterVar(i) << " = " << stringifyIterVarType(getIterVarType(i))
        << "(";
      printOpFoldResult(p, getExtent(i));
      p << ", " << getBindings()[i] << ")";
    }
    p << ")";
  }
  if (Value predicate = getPredicate())
    p << " where(" << predicate << ")";
  if (auto reads = getReadsAttr()) {
    p << " reads";
    printRegionList(p, *this, getReadBuffers(), reads);
  }
  if (auto writes = getWritesAttr()) {
    p << " writes";
    printRegionList(p, *this, getWriteBuffers(), writes);
  }
  if (auto annotations = getAnnotationsAttr()) {
    p << " annotations ";
    p.printAttribute(annotations);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getNameAttrName(), getIterTypesAttrName(), getStaticExtentsAttrName(),
       getReadsAttrName(), getWritesAttrName(), getAnnotationsAttrName(),
       getIterVarNamesAttrName(), getOperandSegmentSizeAttr()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

/// Verifies one list of buffer regions (`what` is "read" or "write").
static LogicalResult
verifyRegionList(BlockOp op, StringRef what, ValueRange buffers,
                 std::optional<ArrayAttr> regions,
                 ArrayRef<std::optional<IndexRange>> iterRanges) {
  if (!regions) {
    if (!buffers.empty())
      return op.emitOpError("has ") << buffers.size() << " " << what
                                    << " buffers but no " << what << " regions";
    return success();
  }
  if (regions->size() != buffers.size())
    return op.emitOpError("has ")
           << buffers.size() << " " << what << " buffers but "
           << regions->size() << " " << what << " regions";
  unsigned n = op.getNumIterVars();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(buffers, *regions))) {
    auto [buffer, attr] = pair;
    auto region = cast<BufferRegionAttr>(attr);
    auto type = cast<MemRefType>(buffer.getType());
    AffineMap lower = region.getLowerBounds().getValue();
    AffineMap upper = region.getUpperBounds().getValue();
    for (AffineMap map : {lower, upper}) {
      if (map.getNumDims() != n || map.getNumSymbols() != 0)
        return op.emitOpError() << what << " region #" << index
                                << " must be a function of the block's " << n
                                << " iteration variables (and no symbols), got "
                                << AffineMapAttr::get(map);
      if (map.getNumResults() != type.getRank())
        return op.emitOpError()
               << what << " region #" << index << " has " << map.getNumResults()
               << " dimensions but the buffer " << type << " has rank "
               << type.getRank();
    }
    for (int64_t d = 0; d < type.getRank(); ++d) {
      AffineExpr lo = lower.getResult(d), hi = upper.getResult(d);
      if (what == "write") {
        for (unsigned i = 0; i < n; ++i) {
          if (op.isReduceIterVar(i) &&
              (lo.isFunctionOfDim(i) || hi.isFunctionOfDim(i)))
            return op.emitOpError("reduce iteration variable ")
                   << op.getIterVarDisplayName(i) << " is used in dimension "
                   << d << " of write region #" << index
                   << "; reduce variables may only index what is read";
        }
      }
      AffineExpr size = simplifyAffineExpr(hi - lo, n, 0);
      if (auto cst = dyn_cast<AffineConstantExpr>(size);
          cst && cst.getValue() <= 0)
        return op.emitOpError()
               << what << " region #" << index << " is empty in dimension " << d
               << " (size " << cst.getValue() << ")";
      if (type.isDynamicDim(d))
        continue;
      std::optional<IndexRange> loRange = getStaticExprRange(lo, iterRanges);
      std::optional<IndexRange> hiRange = getStaticExprRange(hi, iterRanges);
      int64_t dimSize = type.getDimSize(d);
      if ((loRange && loRange->min < 0) || (hiRange && hiRange->max > dimSize))
        return op.emitOpError()
               << what << " region #" << index << " of dimension " << d
               << " ranges over ["
               << (loRange ? std::to_string(loRange->min) : std::string("?"))
               << ", "
               << (hiRange ? std::to_string(hiRange->max) : std::string("?"))
               << ") which is outside the buffer's [0, " << dimSize << ")";
    }
  }
  return success();
}

/// `range` as a half-open [min, max + 1), unless its end is past int64_t:
/// then closed, [min, max].
static void printIndexRange(InFlightDiagnostic &diag, const IndexRange &range) {
  diag << "[" << range.min << ", ";
  if (std::optional<int64_t> end = llvm::checkedAdd(range.max, int64_t(1)))
    diag << *end << ")";
  else
    diag << range.max << "]";
}

LogicalResult BlockOp::verify() {
  if (getName().empty())
    return emitOpError("name must not be empty");
  unsigned n = getNumIterVars();
  if (getStaticExtents().size() != n)
    return emitOpError("has ") << n << " iteration variable kinds but "
                               << getStaticExtents().size() << " extents";
  int64_t numDynamic = llvm::count_if(
      getStaticExtents(), [](int64_t e) { return ShapedType::isDynamic(e); });
  if (numDynamic != static_cast<int64_t>(getDynamicExtents().size()))
    return emitOpError("has ")
           << getDynamicExtents().size() << " dynamic extent operands but "
           << numDynamic << " extents are marked dynamic";
  if (getBindings().size() != n)
    return emitOpError("has ") << n << " iteration variables but "
                               << getBindings().size() << " bindings";
  Block &body = getBody().front();
  if (body.getNumArguments() != n ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError("body must have one 'index' argument per iteration "
                       "variable (")
           << n << "), got " << body.getNumArguments() << " arguments";
  if (auto names = getIterVarNames(); names && names->size() != n)
    return emitOpError("has ") << n << " iteration variables but "
                               << names->size() << " iteration variable names";

  // Domains and bindings.
  for (unsigned i = 0; i < n; ++i) {
    std::optional<int64_t> extent = getConstantExtent(i);
    if (extent && *extent <= 0)
      return emitOpError("iteration variable ")
             << getIterVarDisplayName(i) << " has extent " << *extent
             << ", expected a positive extent";
    if (!extent || getPredicate())
      continue;
    std::optional<IndexRange> range = getStaticIndexRange(getBindings()[i]);
    if (range && (range->min < 0 || range->max >= *extent)) {
      InFlightDiagnostic diag = emitOpError("binding of iteration variable ")
                                << getIterVarDisplayName(i) << " ranges over ";
      printIndexRange(diag, *range);
      return diag << ", outside its domain [0, " << *extent << ")";
    }
  }

  SmallVector<std::optional<IndexRange>> iterRanges = getIterVarRanges(*this);
  if (failed(verifyRegionList(*this, "read", getReadBuffers(), getReads(),
                              iterRanges)) ||
      failed(verifyRegionList(*this, "write", getWriteBuffers(), getWrites(),
                              iterRanges)))
    return failure();
  return success();
}

/// Whether `value` (used inside `block`) is computed from a reduce iteration
/// variable of `block`; sets `iterVar` to the first such variable.
static bool dependsOnReduceIterVar(Value value, BlockOp block,
                                   unsigned &iterVar,
                                   DenseMap<Value, int> &cache) {
  auto it = cache.find(value);
  if (it != cache.end()) {
    if (it->second >= 0)
      iterVar = it->second;
    return it->second >= 0;
  }
  int found = -1;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == block.getBodyBlock() &&
        block.isReduceIterVar(arg.getArgNumber()))
      found = arg.getArgNumber();
  } else if (Operation *def = value.getDefiningOp();
             def && block->isProperAncestor(def)) {
    cache[value] = -1; // Guards against cycles in graph regions.
    for (Value operand : def->getOperands()) {
      unsigned which;
      if (dependsOnReduceIterVar(operand, block, which, cache)) {
        found = which;
        break;
      }
    }
  }
  cache[value] = found;
  if (found >= 0)
    iterVar = found;
  return found >= 0;
}

/// The `tensorir.for` whose induction variable `value` is computed from, or
/// null. Looks through the operands of defining ops; a value produced by an op
/// with regions inside a loop (which could use the induction variable inside)
/// counts as depending on that loop.
static Operation *getLoopDependence(Value value,
                                    DenseMap<Value, Operation *> &cache,
                                    unsigned depth = 0) {
  if (auto it = cache.find(value); it != cache.end())
    return it->second;
  Operation *found = nullptr;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    found = dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp());
  } else if (Operation *def = value.getDefiningOp()) {
    if (def->getNumRegions() != 0 || depth > 64) {
      for (Operation *scope = def->getParentOp();
           scope && !isa<BlockOp, PrimFuncOp>(scope);
           scope = scope->getParentOp())
        if (isa<ForOp>(scope)) {
          found = scope;
          break;
        }
    } else {
      for (Value operand : def->getOperands())
        if ((found = getLoopDependence(operand, cache, depth + 1)))
          break;
    }
  }
  cache[value] = found;
  return found;
}

/// Checks that statically known indices of a load/store are in bounds.
static LogicalResult verifyAccessInBounds(Operation *access, BlockOp block,
                                          Value memref, ValueRange indices) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return success();
  for (auto [d, index] : llvm::enumerate(indices)) {
    if (type.isDynamicDim(d))
      continue;
    std::optional<IndexRange> range = getStaticIndexRange(index);
    int64_t size = type.getDimSize(d);
    if (range && (range->min < 0 || range->max >= size)) {
      InFlightDiagnostic diag = access->emitOpError("index ")
                                << d << " ranges over ";
      printIndexRange(diag, *range);
      return diag << " but dimension " << d << " of the buffer has size "
                  << size << " (in block '" << block.getName() << "')";
    }
  }
  return success();
}

LogicalResult BlockOp::verifyRegions() {
  // Accesses in the body (not in nested blocks, which check their own).
  DenseMap<Value, int> cache;
  WalkResult result =
      getBody().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        if (isa<BlockOp>(op))
          return WalkResult::skip();
        Value memref;
        ValueRange indices;
        bool isWrite = false;
        if (auto load = dyn_cast<memref::LoadOp>(op)) {
          memref = load.getMemRef();
          indices = load.getIndices();
        } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
          memref = store.getMemRef();
          indices = store.getIndices();
          isWrite = true;
        } else {
          return WalkResult::advance();
        }
        if (failed(verifyAccessInBounds(op, *this, memref, indices)))
          return WalkResult::interrupt();
        // A buffer allocated inside the block is scratch, not an output.
        Operation *alloc = memref.getDefiningOp();
        bool isLocal = alloc && (*this)->isProperAncestor(alloc);
        if (!isWrite || isLocal)
          return WalkResult::advance();
        for (auto [d, index] : llvm::enumerate(indices)) {
          unsigned iterVar;
          if (dependsOnReduceIterVar(index, *this, iterVar, cache)) {
            op->emitOpError("index ")
                << d << " of this write depends on reduce iteration variable "
                << getIterVarDisplayName(iterVar) << " of block '" << getName()
                << "'; reduce variables may only index what is read";
            return WalkResult::interrupt();
          }
        }
        return WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();

  // The body sees the enclosing loops only through the bindings.
  DenseMap<Value, Operation *> loopDeps;
  result = getBody().walk([&](Operation *op) -> WalkResult {
    for (Value operand : op->getOperands()) {
      Region *defRegion = operand.getParentRegion();
      if (!defRegion || getBody().isAncestor(defRegion))
        continue;
      auto loop = cast_or_null<ForOp>(getLoopDependence(operand, loopDeps));
      if (!loop)
        continue;
      InFlightDiagnostic diag =
          op->emitOpError("uses a value that depends on the induction "
                          "variable of an enclosing 'tensorir.for' of block '")
          << getName()
          << "'; the block body may only see loop variables through its "
             "iteration variable bindings";
      diag.attachNote(loop.getLoc()) << "loop is here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Canonicalization
//===----------------------------------------------------------------------===//

/// Moves constant operands of a mixed static/dynamic list into the static
/// part. Returns false if none is constant.
static bool foldConstantIndexOperands(SmallVectorImpl<int64_t> &staticValues,
                                      SmallVectorImpl<Value> &dynamicValues) {
  bool changed = false;
  SmallVector<Value> remaining;
  unsigned next = 0;
  for (int64_t &value : staticValues) {
    if (!ShapedType::isDynamic(value))
      continue;
    Value operand = dynamicValues[next++];
    APInt cst;
    // INT64_MIN stays an operand: as a static value it would read as
    // dynamic again, and the fold would repeat forever.
    if (matchPattern(operand, m_ConstantInt(&cst)) &&
        !ShapedType::isDynamic(cst.getSExtValue())) {
      value = cst.getSExtValue();
      changed = true;
    } else {
      remaining.push_back(operand);
    }
  }
  dynamicValues.assign(remaining);
  return changed;
}

namespace {
/// `tensorir.for %i = %c0 to %c128` -> `tensorir.for %i = 0 to 128`.
struct FoldConstantLoopBounds : public OpRewritePattern<ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ForOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> bounds = llvm::to_vector(op.getStaticBounds());
    SmallVector<Value> dynamic = llvm::to_vector(op.getDynamicBounds());
    if (!foldConstantIndexOperands(bounds, dynamic))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getDynamicBoundsMutable().assign(dynamic);
      op.setStaticBounds(bounds);
    });
    return success();
  }
};

/// `spatial(%c128, %i)` -> `spatial(128, %i)`.
struct FoldConstantBlockExtents : public OpRewritePattern<BlockOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> extents = llvm::to_vector(op.getStaticExtents());
    SmallVector<Value> dynamic = llvm::to_vector(op.getDynamicExtents());
    if (!foldConstantIndexOperands(extents, dynamic))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getDynamicExtentsMutable().assign(dynamic);
      op.setStaticExtents(extents);
    });
    return success();
  }
};

/// A block whose predicate is a constant: drop a true predicate, erase a
/// block that never runs.
struct FoldConstantBlockPredicate : public OpRewritePattern<BlockOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockOp op,
                                PatternRewriter &rewriter) const override {
    Value predicate = op.getPredicate();
    APInt cst;
    if (!predicate || !matchPattern(predicate, m_ConstantInt(&cst)))
      return failure();
    if (cst.isZero()) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.modifyOpInPlace(op, [&] { op.getPredicateMutable().clear(); });
    return success();
  }
};
} // namespace

void ForOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FoldConstantLoopBounds>(context);
}

void BlockOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<FoldConstantBlockExtents, FoldConstantBlockPredicate>(context);
}

//===----------------------------------------------------------------------===//
// InitOp
//===----------------------------------------------------------------------===//

void InitOp::build(OpBuilder &builder, OperationState &state,
                   function_ref<void(OpBuilder &, Location)> bodyBuilder) {
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  ensureTerminator(*body, builder, state.location);
  if (bodyBuilder) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    bodyBuilder(builder, state.location);
  }
}

LogicalResult InitOp::verify() {
  auto block = cast<BlockOp>((*this)->getParentOp());
  if (!block.hasReduceIterVars())
    return emitOpError("is only allowed in a block with a reduce iteration "
                       "variable, but block '")
           << block.getName() << "' has none";
  if (&block.getBodyBlock()->front() != getOperation())
    return emitOpError("must be the first op of block '")
           << block.getName() << "' (at most one init per block)";
  return success();
}

//===----------------------------------------------------------------------===//
// TableGen'd definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "mlc/Dialect/TensorIR/IR/TensorIROps.cpp.inc"
