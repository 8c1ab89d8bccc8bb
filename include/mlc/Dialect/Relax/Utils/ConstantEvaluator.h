//===- ConstantEvaluator.h - evaluate relax ops on constants ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Computes the results of a relax op whose operands are all relax.constant
// ops by interpreting the op's tensorir kernel (its legalization, or the
// callee of a relax.call_tir). relax-fold-constant and the ONNX importer
// (which must know the values of shape sub-graphs) share it.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_UTILS_CONSTANTEVALUATOR_H
#define MLC_DIALECT_RELAX_UTILS_CONSTANTEVALUATOR_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <utility>

namespace mlc::relax {

class ConstantEvaluator {
public:
  /// Results with more than `maxElements` elements in all, and more than
  /// the constant operands have together, are not computed; a kernel runs
  /// at most `maxSteps` interpreter steps.
  ConstantEvaluator(mlir::MLIRContext *context, int64_t maxElements,
                    int64_t maxSteps);

  /// Whether `op` is a computation this evaluator may run: a relax op with a
  /// kernel (or a relax.call_tir) whose operands are all relax.constant and
  /// whose results are static tensors within the size limit.
  bool canEvaluate(mlir::Operation *op);

  /// The values of `op`'s results. Failure without `errors` when the op
  /// cannot be evaluated (see canEvaluate, or no kernel could be built);
  /// failure with the interpreter's messages in `errors` when its kernel
  /// (named `kernelName`) failed to run.
  mlir::FailureOr<llvm::SmallVector<mlir::ElementsAttr>> evaluate(
      mlir::Operation *op,
      llvm::SmallVectorImpl<std::pair<mlir::Location, std::string>> &errors,
      std::string *kernelName = nullptr);

private:
  tensorir::PrimFuncOp getKernel(mlir::Operation *op);

  mlir::MLIRContext *context;
  int64_t maxElements;
  int64_t maxSteps;
  /// Kernels of relax ops are built in a module of their own, once per kind
  /// of op (name, attributes and types).
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  llvm::StringMap<tensorir::PrimFuncOp> kernels;
};

} // namespace mlc::relax

#endif // MLC_DIALECT_RELAX_UTILS_CONSTANTEVALUATOR_H
