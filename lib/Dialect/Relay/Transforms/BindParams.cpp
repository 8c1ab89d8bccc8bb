//===- BindParams.cpp - relay-bind-params -----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Binds parameters of a relay function to constants read from a tensor file;
// the work is done by mlc::bindParams (Dialect/Utils/BindParams.h), shared
// with relax-bind-params.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/BindParams.h"
#include "mlc/Dialect/Relay/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace mlc::relay {
#define GEN_PASS_DEF_RELAYBINDPARAMS
#include "mlc/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace mlc::relay

using namespace mlir;
using namespace mlc;

namespace {

/// A relay.constant of the file's type, cast to the parameter's type when
/// that has `?` dimensions.
Value buildRelayConstant(OpBuilder &builder, Location loc, ElementsAttr value,
                         Type paramType) {
  Value constant = relay::ConstantOp::create(builder, loc, value);
  if (constant.getType() == paramType)
    return constant;
  return tensor::CastOp::create(builder, loc, paramType, constant);
}

struct RelayBindParamsPass
    : mlc::relay::impl::RelayBindParamsBase<RelayBindParamsPass> {
  using RelayBindParamsBase::RelayBindParamsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (params.empty()) {
      module.emitError("relay-bind-params needs the 'params' option "
                       "(a .npz or .safetensors file)");
      return signalPassFailure();
    }
    auto fn = dyn_cast_or_null<FunctionOpInterface>(
        SymbolTable::lookupSymbolIn(module, funcName));
    if (!fn) {
      module.emitError("relay-bind-params: no function '@")
          << funcName << "' in the module (set 'func-name')";
      return signalPassFailure();
    }
    FailureOr<SmallVector<NamedTensor>> tensors =
        readNamedTensors(params, fn.getLoc());
    if (failed(tensors) || failed(bindParams(fn, "relay.name", *tensors, params,
                                             module, buildRelayConstant)))
      return signalPassFailure();
  }
};

} // namespace
