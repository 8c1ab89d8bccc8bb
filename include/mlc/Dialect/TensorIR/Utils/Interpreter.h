//===- Interpreter.h - reference interpreter for TensorIR -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A reference interpreter that runs a `tensorir.prim_func` on host buffers,
// without compiling it: used by relax-fold-constant to evaluate kernels of
// constant operands, and usable as a checker (every load and store is
// bounds-checked).
//
// Supported: tensorir.for (every kind, run sequentially), tensorir.block
// (bindings, `where` predicate, `tensorir.init` when every reduce iteration
// variable is 0), tensorir.alloc_buffer, memref.load/store/dim, arith, math,
// affine.apply/min/max, scf.if/for. Element types: f16, bf16, f32, f64, i1,
// i8, i16, i32, i64, index. Float arithmetic is done in the precision of the
// type (f32 in `float`, with the std:: math functions; f16/bf16 in `float`
// rounded after each op), like compiled code.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_UTILS_INTERPRETER_H
#define MLC_DIALECT_TENSORIR_UTILS_INTERPRETER_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace mlc::tensorir {

/// A dense row-major host buffer. Elements are stored little-endian in the
/// width of their type (index as 64 bits, i1 as one byte holding 0 or 1),
/// the layout of a `DenseElementsAttr` raw buffer.
class Buffer {
public:
  /// A zero-filled buffer. Shapes must be static.
  Buffer(mlir::Type elementType, llvm::ArrayRef<int64_t> shape);

  /// The bytes one element takes, or std::nullopt for unsupported types.
  static std::optional<unsigned> getElementByteSize(mlir::Type type);

  /// The contents of a dense or dense_resource constant; fails (without a
  /// diagnostic) for other attributes, unsupported element types, dynamic
  /// shapes or resource blobs that are gone or of the wrong size.
  static mlir::FailureOr<Buffer> fromAttr(mlir::ElementsAttr attr);

  /// The contents as an attribute of `type` (static, same element type and
  /// number of elements): a `DenseElementsAttr`, or a
  /// `DenseResourceElementsAttr` whose blob is registered under a name
  /// derived from `blobName` when `blobName` is not empty (i1 always gives
  /// a DenseElementsAttr).
  mlir::ElementsAttr toAttr(mlir::ShapedType type,
                            llvm::StringRef blobName = {}) const;

  mlir::Type getElementType() const { return elementType; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const;
  llvm::MutableArrayRef<char> getData() { return data; }
  llvm::ArrayRef<char> getData() const { return data; }

private:
  mlir::Type elementType;
  llvm::SmallVector<int64_t> shape;
  std::vector<char> data;
};

/// Runs `func` with `args` bound to its arguments in order (all of them must
/// be buffers whose element type and static sizes match the memref types).
/// Outputs are written into their argument buffers. Unsupported ops, scalar
/// arguments, out-of-bounds accesses, bindings outside their block domain,
/// integer division by zero and the like emit an error at the offending op
/// and return failure; `args` may then be partially written. With
/// `maxSteps` > 0, running more than that many operations (each execution
/// of an op counts) is an error too, which bounds the time taken.
mlir::LogicalResult interpret(PrimFuncOp func,
                              llvm::MutableArrayRef<Buffer> args,
                              int64_t maxSteps = 0);

} // namespace mlc::tensorir

#endif // MLC_DIALECT_TENSORIR_UTILS_INTERPRETER_H
