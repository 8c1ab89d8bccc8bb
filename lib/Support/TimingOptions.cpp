//===- TimingOptions.cpp - --mlir-timing in mlc's tools -------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/TimingOptions.h"

#include "mlir/Support/Timing.h"

void mlc::registerTimingOptions(llvm::cl::OptionCategory &category) {
  mlir::registerDefaultTimingManagerCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  for (llvm::StringRef name :
       {"mlir-timing", "mlir-timing-display", "mlir-output-format"})
    if (llvm::cl::Option *option = options.lookup(name))
      option->addCategory(category);
}
