//===- Converters.h - ONNX node converter tables ----------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_TARGET_ONNX_CONVERTERS_H
#define MLC_LIB_TARGET_ONNX_CONVERTERS_H

#include "Importer.h"

namespace mlc::onnx_import {

llvm::ArrayRef<ConverterEntry> getElementwiseConverters();
llvm::ArrayRef<ConverterEntry> getNNConverters();
llvm::ArrayRef<ConverterEntry> getTensorConverters();

/// Defines the node's output 0 as `value`; fails when building it failed.
inline mlir::LogicalResult define(NodeContext &node,
                                  mlir::FailureOr<mlir::Value> value) {
  if (mlir::failed(value))
    return mlir::failure();
  node.setOutput(0, *value);
  return mlir::success();
}

// Relax op names, as template arguments of the table-driven converters.
inline constexpr char kAbs[] = "abs";
inline constexpr char kNegative[] = "negative";
inline constexpr char kExp[] = "exp";
inline constexpr char kLog[] = "log";
inline constexpr char kSqrt[] = "sqrt";
inline constexpr char kTanh[] = "tanh";
inline constexpr char kSigmoid[] = "sigmoid";
inline constexpr char kErf[] = "erf";
inline constexpr char kFloor[] = "floor";
inline constexpr char kCeil[] = "ceil";
inline constexpr char kRound[] = "round";
inline constexpr char kSin[] = "sin";
inline constexpr char kCos[] = "cos";
inline constexpr char kTan[] = "tan";
inline constexpr char kAsin[] = "asin";
inline constexpr char kAcos[] = "acos";
inline constexpr char kAtan[] = "atan";
inline constexpr char kSinh[] = "sinh";
inline constexpr char kCosh[] = "cosh";
inline constexpr char kAsinh[] = "asinh";
inline constexpr char kAcosh[] = "acosh";
inline constexpr char kAtanh[] = "atanh";
inline constexpr char kIsNaN[] = "isnan";
inline constexpr char kRelu[] = "nn.relu";
inline constexpr char kAdd[] = "add";
inline constexpr char kSubtract[] = "subtract";
inline constexpr char kMultiply[] = "multiply";
inline constexpr char kDivide[] = "divide";
inline constexpr char kEqual[] = "equal";
inline constexpr char kNotEqual[] = "not_equal";
inline constexpr char kLess[] = "less";
inline constexpr char kGreater[] = "greater";
inline constexpr char kLessEqual[] = "less_equal";
inline constexpr char kGreaterEqual[] = "greater_equal";
inline constexpr char kMaximum[] = "maximum";
inline constexpr char kMinimum[] = "minimum";
inline constexpr char kSum[] = "sum";
inline constexpr char kMean[] = "mean";
inline constexpr char kMax[] = "max";
inline constexpr char kMin[] = "min";
inline constexpr char kProd[] = "prod";
inline constexpr char kArgmax[] = "argmax";
inline constexpr char kArgmin[] = "argmin";
inline constexpr char kSoftmax[] = "nn.softmax";
inline constexpr char kLogSoftmax[] = "nn.log_softmax";
inline constexpr char kMaxPool[] = "nn.max_pool2d";
inline constexpr char kAvgPool[] = "nn.avg_pool2d";

} // namespace mlc::onnx_import

#endif // MLC_LIB_TARGET_ONNX_CONVERTERS_H
