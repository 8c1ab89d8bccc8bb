//===- AOTCompiler.cpp - compile a module to a file -----------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/AOTCompiler.h"

#include "mlc/ExecutionEngine/Executable.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Support/DiagnosedError.h"
#include "mlc/Support/PassFailureDiagnostics.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <cstdlib>
#include <memory>
#include <optional>

using namespace mlir;
using namespace mlc;

namespace {

enum class OutputKind { Object, SharedLibrary, LLVMIR, Assembly, PTX };

/// One C-level parameter of an entry's `_mlir_ciface_` wrapper.
struct CParameter {
  std::string name;
  /// The descriptor's element type for memrefs, else the scalar's type.
  Type type;
  /// -1 for a scalar passed by value, else the memref's rank.
  int64_t rank = -1;
};

/// The C interface of one entry, as seen from C.
struct CEntry {
  std::string name;
  /// Set when the wrapper returns one memref result through a pointer in
  /// front of the parameters (results not turned into out-parameters).
  std::optional<CParameter> resultPointer;
  SmallVector<CParameter> parameters;
  /// The scalar returned by value, if any.
  Type returnType;
  /// Where it came from, for the header's comments.
  std::string signature;
};

} // namespace

static OutputKind getOutputKind(StringRef path) {
  StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".so" || extension == ".dylib")
    return OutputKind::SharedLibrary;
  if (extension == ".ll")
    return OutputKind::LLVMIR;
  if (extension == ".s")
    return OutputKind::Assembly;
  if (extension == ".ptx")
    return OutputKind::PTX;
  return OutputKind::Object;
}

/// Whether LLVM IR translation handles `op` (the LLVM dialect, and dialects
/// translated alongside it such as `omp` for OpenMP-parallel loops).
static bool isTranslatable(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect &&
         dialect->getRegisteredInterface<LLVMTranslationDialectInterface>();
}

/// A module is taken as already lowered when everything in it is in the LLVM
/// dialect.
static bool isLLVMDialectModule(ModuleOp module) {
  return llvm::all_of(module.getBody()->getOperations(), [](Operation &op) {
    return isa_and_nonnull<LLVM::LLVMDialect>(op.getDialect());
  });
}

/// A C identifier for a parameter name, or `fallback`.
static std::string getCIdentifier(StringRef name, StringRef fallback) {
  std::string result;
  for (char c : name)
    result.push_back(llvm::isAlnum(c) ? c : '_');
  if (result.empty())
    return fallback.str();
  if (llvm::isDigit(result.front()))
    result.insert(result.begin(), '_');
  return result;
}

static std::string getParameterName(FunctionOpInterface func, unsigned index) {
  for (StringRef attrName : {"relay.name", "relax.name", "tensorir.name"})
    if (auto name = func.getArgAttrOfType<StringAttr>(index, attrName))
      return getCIdentifier(name.getValue(), "arg" + std::to_string(index));
  return "arg" + std::to_string(index);
}

/// The C spelling of a scalar or memref element type; empty if there is
/// none.
static std::string getCType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  // Half types travel as their bits.
  if (type.isF16() || type.isBF16())
    return "uint16_t";
  if (type.isIndex())
    return "int64_t";
  if (type.isInteger(1))
    return "bool";
  for (unsigned width : {8, 16, 32, 64})
    if (type.isInteger(width))
      return "int" + std::to_string(width) + "_t";
  if (isa<LLVM::LLVMPointerType>(type))
    return "void *";
  return "";
}

/// The short name of an element type in descriptor struct names.
static std::string getTypeMnemonic(Type type) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << type;
  return result;
}

static std::string getDescriptorName(const CParameter &parameter) {
  return "mlc_memref_" + std::to_string(parameter.rank) + "d_" +
         getTypeMnemonic(parameter.type);
}

