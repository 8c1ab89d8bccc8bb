/*===-- mlc-c/ExecutionEngine.h - compile, bind, call -------------*- C -*-===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* mlc's runtime library for C embedders and language bindings: compile a    *|
|* module and call an entry in process on host arrays (mlcExecutable, the    *|
|* C face of mlc::Executable, what mlc-run does), bind parameters by name,   *|
|* and compile a module to an object or shared library (mlcCompileToFile,    *|
|* mlc::compileToFile, what mlc-compile does).                               *|
|*                                                                            *|
|* Errors are emitted as diagnostics on the module's context (attach a       *|
|* handler with mlirContextAttachDiagnosticHandler); a function that fails   *|
|* returns a null handle or a failed MlirLogicalResult.                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_C_EXECUTIONENGINE_H
#define MLC_C_EXECUTIONENGINE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A dense, row-major host array. `dtype` is numpy's name of the element
/// type ("float32", "float16", "bfloat16", "int64", "bool", ...); a scalar
/// parameter is a 0-d array.
typedef struct MlcTensor {
  void *data;
  const int64_t *shape;
  intptr_t rank;
  MlirStringRef dtype;
} MlcTensor;

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

/// Binds the tensors of `path` (.npz or .safetensors) by name as constants
/// of `entry` when it is a relay or relax function (TVM's
/// `relay.build(mod, params=...)`), and sets `*bound` to whether it did;
/// other entries take parameters as inputs.
MLIR_CAPI_EXPORTED MlirLogicalResult mlcBindParametersFromFile(
    MlirModule module, MlirStringRef entry, MlirStringRef path, bool *bound);

//===----------------------------------------------------------------------===//
// Executable: compile, then call in process
//===----------------------------------------------------------------------===//

typedef struct MlcExecutable {
  void *ptr;
} MlcExecutable;

typedef struct MlcExecutableOptions {
  /// "cpu", or "cuda[:sm_XX]".
  MlirStringRef target;
  /// Options of the CPU (GPU) pipeline, as mlc-run's --pipeline-options.
  MlirStringRef pipelineOptions;
  /// A tuning database directory, or empty.
  MlirStringRef tuningDatabase;
  /// The compile cache's directory, or empty for the default.
  MlirStringRef cacheDirectory;
  /// LLVM optimization level, 0-3.
  unsigned optLevel;
  /// OpenMP threads of parallel loops (0: the runtime's default).
  unsigned numThreads;
  bool useCache;
} MlcExecutableOptions;

/// mlc-run's defaults: cpu, -O3, one thread, the cache on.
MLIR_CAPI_EXPORTED MlcExecutableOptions mlcExecutableOptionsGetDefault(void);

/// Compiles `entry` of `module` (lowered in place: pass a clone to keep it)
/// for `options`' target. Returns a null executable after an error.
MLIR_CAPI_EXPORTED MlcExecutable
mlcExecutableCreate(MlirModule module, MlirStringRef entry,
                    const MlcExecutableOptions *options);

static inline bool mlcExecutableIsNull(MlcExecutable executable) {
  return !executable.ptr;
}

MLIR_CAPI_EXPORTED void mlcExecutableDestroy(MlcExecutable executable);

/// Whether the entry is a destination-passing buffer function (writes its
/// buffer parameters in place, has no results).
MLIR_CAPI_EXPORTED bool mlcExecutableIsBufferEntry(MlcExecutable executable);

MLIR_CAPI_EXPORTED intptr_t
mlcExecutableGetNumParameters(MlcExecutable executable);

/// The name parameter `pos` is bound by (relay.name / relax.name /
/// tensorir.name, else argN); valid as long as the executable.
MLIR_CAPI_EXPORTED MlirStringRef
mlcExecutableGetParameterName(MlcExecutable executable, intptr_t pos);

MLIR_CAPI_EXPORTED intptr_t
mlcExecutableGetNumResults(MlcExecutable executable);

/// Calls the entry on `inputs`, one per parameter in order, checked against
/// the signature (rank, dtype, static sizes, symbolic sizes that agree).
/// Tensor parameters are copied (an entry may use them as scratch space);
/// the buffers of a buffer entry are written in place. The results are held
/// by the executable until the next call or time (mlcExecutableGetResult).
MLIR_CAPI_EXPORTED MlirLogicalResult mlcExecutableCall(MlcExecutable executable,
                                                       const MlcTensor *inputs,
                                                       intptr_t numInputs);

/// Result `pos` of the last call: a view valid until the next call or time.
MLIR_CAPI_EXPORTED MlcTensor mlcExecutableGetResult(MlcExecutable executable,
                                                    intptr_t pos);

/// Calls the entry `runs` times on `inputs` (results as for a call) and
/// writes each run's time in milliseconds to `millis[0..runs)`.
MLIR_CAPI_EXPORTED MlirLogicalResult mlcExecutableTime(MlcExecutable executable,
                                                       const MlcTensor *inputs,
                                                       intptr_t numInputs,
                                                       unsigned runs,
                                                       double *millis);

//===----------------------------------------------------------------------===//
// Ahead of time: an object or shared library
//===----------------------------------------------------------------------===//

typedef struct MlcCompileOptions {
  /// "cpu", or "cuda[:sm_XX]".
  MlirStringRef target;
  /// Options of the CPU (GPU) pipeline, as mlc-compile's --pipeline-options.
  MlirStringRef pipelineOptions;
  /// A tuning database directory, or empty.
  MlirStringRef tuningDatabase;
  /// The target CPU, or empty for the host's.
  MlirStringRef cpu;
  /// The functions to export, comma-separated; empty: every public one.
  MlirStringRef entries;
  /// The module's source name for messages and the header.
  MlirStringRef sourceName;
  unsigned optLevel;
  unsigned tuningNumCores;
} MlcCompileOptions;

/// mlc-compile's defaults: cpu, -O3, every public function.
MLIR_CAPI_EXPORTED MlcCompileOptions mlcCompileOptionsGetDefault(void);

/// Compiles `module` (lowered in place) to `outputPath`: `.so` a shared
/// library, `.ll` LLVM IR, `.s` assembly, `.ptx` the kernels' PTX (cuda),
/// else an object file; and, when `headerPath` is not empty, the entries' C
/// declarations. Nothing is written unless everything succeeds.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlcCompileToFile(MlirModule module, const MlcCompileOptions *options,
                 MlirStringRef outputPath, MlirStringRef headerPath);

#ifdef __cplusplus
}
#endif

#endif // MLC_C_EXECUTIONENGINE_H
