//===- ConstantEvaluator.cpp - evaluate relax ops on constants --*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Utils/ConstantEvaluator.h"

#include "mlc/Conversion/RelaxToTensorIR/LegalizeOps.h"
#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/TensorIR/Utils/Interpreter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

/// Ops that are not computations of their own (TVM's host-side operators);
/// relax.call_tir is handled separately.
static bool isHostOp(Operation *op) {
  return isa<DataflowOp, OutputOp, CallTIROp, CallDPSPackedOp, MatchCastOp,
             ConstantOp>(op);
}

ConstantEvaluator::ConstantEvaluator(MLIRContext *context, int64_t maxElements,
                                     int64_t maxSteps)
    : context(context), maxElements(maxElements), maxSteps(maxSteps),
      scratch(ModuleOp::create(UnknownLoc::get(context))) {
  // What the op library builds kernels from (a pass declares these as its
  // dependent dialects; an importer has none loaded).
  context->loadDialect<RelaxDialect, tensorir::TensorIRDialect,
                       affine::AffineDialect, arith::ArithDialect,
                       math::MathDialect, memref::MemRefDialect,
                       scf::SCFDialect>();
}

bool ConstantEvaluator::canEvaluate(Operation *op) {
  if (!isa_and_nonnull<RelaxDialect>(op->getDialect()))
    return false;
  if (auto call = dyn_cast<CallTIROp>(op)) {
    if (call.getTirVars())
      return false;
  } else if (isHostOp(op) || !hasKernelFor(op->getName().getStringRef())) {
    return false;
  }
  // Elements the operands store: a splat stores one, however large its type
  // (evaluating a 2^31-element splat would take minutes and gigabytes).
  int64_t operandElements = 0;
  for (Value operand : op->getOperands()) {
    auto constant = operand.getDefiningOp<ConstantOp>();
    if (!constant)
      return false;
    ElementsAttr value = constant.getValue();
    operandElements += value.isSplat() ? 1 : value.getNumElements();
  }
  int64_t elements = 0;
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() || tensor.getEncoding() ||
        !tensorir::Buffer::getElementByteSize(tensor.getElementType()))
      return false;
    elements += tensor.getNumElements();
  }
  // Results no larger than the operands do not grow the module (the
  // transposed weight of nn.dense, a weight scaled by a folded batch norm).
  return elements <= std::max(maxElements, operandElements);
}

tensorir::PrimFuncOp ConstantEvaluator::getKernel(Operation *op) {
  if (auto call = dyn_cast<CallTIROp>(op))
    return SymbolTable::lookupNearestSymbolFrom<tensorir::PrimFuncOp>(
        call, call.getCalleeAttr());
  std::string key = getKernelKey(op);
  auto it = kernels.find(key);
  if (it != kernels.end())
    return it->second;
  // The op library's diagnostics are dropped: relax-legalize-ops reports
  // them where they matter.
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  OpBuilder builder = OpBuilder::atBlockEnd(scratch->getBody());
  FailureOr<tensorir::PrimFuncOp> kernel = buildKernelFor(op, builder);
  tensorir::PrimFuncOp result = succeeded(kernel) ? *kernel : nullptr;
  if (result)
    SymbolTable(*scratch).insert(result); // unique names
  kernels[key] = result;
  return result;
}

FailureOr<SmallVector<ElementsAttr>> ConstantEvaluator::evaluate(
    Operation *op, SmallVectorImpl<std::pair<Location, std::string>> &errors,
    std::string *kernelName) {
  if (!canEvaluate(op))
    return failure();
  tensorir::PrimFuncOp kernel = getKernel(op);
  if (!kernel)
    return failure();
  if (kernelName)
    *kernelName = kernel.getSymName().str();

  SmallVector<tensorir::Buffer> buffers;
  for (Value operand : op->getOperands()) {
    FailureOr<tensorir::Buffer> buffer = tensorir::Buffer::fromAttr(
        operand.getDefiningOp<ConstantOp>().getValue());
    if (failed(buffer))
      return failure();
    buffers.push_back(std::move(*buffer));
  }
  for (Type type : op->getResultTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    buffers.emplace_back(tensor.getElementType(), tensor.getShape());
  }

  LogicalResult result = success();
  {
    ScopedDiagnosticHandler collect(context, [&](Diagnostic &diag) {
      errors.emplace_back(diag.getLocation(), diag.str());
      return success();
    });
    result = tensorir::interpret(kernel, buffers, maxSteps);
  }
  if (failed(result))
    return failure();

  /// Results with more elements than this become dense_resource blobs.
  constexpr int64_t kResourceThreshold = 1024;
  SmallVector<ElementsAttr> values;
  ArrayRef<tensorir::Buffer> outputs =
      ArrayRef(buffers).drop_front(op->getNumOperands());
  for (auto [type, output] : llvm::zip(op->getResultTypes(), outputs)) {
    auto tensor = cast<RankedTensorType>(type);
    values.push_back(output.toAttr(
        tensor, tensor.getNumElements() > kResourceThreshold ? "folded" : ""));
  }
  return values;
}