/// The entry's C interface after the CPU pipeline, derived from its
/// signature before lowering: ranked tensors and memrefs become descriptors
/// with the same rank and element type (identity layouts at function
/// boundaries), scalars stay scalars, and with hoist-result-allocs every
/// tensor/memref result becomes an out-parameter after the inputs.
static FailureOr<CEntry> getCEntry(FunctionOpInterface func,
                                   bool resultsToOutParams) {
  CEntry entry;
  entry.name = func.getName().str();
  llvm::raw_string_ostream(entry.signature) << func.getFunctionType();
  auto getParameter = [&](Type type,
                          std::string name) -> FailureOr<CParameter> {
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && isa<RankedTensorType, MemRefType>(type)) {
      if (getCType(shaped.getElementType()).empty())
        return failure();
      return CParameter{std::move(name), shaped.getElementType(),
                        shaped.getRank()};
    }
    if (!type.isIntOrIndexOrFloat() || getCType(type).empty())
      return failure();
    return CParameter{std::move(name), type, -1};
  };
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<CParameter> parameter =
        getParameter(type, getParameterName(func, index));
    if (failed(parameter))
      return func.emitError()
             << "parameter " << index << " of '" << entry.name << "' has type "
             << type << ", which has no C interface";
    entry.parameters.push_back(*parameter);
  }
  SmallVector<CParameter> returned;
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<CParameter> result =
        getParameter(type, "out" + std::to_string(index));
    if (failed(result))
      return func.emitError()
             << "result " << index << " of '" << entry.name << "' has type "
             << type << ", which has no C interface";
    if (result->rank >= 0 && resultsToOutParams)
      entry.parameters.push_back(*result);
    else
      returned.push_back(*result);
  }
  if (returned.size() > 1)
    return func.emitError()
           << "'" << entry.name << "' returns " << returned.size()
           << " values; the C header supports at most one returned value "
              "(results other than scalars become out-parameters with "
              "hoist-result-allocs=true)";
  // Parameter names come from the model: keep them distinct and clear of C
  // keywords and of the header's own names.
  llvm::StringSet<> used = {"result"};
  for (auto [index, parameter] : llvm::enumerate(entry.parameters)) {
    static const llvm::StringSet<> reserved = {
        "auto",     "bool",     "break",    "case",     "char",    "const",
        "continue", "default",  "do",       "double",   "else",    "enum",
        "extern",   "float",    "for",      "goto",     "if",      "inline",
        "int",      "long",     "register", "restrict", "return",  "short",
        "signed",   "sizeof",   "static",   "struct",   "switch",  "typedef",
        "union",    "unsigned", "void",     "volatile", "while",   "class",
        "new",      "delete",   "this",     "template", "operator"};
    if (reserved.contains(parameter.name) ||
        StringRef(parameter.name).starts_with("mlc_memref_") ||
        used.contains(parameter.name))
      parameter.name += "_" + std::to_string(index);
    used.insert(parameter.name);
  }
  if (!returned.empty()) {
    if (returned.front().rank >= 0) {
      entry.resultPointer = returned.front();
      entry.resultPointer->name = "result";
    } else {
      entry.returnType = returned.front().type;
    }
  }
  return entry;
}

/// The C interface of a function already in the LLVM dialect: its LLVM
/// signature spelled in C (pointers as `void *`).
static FailureOr<CEntry> getCEntry(LLVM::LLVMFuncOp func) {
  CEntry entry;
  entry.name = func.getName().str();
  llvm::raw_string_ostream(entry.signature) << func.getFunctionType();
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (getCType(type).empty())
      return func.emitError()
             << "parameter " << index << " of '" << entry.name << "' has type "
             << type << ", which the C header cannot spell";
    entry.parameters.push_back({"arg" + std::to_string(index), type, -1});
  }
  Type result = func.getFunctionType().getReturnType();
  if (!isa<LLVM::LLVMVoidType>(result)) {
    if (getCType(result).empty())
      return func.emitError() << "'" << entry.name << "' returns " << result
                              << ", which the C header cannot spell";
    entry.returnType = result;
  }
  return entry;
}

/// Number of arguments the lowered `_mlir_ciface_` wrapper takes for
/// `entry`: one pointer per descriptor, one value per scalar.
static size_t getNumWrapperArguments(const CEntry &entry) {
  return entry.parameters.size() + (entry.resultPointer ? 1 : 0);
}

