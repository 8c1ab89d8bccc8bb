//===- ExecutionEngine.cpp - C API of mlc's runtime library ---------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/ExecutionEngine.h"

#include "mlc/ExecutionEngine/AOTCompiler.h"
#include "mlc/ExecutionEngine/Executable.h"
#include "mlc/Support/DiagnosedError.h"
#include "mlc/Support/TensorFile.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;

namespace {
/// What an MlcExecutable points to.
struct ExecutableHandle {
  std::unique_ptr<mlc::Executable> executable;
  MLIRContext *context;
  /// The last call's results and the shapes and dtypes their views show.
  SmallVector<mlc::HostTensor> results;
  SmallVector<SmallVector<int64_t>> resultShapes;
  SmallVector<std::string> resultDTypes;
};
} // namespace

static ExecutableHandle *unwrap(MlcExecutable executable) {
  return static_cast<ExecutableHandle *>(executable.ptr);
}

static MlirLogicalResult report(llvm::Error error, MLIRContext *context) {
  return wrap(
      mlc::emitErrorDiagnostic(std::move(error), UnknownLoc::get(context)));
}

static constexpr mlc::TensorDType kDTypes[] = {
    mlc::TensorDType::F16, mlc::TensorDType::BF16, mlc::TensorDType::F32,
    mlc::TensorDType::F64, mlc::TensorDType::I8,   mlc::TensorDType::I16,
    mlc::TensorDType::I32, mlc::TensorDType::I64,  mlc::TensorDType::U8,
    mlc::TensorDType::U16, mlc::TensorDType::Bool};

/// The element type of numpy's `dtype`, or null.
static Type getElementType(StringRef dtype, MLIRContext *context) {
  for (mlc::TensorDType candidate : kDTypes)
    if (mlc::getDTypeName(candidate) == dtype)
      return mlc::getDTypeElementType(candidate, context);
  return {};
}

/// numpy's name of `type`, or "".
static std::string getDTypeName(Type type) {
  for (mlc::TensorDType candidate : kDTypes)
    if (mlc::getDTypeElementType(candidate, type.getContext()) == type)
      return mlc::getDTypeName(candidate).str();
  return "";
}

MlirLogicalResult mlcBindParametersFromFile(MlirModule module,
                                            MlirStringRef entry,
                                            MlirStringRef path, bool *bound) {
  llvm::Expected<bool> result =
      mlc::bindParametersFromFile(unwrap(module), unwrap(entry), unwrap(path));
  if (!result)
    return report(result.takeError(), unwrap(module)->getContext());
  if (bound)
    *bound = *result;
  return mlirLogicalResultSuccess();
}

MlcExecutableOptions mlcExecutableOptionsGetDefault(void) {
  mlc::ExecutableOptions defaults;
  MlcExecutableOptions options;
  options.target = mlirStringRefCreateFromCString("cpu");
  options.pipelineOptions = options.tuningDatabase = options.cacheDirectory =
      mlirStringRefCreate(nullptr, 0);
  options.optLevel = defaults.optLevel;
  options.numThreads = defaults.numThreads;
  options.useCache = defaults.useCache;
  return options;
}

MlcExecutable mlcExecutableCreate(MlirModule module, MlirStringRef entry,
                                  const MlcExecutableOptions *options) {
  ModuleOp op = unwrap(module);
  MLIRContext *context = op->getContext();
  MlcExecutableOptions given =
      options ? *options : mlcExecutableOptionsGetDefault();
  mlc::ExecutableOptions parsed;
  parsed.target = unwrap(given.target).str();
  if (parsed.target.empty())
    parsed.target = "cpu";
  parsed.pipelineOptions = unwrap(given.pipelineOptions).str();
  parsed.tuningDatabase = unwrap(given.tuningDatabase).str();
  parsed.cacheDirectory = unwrap(given.cacheDirectory).str();
  parsed.optLevel = given.optLevel;
  parsed.numThreads = given.numThreads;
  parsed.useCache = given.useCache;
  if (llvm::Error error = parsed.validate()) {
    (void)report(std::move(error), context);
    return MlcExecutable{nullptr};
  }
  llvm::Expected<std::unique_ptr<mlc::Executable>> executable =
      mlc::Executable::create(op, unwrap(entry), parsed);
  if (!executable) {
    (void)report(executable.takeError(), context);
    return MlcExecutable{nullptr};
  }
  auto *handle =
      new ExecutableHandle{std::move(*executable), context, {}, {}, {}};
  return MlcExecutable{handle};
}

