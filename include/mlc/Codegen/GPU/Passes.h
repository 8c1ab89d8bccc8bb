//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_GPU_PASSES_H
#define MLC_CODEGEN_GPU_PASSES_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {

#define GEN_PASS_DECL
#include "mlc/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Codegen/GPU/Passes.h.inc"

} // namespace mlc

#endif // MLC_CODEGEN_GPU_PASSES_H