static void writeHeader(llvm::raw_ostream &os, ArrayRef<CEntry> entries,
                        bool lowered, bool cuda, StringRef guardSource,
                        StringRef sourceName) {
  std::string guard = "MLC_GENERATED_";
  for (char c : llvm::sys::path::filename(guardSource))
    guard.push_back(llvm::isAlnum(c) ? llvm::toUpper(c) : '_');
  os << "/* Generated by mlc-compile from "
     << llvm::sys::path::filename(sourceName) << ". */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  if (!lowered) {
    os << R"(/* Ownership: every buffer belongs to the caller. An entry reads its
 * inputs and writes its outputs through the descriptors (out-parameters
 * follow the inputs, in result order: destination passing), and neither
 * frees nor keeps any pointer past the call. It may use an input buffer as
 * scratch space (tensor arguments bufferize as writable): pass a copy of an
 * input you still need. Buffers are dense and row-major: allocated = aligned
 * = data, offset = 0, sizes = the shape, strides[i] = sizes[i+1] * ... *
 * sizes[rank-1]. A result returned through `result` (with
 * hoist-result-allocs=false) is malloc'ed by the entry: the caller owns it
 * and frees result->allocated with free(). */

)";
    if (cuda)
      os << R"(/* CUDA: every buffer pointer is a device pointer, aligned to 16 bytes
 * (the kernels load and store 16 bytes at once; cuMemAlloc's pointers are
 * 256-byte aligned, views into them need not be). */

)";
    // One strided descriptor per (rank, element type), guarded so headers of
    // several models can be included together.
    llvm::StringSet<> emitted;
    for (const CEntry &entry : entries) {
      SmallVector<const CParameter *> memrefs;
      if (entry.resultPointer)
        memrefs.push_back(&*entry.resultPointer);
      for (const CParameter &parameter : entry.parameters)
        if (parameter.rank >= 0)
          memrefs.push_back(&parameter);
      for (const CParameter *memref : memrefs) {
        std::string name = getDescriptorName(*memref);
        if (!emitted.insert(name).second)
          continue;
        std::string elementType = getCType(memref->type);
        std::string macro = llvm::StringRef(name).upper() + "_DEFINED";
        os << "#ifndef " << macro << "\n#define " << macro << "\n"
           << "typedef struct " << name << " {\n"
           << "  " << elementType << " *allocated;\n"
           << "  " << elementType << " *aligned;\n"
           << "  int64_t offset;\n";
        if (memref->rank > 0)
          os << "  int64_t sizes[" << memref->rank << "];\n"
             << "  int64_t strides[" << memref->rank << "];\n";
        os << "} " << name << ";\n#endif\n\n";
      }
    }
  }
  for (const CEntry &entry : entries) {
    os << "/* " << entry.name << ": " << entry.signature << " */\n";
    os << (entry.returnType ? getCType(entry.returnType) : "void") << " "
       << (lowered ? "" : "_mlir_ciface_") << entry.name << "(";
    SmallVector<std::string> parameters;
    if (entry.resultPointer)
      parameters.push_back(getDescriptorName(*entry.resultPointer) +
                           " *result");
    for (const CParameter &parameter : entry.parameters) {
      if (parameter.rank >= 0)
        parameters.push_back(getDescriptorName(parameter) + " *" +
                             parameter.name);
      else
        parameters.push_back(
            getCType(parameter.type) +
            (isa<LLVM::LLVMPointerType>(parameter.type) ? "" : " ") +
            parameter.name);
    }
    os << (parameters.empty() ? std::string("void")
                              : llvm::join(parameters, ", "))
       << ");\n\n";
  }
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
}

/// A target machine for the host (or --mcpu) emitting position-independent
/// code, so that objects can go into shared libraries. The host code of a
/// cuda target only launches kernels and runs on the GPU machine, whose CPU
/// may lack this one's features: it gets the generic CPU of the triple.
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(bool cuda, StringRef targetCPU, unsigned optLevel) {
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return createError("no target for " + triple.str() + ": " + error);
  // "native" is this machine, as in clang's -march=native.
  std::string cpu = targetCPU == "native" ? "" : targetCPU.str();
  // An unknown name would make LLVM fall back to a CPU without 64-bit mode
  // and abort ("64-bit code requested on a subtarget that doesn't support
  // it").
  if (!cpu.empty()) {
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(triple, "", ""));
    if (!info || !info->isCPUStringValid(cpu))
      return createError("unknown CPU '" + cpu + "' for --mcpu on " +
                         triple.str() +
                         " (e.g. znver4, sapphirerapids, haswell; 'native' "
                         "is this machine's)");
  }
  llvm::SubtargetFeatures features;
  if (cpu.empty() && cuda) {
    cpu = "generic";
  } else if (cpu.empty()) {
    cpu = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features.AddFeature(feature.first(), feature.second);
  }
  // Global constructors (they load a cuda target's GPU binaries) must go to
  // .init_array, as clang puts them: neither lld nor the dynamic loader runs
  // the legacy .ctors section that TargetOptions' default selects.
  llvm::TargetOptions options;
  options.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features.getString(), options, llvm::Reloc::PIC_,
      std::nullopt,
      static_cast<llvm::CodeGenOptLevel>(std::min<unsigned>(optLevel, 3))));
  if (!machine)
    return createError("cannot create a target machine for " + triple.str() +
                       " (" + cpu + ")");
  return machine;
}

