//===- RelayImporter.cpp - TVM Relay text AST to relay ops ----------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Lowers the syntax tree of RelayParser to `func.func`s of relay ops.
//
// Ops are created generically: `"relay." + name` is looked up among the
// registered operations and its result types come from the op's own
// InferTypeOpInterface. Relay ops store their inherent attributes as
// properties, and InferTypeOpInterface::inferReturnTypes reads them from the
// OpaqueProperties argument, not from the attribute dictionary. MLIR's C API
// (`inferOperationTypes` in mlir/lib/CAPI/IR/IR.cpp) fills raw, unconstructed
// storage via setOpPropertiesFromAttribute and passes null properties when
// the dictionary is empty. Here the storage is constructed with defaults
// first (initOpProperties, which also applies ODS default values), then
// filled from the dictionary, given to inference, copied into the new
// operation by Operation::create and destroyed again.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/Relay/RelayImporter.h"

#include "RelayParser.h"

#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"
#include "mlc/Support/TensorFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/SourceMgr.h"

#include <map>

using namespace mlir;
using namespace mlc;
using namespace mlc::relay_text;
using llvm::SMLoc;

namespace {

/// A Relay value during import: one SSA value, or a tuple that is still
/// spread over several SSA values (op results, tuple literals). Spread tuples
/// become `relay.tuple` only where a single value is needed.
struct RValue {
  Value value;
  std::vector<RValue> fields;
  bool isTuple = false;
  /// Tuple nesting depth (0 for a single value); bounded by kMaxTupleDepth
  /// so that the recursive helpers cannot exhaust the stack.
  unsigned depth = 0;

  static RValue tuple(std::vector<RValue> fields) {
    RValue v;
    v.isTuple = true;
    for (const RValue &f : fields)
      v.depth = std::max(v.depth, f.depth + 1);
    v.fields = std::move(fields);
    return v;
  }
  static RValue single(Value value) {
    RValue v;
    v.value = value;
    return v;
  }
};

constexpr unsigned kMaxTupleDepth = 64;

/// Ops that return a Relay tuple even when it has one field.
bool isTupleOp(StringRef name) { return name == "split" || name == "meshgrid"; }

/// Names of the relay dialect's own structural ops, not TVM operators.
bool isStructuralOp(StringRef name) {
  return name == "constant" || name == "tuple" || name == "tuple_get_item";
}

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
           const RelayImportOptions &options, ModuleNode &ast)
      : sourceMgr(sourceMgr), context(context), options(options), ast(ast),
        builder(context) {}

  OwningOpRef<ModuleOp> run();

private:
  struct FuncInfo {
    const FuncNode *node = nullptr;
    func::FuncOp op;
    enum State { NotStarted, InProgress, Done } state = NotStarted;
    bool returnsTuple = false;
    bool hasResultType = false;
    /// Free variables of an expression program, appended to the parameters.
    std::vector<const Binding *> freeVars;
  };

  Location loc(SMLoc l) { return getLocation(sourceMgr, context, l); }
  InFlightDiagnostic emitError(SMLoc l) { return mlir::emitError(loc(l)); }
  std::string lineCol(SMLoc l) {
    auto [line, col] = sourceMgr.getLineAndColumn(l, sourceMgr.getMainFileID());
    return std::to_string(line) + ":" + std::to_string(col);
  }

  // Checks over the whole program before any IR is built.
  LogicalResult checkOperators();
  LogicalResult openMetaFile();
  void walkExprs(const Expr &expr, llvm::function_ref<void(const Expr &)> fn);

  // Types and attributes.
  FailureOr<Type> convertDType(StringRef dtype, SMLoc l);
  FailureOr<Type> convertType(const TypeNode &type);
  FailureOr<std::optional<Attribute>> convertAttr(StringRef key,
                                                  const AttrNode &attr);
  LogicalResult checkType(const RValue &value, const TypeNode &type, SMLoc l,
                          StringRef what);
  LogicalResult checkType(Type actual, const TypeNode &type, SMLoc l,
                          StringRef what);

  // Functions.
  LogicalResult declareFunctions();
  LogicalResult lowerFunction(FuncInfo &info);

  // Expressions.
  FailureOr<RValue> eval(const Expr &expr);
  FailureOr<RValue> evalSeq(const Expr &expr, bool topLevel);
  FailureOr<RValue> evalOpCall(const Expr &expr);
  FailureOr<RValue> evalFuncCall(const Expr &expr);
  FailureOr<RValue> evalLiteral(const Expr &expr);
  FailureOr<RValue> evalMeta(const Expr &expr);
  FailureOr<RValue> lookupVar(StringRef name, SMLoc l);
  FailureOr<RValue> project(const RValue &tuple, int64_t index, SMLoc l);
  FailureOr<Value> materialize(const RValue &value, SMLoc l);
  LogicalResult flatten(const RValue &value, SmallVectorImpl<Value> &out,
                        SMLoc l);

  /// Creates `relay.<name>` with inferred result types.
  FailureOr<Operation *> createOp(StringRef name, ValueRange operands,
                                  ArrayRef<NamedAttribute> attrs, SMLoc l);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const RelayImportOptions &options;
  ModuleNode &ast;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<FuncInfo> functions;
  llvm::StringMap<RValue> scope;
  std::unique_ptr<TensorFile> metaFile;
  std::map<int64_t, DenseResourceElementsAttr> metaCache;
};

} // namespace