void mlcExecutableDestroy(MlcExecutable executable) {
  delete unwrap(executable);
}

bool mlcExecutableIsBufferEntry(MlcExecutable executable) {
  return unwrap(executable)->executable->getSignature().bufferEntry;
}

intptr_t mlcExecutableGetNumParameters(MlcExecutable executable) {
  return unwrap(executable)->executable->getSignature().parameters.size();
}

MlirStringRef mlcExecutableGetParameterName(MlcExecutable executable,
                                            intptr_t pos) {
  return wrap(StringRef(
      unwrap(executable)->executable->getSignature().parameters[pos].name));
}

intptr_t mlcExecutableGetNumResults(MlcExecutable executable) {
  return unwrap(executable)->executable->getSignature().results.size();
}

/// The host tensors of `inputs` for `signature`'s parameters: copies of the
/// arrays, or views of a buffer entry's buffers (written in place).
static llvm::Expected<SmallVector<mlc::HostTensor>>
getInputs(const mlc::EntrySignature &signature, const MlcTensor *inputs,
          intptr_t numInputs, MLIRContext *context) {
  if (numInputs < 0 ||
      static_cast<size_t>(numInputs) != signature.parameters.size())
    return mlc::createError("'" + signature.entry + "' takes " +
                            Twine(signature.parameters.size()) +
                            " parameters, not " + Twine(numInputs));
  SmallVector<mlc::HostTensor> tensors;
  for (auto [index, parameter] : llvm::enumerate(signature.parameters)) {
    const MlcTensor &input = inputs[index];
    StringRef dtype = unwrap(input.dtype);
    Type elementType = getElementType(dtype, context);
    if (!elementType)
      return mlc::createError("parameter '" + parameter.name +
                              "' is given an array of dtype '" + dtype +
                              "', which mlc does not know");
    if (input.rank < 0 || (input.rank > 0 && !input.shape))
      return mlc::createError("parameter '" + parameter.name +
                              "' is given an array without a shape");
    SmallVector<int64_t> shape(input.shape, input.shape + input.rank);
    if (llvm::any_of(shape, [](int64_t size) { return size < 0; }))
      return mlc::createError("parameter '" + parameter.name +
                              "' is given an array with a negative size");
    auto actual = RankedTensorType::get(shape, elementType);
    if (llvm::Error error = mlc::EntrySignature::checkArgumentType(
            parameter, actual, "argument " + std::to_string(index)))
      return std::move(error);
    mlc::HostTensor &tensor = tensors.emplace_back(
        parameter.name,
        RankedTensorType::get(shape, parameter.type.getElementType(),
                              parameter.type.getEncoding()),
        parameter.scalar);
    if (!input.data && tensor.type.getNumElements() != 0)
      return mlc::createError("parameter '" + parameter.name +
                              "' is given an array without data");
    if (signature.bufferEntry && !tensor.scalar) {
      tensor.setExternalData(input.data);
      continue;
    }
    if (llvm::Error error = tensor.allocate())
      return std::move(error);
    if (tensor.getNumBytes())
      std::memcpy(tensor.getData(), input.data, tensor.getNumBytes());
  }
  return tensors;
}

