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
|* transform script through the transform interpreter, and diagnostics.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlc-c/Dialects.h"
#include "mlc-c/RegisterEverything.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Transform/Interpreter.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

  mlirTransformOptionsDestroy(options);
  mlirModuleDestroy(fresh);
  mlirModuleDestroy(bad);
  mlirModuleDestroy(script);
  mlirModuleDestroy(kernel);
  mlirContextDestroy(ctx);
  return 0;
}
