//===- RelaxJSONImporter.cpp - relax graphs written as JSON -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The reader of the "mlc-relax-graph" JSON format (docs/RelaxJSON.md). Every
// value of the graph is numbered: the inputs, then the parameters, then the
// results of the nodes in order. A node names a relax op, its arguments
// (value numbers or literal constants) and its attributes as MLIR attribute
// text; result types are inferred.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/RelaxJSON/RelaxJSONImporter.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Utils/Dataflow.h"
#include "mlc/Dialect/Utils/BindParams.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"
#include "mlc/Dialect/Utils/SymbolicShape.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace mlir;
using namespace mlc;
namespace json = llvm::json;

namespace {

constexpr llvm::StringLiteral kFormat = "mlc-relax-graph";
constexpr int64_t kVersion = 1;

/// A graph input or parameter: its name, type and symbolic dimension names
/// ("" for static dimensions).
struct GraphArgument {
  std::string name;
  RankedTensorType type;
  SmallVector<std::string> symbols;
};

class GraphImporter {
public:
  GraphImporter(MLIRContext *context, StringRef fileName)
      : context(context), builder(context), fileName(fileName.str()),
        fileLoc(FileLineColLoc::get(context, fileName, 0, 0)) {}

  OwningOpRef<ModuleOp> run(const json::Object &graph);

private:
  InFlightDiagnostic error() { return emitError(fileLoc); }
  FailureOr<Type> parseElementType(const json::Value *value, StringRef what);
  FailureOr<SmallVector<GraphArgument>> readArguments(const json::Object &graph,
                                                      StringRef key);
  FailureOr<Value> readValue(const json::Value &ref, Location loc,
                             StringRef what);
  LogicalResult importNode(const json::Value &node, size_t index);
  Location getNodeLoc(const json::Object &node, size_t index);

  MLIRContext *context;
  OpBuilder builder;
  std::string fileName;
  Location fileLoc;
  SmallVector<Value> values;
};

} // namespace

FailureOr<Type> GraphImporter::parseElementType(const json::Value *value,
                                                StringRef what) {
  std::optional<StringRef> text = value ? value->getAsString() : std::nullopt;
  if (!text)
    return error() << what << ": 'dtype' must be a string (an MLIR type such "
                   << "as \"f32\" or \"i64\")";
  size_t numRead = 0;
  Type type = parseType(*text, context, &numRead, /*isKnownNullTerminated=*/
                        false);
  if (!type || numRead != text->size() ||
      !(type.isIntOrIndexOrFloat() && !type.isIndex()))
    return error() << what << ": invalid element type '" << *text << "'";
  return type;
}

