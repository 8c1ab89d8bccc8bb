//===- AttentionKernel.h - fused attention for the GPU schedule -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_GPU_ATTENTIONKERNEL_H
#define MLC_LIB_CODEGEN_GPU_ATTENTIONKERNEL_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/PatternMatch.h"

namespace mlc {

/// The Attention rule of mlc-gpu-default-schedule: when the statements from
/// `root` to the end of `func` are the stages of relax.nn.attention's kernel
/// (relax-legalize-ops: T_attention_qk, _scores, _max, _exp, _sum, _pv,
/// T_attention) with float16 or bfloat16 inputs, replaces them by one fused
/// flash-attention kernel whose two products run on tensor cores (the
/// `mma_sync` nests of mlc-gpu-tensorize-mma). Fails without a diagnostic,
/// leaving the function as it was, when they are not or their shapes do not
/// fit the kernel's tiles.
mlir::LogicalResult buildFusedAttention(mlir::RewriterBase &rewriter,
                                        tensorir::PrimFuncOp func,
                                        tensorir::ForOp root);

} // namespace mlc

#endif // MLC_LIB_CODEGEN_GPU_ATTENTIONKERNEL_H
