//===- ONNXImporter.cpp - ONNX models to relax ------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The graph side of the ONNX importer: parsing, checks over the whole model
// (opsets, unsupported node types, all reported at once), inputs,
// initializers and outputs. The node converters are in Converters*.cpp.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Utils/Dataflow.h"
#include "mlc/Dialect/Utils/InferredOpBuilder.h"
#include "mlc/Dialect/Utils/SymbolicShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/logging.h>

#include <climits>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::onnx_import;

/// The newest opset of the default domain whose semantics the converters
/// know (ONNX 1.12). Newer models change ops the converters do not know
/// about (ReduceMean's axes input, Split's num_outputs in opset 18).
static constexpr int64_t kMaxOpset = 17;

/// Tensors with more elements become dense_resource blobs (never printed
/// inline); smaller ones stay dense so shape arithmetic sees their values.
static constexpr int64_t kResourceThreshold = 64;

/// Results of ops on constants with up to this many elements are computed
/// while importing.
static constexpr int64_t kFoldMaxElements = 1 << 14;

Type onnx_import::getElementType(MLIRContext *context, int32_t dataType) {
  Builder b(context);
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT8:
    return b.getI8Type();
  case onnx::TensorProto::INT16:
    return b.getI16Type();
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    // Unsigned integers (relax integers are signless and compare, divide and
    // widen as signed), strings and complex numbers.
    return nullptr;
  }
}

static std::string getDataTypeName(int32_t dataType) {
  if (onnx::TensorProto::DataType_IsValid(dataType))
    return llvm::StringRef(onnx::TensorProto::DataType_Name(
                               onnx::TensorProto::DataType(dataType)))
        .lower();
  return "data type " + std::to_string(dataType);
}

ArrayRef<ConverterEntry> onnx_import::getConverters() {
  static const std::vector<ConverterEntry> all = [] {
    std::vector<ConverterEntry> entries;
    for (ArrayRef<ConverterEntry> table :
         {getElementwiseConverters(), getNNConverters(), getTensorConverters()})
      entries.insert(entries.end(), table.begin(), table.end());
    return entries;
  }();
  return all;
}

const ConverterEntry *onnx_import::lookupConverter(StringRef opType,
                                                   int64_t opset) {
  const ConverterEntry *best = nullptr;
  for (const ConverterEntry &entry : getConverters())
    if (opType == entry.opType && entry.sinceVersion <= opset &&
        (!best || entry.sinceVersion > best->sinceVersion))
      best = &entry;
  return best;
}

SmallVector<std::pair<std::string, int64_t>> mlc::getSupportedONNXOps() {
  llvm::StringMap<int64_t> lowest;
  for (const ConverterEntry &entry : getConverters()) {
    auto [it, inserted] = lowest.try_emplace(entry.opType, entry.sinceVersion);
    if (!inserted)
      it->second = std::min(it->second, entry.sinceVersion);
  }
  SmallVector<std::pair<std::string, int64_t>> result;
  for (auto &entry : lowest)
    result.emplace_back(entry.getKey().str(), entry.getValue());
  llvm::sort(result);
  return result;
}

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

Importer::Importer(MLIRContext *context, const onnx::ModelProto &model,
                   StringRef fileName, const ONNXImportOptions &options)
    : context(context), builder(context), fileName(fileName.str()),
      scope(context), model(model), options(options),
      evaluator(context, kFoldMaxElements, int64_t(1) << 24) {}

Value Importer::constant(ElementsAttr value, Location loc) {
  return relax::ConstantOp::create(builder, loc, value);
}

