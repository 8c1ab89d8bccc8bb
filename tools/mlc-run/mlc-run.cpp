//===- mlc-run.cpp - compile a model and run it on numpy inputs -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlc-run model.mlir --inputs=in.npz [--params=p.npz] [--entry=main]
//         [--outputs=out.npz] [--bench=N] [--threads=N]
//         [--pipeline-options="openmp=false plan-memory=false"]
//         [--target=cpu|cuda[:sm_XX]]
//
// Compiles the module with the CPU pipeline, JIT-compiles it with MLIR's
// ExecutionEngine and calls the entry function. The role of TVM's
// `relay.create_executor(...).evaluate()`, `rt_lib["f"](a, b, c)` and
// `time_evaluator`. Parameters are bound by name: the `relay.name`,
// `relax.name` or `tensorir.name` argument attribute, else `argN`. There are
// two kinds of entries:
//
// - Tensor entries (every parameter and result a ranked tensor): every
//   parameter is read from --inputs/--params, a dynamic dimension taking the
//   array's size; the results are allocated here, their dynamic dimensions
//   computed from the symbols of the parameters' relax shapes (`n` of
//   `tensor<?x784xf32, #relax.shape<[n, 784]>>`), passed in
//   destination-passing style, and written as out0, out1, ...
//   For relay and relax entries --params are bound as constants before
//   compiling (relay-bind-params / relax-bind-params, TVM's
//   `relay.build(mod, params=...)`), so the pipeline folds what depends only
//   on them; a name in --params that is no parameter is an error.
//
// - Buffer entries (every parameter a statically shaped memref, no results:
//   a `tensorir.prim_func` or a func.func lowered from one; TVM's
//   `mod["mm_relu"](a, b, c)`): each buffer is read by its name from
//   --inputs/--params when present there, and starts zeroed otherwise (so
//   output buffers need not be given, like `tvm.nd.empty`). Scalar
//   parameters (`index`, integers, floats) are required, as 0-d arrays
//   (int64 for `index`). After the call every buffer (not the scalars) is
//   written to --outputs under its name (the function may write any of them,
//   in place) and summarised on stdout.
//
// --target=cuda[:sm_XX] compiles with the GPU pipeline instead
// (--pipeline-options are then its options) and runs on the first CUDA
// device: the JIT resolves the host code's mgpu* calls to mlc's CUDA runtime,
// the buffers are copied to device memory for the call and back after it,
// and --bench times the runs with CUDA events. Without a driver or a device
// it fails before compiling anything; a CUDA error fails the run, and no
// --outputs file is written then.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Relay/Transforms/Passes.h"
#include "mlc/ExecutionEngine/CUDADevice.h"
#include "mlc/ExecutionEngine/CompileCache.h"
#include "mlc/ExecutionEngine/ObjectJIT.h"
#include "mlc/InitAll.h"
#include "mlc/MetaSchedule/Database.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Support/NpzWriter.h"
#include "mlc/Support/PassFailureDiagnostics.h"
#include "mlc/Support/TensorFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("mlc-run options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<model.mlir>"),
                                          cl::init("-"), cl::cat(runCategory));
static cl::opt<std::string>
    inputsFile("inputs",
               cl::desc("Inputs by parameter name (.npz or .safetensors)"),
               cl::value_desc("file"), cl::cat(runCategory));
static cl::opt<std::string> paramsFile(
    "params",
    cl::desc("Parameters by name (.npz or .safetensors); a name given in both "
             "--inputs and --params is an error"),
    cl::value_desc("file"), cl::cat(runCategory));
static cl::opt<std::string> entryName("entry", cl::desc("Function to run"),
                                      cl::init("main"), cl::cat(runCategory));
static cl::opt<std::string>
    outputsFile("outputs",
                cl::desc("Write the results as out0, out1, ... (buffer "
                         "entries: every buffer under its parameter name)"),
                cl::value_desc("file.npz"), cl::cat(runCategory));
static cl::opt<unsigned>
    benchRuns("bench",
              cl::desc("Time N runs after one warm-up run and print "
                       "min/median/max latency"),
              cl::init(0), cl::cat(runCategory));