//===----------------------------------------------------------------------===//
// Whole-program checks
//===----------------------------------------------------------------------===//

void Importer::walkExprs(const Expr &expr,
                         llvm::function_ref<void(const Expr &)> fn) {
  fn(expr);
  for (const Binding &b : expr.bindings)
    if (b.value)
      walkExprs(*b.value, fn);
  for (const ExprPtr &arg : expr.args)
    walkExprs(*arg, fn);
}

LogicalResult Importer::checkOperators() {
  // name -> locations, in order of first appearance.
  llvm::SmallVector<std::pair<std::string, std::vector<SMLoc>>> unknown;
  for (const FuncNode &func : ast.functions) {
    walkExprs(*func.body, [&](const Expr &e) {
      if (e.kind != Expr::Call || e.callee != Expr::OpCallee)
        return;
      bool known = false;
      if (!isStructuralOp(e.name)) {
        std::optional<RegisteredOperationName> op =
            RegisteredOperationName::lookup("relay." + e.name, context);
        known = op && op->hasInterface<InferTypeOpInterface>();
      }
      if (known)
        return;
      auto it = llvm::find_if(
          unknown, [&](auto &entry) { return entry.first == e.name; });
      if (it == unknown.end())
        unknown.push_back({e.name, {e.loc}});
      else
        it->second.push_back(e.loc);
    });
  }
  if (unknown.empty())
    return success();
  // One diagnostic that lists every unsupported operator and where it is used.
  std::string list;
  for (auto &[name, locs] : unknown) {
    if (!list.empty())
      list += "; ";
    list += "'" + name + "' at ";
    for (auto [i, l] : llvm::enumerate(locs))
      list += (i ? ", " : "") + lineCol(l);
  }
  emitError(unknown.front().second.front())
      << "unsupported Relay operator" << (unknown.size() > 1 ? "s" : "")
      << " (no relay op with type inference): " << list;
  return failure();
}

LogicalResult Importer::openMetaFile() {
  const Expr *firstMeta = nullptr;
  for (const FuncNode &func : ast.functions)
    walkExprs(*func.body, [&](const Expr &e) {
      if (e.kind == Expr::Meta && !firstMeta)
        firstMeta = &e;
    });
  if (!firstMeta) {
    if (!options.metaPath.empty())
      mlir::emitWarning(loc(SMLoc()))
          << "--relay-meta given but the program references no "
             "meta[relay.Constant]";
    return success();
  }
  if (options.metaPath.empty()) {
    InFlightDiagnostic diag = emitError(firstMeta->loc);
    diag << "meta[" << firstMeta->name << "][" << firstMeta->index
         << "] is referenced but no constants were given; pass "
            "--relay-meta=<file.npz|file.safetensors> holding it under the "
            "key \""
         << firstMeta->index << "\"";
    if (ast.hasMetadataSection)
      diag.attachNote(loc(ast.metadataLoc))
          << "the '#[metadata]' section is not read by the importer; save "
             "the constants with e.g. numpy.savez(path, **{str(i): "
             "c.data.numpy() for i, c in enumerate(constants)})";
    return failure();
  }
  llvm::Expected<std::unique_ptr<TensorFile>> file =
      TensorFile::open(options.metaPath);
  if (!file) {
    emitError(firstMeta->loc) << "cannot read --relay-meta file: "
                              << llvm::toString(file.takeError());
    return failure();
  }
  metaFile = std::move(*file);
  return success();
}

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