/// Writes `module` as an object file or assembly.
static llvm::Error emitCode(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::raw_pwrite_stream &os,
                            llvm::CodeGenFileType fileType) {
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, fileType))
    return createError("the target cannot emit this file type");
  codegen.run(module);
  os.flush();
  return llvm::Error::success();
}

/// Runtime libraries the generated code may call into, linked only when
/// they define one of `undefined`.
static SmallVector<std::string>
getNeededRuntimeLibraries(const llvm::StringSet<> &undefined) {
  SmallVector<std::string> needed;
  for (StringRef name : {"libmlir_c_runner_utils.so", "libomp.so"}) {
    SmallString<256> path(MLC_RUNTIME_LIBRARY_DIR);
    llvm::sys::path::append(path, name);
    auto binary = llvm::object::createBinary(path);
    if (!binary) {
      llvm::consumeError(binary.takeError());
      continue;
    }
    auto *elf = dyn_cast<llvm::object::ELFObjectFileBase>(binary->getBinary());
    if (!elf)
      continue;
    for (const llvm::object::ELFSymbolRef &symbol :
         elf->getDynamicSymbolIterators()) {
      llvm::Expected<uint32_t> flags = symbol.getFlags();
      llvm::Expected<StringRef> symbolName = symbol.getName();
      if (!flags || !symbolName) {
        llvm::consumeError(flags.takeError());
        llvm::consumeError(symbolName.takeError());
        continue;
      }
      if (!(*flags & llvm::object::SymbolRef::SF_Undefined) &&
          undefined.contains(*symbolName)) {
        needed.push_back(path.str().str());
        break;
      }
    }
  }
  return needed;
}

/// Links `objectPath` into a shared library at `libraryPath` with ld.lld.
static llvm::Error linkSharedLibrary(StringRef objectPath,
                                     StringRef libraryPath,
                                     ArrayRef<std::string> runtimeLibraries,
                                     StringRef linkerPath,
                                     StringRef outputPath) {
  std::string linker = linkerPath.empty() ? MLC_LD_LLD : linkerPath.str();
  // The configured ld.lld may be gone (LLVM moved or uninstalled): fall back
  // to one on PATH unless the options name one.
  if (!llvm::sys::fs::can_execute(linker) && linkerPath.empty())
    for (StringRef name : {"ld.lld-22", "ld.lld"})
      if (llvm::ErrorOr<std::string> found =
              llvm::sys::findProgramByName(name)) {
        linker = *found;
        break;
      }
  if (!llvm::sys::fs::can_execute(linker))
    return createError("cannot run the linker '" + linker +
                       "' (set it with --ld=)");
  SmallVector<std::string> args = {linker, "-shared",         "--no-undefined",
                                   "-o",   libraryPath.str(), objectPath.str()};
  for (const std::string &library : runtimeLibraries) {
    // Static archives (the CUDA runtime) go in whole: their C API is
    // exported for the module's callers.
    if (StringRef(library).ends_with(".a")) {
      args.append({"--whole-archive", library, "--no-whole-archive"});
      continue;
    }
    args.push_back(library);
    args.push_back("-rpath=" + llvm::sys::path::parent_path(library).str());
  }
  args.push_back("--as-needed");
  for (StringRef library : {StringRef(MLC_LIBM), StringRef(MLC_LIBC)})
    if (!library.empty())
      args.push_back(library.str());
  SmallVector<StringRef> argRefs(args.begin(), args.end());

  SmallString<128> logPath;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("mlc-compile-ld", "log", logPath))
    return createError("cannot create a temporary file: " + error.message());
  llvm::FileRemover logRemover(logPath);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string errorMessage;
  int status = llvm::sys::ExecuteAndWait(linker, argRefs, std::nullopt,
                                         redirects, 0, 0, &errorMessage);
  if (status != 0) {
    std::string log;
    if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
      log = (*buffer)->getBuffer().str();
    return createError("linking '" + outputPath + "' failed" +
                       (errorMessage.empty() ? "" : ": " + errorMessage) +
                       "\n" + llvm::join(args, " ") + "\n" + log);
  }
  return llvm::Error::success();
}

