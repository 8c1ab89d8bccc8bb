//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_GPU_PASSES_H
#define MLC_CODEGEN_GPU_PASSES_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {

/// The loop annotation (key of a `tensorir.for`'s `annotations`; the value
/// names the shape, "m16n8k16") that the tensor-core Matmul rule puts on the
/// loop whose nest (h, p, kk) computes one warp's `mma.sync` tile, and that
/// mlc-gpu-tensorize-mma replaces.
constexpr llvm::StringLiteral kMmaSyncAnnotation =
    tensorir::TensorIRDialect::getMmaSyncAnnotationName();
/// The loop annotation of the Hopper Matmul rule's accumulator nest, for
/// mlc-gpu-tensorize-wgmma (value: the wgmma shape).
constexpr llvm::StringLiteral kWgmmaAnnotation = "wgmma";
/// The loop annotation beside kWgmmaAnnotation that says how the nest
/// reads A: "gather" (an implicit GEMM's im2col rows, which the threads
/// load with cp.async: every run of 8 k from a multiple of 8 is 16
/// consecutive, aligned bytes of a row of A's buffer with one predicate);
/// absent: A is the buffer's own rows, loaded with TMA.
constexpr llvm::StringLiteral kWgmmaOperandAAnnotation = "wgmma_a";
/// The prefix of the runtime functions (suffix: the element type, "f16")
/// that encode the tensor map of a host constant (a bound weight): they
/// read it on the host, where it lives, and describe a device copy the
/// runtime keeps. mlc-gpu-tensorize-wgmma calls them, and
/// mlc-gpu-device-memory lets host code pass them constants.
constexpr llvm::StringLiteral kConstantTensorMapEncoderPrefix =
    "mlc_cuda_tensor_map_encode_tiled_constant_";
/// The prefix of the runtime functions (suffix: the element type, "f16",
/// "i32") that return the device copy of a host constant, a rank-1 memref
/// (C interface: `_mlir_ciface_` before the name), which the runtime
/// uploads at the first call and keeps. mlc-gpu-device-memory calls them
/// for the constants too large to live in a kernel's binary.
constexpr llvm::StringLiteral kConstantOnDevicePrefix =
    "mlc_cuda_constant_on_device_";

/// Gives the nvgpu dialect an inliner interface (upstream has none), so that
/// functions holding tensor-core kernels inline into their callers.
void registerNVGPUInlinerInterface(mlir::DialectRegistry &registry);

#define GEN_PASS_DECL
#include "mlc/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Codegen/GPU/Passes.h.inc"

} // namespace mlc

#endif // MLC_CODEGEN_GPU_PASSES_H
