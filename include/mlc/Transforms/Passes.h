//===- Passes.h - mlc passes not tied to one dialect -----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TRANSFORMS_PASSES_H
#define MLC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {

#define GEN_PASS_DECL
#include "mlc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Transforms/Passes.h.inc"

} // namespace mlc

#endif // MLC_TRANSFORMS_PASSES_H
