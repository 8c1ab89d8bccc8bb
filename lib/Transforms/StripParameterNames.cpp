//===- StripParameterNames.cpp - drop relay.name / relax.name --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_STRIPPARAMETERNAMESPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct StripParameterNamesPass
    : public mlc::impl::StripParameterNamesPassBase<StripParameterNamesPass> {
  void runOnOperation() override {
    getOperation().walk([](FunctionOpInterface func) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        for (StringRef name : {"relay.name", "relax.name", "tensorir.name"})
          func.removeArgAttr(i, name);
    });
  }
};
} // namespace
