//===- mlc-compile.cpp - compile a model to an object or shared library ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlc-compile model.mlir -o model.o|model.so|model.ll|model.s
//             [--entry=main,...] [-O3] [--emit-header=model.h]
//             [--pipeline-options='hoist-result-allocs=false'] [--mcpu=...]
//             [--target=cpu|cuda[:sm_XX]]
//
// Ahead-of-time counterpart of mlc-run (TVM's `lib.export_library`): parses a
// module in any mlc/MLIR dialect, lowers it with the CPU pipeline unless it
// is already in the LLVM dialect, and gives every entry a C-callable
// `_mlir_ciface_<name>` wrapper (`llvm.emit_c_interface`) that takes
// pointers to strided memref descriptors. The LLVM IR is optimized and
// compiled for the host (position-independent code); a `.so` output is then
// linked with ld.lld against libc/libm and, only when the code calls into
// them, MLIR's C runner utilities or libomp (with an rpath to their
// directory). --emit-header writes the matching C declarations.
//
// --target=cuda[:sm_XX] lowers with --mlc-gpu-pipeline instead: kernels
// become a GPU binary embedded in the host code, and a `.so` links mlc's
// CUDA runtime statically, so that it needs libc and, when it runs,
// libcuda.so.1 alone (the entries then take device pointers). A `.ptx`
// output writes the kernels' PTX instead. Every `.so` exports
// `const char *mlc_module_metadata(void)`: JSON naming the target and each
// entry's arguments (name, dtype, shape, input/output/scalar) and the
// values its C function returns (a scalar result; a result the entry
// allocates with hoist-result-allocs=false), which `mlc.runtime.load_module`
// reads.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/AOTCompiler.h"
#include "mlc/InitAll.h"
#include "mlc/Support/DiagnosedError.h"
#include "mlc/Support/TimingOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory compileCategory("mlc-compile options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<model.mlir>"),
                                          cl::init("-"),
                                          cl::cat(compileCategory));
static cl::opt<std::string> outputFilename(
    "o", cl::Required,
    cl::desc("Output file: .so links a shared library, .ll writes LLVM IR, "
             ".s assembly, anything else an object file"),
    cl::value_desc("file"), cl::cat(compileCategory));
static cl::list<std::string> entryNames(
    "entry",
    cl::desc("Functions to export with a C interface (default: every public "
             "function defined in the module)"),
    cl::CommaSeparated, cl::value_desc("name,..."), cl::cat(compileCategory));
static cl::opt<unsigned> optLevel("O", cl::desc("Optimization level (0-3)"),
                                  cl::Prefix, cl::init(3),
                                  cl::cat(compileCategory));
static cl::opt<std::string>
    headerFilename("emit-header",
                   cl::desc("Write a C header declaring the entries' "
                            "_mlir_ciface_ functions and descriptors"),
                   cl::value_desc("file.h"), cl::cat(compileCategory));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("Options of --mlc-cpu-pipeline, e.g. 'hoist-result-allocs=false'"),
    cl::value_desc("options"), cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string> tuningDatabase(
    "tuning-db",
    cl::desc("Schedule the kernels by their best records in this tuning "
             "database (mlc-tune's --work-dir); CPU only"),
    cl::value_desc("dir"), cl::init(""), cl::cat(compileCategory));
static cl::opt<unsigned> tuningNumCores(
    "tuning-num-cores",
    cl::desc("With --tuning-db: prefer records measured with this many "
             "cores (0: the fastest record of any core count)"),
    cl::init(0), cl::cat(compileCategory));
static cl::opt<std::string>
    targetCPU("mcpu",
              cl::desc("Target CPU (default: the host's CPU and features; "
                       "generic x86-64 for --target=cuda)"),
              cl::value_desc("cpu"), cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string> targetName(
    "target",
    cl::desc("cpu (the host), or cuda[:sm_XX] for NVIDIA GPUs (default chip "
             "sm_90); the .so of a cuda target needs libcuda.so.1 when it "
             "runs"),
    cl::value_desc("target"), cl::init("cpu"), cl::cat(compileCategory));
static cl::opt<std::string>
    linkerPath("ld",
               cl::desc("ld.lld used for .so outputs (default: the one mlc "
                        "was configured with, else one on PATH)"),
               cl::value_desc("path"), cl::init(""), cl::cat(compileCategory));

static LogicalResult compile(MLIRContext &context, TimingScope &timing) {
  TimingScope parseTimer = timing.nest("Parse");
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return mlc::reportToolError(mlc::createError(errorMessage), "mlc-compile");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();
  parseTimer.stop();

  mlc::AOTCompileOptions options;
  options.target = targetName;
  options.optLevel = optLevel;
  options.pipelineOptions = pipelineOptions;
  options.tuningDatabase = tuningDatabase;
  options.tuningNumCores = tuningNumCores;
  options.cpu = targetCPU;
  options.entries.assign(entryNames.begin(), entryNames.end());
  options.linker = linkerPath;
  options.sourceName = inputFilename;
  return mlc::reportToolError(mlc::compileToFile(*module, options,
                                                 outputFilename, headerFilename,
                                                 &timing),
                              "mlc-compile");
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlc::registerAllPasses();
  mlc::registerTimingOptions(compileCategory);
  cl::HideUnrelatedOptions(compileCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mlc-compile: compile a model to an object file or shared library with "
      "C entry points\n");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

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
  return failed(compile(context, timing)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
