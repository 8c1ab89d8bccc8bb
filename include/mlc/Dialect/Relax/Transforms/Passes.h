//===- Passes.h - relax dialect passes --------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_RELAX_TRANSFORMS_PASSES_H
#define MLC_DIALECT_RELAX_TRANSFORMS_PASSES_H

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc::relax {

#define GEN_PASS_DECL
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"

} // namespace mlc::relax

#endif // MLC_DIALECT_RELAX_TRANSFORMS_PASSES_H
