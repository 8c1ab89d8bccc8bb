//===- Passes.h - relay-to-relax conversion ---------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_RELAYTORELAX_PASSES_H
#define MLC_CONVERSION_RELAYTORELAX_PASSES_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlc {

#define GEN_PASS_DECL
#include "mlc/Conversion/RelayToRelax/Passes.h.inc"

/// Adds the patterns that rewrite relay ops into their relax equivalents
/// (one pattern per op; an op without one stays relay).
void populateRelayToRelaxPatterns(mlir::RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "mlc/Conversion/RelayToRelax/Passes.h.inc"

} // namespace mlc

#endif // MLC_CONVERSION_RELAYTORELAX_PASSES_H
