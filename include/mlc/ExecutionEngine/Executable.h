//===- Executable.h - compile a module and call it in process ---*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The JIT half of mlc's runtime library: what `mlc-run`, the C API
// (`mlcExecutable*`) and Python share. TVM's `relay.create_executor(...)`,
// `rt_mod["f"](...)` and `time_evaluator` in one object:
//
//   ExecutableOptions options;            // target, -O, pipeline options
//   options.validate();                   // before parsing anything
//   bindParametersFromFile(module, "main", "params.npz");   // optional
//   auto signature = EntrySignature::get(module, "main");
//   ... fill signature->parameters (checkArgumentType + allocate) ...
//   auto results = signature->allocateResults(inputs);
//   auto exe = Executable::create(module, "main", options);  // compiles
//   exe->call(inputs, *results);
//
// An entry's parameters are bound by name: the `relay.name`, `relax.name`
// or `tensorir.name` argument attribute, else `argN`. Tensor entries (every
// parameter and result a ranked tensor) get their results allocated here,
// dynamic dimensions computed from the symbols of the parameters' relax
// shapes, and passed in destination-passing style. Buffer entries (every
// parameter a statically shaped memref or a scalar, no results) write their
// buffers in place. On a CUDA target the buffers are copied to the device
// for each call and back after it.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_EXECUTIONENGINE_EXECUTABLE_H
#define MLC_EXECUTIONENGINE_EXECUTABLE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdlib>
#include <memory>
#include <string>

namespace mlc {

/// A host array in C order: owned (64-byte aligned, zero-filled) or a view
/// of memory the caller owns.
struct HostTensor {
  std::string name;
  mlir::RankedTensorType type;
  /// A scalar parameter of a buffer entry (`type` is 0-d), passed by value.
  bool scalar = false;

  HostTensor() = default;
  HostTensor(std::string name, mlir::RankedTensorType type, bool scalar = false)
      : name(std::move(name)), type(type), scalar(scalar) {}

  char *getData() const { return data; }
  size_t getNumBytes() const { return numBytes; }

  /// Allocates zeroed storage for `type`; fails (with a message naming the
  /// tensor and its size) when the memory cannot be had.
  llvm::Error allocate();
  /// Makes this a view of `bytes` at `external` (not owned).
  void setExternalData(void *external) {
    owned.reset();
    data = static_cast<char *>(external);
    numBytes = computeNumBytes(type);
  }

  /// Storage bytes of one element (i1 takes a byte).
  static size_t getElementBytes(mlir::Type type);
  static size_t computeNumBytes(mlir::RankedTensorType type);

private:
  std::unique_ptr<char, decltype(&std::free)> owned{nullptr, &std::free};
  char *data = nullptr;
  size_t numBytes = 0;
};

/// The parameters and results of an entry, read from its signature before
/// lowering.
struct EntrySignature {
  std::string entry;
  /// Destination-passing buffer function: no results, memrefs written in
  /// place.
  bool bufferEntry = false;
  /// Unallocated; dynamic dimensions stay dynamic.
  llvm::SmallVector<HostTensor> parameters;
  llvm::SmallVector<HostTensor> results;
  /// Symbols of the relax shapes that the entry fixes itself: a constant
  /// cast to a parameter's type (a parameter bound by
  /// bindParametersFromFile) binds the symbols of that type.
  llvm::StringMap<int64_t> fixedSymbols;

  static llvm::Expected<EntrySignature> get(mlir::ModuleOp module,
                                            llvm::StringRef entry);

  /// Checks that `actual` (an array given for `parameter`) fits it: the
  /// same rank and element type (a bf16 parameter also takes ui16 bit
  /// patterns), and the same size in every static dimension. `source` names
  /// where the array came from, for the message.
  static llvm::Error checkArgumentType(const HostTensor &parameter,
                                       mlir::RankedTensorType actual,
                                       llvm::StringRef source);

  /// The results for `inputs` (the parameters with their actual shapes):
  /// allocated, their dynamic dimensions computed from the symbols of the
  /// parameters' relax shapes and fixedSymbols. Fails when two inputs (or
  /// an input and a bound parameter) bind one symbol to different sizes or
  /// a result's size is not determined. Buffer entries
  /// have none.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  allocateResults(llvm::ArrayRef<HostTensor> inputs) const;
};

/// The name an entry parameter is bound by (see the file comment).
std::string getEntryParameterName(mlir::FunctionOpInterface func,
                                  unsigned index);

/// Binds the tensors of `paramsPath` (.npz or .safetensors) as constants in
/// `entry` when it is a relay or relax function (relay-bind-params /
/// relax-bind-params, TVM's `relay.build(mod, params=...)`), so that the
/// pipeline folds what depends only on them. Returns whether it bound them;
/// other entries take parameters at run time like inputs.
llvm::Expected<bool> bindParametersFromFile(mlir::ModuleOp module,
                                            llvm::StringRef entry,
                                            llvm::StringRef paramsPath);

struct ExecutableOptions {
  /// `cpu`, or `cuda[:sm_XX]`.
  std::string target = "cpu";
  /// LLVM optimization level, 0-3.
  unsigned optLevel = 3;
  /// Options of the CPU pipeline (of the GPU pipeline for cuda).
  std::string pipelineOptions;
  /// A tuning database directory (CPU only).
  std::string tuningDatabase;
  /// OpenMP threads of parallel loops (0: the runtime's default).
  unsigned numThreads = 1;
  /// The compile cache (CPU only); empty: the default directory.
  std::string cacheDirectory;
  bool useCache = true;

  /// Checks the options and, for a cuda target, that there is a device:
  /// nothing is compiled or run without one.
  llvm::Error validate() const;
};

/// Compile times of an Executable, in milliseconds.
struct CompileStatistics {
  bool fromCache = false;
  double pipelineMillis = 0;
  double llvmMillis = 0;
  double totalMillis = 0;
};

class Executable {
public:
  ~Executable();

  /// Compiles `entry` of `module` (lowered in place) with `options`, or
  /// takes its object code from the compile cache. With `timing`, each
  /// phase (cache lookup, every pass of the pipeline, LLVM translation,
  /// optimization and code generation, cache store) is timed in a scope
  /// nested in it, as `--mlir-timing` reports them.
  static llvm::Expected<std::unique_ptr<Executable>>
  create(mlir::ModuleOp module, llvm::StringRef entry,
         const ExecutableOptions &options, mlir::TimingScope *timing = nullptr);

  const EntrySignature &getSignature() const { return signature; }
  const CompileStatistics &getCompileStatistics() const { return statistics; }
  bool isCUDA() const { return cuda; }

  /// Calls the entry: `inputs` are the parameters (allocated, in order),
  /// `results` what EntrySignature::allocateResults gave for them. A buffer
  /// entry writes its buffers (the inputs) in place.
  llvm::Error call(llvm::MutableArrayRef<HostTensor> inputs,
                   llvm::MutableArrayRef<HostTensor> results);

  /// Calls the entry `runs` times on the same buffers (after `call`) and
  /// returns each run's time in milliseconds (device time between CUDA
  /// events on a GPU).
  llvm::Expected<llvm::SmallVector<double>>
  time(unsigned runs, llvm::MutableArrayRef<HostTensor> inputs,
       llvm::MutableArrayRef<HostTensor> results);

private:
  Executable();
  struct Impl;
  std::unique_ptr<Impl> impl;
  EntrySignature signature;
  CompileStatistics statistics;
  bool cuda = false;
};

} // namespace mlc

#endif // MLC_EXECUTIONENGINE_EXECUTABLE_H