FailureOr<SmallVector<Value>> Importer::create(StringRef name,
                                               ValueRange operands,
                                               ArrayRef<NamedAttribute> attrs,
                                               Location loc) {
  FailureOr<Operation *> op =
      createInferredOp(builder, loc, ("relax." + name).str(), operands, attrs);
  if (failed(op))
    return failure();
  SmallVector<Value> results((*op)->getResults());
  // Shape arithmetic (integers) and tiny values are computed now; weights
  // are left to relax-fold-constant, so the module keeps the model's form.
  bool small = llvm::all_of((*op)->getResultTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && (isa<IntegerType>(tensor.getElementType()) ||
                      (tensor.hasStaticShape() &&
                       tensor.getNumElements() <= kResourceThreshold));
  });
  if (!small || !evaluator.canEvaluate(*op))
    return results;
  SmallVector<std::pair<Location, std::string>> errors;
  FailureOr<SmallVector<ElementsAttr>> values = evaluator.evaluate(*op, errors);
  if (failed(values))
    return results; // computed at run time instead
  results.clear();
  for (ElementsAttr value : *values)
    results.push_back(constant(value, loc));
  (*op)->erase();
  return results;
}

FailureOr<ElementsAttr> Importer::readTensor(const onnx::TensorProto &t,
                                             Location loc, StringRef what) {
  Type elementType = getElementType(context, t.data_type());
  if (!elementType)
    return emitError(loc) << what << ": unsupported element type "
                          << getDataTypeName(t.data_type());
  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  for (int64_t dim : t.dims()) {
    if (dim < 0 || (dim > 0 && numElements > (INT64_MAX >> 8) / dim))
      return emitError(loc) << what << ": invalid dimension " << dim;
    shape.push_back(dim);
    numElements *= dim;
  }
  auto type = RankedTensorType::get(shape, elementType);
  unsigned bits = elementType.getIntOrFloatBitWidth();
  size_t elementBytes = bits == 1 ? 1 : bits / 8;
  size_t byteSize = numElements * elementBytes;

  // The little-endian bytes of the tensor, from whichever field holds them.
  std::string bytes;
  auto countError = [&](StringRef field, int64_t count) {
    return emitError(loc) << what << ": " << field << " holds " << count
                          << " values; the shape ["
                          << llvm::join(llvm::map_range(shape,
                                                        [](int64_t d) {
                                                          return std::to_string(
                                                              d);
                                                        }),
                                        ", ")
                          << "] needs " << numElements;
  };
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const onnx::StringStringEntryProto &entry : t.external_data()) {
      if (entry.key() == "location")
        location = entry.value();
      else if ((entry.key() == "offset" &&
                !llvm::to_integer(entry.value(), offset)) ||
               (entry.key() == "length" &&
                !llvm::to_integer(entry.value(), length)))
        return emitError(loc) << what << ": invalid external data "
                              << entry.key() << " '" << entry.value() << "'";
    }
    if (location.empty())
      return emitError(loc) << what << ": external data without a location";
    SmallString<256> path(options.externalDataDir.empty()
                              ? llvm::sys::path::parent_path(fileName)
                              : StringRef(options.externalDataDir));
    llvm::sys::path::append(path, location);
    if (length < 0)
      length = byteSize;
    if (offset < 0 || (size_t)length != byteSize)
      return emitError(loc) << what << ": external data of " << length
                            << " bytes at offset " << offset << "; the tensor"
                            << " needs " << byteSize;
    auto file = llvm::MemoryBuffer::getFileSlice(path, length, offset);
    if (!file)
      return emitError(loc) << what << ": cannot read external data '" << path
                            << "': " << file.getError().message();
    if ((*file)->getBufferSize() != byteSize)
      return emitError(loc) << what << ": external data '" << path
                            << "' ends before offset " << offset + length;
    bytes = (*file)->getBuffer().str();
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != byteSize)
      return emitError(loc) << what << ": raw_data holds "
                            << t.raw_data().size() << " bytes; the tensor "
                            << "needs " << byteSize;
    bytes = t.raw_data();
  } else {
    // The typed field's count is checked before anything is allocated: the
    // shape alone may ask for any size.
    auto [field, count] = [&]() -> std::pair<StringRef, int64_t> {
      switch (t.data_type()) {
      case onnx::TensorProto::FLOAT:
        return {"float_data", t.float_data_size()};
      case onnx::TensorProto::DOUBLE:
        return {"double_data", t.double_data_size()};
      case onnx::TensorProto::INT64:
        return {"int64_data", t.int64_data_size()};
      default: // narrower types, float16 and bool: in int32_data
        return {"int32_data", t.int32_data_size()};
      }
    }();
    if (count != numElements)
      return countError(field, count);
    bytes.resize(byteSize);
    auto put = [&](int64_t i, auto value) {
      std::memcpy(&bytes[i * elementBytes], &value, elementBytes);
    };
    for (int64_t i = 0; i < numElements; ++i) {
      switch (t.data_type()) {
      case onnx::TensorProto::FLOAT:
        put(i, t.float_data(i));
        break;
      case onnx::TensorProto::DOUBLE:
        put(i, t.double_data(i));
        break;
      case onnx::TensorProto::INT64:
        put(i, t.int64_data(i));
        break;
      default: {
        int32_t value = t.int32_data(i);
        if (elementType.isInteger(1))
          value = value != 0;
        put(i, value); // little endian: the low bytes
        break;
      }
      }
    }
  }

  if (elementType.isInteger(1)) {
    SmallVector<bool> values;
    for (char c : bytes)
      values.push_back(c != 0);
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  if (numElements <= kResourceThreshold)
    return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(bytes.data(), bytes.size())));
  // Resource names must be identifiers: the tensor's name, sanitized.
  std::string key = "onnx_";
  for (char c : t.name())
    key += llvm::isAlnum(c) ? c : '_';
  if (t.name().empty())
    key += std::to_string(resourceCounter++);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef(bytes.data(), bytes.size()), alignof(uint64_t));
  return cast<ElementsAttr>(
      DenseResourceElementsAttr::get(type, key, std::move(blob)));
}

