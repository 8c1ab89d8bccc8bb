//===- LegalizeOps.h - kernels for relax ops ---------------------*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The op library behind relax-legalize-ops, for other users (e.g.
// relax-fold-constant, which builds a kernel and interprets it).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_RELAXTOTENSORIR_LEGALIZEOPS_H
#define MLC_CONVERSION_RELAXTOTENSORIR_LEGALIZEOPS_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlc {

/// Whether the op library has a kernel builder for ops named `opName`.
bool hasKernelFor(llvm::StringRef opName);

/// A key that is equal for ops that get the same kernel (name, attributes,
/// operand and result types).
std::string getKernelKey(mlir::Operation *op);

/// Builds the `tensorir.prim_func` kernel that computes `op` (a high-level
/// relax op on ranked tensors) at the insertion point of `builder`: the
/// operands become the first buffer arguments, the results the last ones
/// (destination-passing style). The kernel is named after the op (without
/// `relax.`/`nn.`, callers rename it as needed) and is private. On failure
/// (no builder for the op, non-tensor types, unsupported attributes) a
/// diagnostic is emitted at `op` and nothing is left behind.
mlir::FailureOr<tensorir::PrimFuncOp> buildKernelFor(mlir::Operation *op,
                                                     mlir::OpBuilder &builder);

} // namespace mlc

#endif // MLC_CONVERSION_RELAXTOTENSORIR_LEGALIZEOPS_H
