//===- Dataflow.h - build relax.dataflow regions ----------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_UTILS_DATAFLOW_H
#define MLC_DIALECT_RELAX_UTILS_DATAFLOW_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlc::relax {

/// Moves the non-constant ops of the single-block body of `func` into one
/// relax.dataflow in front of the terminator. Leaves bodies with several
/// blocks, with effects or with a dataflow block already alone.
void wrapInDataflow(mlir::func::FuncOp func);

} // namespace mlc::relax

#endif // MLC_DIALECT_RELAX_UTILS_DATAFLOW_H
