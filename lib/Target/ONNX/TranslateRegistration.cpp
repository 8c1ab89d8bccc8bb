//===- TranslateRegistration.cpp - register --import-onnx ------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Target/ONNX/ONNXImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// Parses `name:1x3x224x224` into `shapes`.
static LogicalResult
parseInputShape(StringRef spec, mlc::ONNXImportOptions &options, Location loc) {
  auto [name, dims] = spec.rsplit(':');
  if (name.empty() || dims.empty() || spec.count(':') == 0)
    return emitError(loc) << "--onnx-input-shape '" << spec
                          << "': expected name:d0xd1x... (e.g. "
                             "input:1x3x224x224)";
  SmallVector<int64_t> shape;
  if (dims != "scalar") {
    SmallVector<StringRef> parts;
    dims.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t size;
      if (part.getAsInteger(10, size) || size < 0)
        return emitError(loc) << "--onnx-input-shape '" << spec
                              << "': invalid size '" << part << "'";
      shape.push_back(size);
    }
  }
  options.inputShapes[name] = shape;
  return success();
}

void mlc::registerONNXImportTranslation() {
  static llvm::cl::opt<bool> keepParams(
      "onnx-keep-params-as-input",
      llvm::cl::desc("With --import-onnx: floating-point initializers become "
                     "function parameters (named by relax.name) after the "
                     "graph's inputs (relax.num_input) instead of "
                     "constants"),
      llvm::cl::init(false));
  static llvm::cl::list<std::string> inputShapes(
      "onnx-input-shape",
      llvm::cl::desc("With --import-onnx: the shape of a graph input, "
                     "name:d0xd1x... ('name:scalar' for 0-d); replaces the "
                     "model's (symbolic) shape"),
      llvm::cl::value_desc("name:shape"), llvm::cl::CommaSeparated);
  static llvm::cl::opt<int64_t> opset(
      "onnx-opset",
      llvm::cl::desc("With --import-onnx: convert with this opset of the "
                     "default domain instead of the model's"),
      llvm::cl::init(0));
  static TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model (protobuf) to relax ops",
      TranslateRawSourceMgrToMLIRFunction(
          [](llvm::SourceMgr &sourceMgr,
             MLIRContext *context) -> OwningOpRef<Operation *> {
            const llvm::MemoryBuffer *buffer =
                sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
            StringRef fileName = buffer->getBufferIdentifier();
            Location loc = FileLineColLoc::get(context, fileName, 0, 0);
            ONNXImportOptions options;
            options.keepParamsAsInput = keepParams;
            options.opset = opset;
            for (const std::string &spec : inputShapes)
              if (failed(parseInputShape(spec, options, loc)))
                return {};
            OwningOpRef<ModuleOp> module = importONNXModel(
                buffer->getBuffer(), fileName, context, options);
            if (!module)
              return {};
            return OwningOpRef<Operation *>(module.release().getOperation());
          }),
      [](DialectRegistry &registry) {
        registry.insert<relax::RelaxDialect, func::FuncDialect>();
      });
}
