//===- TimingOptions.h - --mlir-timing in mlc's tools -----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// mlc-run and mlc-compile report where their compile time goes with MLIR's
// own timing options (mlir-opt's `--mlir-timing`, `--mlir-timing-display`,
// `--mlir-output-format`): a DefaultTimingManager configured from them times
// the tool's phases in nested scopes, and the libraries nest their own
// phases (the pipeline's passes, LLVM's translation, optimization and code
// generation) in the scope a tool passes them.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_TIMINGOPTIONS_H
#define MLC_SUPPORT_TIMINGOPTIONS_H

#include "llvm/Support/CommandLine.h"

namespace mlc {

/// Registers MLIR's timing options and lists them in `category`, so that a
/// tool that hides the options of other categories shows them in --help.
void registerTimingOptions(llvm::cl::OptionCategory &category);

} // namespace mlc

#endif // MLC_SUPPORT_TIMINGOPTIONS_H
