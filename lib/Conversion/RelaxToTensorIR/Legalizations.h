//===- Legalizations.h - relax op → tensorir kernel table -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The table relax-legalize-ops looks ops up in: for each relax op name, a
// function that writes the op's kernel (mlc's TOPI) into a prim_func whose
// arguments are the op's operands followed by its results, as buffers. One
// file per op family fills it (LegalizeElementwise.cpp, ...).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CONVERSION_RELAXTOTENSORIR_LEGALIZATIONS_H
#define MLC_LIB_CONVERSION_RELAXTOTENSORIR_LEGALIZATIONS_H

#include "mlc/Dialect/TensorIR/IR/ComputeBuilder.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace mlc::legalize {

/// Writes the kernel of `op` into `kernel`. `inputs` are the buffers of the
/// op's operands and `outputs` those of its results (the prim_func's
/// arguments, in that order). Reports an error at `op` and fails when the
/// op's attributes are not supported; the caller then drops the kernel.
using KernelBuilderFn = std::function<mlir::LogicalResult(
    mlir::Operation *op, tensorir::PrimFuncBuilder &kernel,
    mlir::ValueRange inputs, mlir::ValueRange outputs)>;

/// Relax op name → kernel builder.
class LegalizationTable {
public:
  void add(llvm::StringRef opName, KernelBuilderFn fn) {
    table[opName] = std::move(fn);
  }

  /// Registers a builder taking the op's concrete class.
  template <typename OpTy>
  void
  add(std::function<mlir::LogicalResult(OpTy, tensorir::PrimFuncBuilder &,
                                        mlir::ValueRange, mlir::ValueRange)>
          fn) {
    add(OpTy::getOperationName(),
        [fn = std::move(fn)](
            mlir::Operation *op, tensorir::PrimFuncBuilder &kernel,
            mlir::ValueRange inputs, mlir::ValueRange outputs) {
          return fn(llvm::cast<OpTy>(op), kernel, inputs, outputs);
        });
  }

  /// The builder for `opName`, or null.
  const KernelBuilderFn *lookup(llvm::StringRef opName) const {
    auto it = table.find(opName);
    return it == table.end() ? nullptr : &it->second;
  }

private:
  llvm::StringMap<KernelBuilderFn> table;
};

/// Elementwise and broadcasting ops: unary math, binary arithmetic and
/// comparisons, astype, clip, where, relu, leaky_relu.
void populateElementwiseLegalizations(LegalizationTable &table);
/// Shape manipulation: reshape, permute_dims, expand_dims, squeeze, split,
/// strided_slice, take, broadcast_to, concat, nn.pad.
void populateManipulationLegalizations(LegalizationTable &table);
/// Reductions: sum, mean, max, min, prod, argmax, argmin, softmax,
/// log_softmax.
void populateReductionLegalizations(LegalizationTable &table);
/// Neural network ops: matmul, conv2d, conv2d_transpose, pools, norms.
void populateNNLegalizations(LegalizationTable &table);
/// Normalizations: batch_norm (inference), layer_norm, instance_norm,
/// group_norm.
void populateNormalizationLegalizations(LegalizationTable &table);
/// Image ops: image.resize2d.
void populateImageLegalizations(LegalizationTable &table);
/// Fused attention: nn.attention.
void populateAttentionLegalizations(LegalizationTable &table);

//===----------------------------------------------------------------------===//
// Helpers shared by the op families
//===----------------------------------------------------------------------===//

/// The indices into `input` (rank r, right-aligned against an output of rank
/// R = outputIndices.size()) that numpy broadcasting reads for output element
/// `outputIndices`: dimension j uses output index R - r + j, or 0 where the
/// input's size is a static 1 (a broadcast dimension) and the output's, when
/// `outputShape` is given, is not.
llvm::SmallVector<mlir::Value>
getBroadcastIndices(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                    mlir::ValueRange outputIndices,
                    llvm::ArrayRef<int64_t> outputShape = {});

/// `memref.load %buffer[indices]`.
mlir::Value load(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer,
                 mlir::ValueRange indices);

/// The element type of a buffer.
mlir::Type getElementType(mlir::Value buffer);

/// `size` as an `index` value (a constant, or the dynamic size itself).
mlir::Value materializeIndex(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::OpFoldResult size);

/// The product of `sizes` as a scalar of `type` (for means), folded to a
/// constant when every size is static.
mlir::Value createElementCount(mlir::OpBuilder &b, mlir::Location loc,
                               llvm::ArrayRef<mlir::OpFoldResult> sizes,
                               mlir::Type type);

/// An intermediate buffer (T.alloc_buffer) of the given sizes (as returned
/// by PrimFuncBuilder::getSizes) and element type.
mlir::Value allocTemp(tensorir::PrimFuncBuilder &kernel,
                      llvm::ArrayRef<mlir::OpFoldResult> sizes,
                      mlir::Type elementType, llvm::StringRef name);

} // namespace mlc::legalize

#endif // MLC_LIB_CONVERSION_RELAXTOTENSORIR_LEGALIZATIONS_H
