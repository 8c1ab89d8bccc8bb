//===- mlc-opt.cpp - mlc optimizer driver ----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with mlc's dialects and passes added to every upstream dialect,
// pass and extension. MlirOptMain's own file handling, with one addition:
// a pass that fails without an error gets one (PassFailureDiagnostics.h).
//
//===----------------------------------------------------------------------===//

#include "mlc/InitAll.h"
#include "mlc/Support/PassFailureDiagnostics.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlc::registerAllPasses();

  mlir::DialectRegistry registry;
  mlc::registerAllDialectsWithUpstream(registry);
  // gpu-module-to-binary translates GPU modules to LLVM IR and PTX.
  mlir::registerAllToLLVMIRTranslations(registry);

  llvm::InitLLVM init(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "mlc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // --show-dialects and --list-passes print and exit: upstream's driver.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  // The pipeline from the command line, then the instrumentation.
  config.setPassPipelineSetupFn(
      [fromCommandLine = config](mlir::PassManager &pm) {
        if (mlir::failed(fromCommandLine.setupPassPipeline(pm)))
          return mlir::failure();
        mlc::addPassFailureDiagnostics(pm);
        return mlir::success();
      });

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input;
  bool sameFile = false;
  if (inputFilename != "-" && outputFilename != "-" &&
      !llvm::sys::fs::equivalent(inputFilename, outputFilename, sameFile) &&
      sameFile) {
    // `-o` onto the input: read it into memory, not mapped, since opening
    // the output truncates the file under the mapping (SIGBUS).
    auto buffer = llvm::MemoryBuffer::getFile(inputFilename, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/true,
                                              /*IsVolatile=*/true);
    if (buffer)
      input = std::move(*buffer);
    else
      errorMessage = "cannot open input file '" + inputFilename +
                     "': " + buffer.getError().message();
  } else {
    input = mlir::openInputFile(inputFilename, &errorMessage);
  }
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  // Only a successful run leaves an output file.
  output->keep();
  return EXIT_SUCCESS;
}
