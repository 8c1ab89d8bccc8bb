//===- Passes.h - tensorir-to-gpu conversion --------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_TENSORIRTOGPU_PASSES_H
#define MLC_CONVERSION_TENSORIRTOGPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlc {

#define GEN_PASS_DECL
#include "mlc/Conversion/TensorIRToGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Conversion/TensorIRToGPU/Passes.h.inc"

} // namespace mlc

#endif // MLC_CONVERSION_TENSORIRTOGPU_PASSES_H
