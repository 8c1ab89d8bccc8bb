//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_CPU_PASSES_H
#define MLC_CODEGEN_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlc {

/// The prefix of a function's own default-schedule knobs:
/// `mlc.schedule.k_tile = 256` overrides the pass option `k-tile` for that
/// function (what a tuning record sets).
inline constexpr llvm::StringLiteral kScheduleKnobPrefix = "mlc.schedule.";

/// A function argument that every caller passes a constant global
/// (mlc-cpu-mark-constant-arguments; unit attribute).
inline constexpr llvm::StringLiteral kConstantArgumentAttr = "mlc.constant";
/// A constant argument of N (last dimension) x K (the others) elements
/// that the function reads stored as N / w slivers of K x w, each
/// contiguous (mlc-default-schedule sets it to w; mlc-cpu-prepack-constants
/// stores the callers' constants so).
inline constexpr llvm::StringLiteral kPackedSliversAttr = "mlc.packed_slivers";

#define GEN_PASS_DECL
#include "mlc/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Codegen/CPU/Passes.h.inc"

} // namespace mlc

#endif // MLC_CODEGEN_CPU_PASSES_H