LogicalResult Importer::checkModel() {
  Location loc = FileLineColLoc::get(context, fileName, 0, 0);
  if (!model.has_graph())
    return emitError(loc) << "the ONNX model has no graph";
  // The default domain's opset; other domains (ai.onnx.ml, vendor domains)
  // are rejected below with their nodes.
  int64_t modelOpset = -1;
  for (const onnx::OperatorSetIdProto &entry : model.opset_import())
    if (entry.domain().empty() || entry.domain() == "ai.onnx")
      modelOpset = entry.version();
  opset =
      options.opset ? options.opset : (modelOpset < 0 ? kMaxOpset : modelOpset);
  if (opset < 1 || opset > kMaxOpset)
    return emitError(loc) << "ONNX opset " << opset << " is not supported "
                          << "(supported: 1 to " << kMaxOpset << ")";

  // Every node type without a converter, with the nodes that use it: one
  // error before anything is converted.
  SmallVector<std::pair<std::string, SmallVector<std::string>>> unsupported;
  for (const onnx::NodeProto &node : model.graph().node()) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (defaultDomain && lookupConverter(node.op_type(), opset))
      continue;
    std::string type =
        defaultDomain ? node.op_type() : node.domain() + "." + node.op_type();
    auto it = llvm::find_if(unsupported,
                            [&](auto &entry) { return entry.first == type; });
    if (it == unsupported.end()) {
      unsupported.push_back({type, {}});
      it = std::prev(unsupported.end());
    }
    it->second.push_back(node.name().empty() ? "<unnamed>" : node.name());
  }
  if (unsupported.empty()) {
    if (modelOpset < 0 && !options.opset && model.graph().node_size() > 0)
      return emitError(loc) << "the ONNX model imports no opset of the "
                               "default domain (opset_import)";
    return success();
  }
  std::string list;
  for (auto &[type, nodes] : unsupported) {
    if (!list.empty())
      list += "; ";
    list += "'" + type + "' (";
    list += llvm::join(ArrayRef(nodes).take_front(4), ", ");
    if (nodes.size() > 4)
      list += ", ... " + std::to_string(nodes.size()) + " nodes";
    list += ")";
  }
  return emitError(loc) << "unsupported ONNX operator"
                        << (unsupported.size() > 1 ? "s" : "") << " at opset "
                        << opset << ": " << list;
}