static cl::opt<unsigned> jitOptLevel("O",
                                     cl::desc("LLVM optimization level (0-3)"),
                                     cl::init(3), cl::cat(runCategory));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("Options of the CPU pipeline, as for --mlc-cpu-pipeline, e.g. "
             "\"openmp=false plan-memory=false\" (with --target=cuda: of "
             "--mlc-gpu-pipeline)"),
    cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> targetName(
    "target",
    cl::desc("cpu (the host), or cuda[:sm_XX] to run on the first CUDA "
             "device (default chip sm_90)"),
    cl::value_desc("target"), cl::init("cpu"), cl::cat(runCategory));
static cl::opt<std::string> tuningDatabase(
    "tuning-db",
    cl::desc("Schedule the kernels by their best records in this tuning "
             "database (mlc-tune's --work-dir), preferring records measured "
             "with --threads cores; CPU only"),
    cl::value_desc("dir"), cl::init(""), cl::cat(runCategory));
/// --threads, registered in main (see there).
static unsigned numThreads = 1;
static cl::opt<bool> quiet("quiet", cl::desc("Do not print output summaries"),
                           cl::init(false), cl::cat(runCategory));
static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Cache of compiled modules: a module compiled before with the "
             "same options on this host by this build of mlc is not compiled "
             "again (default: $XDG_CACHE_HOME/mlc or ~/.cache/mlc; CPU only)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(runCategory));
static cl::opt<bool> noCache("no-cache",
                             cl::desc("Neither read nor write the cache"),
                             cl::init(false), cl::cat(runCategory));

namespace {

/// A host buffer in C order, 64-byte aligned for the compiled kernels.
struct HostTensor {
  std::string name;
  RankedTensorType type;
  std::unique_ptr<char, decltype(&std::free)> data{nullptr, &std::free};
  size_t numBytes = 0;
  /// A scalar parameter of a buffer entry (`type` is then 0-d), passed by
  /// value.
  bool scalar = false;

  static size_t getElementBytes(Type type) {
    return type.isInteger(1) ? 1 : (type.getIntOrFloatBitWidth() + 7) / 8;
  }
  void allocate() {
    numBytes = type.getNumElements() * getElementBytes(type.getElementType());
    // aligned_alloc wants a size that is a multiple of the alignment.
    size_t padded = std::max<size_t>(64, (numBytes + 63) / 64 * 64);
    data.reset(static_cast<char *>(std::aligned_alloc(64, padded)));
    std::fill_n(data.get(), padded, 0);
  }
};

/// The strided descriptor fields of one ranked memref argument, in the order
/// the LLVM lowering expands them (allocated, aligned, offset, sizes,
/// strides).
struct MemRefArgument {
  void *allocated;
  void *aligned;
  int64_t offset = 0;
  SmallVector<int64_t> sizes, strides;