FailureOr<Type> Importer::convertDType(StringRef dtype, SMLoc l) {
  Type type = llvm::StringSwitch<Type>(dtype)
                  .Case("float16", Float16Type::get(context))
                  .Case("float32", Float32Type::get(context))
                  .Case("float64", Float64Type::get(context))
                  .Case("bfloat16", BFloat16Type::get(context))
                  .Case("bool", IntegerType::get(context, 1))
                  .Default(Type());
  if (type)
    return type;
  unsigned width;
  if (dtype.starts_with("int") &&
      !dtype.drop_front(3).getAsInteger(10, width) &&
      (width == 8 || width == 16 || width == 32 || width == 64))
    return Type(IntegerType::get(context, width));
  if (dtype.starts_with("uint") &&
      !dtype.drop_front(4).getAsInteger(10, width) &&
      (width == 8 || width == 16 || width == 32 || width == 64))
    return Type(IntegerType::get(context, width, IntegerType::Unsigned));
  emitError(l) << "unsupported dtype '" << dtype << "'";
  return failure();
}

FailureOr<Type> Importer::convertType(const TypeNode &type) {
  if (type.kind == TypeNode::Tuple) {
    SmallVector<Type> elements;
    for (const TypeNode &e : type.elements) {
      FailureOr<Type> t = convertType(e);
      if (failed(t))
        return failure();
      elements.push_back(*t);
    }
    return Type(TupleType::get(context, elements));
  }
  FailureOr<Type> element = convertDType(type.dtype, type.loc);
  if (failed(element))
    return failure();
  return Type(RankedTensorType::get(type.shape, *element));
}

FailureOr<std::optional<Attribute>>
Importer::convertAttr(StringRef key, const AttrNode &attr) {
  using Result = std::optional<Attribute>;
  // dtype-valued attributes are element types; "" (Relay's "same as the
  // input") and None mean absent.
  if (key == "dtype" || key == "out_dtype") {
    if (attr.kind == AttrNode::None)
      return Result();
    if (attr.kind != AttrNode::String) {
      emitError(attr.loc) << "attribute '" << key
                          << "' must be a dtype string such as \"float32\"";
      return failure();
    }
    if (attr.stringValue.empty())
      return Result();
    FailureOr<Type> type = convertDType(attr.stringValue, attr.loc);
    if (failed(type))
      return failure();
    return Result(TypeAttr::get(*type));
  }
  switch (attr.kind) {
  case AttrNode::None:
    return Result();
  case AttrNode::Int:
    return Result(builder.getI64IntegerAttr(attr.intValue));
  case AttrNode::Float:
    return Result(builder.getF64FloatAttr(attr.floatValue));
  case AttrNode::Bool:
    return Result(builder.getBoolAttr(attr.boolValue));
  case AttrNode::String:
    return Result(builder.getStringAttr(attr.stringValue));
  case AttrNode::List: {
    // (Nested) lists of integers, flattened row-major.
    SmallVector<int64_t> values;
    SmallVector<const AttrNode *> stack;
    for (const AttrNode &e : llvm::reverse(attr.elements))
      stack.push_back(&e);
    while (!stack.empty()) {
      const AttrNode *e = stack.pop_back_val();
      if (e->kind == AttrNode::List) {
        for (const AttrNode &inner : llvm::reverse(e->elements))
          stack.push_back(&inner);
        continue;
      }
      if (e->kind != AttrNode::Int) {
        emitError(e->loc) << "attribute '" << key
                          << "': only (nested) lists of integers are "
                             "supported";
        return failure();
      }
      values.push_back(e->intValue);
    }
    return Result(builder.getDenseI64ArrayAttr(values));
  }
  }
  return Result();
}