FailureOr<RankedTensorType>
Importer::getInputType(const onnx::ValueInfoProto &info, Location loc,
                       SmallVectorImpl<std::string> &symbols) {
  if (!info.type().has_tensor_type())
    return emitError(loc) << "graph input '" << info.name()
                          << "' is not a tensor (sequences, maps and "
                             "optionals are not supported)";
  const onnx::TypeProto::Tensor &tensor = info.type().tensor_type();
  Type elementType = getElementType(context, tensor.elem_type());
  if (!elementType)
    return emitError(loc) << "graph input '" << info.name()
                          << "': unsupported element type "
                          << getDataTypeName(tensor.elem_type());
  auto given = options.inputShapes.find(info.name());
  if (given != options.inputShapes.end()) {
    if (tensor.has_shape() &&
        tensor.shape().dim_size() != (int)given->second.size())
      return emitError(loc)
             << "the shape given for graph input '" << info.name() << "' has "
             << given->second.size() << " dimensions; the model's has "
             << tensor.shape().dim_size();
    for (int64_t dim : given->second)
      if (dim < 0)
        return emitError(loc) << "the shape given for graph input '"
                              << info.name() << "' has a negative size";
    return RankedTensorType::get(given->second, elementType);
  }
  if (!tensor.has_shape())
    return emitError(loc) << "graph input '" << info.name()
                          << "' has no shape; give one (--onnx-input-shape)";
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(tensor.shape().dim())) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      shape.push_back(dim.dim_value());
      symbols.push_back("");
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    std::string name = dim.has_dim_param() && !dim.dim_param().empty()
                           ? dim.dim_param()
                           : info.name() + "_dim" + std::to_string(i);
    // Symbol names are identifiers.
    for (char &c : name)
      if (!llvm::isAlnum(c) && c != '_')
        c = '_';
    if (!llvm::isAlpha(name[0]) && name[0] != '_')
      name = "d_" + name;
    symbols.push_back(name);
  }
  return RankedTensorType::get(shape, elementType);
}

OwningOpRef<ModuleOp> Importer::run() {
  if (failed(checkModel()))
    return {};
  const onnx::GraphProto &graph = model.graph();
  Location fileLoc = FileLineColLoc::get(context, fileName, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  // Initializers by name (in IR version < 4 they are graph inputs too).
  llvm::StringMap<const onnx::TensorProto *> initializers;
  for (const onnx::TensorProto &t : graph.initializer())
    initializers[t.name()] = &t;

  // Function parameters: the graph inputs, then (when kept as inputs) the
  // floating-point initializers.
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  SmallVector<SmallVector<std::string>> argSymbols;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    SmallVector<std::string> symbols;
    FailureOr<RankedTensorType> type = getInputType(input, fileLoc, symbols);
    if (failed(type))
      return {};
    argTypes.push_back(*type);
    argNames.push_back(input.name());
    argSymbols.push_back(std::move(symbols));
  }
  SmallVector<const onnx::TensorProto *> paramInitializers;
  if (options.keepParamsAsInput) {
    for (const onnx::TensorProto &t : graph.initializer()) {
      Type elementType = getElementType(context, t.data_type());
      if (!elementType || !isa<FloatType>(elementType))
        continue;
      argTypes.push_back(RankedTensorType::get(
          SmallVector<int64_t>(t.dims().begin(), t.dims().end()), elementType));
      argNames.push_back(t.name());
      argSymbols.emplace_back();
      paramInitializers.push_back(&t);
    }
  }

  // Symbolic dimensions are named in the parameter types themselves, so
  // callers (mlc-run, the runtime) bind them from the arguments' shapes.
  for (auto [type, symbols] : llvm::zip(argTypes, argSymbols))
    type = relax::getNamedSymbolicType(cast<RankedTensorType>(type), symbols,
                                       scope);
  auto func = func::FuncOp::create(builder, fileLoc, options.entryName,
                                   builder.getFunctionType(argTypes, {}));
  // The graph's inputs come first, the weights after them (TVM's
  // num_input, which relax-lift-transform-params reads).
  if (options.keepParamsAsInput)
    func->setAttr(
        relax::kNumInputAttr,
        builder.getI64IntegerAttr(argTypes.size() - paramInitializers.size()));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    func.setArgAttr(i, "relax.name", builder.getStringAttr(argNames[i]));
    values[argNames[i]] = arg;
  }

  // Initializers that are not parameters: constants, created on first use.
  llvm::StringSet<> params;
  for (const onnx::TensorProto *t : paramInitializers)
    params.insert(t->name());
  for (const onnx::TensorProto &t : graph.initializer()) {
    if (params.contains(t.name()))
      continue;
    // A graph input with an initializer of the same name: the initializer
    // is its default (IR < 4), and the importer binds it.
    Location loc = NameLoc::get(builder.getStringAttr(t.name()), fileLoc);
    FailureOr<ElementsAttr> value =
        readTensor(t, loc, "initializer '" + t.name() + "'");
    if (failed(value))
      return {};
    values[t.name()] = constant(*value, loc);
  }

  for (const onnx::NodeProto &node : graph.node())
    if (failed(importNode(node)))
      return {};

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    Value value = values.lookup(output.name());
    if (const ShapeValue *shape = lookupShapeValue(output.name())) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is a shape computed from symbolic dimensions ["
                         << scope.print(shape->elements)
                         << "]; relax has no runtime shape values";
      return {};
    }
    if (!value) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not computed by any node";
      return {};
    }
    // The model's declared type must agree with the computed one.
    auto type = cast<RankedTensorType>(value.getType());
    if (output.type().has_tensor_type()) {
      const onnx::TypeProto::Tensor &declared = output.type().tensor_type();
      Type elementType = getElementType(context, declared.elem_type());
      if (declared.elem_type() != 0 && elementType != type.getElementType()) {
        emitError(fileLoc) << "graph output '" << output.name()
                           << "' is declared "
                           << getDataTypeName(declared.elem_type())
                           << " but computes " << type.getElementType();
        return {};
      }
      if (declared.has_shape() &&
          declared.shape().dim_size() != type.getRank()) {
        emitError(fileLoc) << "graph output '" << output.name()
                           << "' is declared with rank "
                           << declared.shape().dim_size() << " but computes "
                           << type;
        return {};
      }
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  // Constants only shape computations used (now folded) are dropped.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (isa<relax::ConstantOp>(op) && op.use_empty())
      op.erase();
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  relax::wrapInDataflow(func);
  if (failed(verify(*module)))
    return {};
  return module;
}

