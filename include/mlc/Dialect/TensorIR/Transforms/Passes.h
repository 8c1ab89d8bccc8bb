//===- Passes.h - tensorir dialect passes -----------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_H
#define MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlc::tensorir {

#define GEN_PASS_DECL
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Dialect/TensorIR/Transforms/Passes.h.inc"

} // namespace mlc::tensorir

#endif // MLC_DIALECT_TENSORIR_TRANSFORMS_PASSES_H