FailureOr<SmallVector<GraphArgument>>
GraphImporter::readArguments(const json::Object &graph, StringRef key) {
  SmallVector<GraphArgument> arguments;
  const json::Value *list = graph.get(key);
  if (!list)
    return arguments;
  const json::Array *array = list->getAsArray();
  if (!array)
    return error() << "'" << key << "' must be an array";
  for (auto [i, entry] : llvm::enumerate(*array)) {
    std::string what = (key + "[" + Twine(i) + "]").str();
    const json::Object *object = entry.getAsObject();
    std::optional<StringRef> name =
        object ? object->getString("name") : std::nullopt;
    const json::Array *shape = object ? object->getArray("shape") : nullptr;
    if (!name || !shape)
      return error() << what
                     << ": expected {\"name\": ..., \"shape\": [...], "
                        "\"dtype\": ...}";
    what += " ('" + name->str() + "')";
    FailureOr<Type> elementType = parseElementType(object->get("dtype"), what);
    if (failed(elementType))
      return failure();
    GraphArgument argument;
    argument.name = name->str();
    SmallVector<int64_t> sizes;
    for (const json::Value &dim : *shape) {
      if (std::optional<int64_t> size = dim.getAsInteger()) {
        if (*size < 0)
          return error() << what << ": negative dimension " << *size;
        sizes.push_back(*size);
        argument.symbols.push_back("");
        continue;
      }
      std::optional<StringRef> symbol = dim.getAsString();
      if (!symbol || symbol->empty() ||
          !(llvm::isAlpha(symbol->front()) || symbol->front() == '_') ||
          !llvm::all_of(*symbol,
                        [](char c) { return llvm::isAlnum(c) || c == '_'; }))
        return error() << what
                       << ": a dimension must be a size or a symbol name (an "
                          "identifier such as \"n\")";
      sizes.push_back(ShapedType::kDynamic);
      argument.symbols.push_back(symbol->str());
    }
    argument.type = RankedTensorType::get(sizes, *elementType);
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

FailureOr<Value> GraphImporter::readValue(const json::Value &ref, Location loc,
                                          StringRef what) {
  if (std::optional<int64_t> index = ref.getAsInteger()) {
    if (*index < 0 || *index >= (int64_t)values.size())
      return emitError(loc)
             << what << " refers to value " << *index << "; values 0.."
             << (int64_t)values.size() - 1 << " are defined before it";
    return values[*index];
  }
  const json::Object *object = ref.getAsObject();
  if (!object)
    return emitError(loc) << what
                          << " must be a value number or a constant object";
  // {"constant": "dense<[1, 2]> : tensor<2xi64>"}: a tensor literal.
  if (std::optional<StringRef> text = object->getString("constant")) {
    size_t numRead = 0;
    Attribute attr = parseAttribute(*text, context, Type(), &numRead,
                                    /*isKnownNullTerminated=*/false);
    auto elements = dyn_cast_or_null<ElementsAttr>(attr);
    if (!elements || numRead != text->size() ||
        !isa<RankedTensorType>(elements.getType()))
      return emitError(loc) << what << ": invalid constant '" << *text
                            << "' (expected a ranked tensor attribute such as "
                               "dense<[1, 2]> : tensor<2xi64>)";
    return relax::ConstantOp::create(builder, loc, elements).getResult();
  }
  // {"scalar": 0.5, "dtype": "f32"}: a 0-d constant.
  if (const json::Value *scalar = object->get("scalar")) {
    FailureOr<Type> elementType =
        parseElementType(object->get("dtype"), what.str());
    if (failed(elementType))
      return failure();
    auto type = RankedTensorType::get({}, *elementType);
    Attribute element;
    if (auto floatType = dyn_cast<FloatType>(*elementType)) {
      std::optional<double> number = scalar->getAsNumber();
      // JSON has no infinities or NaN: they are written as strings.
      if (std::optional<StringRef> special = scalar->getAsString())
        number = llvm::StringSwitch<std::optional<double>>(*special)
                     .Case("inf", INFINITY)
                     .Case("-inf", -INFINITY)
                     .Case("nan", NAN)
                     .Default(std::nullopt);
      if (!number)
        return emitError(loc) << what
                              << ": 'scalar' must be a number (or \"inf\", "
                                 "\"-inf\", \"nan\")";
      element = FloatAttr::get(floatType, *number);
    } else if (elementType->isInteger(1)) {
      std::optional<bool> flag = scalar->getAsBoolean();
      std::optional<int64_t> number = scalar->getAsInteger();
      if (!flag && !number)
        return emitError(loc) << what << ": 'scalar' must be a boolean";
      element = BoolAttr::get(context, flag ? *flag : *number != 0);
    } else {
      std::optional<int64_t> number = scalar->getAsInteger();
      if (!number)
        return emitError(loc) << what << ": 'scalar' must be an integer";
      element = IntegerAttr::get(*elementType, *number);
    }
    auto value = DenseElementsAttr::get(type, element);
    return relax::ConstantOp::create(builder, loc, cast<ElementsAttr>(value))
        .getResult();
  }
  return emitError(loc) << what
                        << ": expected {\"constant\": ...} or {\"scalar\": "
                           "..., \"dtype\": ...}";
}

Location GraphImporter::getNodeLoc(const json::Object &node, size_t index) {
  Location loc = fileLoc;
  std::optional<StringRef> file = node.getString("file");
  std::optional<int64_t> line = node.getInteger("line");
  if (file && line)
    loc = FileLineColLoc::get(context, *file, *line, 0);
  std::string name = node.getString("name").value_or("").str();
  if (name.empty())
    name = "node" + std::to_string(index);
  return NameLoc::get(builder.getStringAttr(name), loc);
}

LogicalResult GraphImporter::importNode(const json::Value &entry,
                                        size_t index) {
  const json::Object *node = entry.getAsObject();
  if (!node)
    return error() << "nodes[" << index << "] must be an object";
  Location loc = getNodeLoc(*node, index);
  std::optional<StringRef> op = node->getString("op");
  if (!op || op->empty())
    return emitError(loc) << "node " << index
                          << " has no 'op' (a relax op name such as "
                             "\"nn.conv2d\")";
  std::string what = ("relax." + *op).str();

  SmallVector<Value> operands;
  if (const json::Value *args = node->get("args")) {
    const json::Array *array = args->getAsArray();
    if (!array)
      return emitError(loc) << what << ": 'args' must be an array";
    for (auto [i, arg] : llvm::enumerate(*array)) {
      FailureOr<Value> value =
          readValue(arg, loc, what + " argument " + std::to_string(i));
      if (failed(value))
        return failure();
      operands.push_back(*value);
    }
  }

  SmallVector<NamedAttribute> attrs;
  if (const json::Value *attrList = node->get("attrs")) {
    const json::Object *object = attrList->getAsObject();
    if (!object)
      return emitError(loc) << what << ": 'attrs' must be an object";
    for (const auto &[name, text] : *object) {
      std::optional<StringRef> source = text.getAsString();
      if (!source)
        return emitError(loc) << what << ": attribute '" << name.str()
                              << "' must be MLIR attribute text";
      size_t numRead = 0;
      Attribute attr = parseAttribute(*source, context, Type(), &numRead,
                                      /*isKnownNullTerminated=*/false);
      if (!attr || numRead != source->size())
        return emitError(loc) << what << ": cannot parse attribute '"
                              << name.str() << "' = '" << *source << "'";
      attrs.push_back(builder.getNamedAttr(name.str(), attr));
    }
    // JSON objects are unordered; ops keep attributes sorted.
    llvm::sort(attrs, [](NamedAttribute a, NamedAttribute b) {
      return a.getName().strref() < b.getName().strref();
    });
  }

  FailureOr<Operation *> created =
      createInferredOp(builder, loc, what, operands, attrs);
  if (failed(created))
    return failure();
  int64_t expected = node->getInteger("results").value_or(1);
  if ((int64_t)(*created)->getNumResults() != expected)
    return emitError(loc) << what << " has " << (*created)->getNumResults()
                          << " results; the graph expects " << expected;
  llvm::append_range(values, (*created)->getResults());
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::run(const json::Object &graph) {
  if (graph.getString("format") != kFormat) {
    error() << "not an mlc relax graph: 'format' must be \"" << kFormat << "\"";
    return {};
  }
  if (graph.getInteger("version") != kVersion) {
    error() << "unsupported graph version (this importer reads version "
            << kVersion << ")";
    return {};
  }
  FailureOr<SmallVector<GraphArgument>> inputs = readArguments(graph, "inputs");
  FailureOr<SmallVector<GraphArgument>> params = readArguments(graph, "params");
  if (failed(inputs) || failed(params))
    return {};
  size_t numInputs = inputs->size();
  SmallVector<GraphArgument> arguments = std::move(*inputs);
  llvm::append_range(arguments, *params);
  llvm::StringSet<> names;
  for (const GraphArgument &argument : arguments)
    if (!names.insert(argument.name).second) {
      error() << "two inputs or parameters are named '" << argument.name << "'";
      return {};
    }

  // Symbolic dimensions are named in the parameter types themselves, so
  // callers (mlc-run, the runtime) bind them from the arguments' shapes.
  SymbolScope scope(context);
  SmallVector<Type> argTypes;
  for (const GraphArgument &argument : arguments)
    argTypes.push_back(
        relax::getNamedSymbolicType(argument.type, argument.symbols, scope));

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  std::string funcName = graph.getString("function").value_or("main").str();
  auto func = func::FuncOp::create(builder, fileLoc, funcName,
                                   builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  for (auto [i, argument] : llvm::enumerate(arguments)) {
    func.setArgAttr(i, "relax.name", builder.getStringAttr(argument.name));
    values.push_back(func.getArgument(i));
  }

  if (const json::Value *nodes = graph.get("nodes")) {
    const json::Array *array = nodes->getAsArray();
    if (!array) {
      error() << "'nodes' must be an array";
      return {};
    }
    for (auto [i, node] : llvm::enumerate(*array))
      if (failed(importNode(node, i)))
        return {};
  }

  SmallVector<Value> results;
  const json::Array *outputs = graph.getArray("outputs");
  if (!outputs || outputs->empty()) {
    error() << "'outputs' must be a non-empty array of values";
    return {};
  }
  for (auto [i, ref] : llvm::enumerate(*outputs)) {
    FailureOr<Value> value =
        readValue(ref, fileLoc, "output " + std::to_string(i));
    if (failed(value))
      return {};
    results.push_back(*value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));

  // Parameters kept as parameters are weights after the inputs (TVM's
  // num_input, as its from_fx sets with keep_params_as_input): what
  // relax-lift-transform-params lifts.
  if (!graph.getString("bind_params") && !params->empty())
    func->setAttr(relax::kNumInputAttr, builder.getI64IntegerAttr(numInputs));
  // Parameters bound from a file become dense_resource constants.
  if (std::optional<StringRef> file = graph.getString("bind_params")) {
    SmallString<256> path(*file);
    if (llvm::sys::path::is_relative(path)) {
      path = llvm::sys::path::parent_path(fileName);
      llvm::sys::path::append(path, *file);
    }
    FailureOr<SmallVector<NamedTensor>> tensors =
        readNamedTensors(path, fileLoc);
    if (failed(tensors) ||
        failed(bindParams(
            func, "relax.name", *tensors, path, *module,
            [](OpBuilder &b, Location loc, ElementsAttr value, Type) -> Value {
              return relax::ConstantOp::create(b, loc, value);
            })))
      return {};
  }
  relax::wrapInDataflow(func);
  if (failed(verify(*module)))
    return {};
  return module;
}

static constexpr int kMaxJSONNesting = 512;

/// The offset at which `text` opens its (kMaxJSONNesting + 1)-th nested
/// array or object, if it does (brackets in strings do not count).
static std::optional<size_t> findExcessNesting(StringRef text) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJSONNesting)
        return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

OwningOpRef<ModuleOp> mlc::importRelaxJSON(StringRef text, StringRef fileName,
                                           MLIRContext *context) {
  context->loadDialect<relax::RelaxDialect, func::FuncDialect>();
  Location loc = FileLineColLoc::get(context, fileName, 0, 0);
  // llvm::json::parse recurses once per nesting level, so a deep enough
  // document overflows the stack; a graph nests a few levels.
  if (std::optional<size_t> offset = findExcessNesting(text)) {
    emitError(loc) << "invalid JSON: nested deeper than " << kMaxJSONNesting
                   << " levels (at byte " << *offset << ")";
    return {};
  }
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    emitError(loc) << "invalid JSON: " << llvm::toString(parsed.takeError());
    return {};
  }
  const json::Object *graph = parsed->getAsObject();
  if (!graph) {
    emitError(loc) << "not an mlc relax graph: expected a JSON object";
    return {};
  }
  return GraphImporter(context, fileName).run(*graph);
}
