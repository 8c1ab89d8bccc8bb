//===- LiftTransformParams.cpp - relax-lift-transform-params ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's relax.transform.LiftTransformParams: the work of a function that
// depends only on its weights (the parameters after its first num_input)
// moves into a function of its own, which the caller runs once, at load.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/Relax/Utils/Dataflow.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXLIFTTRANSFORMPARAMS
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

namespace {

/// Ops that may run ahead of the call: no effects, no regions, tensors out
/// (what the transform returns becomes parameters of the function).
bool isLiftable(Operation *op) {
  return op->getNumRegions() == 0 && !op->hasTrait<OpTrait::IsTerminator>() &&
         isMemoryEffectFree(op) &&
         llvm::all_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
}

/// The ops of `func`'s body in program order, those of its relax.dataflow
/// blocks in place of the blocks.
SmallVector<Operation *> getBodyOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front()) {
    if (auto dataflow = dyn_cast<DataflowOp>(op)) {
      for (Operation &inner : dataflow.getBody().front())
        ops.push_back(&inner);
      continue;
    }
    ops.push_back(&op);
  }
  return ops;
}

struct RelaxLiftTransformParamsPass
    : mlc::relax::impl::RelaxLiftTransformParamsBase<
          RelaxLiftTransformParamsPass> {
  using RelaxLiftTransformParamsBase::RelaxLiftTransformParamsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numInput >= 0) {
      auto func = module.lookupSymbol<func::FuncOp>(funcName);
      if (!func) {
        module.emitError("relax-lift-transform-params: no function '@")
            << funcName << "' in the module (set 'func-name')";
        return signalPassFailure();
      }
      func->setAttr(kNumInputAttr,
                    Builder(func).getI64IntegerAttr(numInput.getValue()));
    }
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kNumInputAttr))
        funcs.push_back(func);
    for (func::FuncOp func : funcs)
      if (failed(lift(module, func)))
        return signalPassFailure();
  }

  LogicalResult lift(ModuleOp module, func::FuncOp func) {
    auto numInputAttr = dyn_cast<IntegerAttr>(func->getAttr(kNumInputAttr));
    unsigned numArgs = func.getNumArguments();
    if (!numInputAttr || numInputAttr.getInt() < 0 ||
        numInputAttr.getInt() > numArgs)
      return func.emitOpError("has '")
             << kNumInputAttr << "' " << func->getAttr(kNumInputAttr)
             << "; expected an integer in [0, " << numArgs
             << "], the number of its parameters that are inputs";
    unsigned numInputs = numInputAttr.getInt();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return func.emitOpError(
          "lifts its parameters' transforms only from a body of one block");
    if (!SymbolTable::symbolKnownUseEmpty(func, module))
      return func.emitOpError(
          "is called in the module; lifting its weights' transforms would "
          "change its parameters under its callers");

    // What depends on the weights alone (lifted), and what on constants
    // alone (cloned where lifted ops read it).
    llvm::SetVector<Value> weightDerived;
    for (BlockArgument arg : func.getArguments().drop_front(numInputs))
      weightDerived.insert(arg);
    llvm::SmallPtrSet<Value, 16> constantDerived;
    SmallVector<Operation *> lifted;
    llvm::SmallPtrSet<Operation *, 16> liftedSet;
    for (Operation *op : getBodyOps(func)) {
      if (!isLiftable(op))
        continue;
      bool onWeights = false, ahead = true;
      for (Value operand : op->getOperands()) {
        onWeights |= weightDerived.contains(operand);
        ahead &= weightDerived.contains(operand) ||
                 constantDerived.contains(operand);
      }
      if (!ahead)
        continue;
      if (!onWeights) {
        constantDerived.insert(op->result_begin(), op->result_end());
        continue;
      }
      weightDerived.insert(op->result_begin(), op->result_end());
      lifted.push_back(op);
      liftedSet.insert(op);
    }
    if (lifted.empty())
      return success();
    std::string transformName = (func.getSymName() + "_transform_params").str();
    if (module.lookupSymbol(transformName))
      return func.emitOpError("cannot lift its weights' transforms into @")
             << transformName << ": the module has that symbol already";

    // The transform's results: what the rest of the function reads.
    SmallVector<Value> outputs;
    for (Value value : weightDerived)
      if (llvm::any_of(value.getUsers(), [&](Operation *user) {
            return !liftedSet.contains(user);
          }))
        outputs.push_back(value);

    OpBuilder builder(module.getContext());
    builder.setInsertionPointAfter(func);
    SmallVector<Type> weightTypes(
        func.getArgumentTypes().drop_front(numInputs));
    auto transform = func::FuncOp::create(
        builder, func.getLoc(), transformName,
        builder.getFunctionType(weightTypes, ValueRange(outputs).getTypes()));
    for (unsigned i = numInputs; i < numArgs; ++i)
      if (DictionaryAttr attrs = func.getArgAttrDict(i))
        transform.setArgAttrs(i - numInputs, attrs);
    Block *body = transform.addEntryBlock();
    builder.setInsertionPointToStart(body);
    IRMapping mapping;
    for (unsigned i = numInputs; i < numArgs; ++i)
      mapping.map(func.getArgument(i), body->getArgument(i - numInputs));
    // Constants (and what is computed from them alone) that lifted ops
    // read, cloned before their first reader.
    std::function<void(Value)> cloneConstant = [&](Value value) {
      if (mapping.contains(value))
        return;
      Operation *def = value.getDefiningOp();
      for (Value operand : def->getOperands())
        cloneConstant(operand);
      builder.clone(*def, mapping);
    };
    for (Operation *op : lifted) {
      for (Value operand : op->getOperands())
        if (constantDerived.contains(operand))
          cloneConstant(operand);
      builder.clone(*op, mapping);
    }
    SmallVector<Value> results;
    for (Value output : outputs)
      results.push_back(mapping.lookup(output));
    func::ReturnOp::create(builder, func.getLoc(), results);
    wrapInDataflow(transform);

    // The function reads the transform's results as parameters, after its
    // inputs; the weights go.
    MLIRContext *context = func.getContext();
    for (auto [i, output] : llvm::enumerate(outputs)) {
      StringAttr name;
      if (auto arg = dyn_cast<BlockArgument>(output))
        name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                 kParamNameAttr);
      if (!name)
        name = StringAttr::get(context, "transformed_" + std::to_string(i));
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(
              index, output.getType(),
              DictionaryAttr::get(context,
                                  {NamedAttribute(kParamNameAttr, name)}),
              output.getLoc())))
        return failure();
      output.replaceUsesWithIf(func.getArgument(index), [&](OpOperand &use) {
        return !liftedSet.contains(use.getOwner());
      });
    }
    for (Operation *op : llvm::reverse(lifted))
      op->erase();
    llvm::BitVector weights(func.getNumArguments());
    weights.set(numInputs, numArgs);
    if (failed(func.eraseArguments(weights)))
      return failure();
    // Constants only the lifted ops read.
    SmallVector<Operation *> remaining = getBodyOps(func);
    for (Operation *op : llvm::reverse(remaining))
      if (op->getNumResults() != 0 &&
          constantDerived.contains(op->getResult(0)) && isOpTriviallyDead(op))
        op->erase();
    return success();
  }
};

} // namespace
