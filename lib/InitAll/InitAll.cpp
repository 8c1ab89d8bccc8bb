//===- InitAll.cpp - register every mlc dialect and pass -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/InitAll.h"

#include "mlc/Codegen/CPU/Passes.h"
#include "mlc/Codegen/GPU/Passes.h"
#include "mlc/Conversion/RelaxToMemRef/Passes.h"
#include "mlc/Conversion/RelaxToTensorIR/Passes.h"
#include "mlc/Conversion/RelayToRelax/Passes.h"
#include "mlc/Conversion/TensorIRToGPU/Passes.h"
#include "mlc/Conversion/TensorIRToLinalg/Passes.h"
#include "mlc/Conversion/TensorIRToSCF/Passes.h"
#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/Relay/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/TransformOps/TensorIRTransformOps.h"
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"
#include "mlc/MetaSchedule/Tasks.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Target/RelaxJSON/RelaxJSONImporter.h"
#include "mlc/Target/Relay/RelayImporter.h"
#ifdef MLC_HAS_ONNX
#include "mlc/Target/ONNX/ONNXImporter.h"
#endif
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

void mlc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<relay::RelayDialect, relax::RelaxDialect,
                  tensorir::TensorIRDialect>();
  tensorir::registerTransformDialectExtension(registry);
  registerNVGPUInlinerInterface(registry);
}

void mlc::registerAllDialectsWithUpstream(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlc::registerAllDialects(registry);
}

void mlc::registerAllPasses() {
  relay::registerRelayPasses();
  relax::registerRelaxPasses();
  tensorir::registerTensorIRPasses();
  registerMLCPasses();
  registerPipelines();
  registerRelaxToMemRefPasses();
  registerRelayToRelaxPasses();
  registerRelaxToTensorIRPasses();
  registerTensorIRToLinalgPasses();
  registerTensorIRToSCFPasses();
  registerTensorIRToGPUPasses();
  registerMLCCPUPasses();
  registerMLCGPUPasses();
}

void mlc::registerAllTranslations() {
  registerRelayImportTranslation();
  registerRelaxJSONImportTranslation();
  meta_schedule::registerExportTuningTasksTranslation();
#ifdef MLC_HAS_ONNX
  registerONNXImportTranslation();
#endif
}
