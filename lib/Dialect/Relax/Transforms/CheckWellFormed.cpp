//===- CheckWellFormed.cpp - relax-check-well-formed ------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Checks that symbolic dimension names are bound (by parameter types or
// relax.match_cast) before they are used.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXCHECKWELLFORMED
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;

namespace {

using NameSet = llvm::SmallDenseSet<StringAttr, 8>;

/// The names a type's #relax.shape uses.
ArrayRef<StringAttr> getNames(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (auto shape =
          dyn_cast_or_null<ShapeAttr>(tensor ? tensor.getEncoding() : nullptr))
    return shape.getNames();
  return {};
}

/// The first name of `type` not in `bound`, or null.
StringAttr findUnbound(Type type, const NameSet &bound) {
  for (StringAttr name : getNames(type))
    if (!bound.contains(name))
      return name;
  return {};
}

LogicalResult checkFunction(func::FuncOp func) {
  NameSet bound;
  for (Type type : func.getArgumentTypes())
    for (StringAttr name : getNames(type))
      bound.insert(name);
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    if (isa<MatchCastOp>(op)) {
      for (StringAttr name : getNames(op->getResult(0).getType()))
        bound.insert(name);
      return WalkResult::advance();
    }
    for (OpResult res : op->getResults())
      if (StringAttr name = findUnbound(res.getType(), bound)) {
        op->emitError("result #")
            << res.getResultNumber() << " of type " << res.getType()
            << " uses the symbolic dimension '" << name.getValue()
            << "', which is not bound here (bind it with relax.match_cast "
               "or a parameter type)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    if (StringAttr name = findUnbound(type, bound))
      return func.emitError("result #")
             << i << " of @" << func.getSymName() << " has type " << type
             << ", whose symbolic dimension '" << name.getValue()
             << "' is bound by no parameter or relax.match_cast";
  return success();
}

struct RelaxCheckWellFormedPass
    : mlc::relax::impl::RelaxCheckWellFormedBase<RelaxCheckWellFormedPass> {
  using RelaxCheckWellFormedBase::RelaxCheckWellFormedBase;

  void runOnOperation() override {
    bool ok = true;
    for (auto func : getOperation().getOps<func::FuncOp>())
      ok &= succeeded(checkFunction(func));
    if (!ok)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
