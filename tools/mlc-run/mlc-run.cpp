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

#include "mlc/ExecutionEngine/Executable.h"
#include "mlc/InitAll.h"
#include "mlc/Support/DiagnosedError.h"
#include "mlc/Support/NpzWriter.h"
#include "mlc/Support/TensorFile.h"
#include "mlc/Support/TimingOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

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

static LogicalResult fail(const Twine &message) {
  return mlc::reportToolError(mlc::createError(message), "mlc-run");
}

static LogicalResult fail(llvm::Error error) {
  return mlc::reportToolError(std::move(error), "mlc-run");
}

/// Fills `tensor` with the entry `tensor.name` of `file`, checking shape and
/// element type against the parameter's.
static LogicalResult readInput(mlc::TensorFile &file, mlc::HostTensor &tensor) {
  llvm::Expected<mlc::TensorView> view = file.lookup(tensor.name);
  if (!view)
    return fail(view.takeError());
  RankedTensorType actual = view->getType(tensor.type.getContext());
  if (llvm::Error error = mlc::EntrySignature::checkArgumentType(
          tensor, actual, "'" + file.getPath().str() + "'"))
    return fail(std::move(error));
  tensor.type =
      RankedTensorType::get(actual.getShape(), tensor.type.getElementType(),
                            tensor.type.getEncoding());
  if (llvm::Error error = tensor.allocate())
    return fail(std::move(error));
  std::copy(view->data.begin(), view->data.end(), tensor.getData());
  return success();
}