/// Checks `node`'s inputs against ONNX's own schema of its operator at the
/// model's opset: their count, and that required ones are not omitted
/// (named ''). Converters read inputs by position and rely on this.
LogicalResult Importer::checkInputsAgainstSchema(NodeContext &ctx,
                                                 const onnx::NodeProto &node) {
  std::optional<InputSpec> spec = getInputSpec(node.op_type(), opset);
  if (!spec)
    return success(); // newer than Debian's libonnx: the converter checks
  int count = node.input_size();
  if (count < spec->minInputs || count > spec->maxInputs) {
    InFlightDiagnostic diag = ctx.error() << "has " << count << " input"
                                          << (count == 1 ? "" : "s")
                                          << "; opset " << opset << " takes ";
    if (spec->maxInputs == std::numeric_limits<int>::max())
      diag << "at least " << spec->minInputs;
    else if (spec->minInputs == spec->maxInputs)
      diag << spec->minInputs;
    else
      diag << spec->minInputs << " to " << spec->maxInputs;
    return diag;
  }
  for (int i = 0; i < count && !spec->formals.empty(); ++i) {
    const InputSpec::Formal &formal =
        spec->formals[std::min<size_t>(i, spec->formals.size() - 1)];
    if (node.input(i).empty() && !formal.optional)
      return ctx.error() << "input " << i << " ('" << formal.name
                         << "') is required but not given (an empty name)";
  }
  return success();
}

