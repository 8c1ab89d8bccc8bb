//===- Utils.h - helpers shared by the GPU code generation passes -*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_GPU_UTILS_H
#define MLC_CODEGEN_GPU_UTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlc {

/// The GPU address space of a memref value (global when it has none).
mlir::gpu::AddressSpace getGPUAddressSpace(mlir::Value memref);

/// Whether a memref value lives in workgroup (shared) memory.
bool isWorkgroupMemory(mlir::Value memref);

/// Whether `loop` (or anything in it) writes memory other than shared or
/// per-thread buffers: global memory, which copies issued ahead of the
/// loop's compute could read.
bool writesGlobalMemory(mlir::scf::ForOp loop);

/// The bytes of a statically shaped buffer of `type` (elements of fewer
/// than 8 bits count as bytes); none for a dynamic shape or a size that
/// int64_t cannot hold.
std::optional<int64_t> getStaticByteSize(mlir::MemRefType type);

/// The value of the integer or index `value` when the values it is computed
/// from by arith and affine.apply ops are constants or have the values
/// `known` gives them (booleans as 0 and 1); none when something else feeds
/// it or it divides by zero.
std::optional<int64_t>
evaluateIndex(mlir::Value value,
              const llvm::DenseMap<mlir::Value, int64_t> &known);
/// The same from constants alone.
std::optional<int64_t> evaluateIndex(mlir::Value value);

/// The load that `value` is, itself or zero-padded: select(c, load, 0) (an
/// inlined padding), c then in `predicate` when given (else null).
mlir::memref::LoadOp matchZeroPaddedLoad(mlir::Value value,
                                         mlir::Value *predicate = nullptr);

/// Whether the indices of `load` but the last, evaluated (evaluateIndex)
/// with `known` and `k` at each value below `rows`, are the position of row
/// k of its buffer with those dimensions collapsed (an HWIO weight read at
/// (k / (KW C), k / C % KW, k % C, n) as the K x N matrix it is).
bool addressesRows(mlir::memref::LoadOp load, mlir::Value k, int64_t rows,
                   llvm::DenseMap<mlir::Value, int64_t> known);

} // namespace mlc

#endif // MLC_CODEGEN_GPU_UTILS_H