  explicit MemRefArgument(HostTensor &tensor)
      : allocated(tensor.data.get()), aligned(tensor.data.get()) {
    ArrayRef<int64_t> shape = tensor.type.getShape();
    sizes.assign(shape.begin(), shape.end());
    strides.assign(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * shape[i + 1];
  }
  /// Points the descriptor at `data`, e.g. a device copy of the tensor.
  void setData(void *data) { allocated = aligned = data; }
  void appendPackedPointers(SmallVectorImpl<void *> &packed) {
    packed.push_back(&allocated);
    packed.push_back(&aligned);
    packed.push_back(&offset);
    for (int64_t &size : sizes)
      packed.push_back(&size);
    for (int64_t &stride : strides)
      packed.push_back(&stride);
  }
};

} // namespace

/// The name an entry parameter is bound by: the `relay.name`/`relax.name`
/// argument attribute the importer keeps, or a prim_func's `tensorir.name`,
/// else `argN`.
static std::string getParameterName(FunctionOpInterface func, unsigned index) {
  for (StringRef attrName : {"relay.name", "relax.name", "tensorir.name"})
    if (auto name = func.getArgAttrOfType<StringAttr>(index, attrName))
      return name.str();
  return "arg" + std::to_string(index);
}

static LogicalResult fail(const Twine &message) {
  llvm::errs() << "mlc-run: error: " << message << "\n";
  return failure();
}

/// Fills `tensor` with the entry `tensor.name` of `file`, checking shape and
/// element type against the parameter's.
static LogicalResult readInput(mlc::TensorFile &file, HostTensor &tensor) {
  llvm::Expected<mlc::TensorView> view = file.lookup(tensor.name);
  if (!view)
    return fail(llvm::toString(view.takeError()));
  MLIRContext *context = tensor.type.getContext();
  RankedTensorType actual = view->getType(context);
  // A dynamic dimension takes the array's size (its symbol is checked by
  // bindSymbols); every other property must match.
  // numpy has no bfloat16: a bf16 parameter also takes uint16 bit patterns.
  Type want = tensor.type.getElementType();
  bool bits = want.isBF16() && actual.getElementType().isUnsignedInteger(16);
  auto fits = [&] {
    if ((actual.getElementType() != want && !bits) ||
        actual.getRank() != tensor.type.getRank())
      return false;
    for (auto [want, have] :
         llvm::zip(tensor.type.getShape(), actual.getShape()))
      if (!ShapedType::isDynamic(want) && want != have)
        return false;
    return true;
  };
  if (!fits()) {
    std::string expected, got;
    llvm::raw_string_ostream(expected) << tensor.type;
    llvm::raw_string_ostream(got) << actual;
    return fail("parameter '" + tensor.name + "' expects " + expected +
                " but '" + file.getPath() + "' holds " + got);
  }
  tensor.type =
      RankedTensorType::get(actual.getShape(), tensor.type.getElementType(),
                            tensor.type.getEncoding());
  tensor.allocate();
  std::copy(view->data.begin(), view->data.end(), tensor.data.get());
  return success();
}

/// Binds the symbolic dimensions of `tensor`'s declared relax shape (e.g.
/// `n` of `#relax.shape<[n, 784]>`) to the sizes it was given, checking
/// them against earlier bindings and every dimension computed from them.
static LogicalResult bindSymbols(const HostTensor &tensor,
                                 RankedTensorType declared,
                                 llvm::StringMap<int64_t> &symbols) {
  auto shape = dyn_cast_or_null<mlc::relax::ShapeAttr>(declared.getEncoding());
  if (!shape)
    return success();
  ArrayRef<int64_t> sizes = tensor.type.getShape();
  for (auto [dim, expr] : llvm::enumerate(shape.getDims())) {
    auto symbol = dyn_cast_or_null<AffineSymbolExpr>(expr);
    if (!symbol)
      continue;
    StringRef name = shape.getNames()[symbol.getPosition()].getValue();
    auto [it, inserted] = symbols.try_emplace(name, sizes[dim]);
    if (!inserted && it->second != sizes[dim])
      return fail("parameter '" + tensor.name + "' has " + Twine(sizes[dim]) +
                  " for dimension " + Twine(dim) + " (" + name +
                  "), but another parameter set " + name + " = " +
                  Twine(it->second));
  }
  return success();
}

/// The value of dimension `dim` of the relax shape `shape` with `symbols`
/// bound, if all its symbols are.
static std::optional<int64_t>
evaluateDim(mlc::relax::ShapeAttr shape, unsigned dim,
            const llvm::StringMap<int64_t> &symbols) {
  AffineExpr expr = shape.getDims()[dim];
  if (!expr)
    return std::nullopt;
  SmallVector<AffineExpr> values;
  for (StringAttr name : shape.getNames()) {
    auto it = symbols.find(name.getValue());
    if (it == symbols.end())
      return std::nullopt;
    values.push_back(getAffineConstantExpr(it->second, expr.getContext()));
  }
  auto folded = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(expr.replaceSymbols(values), 0, 0));
  if (!folded)
    return std::nullopt;
  return folded.getValue();
}

static void printSummary(llvm::raw_ostream &os, const HostTensor &tensor) {
  os << tensor.name << ": " << tensor.type;
  Type elementType = tensor.type.getElementType();
  int64_t count = tensor.type.getNumElements();
  auto valueAt = [&](int64_t i) -> double {
    const char *p = tensor.data.get();
    if (elementType.isF32())
      return reinterpret_cast<const float *>(p)[i];
    if (elementType.isF64())
      return reinterpret_cast<const double *>(p)[i];
    if (elementType.isInteger(64))
      return reinterpret_cast<const int64_t *>(p)[i];
    if (elementType.isInteger(32))
      return reinterpret_cast<const int32_t *>(p)[i];
    if (elementType.isInteger(8) || elementType.isInteger(1))
      return reinterpret_cast<const int8_t *>(p)[i];
    return std::nan("");
  };
  if (count == 0 || std::isnan(valueAt(0))) {
    os << "\n";
    return;
  }
  double minValue = valueAt(0), maxValue = valueAt(0), sum = 0;
  for (int64_t i = 0; i < count; ++i) {
    double v = valueAt(i);
    minValue = std::min(minValue, v);
    maxValue = std::max(maxValue, v);
    sum += v;
  }
  os << llvm::format(" min %g max %g mean %g [", minValue, maxValue,
                     sum / count);
  for (int64_t i = 0, e = std::min<int64_t>(count, 6); i < e; ++i)
    os << (i ? ", " : "") << llvm::format("%g", valueAt(i));
  os << (count > 6 ? ", ...]\n" : "]\n");
}

