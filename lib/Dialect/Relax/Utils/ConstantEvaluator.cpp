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

#include <cstring>

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

/// relax.permute_dims of a constant: out[i] = in[i permuted], moved byte
/// for byte. Transposed weights (nn.dense's, a 25088 x 4096 classifier)
/// would take the interpreter minutes, past its step limit, and the
/// transpose would then run on every call.
static void permuteElements(const tensorir::Buffer &input,
                            tensorir::Buffer &output, ArrayRef<int64_t> perm,
                            unsigned elementBytes) {
  ArrayRef<int64_t> inShape = input.getShape();
  ArrayRef<int64_t> outShape = output.getShape();
  int64_t rank = outShape.size();
  // The input stride (in elements) of each output dimension.
  SmallVector<int64_t> inStrides(rank, 1), strides(rank);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  for (int64_t d = 0; d < rank; ++d)
    strides[d] = inStrides[perm[d]];
  const char *in = input.getData().data();
  char *out = output.getData().data();
  int64_t total = output.getNumElements();
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < total; ++i) {
    std::memcpy(out + i * elementBytes, in + offset * elementBytes,
                elementBytes);
    // Advance the output index (row-major), keeping the input offset.
    for (int64_t d = rank - 1; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < outShape[d])
        break;
      offset -= strides[d] * outShape[d];
      index[d] = 0;
    }
  }
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
  auto permute = dyn_cast<PermuteDimsOp>(op);
  std::optional<unsigned> elementBytes =
      tensorir::Buffer::getElementByteSize(buffers[0].getElementType());
  if (permute && elementBytes && !buffers[0].getElementType().isInteger(1)) {
    int64_t rank = buffers[0].getShape().size();
    SmallVector<int64_t> perm;
    if (std::optional<ArrayRef<int64_t>> axes = permute.getAxes())
      for (int64_t axis : *axes)
        perm.push_back(axis < 0 ? axis + rank : axis);
    else
      for (int64_t d = rank - 1; d >= 0; --d)
        perm.push_back(d);
    permuteElements(buffers[0], buffers[1], perm, *elementBytes);
  } else {
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