/// numpy's name of an element type, for the module metadata.
static std::string getNumpyDType(Type type) {
  if (type.isF32())
    return "float32";
  if (type.isF64())
    return "float64";
  if (type.isF16())
    return "float16";
  if (type.isBF16())
    return "bfloat16";
  if (type.isIndex())
    return "int64";
  if (type.isInteger(1))
    return "bool";
  if (auto integer = dyn_cast<IntegerType>(type))
    return (integer.isUnsigned() ? "uint" : "int") +
           std::to_string(integer.getWidth());
  return "";
}

/// The JSON description of `func`'s C interface (see the file comment):
/// its parameters, then its tensor/memref results as out-parameters
/// (`resultsToOutParams`, hoist-result-allocs); a result returned by the C
/// function instead (a scalar, or a tensor allocated by the entry) is
/// described under "returns".
static llvm::json::Object getEntryMetadata(FunctionOpInterface func,
                                           bool resultsToOutParams) {
  llvm::json::Array args, returns;
  auto describeIn = [](llvm::json::Array &list, Type type, std::string name,
                       StringRef kind) {
    llvm::json::Object arg{{"name", std::move(name)}, {"kind", kind}};
    if (auto shaped = dyn_cast<ShapedType>(type)) {
      arg["dtype"] = getNumpyDType(shaped.getElementType());
      // -1 for a dynamic dimension, as numpy spells an unknown size.
      llvm::json::Array shape;
      for (int64_t size : shaped.getShape())
        shape.push_back(ShapedType::isDynamic(size) ? int64_t(-1) : size);
      arg["shape"] = std::move(shape);
    } else {
      arg["dtype"] = getNumpyDType(type);
      arg["shape"] = nullptr;
      arg["kind"] = "scalar";
    }
    list.push_back(std::move(arg));
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    describeIn(args, type, getParameterName(func, i), "input");
    // The name the parameter is bound by (mlc-run's --inputs/--params), which
    // "name", a C identifier, may spell differently (`.` as `_`).
    (*args.back().getAsObject())["param"] = getEntryParameterName(func, i);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    std::string name = "out" + std::to_string(i);
    if (isa<ShapedType>(type) && resultsToOutParams) {
      describeIn(args, type, name, "output");
      continue;
    }
    // Returned by value (a scalar) or through the descriptor that the
    // first C parameter points to (a buffer the entry allocates).
    describeIn(returns, type, name, isa<ShapedType>(type) ? "result" : "");
    llvm::json::Object &returned = *returns.back().getAsObject();
    returned["index"] = static_cast<int64_t>(i);
  }
  llvm::json::Object entry{{"name", func.getName()},
                           {"symbol", ("_mlir_ciface_" + func.getName()).str()},
                           {"args", std::move(args)}};
  if (!returns.empty())
    entry["returns"] = std::move(returns);
  return entry;
}

/// Adds `const char *mlc_module_metadata(void)` returning `json`.
static void addMetadataFunction(llvm::Module &module, StringRef json) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *type = llvm::FunctionType::get(llvm::PointerType::get(ctx, 0), false);
  auto *function = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, "mlc_module_metadata", module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(ctx, "entry", function));
  builder.CreateRet(
      builder.CreateGlobalString(json, "mlc_module_metadata_json"));
}

/// The PTX of every kernel module (`gpu.binary` objects in `isa` format),
/// each after a `//--- <module>.ptx` line (a PTX comment; `split-file`
/// splits the output into one assemblable file per module).
static llvm::Error writePTX(ModuleOp module, llvm::raw_ostream &os) {
  bool any = false;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      os << "//--- " << binary.getName() << ".ptx\n"
         << object.getObject().getValue() << "\n";
      any = true;
    }
  }
  if (!any)
    return createError("the module has no GPU kernels to write as PTX");
  return llvm::Error::success();
}

