// RUN: mlc-capi-test 2>&1 | FileCheck %s
/*===- capi.c - mlc's C API end to end ------------------------------------===*\
|*                                                                            *|
|* Part of the mlc project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* A C program that uses mlc through libMLC-C.so alone: dialect handles,    *|
|* registration, parsing and verifying relay/relax/tensorir, a pass         *|
|* pipeline by name (relay -> relax -> TensorIR kernels), a schedule as a   *|
|* transform script through the transform interpreter, and diagnostics;    *|
|* then the runtime library: Relay text imported in process, compiled and  *|
|* called on host arrays (checked against a C reference), a buffer entry    *|
|* written in place, a shared library compiled and called through dlopen,  *|
|* and a call with a wrong array as a diagnostic.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlc-c/Dialects.h"
#include "mlc-c/ExecutionEngine.h"
#include "mlc-c/RegisterEverything.h"
#include "mlc-c/Target/Relay.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Transform/Interpreter.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  const char *severity[] = {"error", "warning", "note", "remark"};
  fprintf(stdout,
          "diagnostic (%s): ", severity[mlirDiagnosticGetSeverity(diagnostic)]);
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  fprintf(stdout, "\n");
  return mlirLogicalResultSuccess();
}

static MlirModule parse(MlirContext ctx, const char *text) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module)) {
    fprintf(stdout, "parse failed\n");
    exit(1);
  }
  return module;
}

static const char *kRelay =
    "func.func @main(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> "
    "tensor<2x4xf32> {\n"
    "  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> "
    "tensor<2x4xf32>\n"
    "  %1 = relay.nn.relu %0 : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
    "  return %1 : tensor<2x4xf32>\n"
    "}\n";

static const char *kKernel =
    "tensorir.prim_func @scale(%A: memref<64xf32>, %B: memref<64xf32>) {\n"
    "  tensorir.for %i = 0 to 64 {\n"
    "    tensorir.block \"B\"(%vi = spatial(64, %i)) {\n"
    "      %a = memref.load %A[%vi] : memref<64xf32>\n"
    "      %s = arith.addf %a, %a : f32\n"
    "      memref.store %s, %B[%vi] : memref<64xf32>\n"
    "    }\n"
    "  }\n"
    "}\n";

static const char *kSchedule =
    "module attributes {transform.with_named_sequence} {\n"
    "  transform.named_sequence @__transform_main(%root: !transform.any_op "
    "{transform.readonly}) {\n"
    "    %b = transform.tensorir.get_block \"B\" in %root : "
    "(!transform.any_op) "
    "-> !transform.any_op\n"
    "    %i = transform.tensorir.get_loops %b : (!transform.any_op) -> "
    "!transform.any_op\n"
    "    %i0, %i1 = transform.tensorir.split %i by [?, 16] : "
    "(!transform.any_op) "
    "-> (!transform.any_op, !transform.any_op)\n"
    "    transform.tensorir.vectorize %i1 : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    "}\n";

static const char *kRelayText =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2, 8), float32], %w: Tensor[(4, 8), float32]) {\n"
    "  nn.relu(nn.dense(%x, %w))\n"
    "}\n";

/// Deterministic values in [-1, 1).
static void fillRandom(float *data, int count, unsigned seed) {
  for (int i = 0; i < count; ++i) {
    seed = seed * 1103515245u + 12345u;
    data[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
  }
}

/// The runtime library (below main, so that its CHECK lines follow the
/// others in the order the program prints).
static int runExecutable(MlirContext ctx);

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlcRegisterAllDialectsWithUpstream(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlcRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  // CHECK: dialects: relay relax tensorir
  MlirDialectHandle handles[] = {mlcGetDialectHandle__relay__(),
                                 mlcGetDialectHandle__relax__(),
                                 mlcGetDialectHandle__tensorir__()};
  fprintf(stdout, "dialects:");
  for (int i = 0; i < 3; ++i) {
    MlirStringRef ns = mlirDialectHandleGetNamespace(handles[i]);
    MlirDialect dialect = mlirDialectHandleLoadDialect(handles[i], ctx);
    fprintf(stdout, " %.*s", (int)ns.length, ns.data);
    if (mlirDialectIsNull(dialect))
      fprintf(stdout, "(not loaded)");
  }
  fprintf(stdout, "\n");

  // relay -> relax -> TensorIR kernels, by pass names: the module stays a
  // symbol table of the kernels (one copy of MLIR in the process).
  // CHECK: verified: 1
  // CHECK: pipeline: 1
  // CHECK: tensorir.prim_func private @matmul
  // CHECK: relax.call_tir
  MlirModule model = parse(ctx, kRelay);
  fprintf(stdout, "verified: %d\n",
          mlirOperationVerify(mlirModuleGetOperation(model)));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(relay-to-relax,relax-legalize-ops,canonicalize)"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed))
    return 1;
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(model));
  fprintf(stdout, "pipeline: %d\n", mlirLogicalResultIsSuccess(ran));
  mlirOperationPrint(mlirModuleGetOperation(model), printToStdout, NULL);
  fprintf(stdout, "\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(model);

  // A schedule as a transform script.
  // CHECK: schedule: 1
  // CHECK: tensorir.for %i_0 = 0 to 4 {
  // CHECK-NEXT: tensorir.for %i_1 = 0 to 16 vectorized {
  MlirModule kernel = parse(ctx, kKernel);
  MlirModule script = parse(ctx, kSchedule);
  // The script's one op: its @__transform_main.
  MlirOperation entry = mlirBlockGetFirstOperation(mlirModuleGetBody(script));
  MlirTransformOptions options = mlirTransformOptionsCreate();
  MlirLogicalResult scheduled =
      mlirTransformApplyNamedSequence(mlirModuleGetOperation(kernel), entry,
                                      mlirModuleGetOperation(script), options);
  fprintf(stdout, "schedule: %d\n", mlirLogicalResultIsSuccess(scheduled));
  mlirOperationPrint(mlirModuleGetOperation(kernel), printToStdout, NULL);
  fprintf(stdout, "\n");

  // A primitive whose preconditions fail is a diagnostic, not a crash.
  // CHECK: diagnostic (error): cannot split loop 'i'
  // CHECK: bad schedule: 0
  MlirModule bad = parse(
      ctx,
      "module attributes {transform.with_named_sequence} {\n"
      "  transform.named_sequence @__transform_main(%root: !transform.any_op "
      "{transform.readonly}) {\n"
      "    %b = transform.tensorir.get_block \"B\" in %root : "
      "(!transform.any_op) -> !transform.any_op\n"
      "    %i = transform.tensorir.get_loops %b : (!transform.any_op) -> "
      "!transform.any_op\n"
      "    %i0, %i1 = transform.tensorir.split %i by [3, 16] : "
      "(!transform.any_op) -> (!transform.any_op, !transform.any_op)\n"
      "    transform.yield\n"
      "  }\n"
      "}\n");
  MlirModule fresh = parse(ctx, kKernel);
  MlirLogicalResult failed = mlirTransformApplyNamedSequence(
      mlirModuleGetOperation(fresh),
      mlirBlockGetFirstOperation(mlirModuleGetBody(bad)),
      mlirModuleGetOperation(bad), options);
  fprintf(stdout, "bad schedule: %d\n", mlirLogicalResultIsSuccess(failed));

  // A verifier error of an mlc op, at its location.
  // CHECK: diagnostic (error): {{.*}}element types differ
  MlirModule invalid = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%a: tensor<2xf32>, %b: tensor<2xi32>) -> "
               "tensor<2xf32> {\n"
               "  %0 = relax.add %a, %b : (tensor<2xf32>, tensor<2xi32>) -> "
               "tensor<2xf32>\n"
               "  return %0 : tensor<2xf32>\n"
               "}\n"));
  // CHECK: invalid rejected: 1
  fprintf(stdout, "invalid rejected: %d\n", mlirModuleIsNull(invalid));

  if (runExecutable(ctx) != 0)
    return 1;

  mlirTransformOptionsDestroy(options);
  mlirModuleDestroy(fresh);
  mlirModuleDestroy(bad);
  mlirModuleDestroy(script);
  mlirModuleDestroy(kernel);
  mlirContextDestroy(ctx);
  return 0;
}

/// The runtime library: import, compile, bind by position, call.
static int runExecutable(MlirContext ctx) {
  // CHECK: relay import: 1
  MlirModule model =
      mlcImportRelayFromString(ctx, mlirStringRefCreateFromCString(kRelayText),
                               mlirStringRefCreateFromCString("model.relay"),
                               mlirStringRefCreateFromCString(""));
  fprintf(stdout, "relay import: %d\n", !mlirModuleIsNull(model));
  if (mlirModuleIsNull(model))
    return 1;
  MlcExecutableOptions options = mlcExecutableOptionsGetDefault();
  options.useCache = false;
  MlcExecutable exe = mlcExecutableCreate(
      model, mlirStringRefCreateFromCString("main"), &options);
  if (mlcExecutableIsNull(exe))
    return 1;
  // CHECK: parameters: x w, results: 1
  fprintf(stdout, "parameters:");
  for (intptr_t i = 0; i < mlcExecutableGetNumParameters(exe); ++i) {
    MlirStringRef name = mlcExecutableGetParameterName(exe, i);
    fprintf(stdout, " %.*s", (int)name.length, name.data);
  }
  fprintf(stdout, ", results: %d\n", (int)mlcExecutableGetNumResults(exe));

  float x[16], w[32];
  fillRandom(x, 16, 1);
  fillRandom(w, 32, 2);
  int64_t xShape[] = {2, 8}, wShape[] = {4, 8};
  MlirStringRef f32 = mlirStringRefCreateFromCString("float32");
  MlcTensor inputs[] = {{x, xShape, 2, f32}, {w, wShape, 2, f32}};
  // CHECK: call: 1
  MlirLogicalResult called = mlcExecutableCall(exe, inputs, 2);
  fprintf(stdout, "call: %d\n", mlirLogicalResultIsSuccess(called));
  MlcTensor out = mlcExecutableGetResult(exe, 0);
  // CHECK: result: float32 2x4
  fprintf(stdout, "result: %.*s %dx%d\n", (int)out.dtype.length, out.dtype.data,
          (int)out.shape[0], (int)out.shape[1]);
  // relu(x w^T) in double; f32 accumulation over 8 terms: 1e-5.
  double maxError = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      double sum = 0;
      for (int k = 0; k < 8; ++k)
        sum += (double)x[i * 8 + k] * w[j * 8 + k];
      double expected = sum > 0 ? sum : 0;
      double error = fabs(((float *)out.data)[i * 4 + j] - expected);
      maxError = error > maxError ? error : maxError;
    }
  // CHECK: matches the reference: 1
  fprintf(stdout, "matches the reference: %d\n", maxError < 1e-5);

  // CHECK: times: 1
  double millis[3] = {-1, -1, -1};
  MlirLogicalResult timed = mlcExecutableTime(exe, inputs, 2, 3, millis);
  fprintf(stdout, "times: %d\n",
          mlirLogicalResultIsSuccess(timed) && millis[2] >= 0);

  // A wrong array is a diagnostic naming the parameter, not a crash.
  // CHECK: diagnostic (error): parameter 'w' expects tensor<4x8xf32> but
  // argument 1 holds tensor<8x4xf32> CHECK: bad call: 0
  int64_t badShape[] = {8, 4};
  inputs[1].shape = badShape;
  MlirLogicalResult bad = mlcExecutableCall(exe, inputs, 2);
  fprintf(stdout, "bad call: %d\n", mlirLogicalResultIsSuccess(bad));
  mlcExecutableDestroy(exe);
  mlirModuleDestroy(model);

  // A buffer entry writes its buffers in place.
  // CHECK: buffer entry: 1 in place: 1
  MlirModule kernel = parse(ctx, kKernel);
  MlcExecutable scale = mlcExecutableCreate(
      kernel, mlirStringRefCreateFromCString("scale"), &options);
  if (mlcExecutableIsNull(scale))
    return 1;
  float a[64], b[64];
  fillRandom(a, 64, 3);
  memset(b, 0, sizeof(b));
  int64_t shape64[] = {64};
  MlcTensor buffers[] = {{a, shape64, 1, f32}, {b, shape64, 1, f32}};
  MlirLogicalResult ran = mlcExecutableCall(scale, buffers, 2);
  int inPlace = mlirLogicalResultIsSuccess(ran);
  for (int i = 0; i < 64; ++i)
    inPlace &= b[i] == a[i] + a[i];
  fprintf(stdout, "buffer entry: %d in place: %d\n",
          mlcExecutableIsBufferEntry(scale), inPlace);
  mlcExecutableDestroy(scale);
  mlirModuleDestroy(kernel);

  // Ahead of time: a shared library, loaded and called through its C
  // interface.
  // CHECK: compiled: 1 loaded: 1 correct: 1
  char path[] = "/tmp/mlc-capi-XXXXXX.so";
  int fd = mkstemps(path, 3);
  if (fd < 0)
    return 1;
  close(fd);
  kernel = parse(ctx, kKernel);
  MlcCompileOptions compileOptions = mlcCompileOptionsGetDefault();
  MlirLogicalResult compiled = mlcCompileToFile(
      kernel, &compileOptions, mlirStringRefCreateFromCString(path),
      mlirStringRefCreateFromCString(""));
  mlirModuleDestroy(kernel);
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  unlink(path);
  typedef struct {
    float *allocated, *aligned;
    int64_t offset, sizes[1], strides[1];
  } Memref1D;
  typedef void (*ScaleFn)(Memref1D *, Memref1D *);
  ScaleFn function =
      library ? (ScaleFn)dlsym(library, "_mlir_ciface_scale") : NULL;
  int correct = 0;
  if (function) {
    memset(b, 0, sizeof(b));
    Memref1D A = {a, a, 0, {64}, {1}}, B = {b, b, 0, {64}, {1}};
    function(&A, &B);
    correct = 1;
    for (int i = 0; i < 64; ++i)
      correct &= b[i] == a[i] + a[i];
  }
  fprintf(stdout, "compiled: %d loaded: %d correct: %d\n",
          mlirLogicalResultIsSuccess(compiled), function != NULL, correct);
  if (library)
    dlclose(library);
  return 0;
}