/// Converts `inputs`, allocates the results into `handle` and calls `run`.
static MlirLogicalResult
callWith(MlcExecutable executable, const MlcTensor *inputs, intptr_t numInputs,
         llvm::function_ref<llvm::Error(MutableArrayRef<mlc::HostTensor>,
                                        MutableArrayRef<mlc::HostTensor>)>
             run) {
  ExecutableHandle &handle = *unwrap(executable);
  const mlc::EntrySignature &signature = handle.executable->getSignature();
  handle.results.clear();
  handle.resultShapes.clear();
  handle.resultDTypes.clear();
  auto tensors = getInputs(signature, inputs, numInputs, handle.context);
  if (!tensors)
    return report(tensors.takeError(), handle.context);
  auto results = signature.allocateResults(*tensors);
  if (!results)
    return report(results.takeError(), handle.context);
  if (llvm::Error error = run(*tensors, *results))
    return report(std::move(error), handle.context);
  handle.results = std::move(*results);
  for (const mlc::HostTensor &result : handle.results) {
    handle.resultShapes.emplace_back(result.type.getShape());
    handle.resultDTypes.push_back(getDTypeName(result.type.getElementType()));
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mlcExecutableCall(MlcExecutable executable,
                                    const MlcTensor *inputs,
                                    intptr_t numInputs) {
  mlc::Executable &callee = *unwrap(executable)->executable;
  return callWith(executable, inputs, numInputs,
                  [&](MutableArrayRef<mlc::HostTensor> tensors,
                      MutableArrayRef<mlc::HostTensor> results) {
                    return callee.call(tensors, results);
                  });
}

MlcTensor mlcExecutableGetResult(MlcExecutable executable, intptr_t pos) {
  ExecutableHandle &handle = *unwrap(executable);
  if (pos < 0 || static_cast<size_t>(pos) >= handle.results.size())
    return MlcTensor{nullptr, nullptr, -1, mlirStringRefCreate(nullptr, 0)};
  const mlc::HostTensor &result = handle.results[pos];
  return MlcTensor{result.getData(), handle.resultShapes[pos].data(),
                   static_cast<intptr_t>(handle.resultShapes[pos].size()),
                   wrap(StringRef(handle.resultDTypes[pos]))};
}

MlirLogicalResult mlcExecutableTime(MlcExecutable executable,
                                    const MlcTensor *inputs, intptr_t numInputs,
                                    unsigned runs, double *millis) {
  mlc::Executable &callee = *unwrap(executable)->executable;
  return callWith(executable, inputs, numInputs,
                  [&](MutableArrayRef<mlc::HostTensor> tensors,
                      MutableArrayRef<mlc::HostTensor> results) -> llvm::Error {
                    auto times = callee.time(runs, tensors, results);
                    if (!times)
                      return times.takeError();
                    llvm::copy(*times, millis);
                    return llvm::Error::success();
                  });
}

MlcCompileOptions mlcCompileOptionsGetDefault(void) {
  mlc::AOTCompileOptions defaults;
  MlcCompileOptions options;
  MlirStringRef empty = mlirStringRefCreate(nullptr, 0);
  options.target = mlirStringRefCreateFromCString("cpu");
  options.pipelineOptions = options.tuningDatabase = options.cpu =
      options.entries = empty;
  options.sourceName = mlirStringRefCreateFromCString("<module>");
  options.optLevel = defaults.optLevel;
  options.tuningNumCores = defaults.tuningNumCores;
  return options;
}

MlirLogicalResult mlcCompileToFile(MlirModule module,
                                   const MlcCompileOptions *options,
                                   MlirStringRef outputPath,
                                   MlirStringRef headerPath) {
  MlcCompileOptions given = options ? *options : mlcCompileOptionsGetDefault();
  mlc::AOTCompileOptions parsed;
  parsed.target = unwrap(given.target).str();
  if (parsed.target.empty())
    parsed.target = "cpu";
  parsed.pipelineOptions = unwrap(given.pipelineOptions).str();
  parsed.tuningDatabase = unwrap(given.tuningDatabase).str();
  parsed.tuningNumCores = given.tuningNumCores;
  parsed.cpu = unwrap(given.cpu).str();
  parsed.optLevel = given.optLevel;
  if (!unwrap(given.sourceName).empty())
    parsed.sourceName = unwrap(given.sourceName).str();
  SmallVector<StringRef> entries;
  unwrap(given.entries).split(entries, ',', -1, /*KeepEmpty=*/false);
  for (StringRef entry : entries)
    parsed.entries.push_back(entry.trim().str());
  ModuleOp op = unwrap(module);
  return report(
      mlc::compileToFile(op, parsed, unwrap(outputPath), unwrap(headerPath)),
      op->getContext());
}
