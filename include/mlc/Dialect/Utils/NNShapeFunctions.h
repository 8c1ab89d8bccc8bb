//===- NNShapeFunctions.h - result shapes of neural-network operators (conv, pool, dense, matmul, norms) -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's type relations for neural-network operators (conv, pool, dense, matmul, norms) as plain functions on
// shapes, shared by the relay and relax dialects. Dimensions are int64_t with
// mlir::ShapedType::kDynamic for unknown sizes.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_NNSHAPEFUNCTIONS_H
#define MLC_DIALECT_UTILS_NNSHAPEFUNCTIONS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

namespace mlc {} // namespace mlc

#endif // MLC_DIALECT_UTILS_NNSHAPEFUNCTIONS_H