llvm::Error mlc::compileToFile(ModuleOp module, const AOTCompileOptions &opts,
                               StringRef outputFilename,
                               StringRef headerFilename, TimingScope *timing) {
  TimingScope untimed;
  TimingScope &root = timing ? *timing : untimed;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  MLIRContext &context = *module.getContext();
  StringRef pipelineOptions = opts.pipelineOptions;
  StringRef targetName = opts.target;
  unsigned optLevel = opts.optLevel;
  std::string errorMessage;
  if (optLevel > 3)
    return createError("-O" + Twine(optLevel) +
                       " is not an optimization level (0-3)");
  // --target=cuda[:chip] chooses the GPU pipeline; --pipeline-options are
  // then its options.
  mlc::CompilationTarget target;
  if (std::string error = mlc::parseCompilationTarget(targetName, target);
      !error.empty())
    return createError(error);
  bool cuda = target.isCUDA();
  std::unique_ptr<mlc::CPUPipelineOptions> options =
      mlc::CPUPipelineOptions::createFromString(cuda ? StringRef()
                                                     : pipelineOptions);
  std::unique_ptr<mlc::GPUPipelineOptions> gpuOptions =
      mlc::GPUPipelineOptions::createFromString(cuda ? pipelineOptions
                                                     : StringRef());
  if (!options || !gpuOptions)
    return createError("invalid --pipeline-options '" + pipelineOptions + "'");
  if (!opts.tuningDatabase.empty()) {
    if (cuda)
      return createError(
          "--tuning-db holds CPU schedules; it cannot be used with "
          "--target=" +
          targetName);
    options->tuningDatabase = opts.tuningDatabase;
    options->tuningNumCores = opts.tuningNumCores;
  }
  // Another CPU than the host's (--mcpu) has registers of its own, which
  // the default schedule's register tiles must fit, and tiles of its own.
  bool otherCPU = !opts.cpu.empty() && opts.cpu != "native";
  if (!cuda && otherCPU && options->targetCPU.empty())
    options->targetCPU = opts.cpu;
  if (!cuda && otherCPU && options->targetVectorBits == 0) {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
        createTargetMachine(/*cuda=*/false, opts.cpu, optLevel);
    if (!machine)
      return machine.takeError();
    const llvm::MCSubtargetInfo *info = (*machine)->getMCSubtargetInfo();
    options->targetVectorBits = mlc::getVectorBits([&](StringRef feature) {
      return info->checkFeatures(("+" + feature).str());
    });
  }
  OutputKind outputKind = getOutputKind(outputFilename);
  if (cuda) {
    if (!target.chip.empty())
      gpuOptions->chip = target.chip;
    if (outputKind == OutputKind::PTX)
      gpuOptions->format = "isa";
    std::string error = mlc::validateGPUPipelineOptions(*gpuOptions);
    if (!error.empty())
      return createError(error);
  } else if (outputKind == OutputKind::PTX) {
    return createError("a .ptx output needs --target=cuda");
  } else if (std::string error = mlc::validateCPUPipelineOptions(*options);
             !error.empty()) {
    return createError(error);
  }
#ifndef MLC_CUDA_RUNTIME_STATIC
  if (cuda && outputKind == OutputKind::SharedLibrary)
    return createError(
        "this mlc-compile was built without the CUDA toolkit, so it "
        "has no CUDA runtime to link into a .so; write an object "
        "(.o) or PTX (.ptx) instead");
#endif

  // Lifting the weights' transforms changes the entries' parameters and
  // adds <name>_transform_params: the graph is prepared first, and the
  // entries are those of the prepared module.
  bool lowered = isLLVMDialectModule(module);
  // Runs the passes `build` adds on the module, timed as `name`.
  auto runPipeline =
      [&](StringRef name,
          llvm::function_ref<void(OpPassManager &)> build) -> LogicalResult {
    TimingScope timer = root.nest(name);
    PassManager pm(&context);
    pm.enableTiming(timer);
    mlc::addPassFailureDiagnostics(pm);
    build(pm);
    return pm.run(module);
  };
  if (!lowered && (cuda ? gpuOptions->numInput : options->numInput) >= 0) {
    if (failed(runPipeline("Graph preparation", [&](OpPassManager &pm) {
          if (cuda)
            mlc::buildGraphPreparationPipeline(pm, *gpuOptions);
          else
            mlc::buildGraphPreparationPipeline(pm, *options);
        })))
      return createDiagnosedError();
    options->graphPrepared = gpuOptions->graphPrepared = true;
  }

  // Entries: the named functions, else every public function with a body.
  SmallVector<Operation *> entries;
  if (opts.entries.empty()) {
    for (Operation &op : module.getBody()->getOperations()) {
      auto func = dyn_cast<FunctionOpInterface>(&op);
      auto symbol = dyn_cast<SymbolOpInterface>(&op);
      if (!func || func.isExternal() || !symbol || !symbol.isPublic())
        continue;
      if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(&op);
          llvmFunc && llvmFunc.getLinkage() != LLVM::Linkage::External)
        continue;
      // Lowered modules: the wrappers, not what they call.
      if (lowered &&
          module.lookupSymbol(("_mlir_ciface_" + func.getName()).str()))
        continue;
      entries.push_back(&op);
    }
  }
  for (const std::string &name : opts.entries) {
    Operation *op = nullptr;
    if (lowered)
      op = module.lookupSymbol("_mlir_ciface_" + name);
    if (!op)
      op = module.lookupSymbol(name);
    auto func = dyn_cast_or_null<FunctionOpInterface>(op);
    if (!func)
      return createError("no function '" + name + "' in '" + opts.sourceName +
                         "'");
    if (func.isExternal()) {
      func.emitError() << "entry '" << name
                       << "' is a declaration without a body";
      return createDiagnosedError();
    }
    if (auto symbol = dyn_cast<SymbolOpInterface>(op);
        !lowered && symbol && !symbol.isPublic()) {
      func.emitError() << "entry '" << name
                       << "' is private; only public functions can be "
                          "exported";
      return createDiagnosedError();
    }
    if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(op);
        llvmFunc && llvmFunc.getLinkage() != LLVM::Linkage::External) {
      func.emitError() << "entry '" << name << "' has "
                       << LLVM::linkage::stringifyLinkage(llvmFunc.getLinkage())
                       << " linkage; only external functions are exported";
      return createDiagnosedError();
    }
    if (!llvm::is_contained(entries, op))
      entries.push_back(op);
  }

  // The C view of every entry, from its signature before lowering. Only the
  // header needs every type spelled in C.
  SmallVector<std::string> entrySymbols;
  SmallVector<CEntry> cEntries;
  llvm::json::Array metadataEntries;
  for (Operation *op : entries) {
    entrySymbols.push_back(SymbolTable::getSymbolName(op).str());
    if (!lowered)
      metadataEntries.push_back(getEntryMetadata(cast<FunctionOpInterface>(op),
                                                 options->hoistResultAllocs));
    if (headerFilename.empty())
      continue;
    FailureOr<CEntry> entry = lowered ? getCEntry(cast<LLVM::LLVMFuncOp>(op))
                                      : getCEntry(cast<FunctionOpInterface>(op),
                                                  options->hoistResultAllocs);
    if (failed(entry))
      return createDiagnosedError();
    cEntries.push_back(*entry);
  }

  // Open the outputs before compiling so that an unwritable path fails
  // fast; they are removed again unless everything succeeds.
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return createError(errorMessage);
  std::unique_ptr<llvm::ToolOutputFile> header;
  if (!headerFilename.empty()) {
    header = openOutputFile(headerFilename, &errorMessage);
    if (!header)
      return createError(errorMessage);
  }

  if (failed(mlc::verifyCompilableTypes(module)))
    return createDiagnosedError();
  // Private functions stay private to the object (func-to-llvm gives every
  // function external linkage).
  llvm::StringSet<> privateFunctions;
  if (!lowered)
    for (auto func : module.getOps<FunctionOpInterface>())
      if (func.isPrivate() && !func.isExternal())
        privateFunctions.insert(func.getName());

  if (!lowered) {
    for (Operation *op : entries)
      op->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(&context));
    if (failed(runPipeline("MLIR pipeline", [&](OpPassManager &pm) {
          if (cuda)
            mlc::buildGPUPipeline(pm, *gpuOptions);
          else
            mlc::buildCPUPipeline(pm, *options);
        })))
      return createDiagnosedError();
    if (outputKind == OutputKind::PTX) {
      if (llvm::Error error = writePTX(module, output->os()))
        return error;
      output->keep();
      return llvm::Error::success();
    }
    // Translation would only say which op it cannot translate.
    WalkResult leftover = module.walk([&](Operation *op) {
      if (isa<ModuleOp>(op) || isTranslatable(op))
        return WalkResult::advance();
      if (isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
        return WalkResult::advance();
      op->emitError() << "the " << (cuda ? "GPU" : "CPU") << " pipeline left '"
                      << op->getName() << "' outside the LLVM dialect";
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      return createDiagnosedError();
    // The wrappers must exist and take what the header declares.
    for (const std::string &name : entrySymbols)
      if (!module.lookupSymbol<LLVM::LLVMFuncOp>("_mlir_ciface_" + name))
        return createError(Twine("the ") + (cuda ? "GPU" : "CPU") +
                           " pipeline produced no C interface for '" + name +
                           "'");
    for (const CEntry &entry : cEntries) {
      auto wrapper =
          module.lookupSymbol<LLVM::LLVMFuncOp>("_mlir_ciface_" + entry.name);
      if (wrapper.getNumArguments() != getNumWrapperArguments(entry))
        return createError("the C interface of '" + entry.name + "' takes " +
                           Twine(wrapper.getNumArguments()) +
                           " arguments, not the " +
                           Twine(getNumWrapperArguments(entry)) +
                           " expected from " + entry.signature);
    }
  }

  TimingScope llvmTimer = root.nest("LLVM");
  TimingScope translationTimer = llvmTimer.nest("Translation to LLVM IR");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
      module, llvmContext, llvm::sys::path::filename(opts.sourceName));
  if (!llvmModule)
    return createError("translation to LLVM IR failed");
  translationTimer.stop();
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration() &&
        privateFunctions.contains(function.getName()))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  if (!lowered) {
    llvm::json::Object metadata{{"version", 1},
                                {"target", cuda ? "cuda" : "cpu"},
                                {"entries", std::move(metadataEntries)}};
    std::string json;
    llvm::raw_string_ostream(json) << llvm::json::Value(std::move(metadata));
    addMetadataFunction(*llvmModule, json);
  }
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(cuda, opts.cpu, optLevel);
  if (!machine)
    return machine.takeError();
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());
  TimingScope optimizationTimer = llvmTimer.nest("Optimization");
  if (llvm::Error error = makeOptimizingTransformer(
          optLevel, /*sizeLevel=*/0, machine->get())(llvmModule.get()))
    return createError("optimizing: " + llvm::toString(std::move(error)));
  optimizationTimer.stop();

  switch (outputKind) {
  case OutputKind::PTX:
    break; // Written after the pipeline.
  case OutputKind::LLVMIR:
    llvmModule->print(output->os(), nullptr);
    break;
  case OutputKind::Assembly:
  case OutputKind::Object: {
    TimingScope codegenTimer = llvmTimer.nest("Code generation");
    if (llvm::Error error = emitCode(*llvmModule, **machine, output->os(),
                                     outputKind == OutputKind::Assembly
                                         ? llvm::CodeGenFileType::AssemblyFile
                                         : llvm::CodeGenFileType::ObjectFile))
      return error;
    break;
  }
  case OutputKind::SharedLibrary: {
    llvm::StringSet<> undefined;
    for (const llvm::GlobalValue &global : llvmModule->global_values())
      if (global.isDeclaration() && !global.getName().starts_with("llvm."))
        undefined.insert(global.getName());
    SmallString<128> objectPath, libraryPath;
    int objectFD;
    if (std::error_code error = llvm::sys::fs::createTemporaryFile(
            "mlc-compile", "o", objectFD, objectPath))
      return createError("cannot create a temporary file: " + error.message());
    llvm::FileRemover objectRemover(objectPath);
    {
      TimingScope codegenTimer = llvmTimer.nest("Code generation");
      llvm::raw_fd_ostream objectStream(objectFD, /*shouldClose=*/true);
      if (llvm::Error error = emitCode(*llvmModule, **machine, objectStream,
                                       llvm::CodeGenFileType::ObjectFile))
        return error;
    }
    llvmTimer.stop();
    TimingScope linkTimer = root.nest("Linking");
    if (std::error_code error = llvm::sys::fs::createTemporaryFile(
            "mlc-compile", "so", libraryPath))
      return createError("cannot create a temporary file: " + error.message());
    llvm::FileRemover libraryRemover(libraryPath);
    SmallVector<std::string> runtimeLibraries =
        getNeededRuntimeLibraries(undefined);
#ifdef MLC_CUDA_RUNTIME_STATIC
    // Linked in whole, so that its C API is exported for callers too.
    if (cuda)
      runtimeLibraries.insert(runtimeLibraries.begin(),
                              MLC_CUDA_RUNTIME_STATIC);
#endif
    if (llvm::Error error =
            linkSharedLibrary(objectPath, libraryPath, runtimeLibraries,
                              opts.linker, outputFilename))
      return error;
    auto library = llvm::MemoryBuffer::getFile(libraryPath);
    if (!library)
      return createError("cannot read '" + libraryPath +
                         "': " + library.getError().message());
    output->os() << (*library)->getBuffer();
    break;
  }
  }

  llvmTimer.stop();
  if (header)
    writeHeader(header->os(), cEntries, lowered, cuda, headerFilename,
                opts.sourceName);
  for (auto [file, path] : {std::make_pair(output.get(), outputFilename),
                            std::make_pair(header.get(), headerFilename)}) {
    if (!file)
      continue;
    file->os().flush();
    if (file->os().has_error())
      return createError("cannot write '" + path +
                         "': " + file->os().error().message());
  }
  output->keep();
  if (header)
    header->keep();
  return llvm::Error::success();
}