LogicalResult Importer::checkType(Type actual, const TypeNode &type, SMLoc l,
                                  StringRef what) {
  FailureOr<Type> expected = convertType(type);
  if (failed(expected))
    return failure();
  // Compatible: same structure and element types; a dynamic dimension on
  // either side matches any size.
  std::function<bool(Type, Type)> compatible = [&](Type a, Type b) {
    if (auto ta = dyn_cast<TupleType>(a)) {
      auto tb = dyn_cast<TupleType>(b);
      if (!tb || ta.size() != tb.size())
        return false;
      for (auto [x, y] : llvm::zip(ta.getTypes(), tb.getTypes()))
        if (!compatible(x, y))
          return false;
      return true;
    }
    auto ra = dyn_cast<RankedTensorType>(a);
    auto rb = dyn_cast<RankedTensorType>(b);
    if (!ra || !rb)
      return a == b;
    if (ra.getElementType() != rb.getElementType() ||
        ra.getRank() != rb.getRank())
      return false;
    for (auto [x, y] : llvm::zip(ra.getShape(), rb.getShape()))
      if (x != y && !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y))
        return false;
    return true;
  };
  if (compatible(actual, *expected))
    return success();
  emitError(l) << what << " has type " << actual << ", but is annotated as "
               << *expected;
  return failure();
}

