//===- CompilationTarget.cpp - the tools' --target=cpu|cuda[:sm_XX] -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlc;
using namespace mlir;

static bool isZeroWidth(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.getWidth() == 0;
}

LogicalResult mlc::verifyCompilableTypes(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    auto report = [&](Type type) {
      op->emitError() << "'" << op->getName() << "' uses " << type
                      << ": zero-width integers cannot be compiled (LLVM "
                         "cannot load or store them)";
      return WalkResult::interrupt();
    };
    for (Type type : op->getOperandTypes())
      if (isZeroWidth(type))
        return report(type);
    for (Type type : op->getResultTypes())
      if (isZeroWidth(type))
        return report(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (isZeroWidth(argument.getType()))
            return report(argument.getType());
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

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
