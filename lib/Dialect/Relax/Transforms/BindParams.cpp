//===- BindParams.cpp - relax-bind-params -----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Binds parameters of a relax function to constants read from a tensor file;
// the work is done by mlc::bindParams (Dialect/Utils/BindParams.h).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/BindParams.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXBINDPARAMS
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

namespace {

/// A relax.constant of the file's type, cast to the parameter's type by
/// relax.match_cast when that has `?` dimensions.
Value buildRelaxConstant(OpBuilder &builder, Location loc, ElementsAttr value,
                         Type paramType) {
  Value constant = ConstantOp::create(builder, loc, value);
  if (constant.getType() == paramType)
    return constant;
  return MatchCastOp::create(builder, loc, paramType, constant);
}

struct RelaxBindParamsPass
    : mlc::relax::impl::RelaxBindParamsBase<RelaxBindParamsPass> {
  using RelaxBindParamsBase::RelaxBindParamsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (params.empty()) {
      module.emitError("relax-bind-params needs the 'params' option "
                       "(a .npz or .safetensors file)");
      return signalPassFailure();
    }
    auto func = SymbolTable::lookupSymbolIn(module, funcName);
    auto fn = dyn_cast_or_null<FunctionOpInterface>(func);
    if (!fn) {
      module.emitError("relax-bind-params: no function '@")
          << funcName << "' in the module (set 'func-name')";
      return signalPassFailure();
    }
    FailureOr<SmallVector<NamedTensor>> tensors =
        readNamedTensors(params, fn.getLoc());
    if (failed(tensors) ||
        failed(bindParams(fn, kParamNameAttr, *tensors, params, module,
                          buildRelaxConstant)))
      return signalPassFailure();
  }
};

} // namespace