LogicalResult Importer::checkType(const RValue &value, const TypeNode &type,
                                  SMLoc l, StringRef what) {
  if (!value.isTuple)
    return checkType(value.value.getType(), type, l, what);
  if (type.kind != TypeNode::Tuple ||
      type.elements.size() != value.fields.size()) {
    FailureOr<Type> expected = convertType(type);
    if (failed(expected))
      return failure();
    emitError(l) << what << " is a tuple of " << value.fields.size()
                 << " fields, but is annotated as " << *expected;
    return failure();
  }
  for (auto [i, field] : llvm::enumerate(value.fields))
    if (failed(checkType(field, type.elements[i], l,
                         (what + " field " + std::to_string(i)).str())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Op creation
//===----------------------------------------------------------------------===//

FailureOr<Operation *> Importer::createOp(StringRef name, ValueRange operands,
                                          ArrayRef<NamedAttribute> attrs,
                                          SMLoc l) {
  return createInferredOp(builder, loc(l), ("relay." + name).str(), operands,
                          attrs);
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::materialize(const RValue &value, SMLoc l) {
  if (!value.isTuple)
    return value.value;
  SmallVector<Value> fields;
  for (const RValue &field : value.fields) {
    FailureOr<Value> v = materialize(field, l);
    if (failed(v))
      return failure();
    fields.push_back(*v);
  }
  FailureOr<Operation *> op = createOp("tuple", fields, {}, l);
  if (failed(op))
    return failure();
  if ((*op)->getNumResults() != 1) {
    emitError(l) << "'relay.tuple' must have one result";
    return failure();
  }
  return (*op)->getResult(0);
}

LogicalResult Importer::flatten(const RValue &value,
                                SmallVectorImpl<Value> &out, SMLoc l) {
  if (value.isTuple) {
    for (const RValue &field : value.fields)
      if (failed(flatten(field, out, l)))
        return failure();
    return success();
  }
  if (auto tuple = dyn_cast<TupleType>(value.value.getType())) {
    // A tuple passed whole to an op: its fields become operands.
    for (size_t i = 0; i < tuple.size(); ++i) {
      FailureOr<RValue> field = project(value, i, l);
      if (failed(field) || failed(flatten(*field, out, l)))
        return failure();
    }
    return success();
  }
  out.push_back(value.value);
  return success();
}

FailureOr<RValue> Importer::project(const RValue &tuple, int64_t index,
                                    SMLoc l) {
  if (tuple.isTuple) {
    if (index < 0 || static_cast<size_t>(index) >= tuple.fields.size()) {
      emitError(l) << "tuple index " << index << " out of range for a tuple of "
                   << tuple.fields.size() << " fields";
      return failure();
    }
    return tuple.fields[index];
  }
  auto type = dyn_cast<TupleType>(tuple.value.getType());
  if (!type) {
    emitError(l) << "cannot take field " << index << " of a non-tuple value of "
                 << "type " << tuple.value.getType();
    return failure();
  }
  if (index < 0 || static_cast<size_t>(index) >= type.size()) {
    emitError(l) << "tuple index " << index << " out of range for " << type;
    return failure();
  }
  FailureOr<Operation *> op = createOp(
      "tuple_get_item", tuple.value,
      {builder.getNamedAttr("index", builder.getI64IntegerAttr(index))}, l);
  if (failed(op))
    return failure();
  if ((*op)->getNumResults() != 1) {
    emitError(l) << "'relay.tuple_get_item' must have one result";
    return failure();
  }
  return RValue::single((*op)->getResult(0));
}

FailureOr<RValue> Importer::lookupVar(StringRef name, SMLoc l) {
  auto it = scope.find(name);
  if (it != scope.end())
    return it->second;
  // `%x.0.1`: the lexer keeps dotted names whole; peel trailing indices
  // until a bound prefix remains, then project.
  SmallVector<int64_t> indices;
  StringRef prefix = name;
  while (indices.size() < 64) {
    size_t dot = prefix.rfind('.');
    if (dot == StringRef::npos)
      break;
    StringRef suffix = prefix.drop_front(dot + 1);
    int64_t index;
    if (suffix.empty() || suffix.size() > 9 ||
        !llvm::all_of(suffix, llvm::isDigit) || suffix.getAsInteger(10, index))
      break;
    indices.push_back(index);
    prefix = prefix.take_front(dot);
    auto found = scope.find(prefix);
    if (found == scope.end())
      continue;
    RValue value = found->second;
    for (int64_t i : llvm::reverse(indices)) {
      FailureOr<RValue> field = project(value, i, l);
      if (failed(field))
        return failure();
      value = std::move(*field);
    }
    return value;
  }
  emitError(l) << "use of undefined variable '%"
               << (name.size() > 80 ? name.take_front(77).str() + "..."
                                    : name.str())
               << "'";
  return failure();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<RValue> Importer::eval(const Expr &expr) {
  FailureOr<RValue> result = failure();
  switch (expr.kind) {
  case Expr::LocalVar:
    result = lookupVar(expr.name, expr.loc);
    break;
  case Expr::GlobalVar:
    emitError(expr.loc) << "global function '@" << expr.name
                        << "' used as a value; only calls are supported";
    return failure();
  case Expr::Literal:
    result = evalLiteral(expr);
    break;
  case Expr::Meta:
    result = evalMeta(expr);
    break;
  case Expr::Call:
    if (expr.callee == Expr::OpCallee)
      result = evalOpCall(expr);
    else if (expr.callee == Expr::GlobalCallee)
      result = evalFuncCall(expr);
    else {
      emitError(expr.loc) << "calling a function value is not supported; "
                             "call a global function ('@name(...)') or an "
                             "operator";
      return failure();
    }
    break;
  case Expr::Tuple: {
    std::vector<RValue> fields;
    for (const ExprPtr &arg : expr.args) {
      FailureOr<RValue> field = eval(*arg);
      if (failed(field))
        return failure();
      fields.push_back(std::move(*field));
    }
    result = RValue::tuple(std::move(fields));
    if (result->depth > kMaxTupleDepth) {
      emitError(expr.loc) << "tuples nested more than " << kMaxTupleDepth
                          << " levels deep are not supported";
      return failure();
    }
    break;
  }
  case Expr::Project: {
    FailureOr<RValue> base = eval(*expr.args[0]);
    if (failed(base))
      return failure();
    result = project(*base, expr.index, expr.loc);
    break;
  }
  case Expr::Seq:
    result = evalSeq(expr, /*topLevel=*/false);
    break;
  }
  if (failed(result))
    return failure();
  if (expr.annotatedType &&
      failed(checkType(*result, *expr.annotatedType, expr.loc,
                       expr.kind == Expr::Call && expr.callee == Expr::OpCallee
                           ? "the result of '" + expr.name + "'"
                           : std::string("the expression"))))
    return failure();
  return result;
}

FailureOr<RValue> Importer::evalSeq(const Expr &expr, bool topLevel) {
  for (const Binding &binding : expr.bindings) {
    if (binding.kind == Binding::FreeVar) {
      if (!topLevel) {
        emitError(binding.loc)
            << "'free_var' is only supported at the top of a function body";
        return failure();
      }
      continue; // bound as a parameter by lowerFunction
    }
    FailureOr<RValue> value = eval(*binding.value);
    if (failed(value))
      return failure();
    if (binding.type && failed(checkType(*value, *binding.type, binding.loc,
                                         "'%" + binding.name + "'")))
      return failure();
    scope[binding.name] = std::move(*value);
  }
  return eval(*expr.args[0]);
}

FailureOr<RValue> Importer::evalLiteral(const Expr &expr) {
  FailureOr<Type> elementType = convertDType(expr.dtype, expr.loc);
  if (failed(elementType))
    return failure();
  auto type = RankedTensorType::get({}, *elementType);
  Attribute element;
  if (auto floatType = dyn_cast<FloatType>(*elementType)) {
    if (!expr.isFloat) {
      emitError(expr.loc) << "integer literal with a float dtype";
      return failure();
    }
    element = FloatAttr::get(floatType, expr.floatValue);
  } else {
    auto intType = cast<IntegerType>(*elementType);
    unsigned width = intType.getWidth();
    int64_t v = expr.intValue;
    bool fits = intType.isUnsigned() || width == 1
                    ? v >= 0 && (width >= 64 || v < (int64_t(1) << width))
                    : width >= 64 || (v >= -(int64_t(1) << (width - 1)) &&
                                      v < (int64_t(1) << (width - 1)));
    if (expr.isFloat || !fits) {
      emitError(expr.loc) << "literal does not fit its dtype " << expr.dtype;
      return failure();
    }
    element = IntegerAttr::get(
        intType, APInt(width, static_cast<uint64_t>(v), /*isSigned=*/v < 0));
  }
  Attribute value = DenseElementsAttr::get(type, ArrayRef<Attribute>(element));
  FailureOr<Operation *> op = createOp(
      "constant", {}, {builder.getNamedAttr("value", value)}, expr.loc);
  if (failed(op))
    return failure();
  return RValue::single((*op)->getResult(0));
}

FailureOr<RValue> Importer::evalMeta(const Expr &expr) {
  if (expr.name != "relay.Constant") {
    emitError(expr.loc) << "unsupported metadata reference 'meta[" << expr.name
                        << "]'; only meta[relay.Constant][N]";
    return failure();
  }
  if (!metaFile) {
    emitError(expr.loc) << "no --relay-meta file for meta[relay.Constant]";
    return failure();
  }
  DenseResourceElementsAttr attr;
  auto cached = metaCache.find(expr.index);
  if (cached != metaCache.end()) {
    attr = cached->second;
  } else {
    std::string key = std::to_string(expr.index);
    if (!metaFile->contains(key)) {
      ArrayRef<std::string> names = metaFile->getNames();
      std::string available =
          llvm::join(names.take_front(std::min<size_t>(names.size(), 8)), ", ");
      if (names.size() > 8)
        available += ", ...";
      emitError(expr.loc) << "meta[relay.Constant][" << expr.index
                          << "]: no entry \"" << key << "\" in '"
                          << metaFile->getPath() << "' (entries: "
                          << (available.empty() ? "none" : available) << ")";
      return failure();
    }
    llvm::Expected<TensorView> view = metaFile->lookup(key);
    if (!view) {
      emitError(expr.loc) << "meta[relay.Constant][" << expr.index
                          << "]: " << llvm::toString(view.takeError());
      return failure();
    }
    if (expr.annotatedType &&
        failed(checkType(view->getType(context), *expr.annotatedType, expr.loc,
                         "meta[relay.Constant][" + key + "] from '" +
                             metaFile->getPath().str() + "'")))
      return failure();
    attr = TensorFile::getResourceAttr(*view, context, "relay_meta_" + key);
    metaCache[expr.index] = attr;
  }
  FailureOr<Operation *> op =
      createOp("constant", {}, {builder.getNamedAttr("value", attr)}, expr.loc);
  if (failed(op))
    return failure();
  return RValue::single((*op)->getResult(0));
}

FailureOr<RValue> Importer::evalOpCall(const Expr &expr) {
  SmallVector<Value> operands;
  for (const ExprPtr &arg : expr.args) {
    FailureOr<RValue> value = eval(*arg);
    if (failed(value) || failed(flatten(*value, operands, arg->loc)))
      return failure();
  }
  SmallVector<NamedAttribute> attrs;
  for (const auto &[key, node] : expr.attrs) {
    FailureOr<std::optional<Attribute>> attr = convertAttr(key, node);
    if (failed(attr))
      return failure();
    if (*attr)
      attrs.push_back(builder.getNamedAttr(key, **attr));
  }
  FailureOr<Operation *> op = createOp(expr.name, operands, attrs, expr.loc);
  if (failed(op))
    return failure();
  if ((*op)->getNumResults() == 1 && !isTupleOp(expr.name))
    return RValue::single((*op)->getResult(0));
  std::vector<RValue> fields;
  for (Value result : (*op)->getResults())
    fields.push_back(RValue::single(result));
  return RValue::tuple(std::move(fields));
}

FailureOr<RValue> Importer::evalFuncCall(const Expr &expr) {
  auto it = functions.find(expr.name);
  if (it == functions.end()) {
    emitError(expr.loc) << "call to undefined function '@" << expr.name << "'";
    return failure();
  }
  FuncInfo &callee = it->second;
  if (!expr.attrs.empty()) {
    emitError(expr.loc) << "attributes in a call to '@" << expr.name
                        << "' are not supported";
    return failure();
  }
  // Functions are lowered callees first (see run), so a callee that is not
  // done yet is part of a recursion: its declared signature must do.
  if (callee.state != FuncInfo::Done && !callee.hasResultType) {
    emitError(expr.loc) << "recursive call to '@" << expr.name
                        << "' needs a result type annotation ('-> type') on "
                           "its definition";
    return failure();
  }

  FunctionType type = callee.op.getFunctionType();
  if (expr.args.size() != type.getNumInputs()) {
    emitError(expr.loc) << "'@" << expr.name << "' takes "
                        << type.getNumInputs() << " arguments, "
                        << expr.args.size() << " given";
    return failure();
  }
  SmallVector<Value> operands;
  for (auto [i, arg] : llvm::enumerate(expr.args)) {
    FailureOr<RValue> value = eval(*arg);
    if (failed(value))
      return failure();
    FailureOr<Value> v = materialize(*value, arg->loc);
    if (failed(v))
      return failure();
    if (v->getType() != type.getInput(i)) {
      emitError(arg->loc) << "argument " << i << " of '@" << expr.name
                          << "' has type " << v->getType()
                          << ", but the parameter has type "
                          << type.getInput(i);
      return failure();
    }
    operands.push_back(*v);
  }
  auto call = func::CallOp::create(builder, loc(expr.loc), callee.op, operands);
  if (!callee.returnsTuple && call.getNumResults() == 1)
    return RValue::single(call.getResult(0));
  std::vector<RValue> fields;
  for (Value result : call.getResults())
    fields.push_back(RValue::single(result));
  return RValue::tuple(std::move(fields));
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult Importer::declareFunctions() {
  builder.setInsertionPointToEnd(module->getBody());
  for (const FuncNode &func : ast.functions) {
    if (functions.count(func.name)) {
      emitError(func.loc) << "redefinition of '@" << func.name << "'";
      return failure();
    }
    FuncInfo info;
    info.node = &func;
    SmallVector<Type> inputs;
    llvm::StringSet<> paramNames;
    auto addParam = [&](StringRef name, const std::optional<TypeNode> &type,
                        SMLoc l) -> LogicalResult {
      if (!paramNames.insert(name).second) {
        emitError(l) << "duplicate parameter '%" << name << "'";
        return failure();
      }
      if (!type) {
        emitError(l) << "parameter '%" << name
                     << "' needs a type annotation ('%" << name
                     << ": Tensor[(...), dtype]')";
        return failure();
      }
      FailureOr<Type> t = convertType(*type);
      if (failed(t))
        return failure();
      inputs.push_back(*t);
      return success();
    };
    for (const Param &param : func.params)
      if (failed(addParam(param.name, param.type, param.loc)))
        return failure();
    for (const Binding &binding : func.body->bindings)
      if (binding.kind == Binding::FreeVar) {
        if (failed(addParam(binding.name, binding.type, binding.loc)))
          return failure();
        info.freeVars.push_back(&binding);
      }
    SmallVector<Type> results;
    if (func.resultType) {
      info.hasResultType = true;
      if (func.resultType->kind == TypeNode::Tuple) {
        info.returnsTuple = true;
        for (const TypeNode &e : func.resultType->elements) {
          FailureOr<Type> t = convertType(e);
          if (failed(t))
            return failure();
          results.push_back(*t);
        }
      } else {
        FailureOr<Type> t = convertType(*func.resultType);
        if (failed(t))
          return failure();
        results.push_back(*t);
      }
    }
    info.op = func::FuncOp::create(builder, loc(func.loc), func.name,
                                   builder.getFunctionType(inputs, results));
    functions[func.name] = std::move(info);
  }
  return success();
}

LogicalResult Importer::lowerFunction(FuncInfo &info) {
  info.state = FuncInfo::InProgress;
  const FuncNode &func = *info.node;
  OpBuilder::InsertionGuard guard(builder);
  llvm::StringMap<RValue> savedScope = std::move(scope);
  scope.clear();
  llvm::scope_exit restoreScope([&] { scope = std::move(savedScope); });

  func::FuncOp op = info.op;
  Block *entry = new Block();
  op.getBody().push_back(entry);
  FunctionType type = op.getFunctionType();
  unsigned argIndex = 0;
  auto bindParam = [&](StringRef name, SMLoc l) {
    BlockArgument arg = entry->addArgument(type.getInput(argIndex), loc(l));
    op.setArgAttr(argIndex, "relay.name", builder.getStringAttr(name));
    scope[name] = RValue::single(arg);
    ++argIndex;
  };
  for (const Param &param : func.params)
    bindParam(param.name, param.loc);
  for (const Binding *freeVar : info.freeVars)
    bindParam(freeVar->name, freeVar->loc);

  builder.setInsertionPointToEnd(entry);
  FailureOr<RValue> body = evalSeq(*func.body, /*topLevel=*/true);
  if (failed(body))
    return failure();
  SMLoc bodyLoc = func.body->args[0]->loc;
  SmallVector<Value> results;
  if (body->isTuple) {
    for (const RValue &field : body->fields) {
      FailureOr<Value> v = materialize(field, bodyLoc);
      if (failed(v))
        return failure();
      results.push_back(*v);
    }
  } else {
    results.push_back(body->value);
  }
  if (func.resultType &&
      failed(checkType(*body, *func.resultType, bodyLoc,
                       "the result of '@" + func.name + "'")))
    return failure();
  info.returnsTuple = body->isTuple;
  func::ReturnOp::create(builder, loc(bodyLoc), results);
  op.setFunctionType(builder.getFunctionType(type.getInputs(),
                                             ValueRange(results).getTypes()));
  info.state = FuncInfo::Done;
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  module = ModuleOp::create(loc(SMLoc()));
  if (failed(checkOperators()) || failed(openMetaFile()) ||
      failed(declareFunctions()))
    return {};
  // Lower callees before callers, in an order found by an iterative
  // depth-first search so that long call chains need no deep recursion.
  llvm::StringMap<std::vector<std::string>> callees;
  for (const FuncNode &func : ast.functions) {
    std::vector<std::string> &list = callees[func.name];
    walkExprs(*func.body, [&](const Expr &e) {
      if (e.kind == Expr::Call && e.callee == Expr::GlobalCallee &&
          functions.count(e.name))
        list.push_back(e.name);
    });
  }
  std::vector<const FuncNode *> order;
  llvm::StringSet<> visited;
  for (const FuncNode &root : ast.functions) {
    if (!visited.insert(root.name).second)
      continue;
    // (function, index of the next callee to visit)
    std::vector<std::pair<const FuncNode *, size_t>> stack = {{&root, 0}};
    while (!stack.empty()) {
      auto &[func, next] = stack.back();
      const std::vector<std::string> &list = callees[func->name];
      if (next < list.size()) {
        const std::string &callee = list[next++];
        if (visited.insert(callee).second)
          stack.push_back({functions[callee].node, 0});
        continue;
      }
      order.push_back(func);
      stack.pop_back();
    }
  }
  for (const FuncNode *func : order)
    if (failed(lowerFunction(functions[func->name])))
      return {};
  if (failed(mlir::verify(*module)))
    return {};
  return std::move(module);
}

OwningOpRef<ModuleOp> mlc::importRelayText(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context,
                                           const RelayImportOptions &options) {
  context->loadDialect<relay::RelayDialect, func::FuncDialect>();
  std::optional<ModuleNode> ast = parseRelayText(sourceMgr, context);
  if (!ast)
    return {};
  Importer importer(sourceMgr, context, options, *ast);
  return importer.run();
}
