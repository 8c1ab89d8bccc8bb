//===- Passes.h - relax-to-tensorir (LegalizeOps) ---------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_RELAXTOTENSORIR_PASSES_H
#define MLC_CONVERSION_RELAXTOTENSORIR_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlc {

#define GEN_PASS_DECL
#include "mlc/Conversion/RelaxToTensorIR/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Conversion/RelaxToTensorIR/Passes.h.inc"

} // namespace mlc

#endif // MLC_CONVERSION_RELAXTOTENSORIR_PASSES_H