LogicalResult Importer::importNode(const onnx::NodeProto &node) {
  StringRef name =
      node.name().empty() ? StringRef(node.op_type()) : StringRef(node.name());
  Location loc = NameLoc::get(builder.getStringAttr(name),
                              FileLineColLoc::get(context, fileName, 0, 0));
  NodeContext ctx(*this, node, loc);
  for (auto [i, input] : llvm::enumerate(node.input())) {
    if (input.empty() || isDefined(input))
      continue;
    return ctx.error() << "input " << i << " '" << input
                       << "' is not defined before the node (not a graph "
                          "input, initializer or earlier node's output)";
  }
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.type() == onnx::AttributeProto::GRAPH ||
        attr.type() == onnx::AttributeProto::GRAPHS)
      return ctx.error() << "sub-graphs (attribute '" << attr.name()
                         << "') are not supported";
  if (failed(checkInputsAgainstSchema(ctx, node)))
    return failure();
  const ConverterEntry *entry = lookupConverter(node.op_type(), opset);
  if (failed(ctx.hasShapeValueInput() ? convertShapeValueNode(ctx)
                                      : entry->convert(ctx)))
    return failure();
  for (auto [i, output] : llvm::enumerate(node.output()))
    if (!output.empty() && !isDefined(output))
      return ctx.error() << "output " << i << " '" << output
                         << "' is not computed";
  return success();
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

InFlightDiagnostic NodeContext::error() {
  InFlightDiagnostic diag = emitError(loc);
  diag << "ONNX " << node.op_type();
  if (!node.name().empty())
    diag << " node '" << node.name() << "'";
  diag << ": ";
  return diag;
}

FailureOr<int64_t> onnx_import::normalizeAxis(NodeContext &node, int64_t axis,
                                              int64_t rank, StringRef what) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return node.error() << what << " " << axis << " is out of range for rank "
                        << rank;
  return axis < 0 ? axis + rank : axis;
}

ElementsAttr NodeContext::constantInput(unsigned i) const {
  if (!hasInput(i))
    return nullptr;
  auto op = input(i).getDefiningOp<relax::ConstantOp>();
  return op ? op.getValue() : nullptr;
}

/// The values of an integer or float constant as doubles / integers.
template <typename T>
static FailureOr<SmallVector<T>> getValues(ElementsAttr attr) {
  SmallVector<T> result;
  Type elementType = attr.getElementType();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isa<IntegerType>(elementType)) {
      for (const APInt &v : dense.getValues<APInt>())
        result.push_back(
            T(elementType.isInteger(1) ? v.getZExtValue() : v.getSExtValue()));
      return result;
    }
    if (isa<FloatType>(elementType)) {
      for (const APFloat &v : dense.getValues<APFloat>())
        result.push_back(T(v.convertToDouble()));
      return result;
    }
    return failure();
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob)
    return failure();
  ArrayRef<char> data = blob->getData();
  unsigned bits = elementType.getIntOrFloatBitWidth();
  int64_t n = attr.getNumElements();
  if (bits % 8 || (int64_t)data.size() < n * (bits / 8))
    return failure();
  for (int64_t i = 0; i < n; ++i) {
    APInt bitsValue(bits, 0);
    std::memcpy(const_cast<uint64_t *>(bitsValue.getRawData()),
                data.data() + i * (bits / 8), bits / 8);
    if (auto floatType = dyn_cast<FloatType>(elementType))
      result.push_back(T(
          APFloat(floatType.getFloatSemantics(), bitsValue).convertToDouble()));
    else
      result.push_back(T(bitsValue.getSExtValue()));
  }
  return result;
}

FailureOr<SmallVector<int64_t>> NodeContext::intInput(unsigned i,
                                                      StringRef what) {
  ElementsAttr value = constantInput(i);
  if (!value)
    return error() << what << " (input " << i
                   << ") must be a constant (an initializer, a Constant "
                      "node or computed from them)";
  FailureOr<SmallVector<int64_t>> values = getValues<int64_t>(value);
  if (failed(values) || !isa<IntegerType>(value.getElementType()))
    return error() << what << " (input " << i << ") must hold integers, not "
                   << value.getElementType();
  return values;
}

FailureOr<double> NodeContext::floatInput(unsigned i, StringRef what) {
  ElementsAttr value = constantInput(i);
  if (!value)
    return error() << what << " (input " << i << ") must be a constant";
  FailureOr<SmallVector<double>> values = getValues<double>(value);
  if (failed(values) || values->size() != 1)
    return error() << what << " (input " << i << ") must be one number";
  return values->front();
}

