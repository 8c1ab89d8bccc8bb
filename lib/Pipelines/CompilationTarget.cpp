//===- CompilationTarget.cpp - the tools' --target=cpu|cuda[:sm_XX] -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Pipelines/Pipelines.h"

using namespace mlc;

std::string mlc::parseCompilationTarget(llvm::StringRef value,
                                        CompilationTarget &target) {
  auto [kind, chip] = value.split(':');
  bool hasChip = value.contains(':');
  if (kind == "cpu") {
    if (hasChip)
      return "--target=cpu takes no chip ('" + value.str() + "')";
    target = CompilationTarget();
    return "";
  }
  if (kind != "cuda")
    return "unknown --target '" + value.str() +
           "' (expected cpu or cuda[:sm_XX])";
  if (hasChip && chip.empty())
    return "--target '" + value.str() +
           "' names no chip (expected cuda or cuda:sm_XX, e.g. cuda:sm_90)";
  if (hasChip && getMinimumPTXVersion(chip) == 0)
    return "unknown GPU chip '" + chip.str() + "' in --target '" + value.str() +
           "' (expected cuda:sm_XX with sm_50 ... sm_121a, e.g. cuda:sm_90 "
           "for H100)";
  target.kind = CompilationTarget::Kind::CUDA;
  target.chip = chip.str();
  return "";
}
