//===- ShapeFunctions.h - result shapes of elementwise, broadcast, reduction and tensor-manipulation operators -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's type relations for elementwise, broadcast, reduction and tensor-manipulation operators as plain functions on
// shapes, shared by the relay and relax dialects. Dimensions are int64_t with
// mlir::ShapedType::kDynamic for unknown sizes.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_SHAPEFUNCTIONS_H
#define MLC_DIALECT_UTILS_SHAPEFUNCTIONS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

namespace mlc {} // namespace mlc

#endif // MLC_DIALECT_UTILS_SHAPEFUNCTIONS_H
