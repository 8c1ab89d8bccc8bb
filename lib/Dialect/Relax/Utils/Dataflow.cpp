//===- Dataflow.cpp - build relax.dataflow regions ---------------*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Utils/Dataflow.h"

#include "mlc/Dialect/Relax/IR/Relax.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlc::relax;

/// Moves the non-constant ops of the single-block body of `func` into one
/// relax.dataflow in front of the terminator. Leaves bodies with several
/// blocks, with effects or with a dataflow block already alone.
void mlc::relax::wrapInDataflow(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator()) {
    if (isa<DataflowOp>(op) || !isMemoryEffectFree(&op))
      return;
    if (!op.hasTrait<OpTrait::ConstantLike>())
      ops.push_back(&op);
  }
  if (ops.empty())
    return;
  // Values defined by the moved ops and used after them become outputs.
  llvm::SmallPtrSet<Operation *, 16> moved(ops.begin(), ops.end());
  llvm::SetVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!moved.contains(user))
          escaping.insert(result);
  SmallVector<Type> types;
  for (Value v : escaping)
    types.push_back(v.getType());
  OpBuilder builder(terminator);
  auto dataflow = DataflowOp::create(builder, func.getLoc(), types);
  Block &inner = dataflow.getBody().front();
  builder.setInsertionPointToEnd(&inner);
  auto output =
      OutputOp::create(builder, func.getLoc(), escaping.getArrayRef());
  for (Operation *op : ops)
    op->moveBefore(output);
  for (auto [i, escaped] : llvm::enumerate(escaping)) {
    Value value = escaped;
    value.replaceUsesWithIf(dataflow.getResult(i), [&](OpOperand &use) {
      return !dataflow->isProperAncestor(use.getOwner());
    });
  }
}
