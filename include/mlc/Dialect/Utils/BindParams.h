//===- BindParams.h - bind function parameters to constants -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The dialect-independent core of `relax-bind-params` / `relay-bind-params`
// (TVM's BindParams): replaces the parameters of a function that are named
// (by an argument attribute such as `relax.name`) like a given tensor with a
// constant built by a dialect-specific callback, and removes them from the
// signature (and from the operands of every call to the function).
//
// Stricter than TVM, every problem is an error and nothing is changed:
// a tensor whose name is not a parameter, a name given twice, two parameters
// with the same name, a shape or element type that does not fit, a use of
// the function that is not a call.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_BINDPARAMS_H
#define MLC_DIALECT_UTILS_BINDPARAMS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlc {

/// A named constant tensor to bind.
struct NamedTensor {
  std::string name;
  mlir::ElementsAttr value;
};

/// Builds the value that replaces a bound parameter of type `paramType` from
/// `value` (whose type has the same element type and a shape that fits:
/// static sizes equal, `?` in `paramType` taking any size). It returns a
/// value of exactly `paramType`, e.g. a constant plus a cast when the types
/// differ.
using BindConstantBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::ElementsAttr value,
    mlir::Type paramType)>;

/// Binds the parameters of `func` named (argument attribute `nameAttr`, a
/// StringAttr) like the entries of `tensors` and erases them from its
/// signature and from the calls to it in `symbolTableOp` (usually the
/// module). `source` names where the tensors come from, for diagnostics
/// (e.g. the file path). Reports an error at `func` and changes nothing on
/// failure.
mlir::LogicalResult
bindParams(mlir::FunctionOpInterface func, llvm::StringRef nameAttr,
           llvm::ArrayRef<NamedTensor> tensors, llvm::StringRef source,
           mlir::Operation *symbolTableOp, BindConstantBuilder buildConstant);

/// Reads every tensor of the `.npz` / `.safetensors` file `path` (in file
/// order) as `dense_resource` attributes whose blobs are named after the
/// tensors (mlc/Support/TensorFile.h). Errors (unreadable, truncated or
/// malformed file or entry, a name present twice) are reported at `loc`.
mlir::FailureOr<llvm::SmallVector<NamedTensor>>
readNamedTensors(llvm::StringRef path, mlir::Location loc);

} // namespace mlc

#endif // MLC_DIALECT_UTILS_BINDPARAMS_H