/// Writes the object code `engine` compiled into `cache` as `key`'s entry.
static llvm::Error storeInCache(ExecutionEngine &engine,
                                mlc::CompileCache &cache, StringRef key,
                                uint32_t flags) {
  llvm::Expected<std::string> path = cache.createTemporaryFile(key);
  if (!path)
    return path.takeError();
  engine.dumpToObjectFile(*path);
  return cache.commit(key, *path, flags);
}

static LogicalResult run(MLIRContext &context) {
  if (jitOptLevel > 3)
    return fail("-O" + Twine(jitOptLevel) +
                " is not an optimization level (0-3)");
  // The target and the pipeline's options first, and a CUDA device, so that
  // nothing is compiled or run without one.
  mlc::CompilationTarget target;
  if (std::string error = mlc::parseCompilationTarget(targetName, target);
      !error.empty())
    return fail(error);
  bool cuda = target.isCUDA();
  std::unique_ptr<mlc::CPUPipelineOptions> cpuOptions;
  std::unique_ptr<mlc::GPUPipelineOptions> gpuOptions;
  if (cuda)
    gpuOptions = mlc::GPUPipelineOptions::createFromString(pipelineOptions);
  else
    cpuOptions = mlc::CPUPipelineOptions::createFromString(pipelineOptions);
  if (!cpuOptions && !gpuOptions)
    return fail("invalid --pipeline-options '" + pipelineOptions + "'");
  // mlc-run allocates the results and passes them to the entry.
  if (cpuOptions) {
    if (std::string error = mlc::validateCPUPipelineOptions(*cpuOptions);
        !error.empty())
      return fail(error);
  }
  if (!tuningDatabase.empty()) {
    if (cuda)
      return fail("--tuning-db holds CPU schedules; it cannot be used with "
                  "--target=" +
                  targetName);
    cpuOptions->tuningDatabase = tuningDatabase;
    cpuOptions->tuningNumCores =
        numThreads ? numThreads : std::thread::hardware_concurrency();
  }
  if (cpuOptions && !cpuOptions->hoistResultAllocs)
    return fail("mlc-run needs hoist-result-allocs=true (it passes result "
                "buffers to the entry); mlc-compile takes "
                "hoist-result-allocs=false");
  if (cuda) {
    if (!target.chip.empty())
      gpuOptions->chip = target.chip;
    if (std::string error = mlc::validateGPUPipelineOptions(*gpuOptions);
        !error.empty())
      return fail(error);
    if (llvm::Error error = mlc::initCUDADevice())
      return fail(llvm::toString(std::move(error)));
  }

  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();

  auto entry =
      dyn_cast_or_null<FunctionOpInterface>(module->lookupSymbol(entryName));
  if (!entry)
    return fail("no function '" + entryName + "' in '" + inputFilename + "'");

  // --params of a relay or relax entry are bound as constants before
  // compiling, as TVM's relay.build(mod, params=...) does, so that the
  // pipeline folds what depends only on them (e.g. transposed weights).
  // Other entries (buffer functions, plain tensor code) take them at run
  // time like inputs.
  bool bindParams = false;
  if (!paramsFile.empty() && isa<func::FuncOp>(entry.getOperation())) {
    StringRef dialect;
    entry->walk([&](Operation *op) {
      StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
      if (ns == "relay" || (ns == "relax" && dialect.empty()))
        dialect = ns;
    });
    if (!dialect.empty()) {
      PassManager bind(&context);
      mlc::addPassFailureDiagnostics(bind);
      if (dialect == "relay")
        bind.addPass(mlc::relay::createRelayBindParams(
            mlc::relay::RelayBindParamsOptions{paramsFile, entryName}));
      else
        bind.addPass(mlc::relax::createRelaxBindParams(
            mlc::relax::RelaxBindParamsOptions{paramsFile, entryName}));
      if (failed(bind.run(*module)))
        return failure();
      bindParams = true;
      entry = cast<FunctionOpInterface>(module->lookupSymbol(entryName));
    }
  }

  // Host buffers for the entry's parameters and results, from its signature
  // before lowering.
  SmallVector<HostTensor> inputs, outputs;
  ArrayRef<Type> parameterTypes = entry.getArgumentTypes();
  bool bufferEntry = llvm::any_of(parameterTypes, llvm::IsaPred<MemRefType>);
  if (bufferEntry) {
    if (entry.getNumResults() != 0)
      return fail("'" + entryName +
                  "' takes buffers and returns results; mlc-run runs "
                  "destination-passing buffer functions without results");
    for (auto [index, type] : llvm::enumerate(parameterTypes)) {
      if (type.isIntOrIndexOrFloat()) {
        // A scalar, read from a 0-d array (int64 for `index`).
        Type elementType =
            type.isIndex() ? IntegerType::get(&context, 64) : type;
        inputs.push_back({getParameterName(entry, index),
                          RankedTensorType::get({}, elementType)});
        inputs.back().scalar = true;
        continue;
      }
      auto memrefType = dyn_cast<MemRefType>(type);
      if (!memrefType || !memrefType.hasStaticShape() ||
          !memrefType.getLayout().isIdentity())
        return fail("parameter " + Twine(index) + " of '" + entryName +
                    "' is neither a scalar nor a statically shaped memref "
                    "with the identity layout; buffer entries support only "
                    "those so far");
      inputs.push_back({getParameterName(entry, index),
                        RankedTensorType::get(memrefType.getShape(),
                                              memrefType.getElementType())});
    }
  }
  // Dynamic dimensions take the sizes of the given arrays; those named in a
  // relax shape (`#relax.shape<[n, 784]>`) give the results' sizes.
  for (auto [index, type] :
       llvm::enumerate(bufferEntry ? ArrayRef<Type>() : parameterTypes)) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return fail("parameter " + Twine(index) + " of '" + entryName +
                  "' is not a ranked tensor; mlc-run supports only those");
    inputs.push_back({getParameterName(entry, index), tensorType});
  }
  for (auto [index, type] : llvm::enumerate(entry.getResultTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return fail("result " + Twine(index) + " of '" + entryName +
                  "' is not a ranked tensor; mlc-run supports only those");
    outputs.push_back({"out" + std::to_string(index), tensorType});
  }

  // Inputs and parameters by name.
  std::unique_ptr<mlc::TensorFile> inputFile, paramFile;
  for (auto [path, slot] : {std::make_pair(&inputsFile, &inputFile),
                            std::make_pair(&paramsFile, &paramFile)}) {
    if (path->empty() || (path == &paramsFile && bindParams))
      continue;
    auto opened = mlc::TensorFile::open(*path);
    if (!opened)
      return fail(llvm::toString(opened.takeError()));
    *slot = std::move(*opened);
  }
  for (HostTensor &input : inputs) {
    bool inInputs = inputFile && inputFile->contains(input.name);
    bool inParams = paramFile && paramFile->contains(input.name);
    if (inInputs && inParams)
      return fail("parameter '" + input.name + "' is given by both '" +
                  inputsFile + "' and '" + paramsFile + "'");
    if (!inInputs && !inParams && bufferEntry && !input.scalar) {
      // An output buffer: starts zeroed.
      input.allocate();
      continue;
    }
    if (!inInputs && !inParams) {
      // Say which files were searched (bound --params included), by the
      // option that named each.
      std::string inputsText = "'" + inputsFile + "' (--inputs)";
      std::string paramsText = "'" + paramsFile + "' (--params)";
      std::string why;
      if (inputsFile.empty() && paramsFile.empty())
        why = "no --inputs or --params file is given";
      else if (paramsFile.empty())
        why = inputsText + " has no '" + input.name +
              "', and no --params file is given";
      else if (inputsFile.empty())
        why = paramsText + " has no '" + input.name +
              "', and no --inputs file is given";
      else
        why = "neither " + inputsText + " nor " + paramsText + " has '" +
              input.name + "'";
      return fail("no value for parameter '" + input.name + "' of '" +
                  entryName + "': " + why);
    }
    if (failed(readInput(inInputs ? *inputFile : *paramFile, input)))
      return failure();
  }
  llvm::StringMap<int64_t> symbols;
  for (auto [input, type] : llvm::zip(inputs, parameterTypes))
    if (!bufferEntry &&
        failed(bindSymbols(input, cast<RankedTensorType>(type), symbols)))
      return failure();
  for (auto [index, output] : llvm::enumerate(outputs)) {
    RankedTensorType type = output.type;
    SmallVector<int64_t> shape(type.getShape());
    auto relaxShape =
        dyn_cast_or_null<mlc::relax::ShapeAttr>(type.getEncoding());
    for (auto [dim, size] : llvm::enumerate(shape)) {
      if (!ShapedType::isDynamic(size))
        continue;
      std::optional<int64_t> value =
          relaxShape ? evaluateDim(relaxShape, dim, symbols) : std::nullopt;
      if (!value || *value < 0) {
        std::string text;
        llvm::raw_string_ostream(text) << type;
        return fail("result " + Twine(index) + " of '" + entryName +
                    "' has type " + text + ", whose dimension " + Twine(dim) +
                    " the parameters' shapes do not determine");
      }
      size = *value;
    }
    output.type = RankedTensorType::get(shape, type.getElementType());
    output.allocate();
  }
  for (auto *tensorFile : {inputFile.get(), paramFile.get()}) {
    if (!tensorFile)
      continue;
    for (const std::string &name : tensorFile->getNames()) {
      if (llvm::any_of(inputs, [&](const HostTensor &input) {
            return input.name == name;
          }))
        continue;
      // Bound --params are gone from the entry's signature: an input of
      // the same name was given twice, not a name the entry lacks.
      if (bindParams && tensorFile == inputFile.get()) {
        auto params = mlc::TensorFile::open(paramsFile);
        if (!params)
          return fail(llvm::toString(params.takeError()));
        if ((*params)->contains(name))
          return fail("parameter '" + name + "' is given by both '" +
                      inputsFile + "' and '" + paramsFile + "'");
      }
      return fail("'" + tensorFile->getPath() + "' has '" + name +
                  "', which is no parameter of '" + entryName + "'");
    }
  }

  // Compile, or take the object code of an earlier run from the cache (the
  // module with its bound weights, the options, the host and this build of
  // mlc make the key). The cached object is host code: GPU modules, whose
  // binaries load in global constructors, are compiled every time.
  auto compileStart = std::chrono::steady_clock::now();
  std::optional<mlc::CompileCache> cache;
  std::string cacheKey;
  std::optional<mlc::CachedObject> cached;
  if (!noCache && !cuda) {
    cache.emplace(cacheDir.empty() ? mlc::CompileCache::getDefaultDirectory()
                                   : cacheDir.getValue());
    std::string options;
    llvm::raw_string_ostream(options)
        << "target=" << targetName << " O=" << jitOptLevel
        << " pipeline=" << pipelineOptions;
    // A changed tuning database changes the code.
    if (!cpuOptions->tuningDatabase.empty())
      llvm::raw_string_ostream(options)
          << " tuning-db="
          << mlc::meta_schedule::JSONDatabase::computeDigest(
                 cpuOptions->tuningDatabase)
          << " tuning-num-cores=" << cpuOptions->tuningNumCores;
    cacheKey = mlc::CompileCache::computeKey(*module, options);
    cached = cache->lookup(cacheKey);
  }
  auto pipelineDone = compileStart;
  bool usesOpenMP = false;
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<mlc::ObjectJIT> objectJIT;
  if (!cached) {
    PassManager pm(&context);
    mlc::addPassFailureDiagnostics(pm);
    if (cuda)
      mlc::buildGPUPipeline(pm, *gpuOptions);
    else
      mlc::buildCPUPipeline(pm, *cpuOptions);
    if (failed(pm.run(*module)))
      return failure();
    pipelineDone = std::chrono::steady_clock::now();
    usesOpenMP = module
                     ->walk([](Operation *op) {
                       return op->getName().getDialectNamespace() == "omp"
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
  } else {
    usesOpenMP = cached->flags & mlc::CachedObject::kUsesOpenMP;
  }

  SmallVector<StringRef> runtimeLibraries = {MLC_C_RUNNER_UTILS};
  if (usesOpenMP) {
    std::string error;
    auto openMP = llvm::sys::DynamicLibrary::getPermanentLibrary(
        MLC_OPENMP_RUNTIME, &error);
    if (!openMP.isValid())
      return fail("cannot load the OpenMP runtime for parallel loops: " +
                  error);
    using SetNumThreads = void (*)(int);
    auto setNumThreads = reinterpret_cast<SetNumThreads>(
        openMP.getAddressOfSymbol("omp_set_num_threads"));
    if (!setNumThreads)
      return fail(Twine("no omp_set_num_threads in ") + MLC_OPENMP_RUNTIME);
    if (numThreads > 0)
      setNumThreads(static_cast<int>(numThreads));
    runtimeLibraries.push_back(MLC_OPENMP_RUNTIME);
  }

  if (cached) {
    auto jit =
        mlc::ObjectJIT::create(std::move(cached->object), runtimeLibraries);
    if (!jit)
      return fail("loading '" + cache->getDirectory() + "/" + cacheKey +
                  ".o' from the cache: " + llvm::toString(jit.takeError()));
    objectJIT = std::move(*jit);
    if (llvm::Error error = objectJIT->lookupPacked(entryName))
      return fail("loading '" + cache->getDirectory() + "/" + cacheKey +
                  ".o' from the cache: " + llvm::toString(std::move(error)));
  } else {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto transformer = makeOptimizingTransformer(jitOptLevel, /*sizeLevel=*/0,
                                                 /*targetMachine=*/nullptr);
    ExecutionEngineOptions engineOptions;
    engineOptions.transformer = transformer;
    engineOptions.sharedLibPaths = runtimeLibraries;
    engineOptions.jitCodeGenOptLevel =
        static_cast<llvm::CodeGenOptLevel>(std::min<unsigned>(jitOptLevel, 3));
    // Kept for the cache.
    engineOptions.enableObjectDump = cache.has_value();
    auto created = ExecutionEngine::create(*module, engineOptions);
    if (!created)
      return fail("JIT compilation failed: " +
                  llvm::toString(created.takeError()));
    engine = std::move(*created);
    // The JIT optimizes and generates code on the first lookup; doing it
    // here keeps it out of the first run and lets --bench report it.
    if (auto entry = engine->lookupPacked(entryName); !entry)
      return fail("JIT compilation failed: " +
                  llvm::toString(entry.takeError()));
    if (cuda) {
      // Global constructors load the GPU binaries (mgpuModuleLoad).
      engine->initialize();
      if (llvm::Error error = mlc::synchronizeCUDADevice())
        return fail("loading the GPU kernels: " +
                    llvm::toString(std::move(error)));
    }
    if (cache)
      if (llvm::Error error =
              storeInCache(*engine, *cache, cacheKey,
                           usesOpenMP ? mlc::CachedObject::kUsesOpenMP : 0))
        llvm::errs() << "mlc-run: warning: " << llvm::toString(std::move(error))
                     << "\n";
  }
  auto invokePacked = [&](MutableArrayRef<void *> args) -> llvm::Error {
    if (objectJIT)
      return objectJIT->invokePacked(entryName, args);
    return engine->invokePacked(entryName, args);
  };
  auto compileDone = std::chrono::steady_clock::now();

  // Destination passing: parameters first, then one buffer per result.
  // Scalars are passed by value: the packed pointer is to the value itself.
  SmallVector<MemRefArgument> arguments;
  for (HostTensor &tensor : llvm::concat<HostTensor>(inputs, outputs))
    if (!tensor.scalar)
      arguments.emplace_back(tensor);
  // On a GPU the entry takes device copies of the buffers; the results come
  // back, and so does every buffer of a buffer entry (written in place).
  mlc::CUDADeviceBuffers deviceBuffers;
  if (cuda) {
    MemRefArgument *argument = arguments.begin();
    for (auto [index, tensor] :
         llvm::enumerate(llvm::concat<HostTensor>(inputs, outputs))) {
      if (tensor.scalar)
        continue;
      bool isResult = index >= inputs.size();
      llvm::Expected<void *> device = deviceBuffers.add(
          tensor.data.get(), tensor.numBytes, bufferEntry || isResult);
      if (!device)
        return fail("copying '" + tensor.name +
                    "' to the device: " + llvm::toString(device.takeError()));
      (argument++)->setData(*device);
    }
  }
  SmallVector<void *> packed;
  MemRefArgument *nextArgument = arguments.begin();
  for (HostTensor &tensor : llvm::concat<HostTensor>(inputs, outputs)) {
    if (tensor.scalar)
      packed.push_back(tensor.data.get());
    else
      (nextArgument++)->appendPackedPointers(packed);
  }

  // A failed runtime check (cf.assert, e.g. of relax.match_cast) prints its
  // message through C stdio and aborts, which does not flush: unbuffered, the
  // message reaches a pipe too. mlc-run's own output goes through
  // llvm::outs(), which is not affected.
  llvm::outs().flush();
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  auto callOnce = [&]() -> LogicalResult {
    if (llvm::Error error = invokePacked(packed))
      return fail("calling '" + entryName +
                  "': " + llvm::toString(std::move(error)));
    return success();
  };
  if (failed(callOnce()))
    return failure();
  if (cuda)
    if (llvm::Error error = deviceBuffers.copyToHost())
      return fail("calling '" + entryName +
                  "': " + llvm::toString(std::move(error)));

  // A buffer entry's results are its buffers, written in place.
  if (bufferEntry)
    for (HostTensor &input : inputs)
      if (!input.scalar)
        outputs.push_back(std::move(input));
  if (!quiet)
    for (const HostTensor &output : outputs)
      printSummary(llvm::outs(), output);

  // Written before benchmarking, which reruns the function on the buffers.
  if (!outputsFile.empty()) {
    mlc::NpzWriter writer;
    std::string error;
    for (const HostTensor &output : outputs)
      if (!writer.add(
              output.name, output.type.getShape(), output.type.getElementType(),
              ArrayRef<char>(output.data.get(), output.numBytes), error))
        return fail(error);
    if (!writer.write(outputsFile, error))
      return fail(error);
  }
  if (benchRuns > 0) {
    SmallVector<double> millis;
    if (cuda) {
      // Device time between CUDA events around each call.
      auto times = mlc::timeOnCUDADevice(benchRuns,
                                         [&] { return invokePacked(packed); });
      if (!times)
        return fail("calling '" + entryName +
                    "': " + llvm::toString(times.takeError()));
      millis = std::move(*times);
    } else {
      for (unsigned i = 0; i < benchRuns; ++i) {
        auto start = std::chrono::steady_clock::now();
        if (failed(callOnce()))
          return failure();
        auto stop = std::chrono::steady_clock::now();
        millis.push_back(
            std::chrono::duration<double, std::milli>(stop - start).count());
      }
    }
    llvm::sort(millis);
    using Millis = std::chrono::duration<double, std::milli>;
    if (objectJIT)
      llvm::outs() << llvm::format("compile time: %.1f ms (from the cache)\n",
                                   Millis(compileDone - compileStart).count());
    else
      llvm::outs() << llvm::format(
          "compile time: %.1f ms (MLIR pipeline %.1f ms, LLVM %.1f ms)\n",
          Millis(compileDone - compileStart).count(),
          Millis(pipelineDone - compileStart).count(),
          Millis(compileDone - pipelineDone).count());
    llvm::outs() << llvm::format(
        "latency over %u runs: min %.4f ms, median %.4f ms, max %.4f ms\n",
        benchRuns.getValue(), millis.front(), millis[millis.size() / 2],
        millis.back());
  }

  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // libLLVM registers a `-threads` of its own (the legacy ThinLTO code
  // generator's, unused here); ours replaces it.
  if (cl::Option *other = cl::getRegisteredOptions().lookup("threads"))
    other->removeArgument();
  static cl::opt<unsigned, /*ExternalStorage=*/true> threadsOption(
      "threads",
      cl::desc("OpenMP threads for parallel loops (0: the runtime's default, "
               "OMP_NUM_THREADS or every core)"),
      cl::location(numThreads), cl::init(1), cl::cat(runCategory));
  mlc::registerAllPasses();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "mlc-run: compile a model and run it on numpy "
                              "inputs\n");

  DialectRegistry registry;
  mlc::registerAllDialectsWithUpstream(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  // Errors name the op by location; a dump of it in generic form is for
  // compiler developers (mlc-opt), not for the users of a driver.
  context.printOpOnDiagnostic(false);
  return failed(run(context)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