const onnx::AttributeProto *NodeContext::findAttr(StringRef name) const {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

static StringRef getAttrTypeName(onnx::AttributeProto::AttributeType type) {
  switch (type) {
  case onnx::AttributeProto::FLOAT:
    return "a float";
  case onnx::AttributeProto::INT:
    return "an int";
  case onnx::AttributeProto::STRING:
    return "a string";
  case onnx::AttributeProto::TENSOR:
    return "a tensor";
  case onnx::AttributeProto::FLOATS:
    return "floats";
  case onnx::AttributeProto::INTS:
    return "ints";
  default:
    return "another kind";
  }
}

/// An error unless attribute `attr` has `type`. Old models leave the type
/// unset (0): then the field that is set decides.
static bool hasAttrType(const onnx::AttributeProto &attr,
                        onnx::AttributeProto::AttributeType type) {
  if (attr.type() != onnx::AttributeProto::UNDEFINED)
    return attr.type() == type;
  switch (type) {
  case onnx::AttributeProto::FLOAT:
    return attr.has_f();
  case onnx::AttributeProto::INT:
    return attr.has_i();
  case onnx::AttributeProto::STRING:
    return attr.has_s();
  case onnx::AttributeProto::TENSOR:
    return attr.has_t();
  case onnx::AttributeProto::FLOATS:
    return attr.floats_size() > 0;
  case onnx::AttributeProto::INTS:
    return attr.ints_size() > 0;
  default:
    return false;
  }
}

#define MLC_ONNX_ATTR_CHECK(attr, kind)                                        \
  if (!hasAttrType(*attr, onnx::AttributeProto::kind))                         \
    return error() << "attribute '" << name << "' must be "                    \
                   << getAttrTypeName(onnx::AttributeProto::kind) << ", not "  \
                   << getAttrTypeName(attr->type());

FailureOr<int64_t> NodeContext::getInt(StringRef name, int64_t def) {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return def;
  MLC_ONNX_ATTR_CHECK(attr, INT)
  return attr->i();
}

FailureOr<double> NodeContext::getFloat(StringRef name, double def) {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return def;
  MLC_ONNX_ATTR_CHECK(attr, FLOAT)
  return attr->f();
}

FailureOr<std::string> NodeContext::getString(StringRef name, StringRef def) {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return def.str();
  MLC_ONNX_ATTR_CHECK(attr, STRING)
  return attr->s();
}

FailureOr<SmallVector<int64_t>> NodeContext::getInts(StringRef name,
                                                     ArrayRef<int64_t> def) {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return SmallVector<int64_t>(def);
  if (attr->type() == onnx::AttributeProto::UNDEFINED && !attr->ints_size())
    return SmallVector<int64_t>();
  MLC_ONNX_ATTR_CHECK(attr, INTS)
  return SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
}

FailureOr<SmallVector<double>> NodeContext::getFloats(StringRef name) {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return SmallVector<double>();
  MLC_ONNX_ATTR_CHECK(attr, FLOATS)
  return SmallVector<double>(attr->floats().begin(), attr->floats().end());
}

FailureOr<ElementsAttr> NodeContext::getTensor(StringRef name) {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return error() << "attribute '" << name << "' is required";
  MLC_ONNX_ATTR_CHECK(attr, TENSOR)
  return importer.readTensor(attr->t(), loc, "attribute '" + name.str() + "'");
}

#undef MLC_ONNX_ATTR_CHECK

LogicalResult NodeContext::requireInt(StringRef name, int64_t ok,
                                      StringRef why) {
  FailureOr<int64_t> value = getInt(name, ok);
  if (failed(value))
    return failure();
  if (*value != ok)
    return error() << "attribute '" << name << "' = " << *value
                   << " is not supported (" << why << ")";
  return success();
}

FailureOr<ValueRange> NodeContext::ops(StringRef name, ValueRange operands,
                                       ArrayRef<NamedAttribute> attrs) {
  FailureOr<SmallVector<Value>> results =
      importer.create(name, operands, attrs, loc);
  if (failed(results))
    return failure();
  // Keep the values alive for the caller.
  lastResults = std::move(*results);
  return ValueRange(lastResults);
}

FailureOr<Value> NodeContext::op(StringRef name, ValueRange operands,
                                 ArrayRef<NamedAttribute> attrs) {
  FailureOr<ValueRange> results = ops(name, operands, attrs);
  if (failed(results))
    return failure();
  return results->front();
}

Value NodeContext::scalar(double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute element;
  if (auto floatType = dyn_cast<FloatType>(elementType))
    element = FloatAttr::get(floatType, value);
  else
    element = IntegerAttr::get(elementType, (int64_t)value);
  return constant(DenseElementsAttr::get(type, element));
}

void NodeContext::setOutput(unsigned i, Value value) {
  if ((int)i < node.output_size() && !node.output(i).empty())
    importer.define(node.output(i), value);
}

void Importer::defineShapeValue(StringRef name, const ShapeValue &value,
                                Location loc) {
  SmallVector<int64_t> constants;
  for (SymDim dim : value.elements) {
    std::optional<int64_t> size = getConstantSize(dim);
    if (!size) {
      shapeValues[name] = value;
      return;
    }
    constants.push_back(*size);
  }
  SmallVector<int64_t> shape;
  if (!value.isScalar)
    shape.push_back(constants.size());
  auto type = RankedTensorType::get(shape, value.elementType);
  SmallVector<APInt> elements = llvm::map_to_vector(constants, [&](int64_t v) {
    return APInt(value.elementType.getIntOrFloatBitWidth(), v,
                 /*isSigned=*/true);
  });
  define(name, constant(DenseElementsAttr::get(type, elements), loc));
}

std::optional<ShapeValue> NodeContext::shapeInput(unsigned i) const {
  if (!hasInput(i))
    return std::nullopt;
  if (const ShapeValue *symbolic = importer.lookupShapeValue(node.input(i)))
    return *symbolic;
  ElementsAttr value = constantInput(i);
  if (!value || !isa<IntegerType>(value.getElementType()) ||
      cast<ShapedType>(value.getType()).getRank() > 1)
    return std::nullopt;
  FailureOr<SmallVector<int64_t>> ints = getValues<int64_t>(value);
  if (failed(ints))
    return std::nullopt;
  ShapeValue result;
  result.isScalar = cast<ShapedType>(value.getType()).getRank() == 0;
  result.elementType = value.getElementType();
  for (int64_t v : *ints)
    result.elements.push_back(importer.scope.getConstant(v));
  return result;
}

bool NodeContext::hasShapeValueInput() const {
  return llvm::any_of(node.input(), [&](const std::string &name) {
    return !name.empty() && importer.lookupShapeValue(name);
  });
}

void NodeContext::setShapeOutput(unsigned i, const ShapeValue &value) {
  if ((int)i < node.output_size() && !node.output(i).empty())
    importer.defineShapeValue(node.output(i), value, loc);
}

LogicalResult NodeContext::rejectOutput(unsigned i, StringRef what) {
  if ((int)i < node.output_size() && !node.output(i).empty())
    return error() << "output " << i << " (" << what << ") is not supported";
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> mlc::importONNXModel(StringRef bytes, StringRef fileName,
                                           MLIRContext *context,
                                           const ONNXImportOptions &options) {
  context->loadDialect<relax::RelaxDialect, func::FuncDialect>();
  Location fileLoc = FileLineColLoc::get(context, fileName, 0, 0);
  // protobuf logs parse problems to stderr itself; the diagnostic below
  // says it once.
  google::protobuf::LogSilencer silence;
  onnx::ModelProto model;
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  stream.SetTotalBytesLimit(INT_MAX);
  if (bytes.size() > (size_t)INT_MAX || !model.ParseFromCodedStream(&stream) ||
      !stream.ConsumedEntireMessage()) {
    emitError(fileLoc) << "cannot parse '" << fileName
                       << "' as an ONNX model (a serialized onnx.ModelProto"
                       << (bytes.size() > (size_t)INT_MAX
                               ? " of at most 2 GiB; keep weights as "
                                 "external data"
                               : "")
                       << ")";
    return {};
  }
  Importer importer(context, model, fileName, options);
  return importer.run();
}
