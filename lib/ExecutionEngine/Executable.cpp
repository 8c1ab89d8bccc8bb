//===- Executable.cpp - compile a module and call it in process -----------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/Executable.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Relay/Transforms/Passes.h"
#include "mlc/ExecutionEngine/CUDADevice.h"
#include "mlc/ExecutionEngine/CompileCache.h"
#include "mlc/ExecutionEngine/ObjectJIT.h"
#include "mlc/MetaSchedule/Database.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Support/DiagnosedError.h"
#include "mlc/Support/PassFailureDiagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <chrono>
#include <limits>
#include <thread>

using namespace mlir;
using namespace mlc;

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

size_t HostTensor::getElementBytes(Type type) {
  return type.isInteger(1) ? 1 : (type.getIntOrFloatBitWidth() + 7) / 8;
}

size_t HostTensor::computeNumBytes(RankedTensorType type) {
  // Saturating: a type may count more bytes than size_t holds.
  uint64_t bytes = getElementBytes(type.getElementType());
  for (int64_t extent : type.getShape())
    bytes = llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(extent));
  return std::min<uint64_t>(bytes, std::numeric_limits<size_t>::max());
}

llvm::Error HostTensor::allocate() {
  numBytes = computeNumBytes(type);
  auto cannot = [&] {
    return createError("cannot allocate " + Twine(numBytes) + " bytes for '" +
                       name + "' (" + printType(type) + ")");
  };
  // Large tensors in 2 MiB pages where the kernel grants them (THP in
  // `madvise` mode, as numpy asks for its arrays of 4 MiB or more): a GEMM
  // walks its matrices in tiles whose rows lie a row's bytes apart, so with
  // 4 KiB pages each row of a tile is another TLB entry. aligned_alloc
  // wants a size that is a multiple of the alignment.
  constexpr size_t kHugePageBytes = size_t(2) << 20;
  constexpr size_t kHugePageThreshold = size_t(4) << 20;
  size_t alignment = numBytes >= kHugePageThreshold ? kHugePageBytes : 64;
  if (numBytes > std::numeric_limits<size_t>::max() - alignment)
    return cannot();
  size_t padded =
      std::max(alignment, (numBytes + alignment - 1) / alignment * alignment);
  owned.reset(static_cast<char *>(std::aligned_alloc(alignment, padded)));
  data = owned.get();
  if (!data)
    return cannot();
#ifdef MADV_HUGEPAGE
  // A hint: without transparent huge pages the tensor keeps small pages.
  if (alignment == kHugePageBytes)
    (void)madvise(data, padded, MADV_HUGEPAGE);
#endif
  std::fill_n(data, padded, 0);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// EntrySignature
//===----------------------------------------------------------------------===//

std::string mlc::getEntryParameterName(FunctionOpInterface func,
                                       unsigned index) {
  for (StringRef attrName : {"relay.name", "relax.name", "tensorir.name"})
    if (auto name = func.getArgAttrOfType<StringAttr>(index, attrName))
      return name.str();
  return "arg" + std::to_string(index);
}

llvm::Expected<EntrySignature> EntrySignature::get(ModuleOp module,
                                                   StringRef entryName) {
  auto entry =
      dyn_cast_or_null<FunctionOpInterface>(module.lookupSymbol(entryName));
  if (!entry)
    return createError("no function '" + entryName + "' in the module");
  EntrySignature signature;
  signature.entry = entryName.str();
  MLIRContext *context = module.getContext();
  ArrayRef<Type> parameterTypes = entry.getArgumentTypes();
  signature.bufferEntry =
      llvm::any_of(parameterTypes, llvm::IsaPred<MemRefType>);
  if (signature.bufferEntry) {
    if (entry.getNumResults() != 0)
      return createError("'" + entryName +
                         "' takes buffers and returns results; only "
                         "destination-passing buffer functions without "
                         "results run");
    for (auto [index, type] : llvm::enumerate(parameterTypes)) {
      if (type.isIntOrIndexOrFloat()) {
        // A scalar, read from a 0-d array (int64 for `index`).
        Type elementType =
            type.isIndex() ? IntegerType::get(context, 64) : type;
        signature.parameters.emplace_back(
            getEntryParameterName(entry, index),
            RankedTensorType::get({}, elementType),
            /*scalar=*/true);
        continue;
      }
      auto memrefType = dyn_cast<MemRefType>(type);
      if (!memrefType || !memrefType.hasStaticShape() ||
          !memrefType.getLayout().isIdentity())
        return createError("parameter " + Twine(index) + " of '" + entryName +
                           "' is neither a scalar nor a statically shaped "
                           "memref with the identity layout; buffer entries "
                           "support only those so far");
      signature.parameters.emplace_back(
          getEntryParameterName(entry, index),
          RankedTensorType::get(memrefType.getShape(),
                                memrefType.getElementType()));
    }
    return signature;
  }
  for (auto [index, type] : llvm::enumerate(parameterTypes)) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return createError("parameter " + Twine(index) + " of '" + entryName +
                         "' is not a ranked tensor; only those are supported");
    signature.parameters.emplace_back(getEntryParameterName(entry, index),
                                      tensorType);
  }
  // The compiled entry checks its inputs against these at run time, where
  // a mismatch aborts; allocateResults checks them first, and two constants
  // that disagree are an error here.
  std::string conflict;
  entry->walk([&](relax::MatchCastOp cast) {
    auto constant = cast->getOperand(0).getDefiningOp<relax::ConstantOp>();
    auto from = dyn_cast<RankedTensorType>(cast->getOperand(0).getType());
    auto to = dyn_cast<RankedTensorType>(cast->getResult(0).getType());
    auto shape =
        to ? dyn_cast_or_null<relax::ShapeAttr>(to.getEncoding()) : nullptr;
    if (!constant || !from || !shape || !from.hasStaticShape() ||
        from.getRank() != static_cast<int64_t>(shape.getDims().size()))
      return;
    for (auto [dim, expr] : llvm::enumerate(shape.getDims())) {
      auto symbol = dyn_cast_or_null<AffineSymbolExpr>(expr);
      if (!symbol)
        continue;
      StringRef name = shape.getNames()[symbol.getPosition()].getValue();
      auto [it, inserted] =
          signature.fixedSymbols.try_emplace(name, from.getDimSize(dim));
      if (!inserted && it->second != from.getDimSize(dim) && conflict.empty())
        conflict = ("bound parameters of '" + entryName + "' set " + name +
                    " to both " + Twine(it->second) + " and " +
                    Twine(from.getDimSize(dim)))
                       .str();
    }
  });
  if (!conflict.empty())
    return createError(conflict);
  for (auto [index, type] : llvm::enumerate(entry.getResultTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return createError("result " + Twine(index) + " of '" + entryName +
                         "' is not a ranked tensor; only those are supported");
    signature.results.emplace_back("out" + std::to_string(index), tensorType);
  }
  return signature;
}

llvm::Error EntrySignature::checkArgumentType(const HostTensor &parameter,
                                              RankedTensorType actual,
                                              StringRef source) {
  // A dynamic dimension takes the array's size (its symbol is checked by
  // allocateResults); every other property must match.
  // numpy has no bfloat16: a bf16 parameter also takes uint16 bit patterns.
  Type want = parameter.type.getElementType();
  bool bits = want.isBF16() && actual.getElementType().isUnsignedInteger(16);
  auto fits = [&] {
    if ((actual.getElementType() != want && !bits) ||
        actual.getRank() != parameter.type.getRank())
      return false;
    for (auto [want, have] :
         llvm::zip(parameter.type.getShape(), actual.getShape()))
      if (!ShapedType::isDynamic(want) && want != have)
        return false;
    return true;
  };
  if (fits())
    return llvm::Error::success();
  return createError("parameter '" + parameter.name + "' expects " +
                     printType(parameter.type) + " but " + source + " holds " +
                     printType(actual));
}

/// The value of dimension `dim` of the relax shape `shape` with `symbols`
/// bound, if all its symbols are.
static std::optional<int64_t>
evaluateDim(relax::ShapeAttr shape, unsigned dim,
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

llvm::Expected<SmallVector<HostTensor>>
EntrySignature::allocateResults(ArrayRef<HostTensor> inputs) const {
  SmallVector<HostTensor> allocated;
  if (bufferEntry)
    return allocated;
  // Bind the symbolic dimensions of each parameter's declared relax shape
  // (e.g. `n` of `#relax.shape<[n, 784]>`) to the sizes it was given,
  // checking them against earlier bindings.
  llvm::StringMap<int64_t> symbols = fixedSymbols;
  for (auto [input, declared] : llvm::zip(inputs, parameters)) {
    auto shape =
        dyn_cast_or_null<relax::ShapeAttr>(declared.type.getEncoding());
    if (!shape)
      continue;
    ArrayRef<int64_t> sizes = input.type.getShape();
    for (auto [dim, expr] : llvm::enumerate(shape.getDims())) {
      auto symbol = dyn_cast_or_null<AffineSymbolExpr>(expr);
      if (!symbol)
        continue;
      StringRef name = shape.getNames()[symbol.getPosition()].getValue();
      auto [it, inserted] = symbols.try_emplace(name, sizes[dim]);
      if (!inserted && it->second != sizes[dim])
        return createError("parameter '" + input.name + "' has " +
                           Twine(sizes[dim]) + " for dimension " + Twine(dim) +
                           " (" + name + "), but " +
                           (fixedSymbols.count(name) ? "a bound parameter"
                                                     : "another parameter") +
                           " set " + name + " = " + Twine(it->second));
    }
  }
  for (auto [index, result] : llvm::enumerate(results)) {
    RankedTensorType type = result.type;
    SmallVector<int64_t> shape(type.getShape());
    auto relaxShape = dyn_cast_or_null<relax::ShapeAttr>(type.getEncoding());
    for (auto [dim, size] : llvm::enumerate(shape)) {
      if (!ShapedType::isDynamic(size))
        continue;
      std::optional<int64_t> value =
          relaxShape ? evaluateDim(relaxShape, dim, symbols) : std::nullopt;
      if (!value || *value < 0)
        return createError("result " + Twine(index) + " of '" + entry +
                           "' has type " + printType(type) +
                           ", whose dimension " + Twine(dim) +
                           " the parameters' shapes do not determine");
      size = *value;
    }
    allocated.emplace_back(result.name,
                           RankedTensorType::get(shape, type.getElementType()));
    if (llvm::Error error = allocated.back().allocate())
      return std::move(error);
  }
  return allocated;
}

//===----------------------------------------------------------------------===//
// Parameters bound before compiling
//===----------------------------------------------------------------------===//

llvm::Expected<bool> mlc::bindParametersFromFile(ModuleOp module,
                                                 StringRef entryName,
                                                 StringRef paramsPath) {
  auto entry = dyn_cast_or_null<func::FuncOp>(module.lookupSymbol(entryName));
  if (!entry)
    return false;
  StringRef dialect;
  entry->walk([&](Operation *op) {
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns == "relay" || (ns == "relax" && dialect.empty()))
      dialect = ns;
  });
  if (dialect.empty())
    return false;
  PassManager bind(module.getContext());
  addPassFailureDiagnostics(bind);
  if (dialect == "relay")
    bind.addPass(relay::createRelayBindParams(
        relay::RelayBindParamsOptions{paramsPath.str(), entryName.str()}));
  else
    bind.addPass(relax::createRelaxBindParams(
        relax::RelaxBindParamsOptions{paramsPath.str(), entryName.str()}));
  if (failed(bind.run(module)))
    return createDiagnosedError();
  return true;
}

//===----------------------------------------------------------------------===//
// ExecutableOptions
//===----------------------------------------------------------------------===//

namespace {
/// The pipeline options of validated ExecutableOptions.
struct ParsedOptions {
  bool cuda = false;
  std::unique_ptr<CPUPipelineOptions> cpu;
  std::unique_ptr<GPUPipelineOptions> gpu;
};
} // namespace

static llvm::Expected<ParsedOptions>
parseOptions(const ExecutableOptions &options) {
  if (options.optLevel > 3)
    return createError("-O" + Twine(options.optLevel) +
                       " is not an optimization level (0-3)");
  CompilationTarget target;
  if (std::string error = parseCompilationTarget(options.target, target);
      !error.empty())
    return createError(error);
  ParsedOptions parsed;
  parsed.cuda = target.isCUDA();
  if (parsed.cuda)
    parsed.gpu = GPUPipelineOptions::createFromString(options.pipelineOptions);
  else
    parsed.cpu = CPUPipelineOptions::createFromString(options.pipelineOptions);
  if (!parsed.cpu && !parsed.gpu)
    return createError("invalid --pipeline-options '" +
                       options.pipelineOptions + "'");
  if (parsed.cpu)
    if (std::string error = validateCPUPipelineOptions(*parsed.cpu);
        !error.empty())
      return createError(error);
  if (!options.tuningDatabase.empty()) {
    if (parsed.cuda)
      return createError("--tuning-db holds CPU schedules; it cannot be used "
                         "with --target=" +
                         options.target);
    parsed.cpu->tuningDatabase = options.tuningDatabase;
    parsed.cpu->tuningNumCores = options.numThreads
                                     ? options.numThreads
                                     : std::thread::hardware_concurrency();
  }
  // The results are allocated by the caller and passed to the entry.
  if (parsed.cpu && !parsed.cpu->hoistResultAllocs)
    return createError("mlc-run needs hoist-result-allocs=true (it passes "
                       "result buffers to the entry); mlc-compile takes "
                       "hoist-result-allocs=false");
  if (parsed.cuda) {
    if (!target.chip.empty())
      parsed.gpu->chip = target.chip;
    if (std::string error = validateGPUPipelineOptions(*parsed.gpu);
        !error.empty())
      return createError(error);
  }
  return parsed;
}

llvm::Error ExecutableOptions::validate() const {
  llvm::Expected<ParsedOptions> parsed = parseOptions(*this);
  if (!parsed)
    return parsed.takeError();
  if (parsed->cuda)
    return initCUDADevice();
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

namespace {
/// The strided descriptor fields of one ranked memref argument, in the order
/// the LLVM lowering expands them (allocated, aligned, offset, sizes,
/// strides).
struct MemRefArgument {
  void *allocated;
  void *aligned;
  int64_t offset = 0;
  SmallVector<int64_t> sizes, strides;

  explicit MemRefArgument(const HostTensor &tensor)
      : allocated(tensor.getData()), aligned(tensor.getData()) {
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

/// The arguments of one call, packed as the `_mlir_<entry>` wrapper takes
/// them: parameters first, then one buffer per result (destination
/// passing); scalars by value, the packed pointer to the value itself.
struct PackedCall {
  SmallVector<MemRefArgument> arguments;
  SmallVector<void *> packed;
  CUDADeviceBuffers deviceBuffers;
};
} // namespace

struct Executable::Impl {
  std::string entry;
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<ObjectJIT> objectJIT;

  llvm::Error invokePacked(MutableArrayRef<void *> args) {
    if (objectJIT)
      return objectJIT->invokePacked(entry, args);
    return engine->invokePacked(entry, args);
  }
};

Executable::Executable() : impl(std::make_unique<Impl>()) {}
Executable::~Executable() = default;

/// Writes the object code `engine` compiled into `cache` as `key`'s entry.
static llvm::Error storeInCache(ExecutionEngine &engine, CompileCache &cache,
                                StringRef key, uint32_t flags) {
  llvm::Expected<std::string> path = cache.createTemporaryFile(key);
  if (!path)
    return path.takeError();
  engine.dumpToObjectFile(*path);
  return cache.commit(key, *path, flags);
}

llvm::Expected<std::unique_ptr<Executable>>
Executable::create(ModuleOp module, StringRef entry,
                   const ExecutableOptions &options, TimingScope *timing) {
  TimingScope untimed;
  TimingScope &root = timing ? *timing : untimed;
  llvm::Expected<ParsedOptions> parsed = parseOptions(options);
  if (!parsed)
    return parsed.takeError();
  // One entry runs here; lifting would change its parameters and add the
  // transform that its caller must run first.
  if ((parsed->cuda ? parsed->gpu->numInput : parsed->cpu->numInput) >= 0)
    return createError(
        "num-input lifts the weights' transforms into "
        "main_transform_params, which changes the entry's parameters; "
        "compile with mlc-compile and call both functions of the library");
  llvm::Expected<EntrySignature> signature = EntrySignature::get(module, entry);
  if (!signature)
    return signature.takeError();
  std::unique_ptr<Executable> executable(new Executable());
  executable->signature = std::move(*signature);
  executable->cuda = parsed->cuda;
  executable->impl->entry = entry.str();
  bool cuda = parsed->cuda;

  // Compile, or take the object code of an earlier run from the cache (the
  // module with its bound weights, the options, the host and this build of
  // mlc make the key). The cached object is host code: GPU modules, whose
  // binaries load in global constructors, are compiled every time.
  auto compileStart = std::chrono::steady_clock::now();
  std::optional<CompileCache> cache;
  std::string cacheKey;
  std::optional<CachedObject> cached;
  if (options.useCache && !cuda) {
    TimingScope lookupTimer = root.nest("Cache lookup");
    cache.emplace(options.cacheDirectory.empty()
                      ? CompileCache::getDefaultDirectory()
                      : options.cacheDirectory);
    std::string key;
    llvm::raw_string_ostream(key)
        << "target=" << options.target << " O=" << options.optLevel
        << " pipeline=" << options.pipelineOptions;
    // A changed tuning database changes the code.
    if (!parsed->cpu->tuningDatabase.empty())
      llvm::raw_string_ostream(key)
          << " tuning-db="
          << meta_schedule::JSONDatabase::computeDigest(
                 parsed->cpu->tuningDatabase)
          << " tuning-num-cores=" << parsed->cpu->tuningNumCores;
    cacheKey = CompileCache::computeKey(module, key);
    cached = cache->lookup(cacheKey);
  }
  auto pipelineDone = compileStart;
  bool usesOpenMP = false;
  if (!cached) {
    if (failed(verifyCompilableTypes(module)))
      return createDiagnosedError();
    TimingScope pipelineTimer = root.nest("MLIR pipeline");
    PassManager pm(module.getContext());
    pm.enableTiming(pipelineTimer);
    addPassFailureDiagnostics(pm);
    if (cuda)
      buildGPUPipeline(pm, *parsed->gpu);
    else
      buildCPUPipeline(pm, *parsed->cpu);
    if (failed(pm.run(module)))
      return createDiagnosedError();
    pipelineDone = std::chrono::steady_clock::now();
    usesOpenMP = module
                     ->walk([](Operation *op) {
                       return op->getName().getDialectNamespace() == "omp"
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
  } else {
    usesOpenMP = cached->flags & CachedObject::kUsesOpenMP;
  }

  SmallVector<StringRef> runtimeLibraries = {MLC_C_RUNNER_UTILS};
  if (usesOpenMP) {
    std::string error;
    auto openMP = llvm::sys::DynamicLibrary::getPermanentLibrary(
        MLC_OPENMP_RUNTIME, &error);
    if (!openMP.isValid())
      return createError("cannot load the OpenMP runtime for parallel loops: " +
                         error);
    using SetNumThreads = void (*)(int);
    auto setNumThreads = reinterpret_cast<SetNumThreads>(
        openMP.getAddressOfSymbol("omp_set_num_threads"));
    if (!setNumThreads)
      return createError(Twine("no omp_set_num_threads in ") +
                         MLC_OPENMP_RUNTIME);
    if (options.numThreads > 0)
      setNumThreads(static_cast<int>(options.numThreads));
    runtimeLibraries.push_back(MLC_OPENMP_RUNTIME);
  }

  Impl &impl = *executable->impl;
  if (cached) {
    TimingScope loadTimer = root.nest("Loading from the cache");
    auto fromCache = [&](llvm::Error error) {
      return createError(
          "loading '" + cache->getDirectory() + "/" + cacheKey +
          ".o' from the cache: " + llvm::toString(std::move(error)));
    };
    auto jit = ObjectJIT::create(std::move(cached->object), runtimeLibraries);
    if (!jit)
      return fromCache(jit.takeError());
    impl.objectJIT = std::move(*jit);
    if (llvm::Error error = impl.objectJIT->lookupPacked(entry))
      return fromCache(std::move(error));
  } else {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // ExecutionEngine::create translates and optimizes; the JIT generates
    // the code on the first lookup.
    TimingScope llvmTimer = root.nest("LLVM");
    auto translate = [&](Operation *op, llvm::LLVMContext &context) {
      TimingScope translationTimer = llvmTimer.nest("Translation to LLVM IR");
      return translateModuleToLLVMIR(op, context);
    };
    auto optimize = [&, optimizer = makeOptimizingTransformer(
                            options.optLevel, /*sizeLevel=*/0,
                            /*targetMachine=*/nullptr)](llvm::Module *module) {
      TimingScope optimizationTimer = llvmTimer.nest("Optimization");
      return optimizer(module);
    };
    ExecutionEngineOptions engineOptions;
    engineOptions.llvmModuleBuilder = translate;
    engineOptions.transformer = optimize;
    engineOptions.sharedLibPaths = runtimeLibraries;
    engineOptions.jitCodeGenOptLevel =
        static_cast<llvm::CodeGenOptLevel>(options.optLevel);
    // Kept for the cache.
    engineOptions.enableObjectDump = cache.has_value();
    auto created = ExecutionEngine::create(module, engineOptions);
    if (!created)
      return createError("JIT compilation failed: " +
                         llvm::toString(created.takeError()));
    impl.engine = std::move(*created);
    // The JIT generates code on the first lookup; doing it here keeps it
    // out of the first run and out of timings.
    TimingScope codegenTimer = llvmTimer.nest("Code generation");
    if (auto found = impl.engine->lookupPacked(entry); !found)
      return createError("JIT compilation failed: " +
                         llvm::toString(found.takeError()));
    codegenTimer.stop();
    llvmTimer.stop();
    if (cuda) {
      // Global constructors load the GPU binaries (mgpuModuleLoad).
      TimingScope loadTimer = root.nest("Loading the GPU kernels");
      impl.engine->initialize();
      if (llvm::Error error = synchronizeCUDADevice())
        return createError("loading the GPU kernels: " +
                           llvm::toString(std::move(error)));
    }
    if (cache) {
      TimingScope storeTimer = root.nest("Cache store");
      if (llvm::Error error =
              storeInCache(*impl.engine, *cache, cacheKey,
                           usesOpenMP ? CachedObject::kUsesOpenMP : 0))
        llvm::errs() << "mlc: warning: " << llvm::toString(std::move(error))
                     << "\n";
    }
  }
  auto compileDone = std::chrono::steady_clock::now();
  using Millis = std::chrono::duration<double, std::milli>;
  CompileStatistics &statistics = executable->statistics;
  statistics.fromCache = cached.has_value();
  statistics.totalMillis = Millis(compileDone - compileStart).count();
  statistics.pipelineMillis = Millis(pipelineDone - compileStart).count();
  statistics.llvmMillis = Millis(compileDone - pipelineDone).count();
  return executable;
}

/// Packs `inputs` and `results` for one call; on a GPU, device copies of
/// the buffers (results, and every buffer of a buffer entry, copied back by
/// `deviceBuffers.copyToHost`).
static llvm::Error packArguments(PackedCall &call, bool cuda, bool bufferEntry,
                                 MutableArrayRef<HostTensor> inputs,
                                 MutableArrayRef<HostTensor> results) {
  for (HostTensor &tensor : llvm::concat<HostTensor>(inputs, results))
    if (!tensor.scalar)
      call.arguments.emplace_back(tensor);
  if (cuda) {
    MemRefArgument *argument = call.arguments.begin();
    for (auto [index, tensor] :
         llvm::enumerate(llvm::concat<HostTensor>(inputs, results))) {
      if (tensor.scalar)
        continue;
      bool isResult = index >= inputs.size();
      llvm::Expected<void *> device = call.deviceBuffers.add(
          tensor.getData(), tensor.getNumBytes(), bufferEntry || isResult);
      if (!device)
        return createError("copying '" + tensor.name + "' to the device: " +
                           llvm::toString(device.takeError()));
      (argument++)->setData(*device);
    }
  }
  MemRefArgument *nextArgument = call.arguments.begin();
  for (HostTensor &tensor : llvm::concat<HostTensor>(inputs, results)) {
    if (tensor.scalar)
      call.packed.push_back(tensor.getData());
    else
      (nextArgument++)->appendPackedPointers(call.packed);
  }
  return llvm::Error::success();
}

/// Checks that the caller passes what the signature describes.
static llvm::Error checkCallArguments(const EntrySignature &signature,
                                      ArrayRef<HostTensor> inputs,
                                      ArrayRef<HostTensor> results) {
  if (inputs.size() != signature.parameters.size() ||
      results.size() != signature.results.size())
    return createError("'" + signature.entry + "' takes " +
                       Twine(signature.parameters.size()) + " parameters and " +
                       Twine(signature.results.size()) + " results, not " +
                       Twine(inputs.size()) + " and " + Twine(results.size()));
  for (auto [tensor, declared] :
       llvm::zip(llvm::concat<const HostTensor>(inputs, results),
                 llvm::concat<const HostTensor>(signature.parameters,
                                                signature.results))) {
    if (tensor.scalar != declared.scalar)
      return createError("'" + tensor.name + "' of '" + signature.entry +
                         "' is passed as a " +
                         (tensor.scalar ? "scalar" : "buffer"));
    if (llvm::Error error = EntrySignature::checkArgumentType(
            declared, tensor.type, "the argument"))
      return error;
    if (!tensor.getData() && tensor.type.getNumElements() != 0)
      return createError("'" + tensor.name + "' of '" + signature.entry +
                         "' has no data");
  }
  return llvm::Error::success();
}

/// Checks and packs the arguments of a call of `signature`'s entry.
static llvm::Error prepareCall(PackedCall &call,
                               const EntrySignature &signature, bool cuda,
                               MutableArrayRef<HostTensor> inputs,
                               MutableArrayRef<HostTensor> results) {
  if (llvm::Error error = checkCallArguments(signature, inputs, results))
    return error;
  return packArguments(call, cuda, signature.bufferEntry, inputs, results);
}

/// An error of the call itself (the entry or the device), as such.
static llvm::Error callFailed(StringRef entry, llvm::Error error) {
  return createError("calling '" + entry +
                     "': " + llvm::toString(std::move(error)));
}

llvm::Error Executable::call(MutableArrayRef<HostTensor> inputs,
                             MutableArrayRef<HostTensor> results) {
  PackedCall call;
  if (llvm::Error error = prepareCall(call, signature, cuda, inputs, results))
    return error;
  auto failed = [&](llvm::Error error) {
    return callFailed(signature.entry, std::move(error));
  };
  if (llvm::Error error = impl->invokePacked(call.packed))
    return failed(std::move(error));
  if (cuda)
    if (llvm::Error error = call.deviceBuffers.copyToHost())
      return failed(std::move(error));
  return llvm::Error::success();
}

llvm::Expected<SmallVector<double>>
Executable::time(unsigned runs, MutableArrayRef<HostTensor> inputs,
                 MutableArrayRef<HostTensor> results) {
  PackedCall call;
  if (llvm::Error error = prepareCall(call, signature, cuda, inputs, results))
    return error;
  auto failed = [&](llvm::Error error) {
    return callFailed(signature.entry, std::move(error));
  };
  SmallVector<double> millis;
  if (cuda) {
    // Device time between CUDA events around each call.
    auto times =
        timeOnCUDADevice(runs, [&] { return impl->invokePacked(call.packed); });
    if (!times)
      return failed(times.takeError());
    return std::move(*times);
  }
  for (unsigned i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = impl->invokePacked(call.packed))
      return failed(std::move(error));
    auto stop = std::chrono::steady_clock::now();
    millis.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return millis;
}
