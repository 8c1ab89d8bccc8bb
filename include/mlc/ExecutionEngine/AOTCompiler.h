//===- AOTCompiler.h - compile a module to a file ---------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The ahead-of-time half of mlc's runtime library (TVM's
// `lib.export_library`): what `mlc-compile`, the C API
// (`mlcCompileToFile`) and Python share. Lowers a module in any mlc/MLIR
// dialect with the CPU pipeline (the GPU pipeline for a cuda target) unless
// it is already in the LLVM dialect, and gives every entry a C-callable
// `_mlir_ciface_<name>` wrapper that takes pointers to strided memref
// descriptors. The output's extension picks what is written:
//
// - `.so`: a shared library linked with ld.lld against libc/libm and, only
//   when the code calls into them, MLIR's C runner utilities or libomp (a
//   cuda target links mlc's CUDA runtime statically: it needs libc and
//   libcuda.so.1 alone). It exports `const char *mlc_module_metadata(void)`,
//   JSON naming the target and each entry's arguments (name: a C identifier,
//   param: the name it is bound by, dtype, shape,
//   input/output/scalar) and returned values, which `mlc.runtime` reads;
// - `.ll` LLVM IR, `.s` assembly, `.ptx` the kernels' PTX (cuda), anything
//   else an object file.
//
// A header path writes the entries' C declarations too.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_EXECUTIONENGINE_AOTCOMPILER_H
#define MLC_EXECUTIONENGINE_AOTCOMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlc {

struct AOTCompileOptions {
  /// `cpu` (the host), or `cuda[:sm_XX]`.
  std::string target = "cpu";
  /// Optimization level, 0-3.
  unsigned optLevel = 3;
  /// Options of the CPU pipeline (of the GPU pipeline for cuda).
  std::string pipelineOptions;
  /// A tuning database directory (CPU only) and the core count whose
  /// records it prefers (0: the fastest of any).
  std::string tuningDatabase;
  unsigned tuningNumCores = 0;
  /// The target CPU; empty: the host's CPU and features (the generic CPU of
  /// the triple for a cuda target's host code).
  std::string cpu;
  /// The functions to export; empty: every public function with a body.
  llvm::SmallVector<std::string> entries;
  /// ld.lld for `.so` outputs; empty: the one mlc was configured with, else
  /// one on PATH.
  std::string linker;
  /// The module's source, named in messages and the header's comment.
  std::string sourceName = "<module>";
};

/// Compiles `module` (lowered in place) and writes `outputPath`, and the C
/// header to `headerPath` when it is not empty. Nothing is left at either
/// path unless everything succeeds. Errors at a place in the IR are emitted
/// as diagnostics (a DiagnosedError is returned). With `timing`, each phase
/// (every pass of the pipeline, LLVM translation, optimization and code
/// generation, linking) is timed in a scope nested in it, as `--mlir-timing`
/// reports them.
llvm::Error compileToFile(mlir::ModuleOp module,
                          const AOTCompileOptions &options,
                          llvm::StringRef outputPath,
                          llvm::StringRef headerPath = "",
                          mlir::TimingScope *timing = nullptr);

} // namespace mlc

#endif // MLC_EXECUTIONENGINE_AOTCOMPILER_H