static void printSummary(llvm::raw_ostream &os, const mlc::HostTensor &tensor) {
  os << tensor.name << ": " << tensor.type;
  Type elementType = tensor.type.getElementType();
  int64_t count = tensor.type.getNumElements();
  auto valueAt = [&](int64_t i) -> double {
    const char *p = tensor.getData();
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

static LogicalResult run(MLIRContext &context, TimingScope &timing) {
  // The options first, and a CUDA device, so that nothing is compiled or run
  // without one.
  mlc::ExecutableOptions options;
  options.target = targetName;
  options.optLevel = jitOptLevel;
  options.pipelineOptions = pipelineOptions;
  options.tuningDatabase = tuningDatabase;
  options.numThreads = numThreads;
  options.cacheDirectory = cacheDir;
  options.useCache = !noCache;
  if (llvm::Error error = options.validate())
    return fail(std::move(error));

  TimingScope parseTimer = timing.nest("Parse");
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
  parseTimer.stop();
  if (!isa_and_nonnull<FunctionOpInterface>(module->lookupSymbol(entryName)))
    return fail("no function '" + entryName + "' in '" + inputFilename + "'");

  // --params of a relay or relax entry are bound as constants before
  // compiling; other entries take them at run time like inputs.
  bool bindParams = false;
  if (!paramsFile.empty()) {
    TimingScope bindTimer = timing.nest("Bind parameters");
    llvm::Expected<bool> bound =
        mlc::bindParametersFromFile(*module, entryName, paramsFile);
    if (!bound)
      return fail(bound.takeError());
    bindParams = *bound;
  }

  // Host buffers for the entry's parameters, from its signature before
  // lowering, by name from the files.
  llvm::Expected<mlc::EntrySignature> signature =
      mlc::EntrySignature::get(*module, entryName);
  if (!signature)
    return fail(signature.takeError());
  bool bufferEntry = signature->bufferEntry;
  TimingScope readTimer = timing.nest("Read inputs");
  SmallVector<mlc::HostTensor> inputs;
  for (const mlc::HostTensor &parameter : signature->parameters)
    inputs.emplace_back(parameter.name, parameter.type, parameter.scalar);
  std::unique_ptr<mlc::TensorFile> inputFile, paramFile;
  for (auto [path, slot] : {std::make_pair(&inputsFile, &inputFile),
                            std::make_pair(&paramsFile, &paramFile)}) {
    if (path->empty() || (path == &paramsFile && bindParams))
      continue;
    auto opened = mlc::TensorFile::open(*path);
    if (!opened)
      return fail(opened.takeError());
    *slot = std::move(*opened);
  }
  for (mlc::HostTensor &input : inputs) {
    bool inInputs = inputFile && inputFile->contains(input.name);
    bool inParams = paramFile && paramFile->contains(input.name);
    if (inInputs && inParams)
      return fail("parameter '" + input.name + "' is given by both '" +
                  inputsFile + "' and '" + paramsFile + "'");
    if (!inInputs && !inParams && bufferEntry && !input.scalar) {
      // An output buffer: starts zeroed.
      if (llvm::Error error = input.allocate())
        return fail(std::move(error));
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
  llvm::Expected<SmallVector<mlc::HostTensor>> allocated =
      signature->allocateResults(inputs);
  if (!allocated)
    return fail(allocated.takeError());
  SmallVector<mlc::HostTensor> outputs = std::move(*allocated);
  for (auto *tensorFile : {inputFile.get(), paramFile.get()}) {
    if (!tensorFile)
      continue;
    for (const std::string &name : tensorFile->getNames()) {
      if (llvm::any_of(inputs, [&](const mlc::HostTensor &input) {
            return input.name == name;
          }))
        continue;
      // Bound --params are gone from the entry's signature: an input of
      // the same name was given twice, not a name the entry lacks.
      if (bindParams && tensorFile == inputFile.get()) {
        auto params = mlc::TensorFile::open(paramsFile);
        if (!params)
          return fail(params.takeError());
        if ((*params)->contains(name))
          return fail("parameter '" + name + "' is given by both '" +
                      inputsFile + "' and '" + paramsFile + "'");
      }
      return fail("'" + tensorFile->getPath() + "' has '" + name +
                  "', which is no parameter of '" + entryName + "'");
    }
  }

  readTimer.stop();

  llvm::Expected<std::unique_ptr<mlc::Executable>> executable =
      mlc::Executable::create(*module, entryName, options, &timing);
  if (!executable)
    return fail(executable.takeError());
  // The report is about compiling: running and --bench are not in it.
  timing.stop();

  // A failed runtime check (cf.assert, e.g. of relax.match_cast) prints its
  // message through C stdio and aborts, which does not flush: unbuffered, the
  // message reaches a pipe too. mlc-run's own output goes through
  // llvm::outs(), which is not affected.
  llvm::outs().flush();
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  if (llvm::Error error = (*executable)->call(inputs, outputs))
    return fail(std::move(error));

  // A buffer entry's results are its buffers, written in place.
  SmallVector<mlc::HostTensor *> written;
  for (mlc::HostTensor &output : outputs)
    written.push_back(&output);
  if (bufferEntry)
    for (mlc::HostTensor &input : inputs)
      if (!input.scalar)
        written.push_back(&input);
  if (!quiet)
    for (const mlc::HostTensor *output : written)
      printSummary(llvm::outs(), *output);

  // Written before benchmarking, which reruns the function on the buffers.
  if (!outputsFile.empty()) {
    mlc::NpzWriter writer;
    std::string error;
    for (const mlc::HostTensor *output : written)
      if (!writer.add(output->name, output->type.getShape(),
                      output->type.getElementType(),
                      ArrayRef<char>(output->getData(), output->getNumBytes()),
                      error))
        return fail(error);
    if (!writer.write(outputsFile, error))
      return fail(error);
  }
  if (benchRuns > 0) {
    llvm::Expected<SmallVector<double>> times =
        (*executable)->time(benchRuns, inputs, outputs);
    if (!times)
      return fail(times.takeError());
    SmallVector<double> &millis = *times;
    llvm::sort(millis);
    const mlc::CompileStatistics &statistics =
        (*executable)->getCompileStatistics();
    if (statistics.fromCache)
      llvm::outs() << llvm::format("compile time: %.1f ms (from the cache)\n",
                                   statistics.totalMillis);
    else
      llvm::outs() << llvm::format(
          "compile time: %.1f ms (MLIR pipeline %.1f ms, LLVM %.1f ms)\n",
          statistics.totalMillis, statistics.pipelineMillis,
          statistics.llvmMillis);
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
  mlc::registerTimingOptions(runCategory);
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
  // --mlir-timing: the report goes to stderr when the manager is destroyed,
  // after the root scope.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();
  return failed(run(context, timing)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
