//===- RelayOpPattern.cpp - TVM's TOpPattern of relay ops -----------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The table follows TVM's registrations (apache/tvm main):
//   src/relay/op/tensor/unary.cc, binary.cc, reduce.cc, transform.cc,
//   src/relay/op/nn/nn.cc, pad.cc, upsampling.cc and
//   python/tvm/relay/op/nn/_nn.py (register_pattern, which wins over C++).
// Not registered in TVM (so opaque to FuseOps): nn.layer_norm,
// nn.instance_norm, nn.group_norm (SimplifyInference removes them first).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/RelayOpPattern.h"
#include "mlc/Dialect/Relay/IR/Relay.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::relay;

FusionPattern mlc::relay::getOpPattern(Operation *op) {
  using P = FusionPattern;
  return llvm::TypeSwitch<Operation *, P>(op)
      // unary.cc RELAY_REGISTER_UNARY_OP, clip; transform.cc cast;
      // _nn.py relu, leaky_relu.
      .Case<NegativeOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
            ErfOp, ClipOp, CastOp, ReluOp, LeakyReluOp>(
          [](Operation *) { return P::ElemWise; })
      // binary.cc RELAY_REGISTER_BINARY_OP / RELAY_REGISTER_CMP_OP;
      // transform.cc where, broadcast_to, expand_dims; _nn.py bias_add,
      // prelu.
      .Case<AddOp, SubtractOp, MultiplyOp, DivideOp, PowerOp, MaximumOp,
            MinimumOp, LessOp, GreaterOp, EqualOp, LessEqualOp, GreaterEqualOp,
            NotEqualOp, WhereOp, BroadcastToOp, ExpandDimsOp, BiasAddOp,
            PReluOp>([](Operation *) { return P::Broadcast; })
      // transform.cc; pad.cc; upsampling.cc; _nn.py batch_flatten.
      .Case<ReshapeOp, TransposeOp, SqueezeOp, ConcatenateOp, SplitOp,
            StridedSliceOp, TakeOp, PadOp, UpSamplingOp, BatchFlattenOp>(
          [](Operation *) { return P::Injective; })
      // reduce.cc RELAY_REGISTER_REDUCE_OP.
      .Case<SumOp, MeanOp, MaxOp, MinOp, ProdOp, ArgmaxOp, ArgminOp>(
          [](Operation *) { return P::CommReduce; })
      // _nn.py: convolutions, dense/matmul, pools, softmax, batch_norm.
      .Case<Conv2DOp, Conv2DTransposeOp, DenseOp, MatmulOp, BatchMatmulOp,
            MaxPool2DOp, AvgPool2DOp, GlobalAvgPool2DOp, GlobalMaxPool2DOp,
            AdaptiveAvgPool2DOp, AdaptiveMaxPool2DOp, SoftmaxOp, LogSoftmaxOp,
            BatchNormOp>([](Operation *) { return P::OutEWiseFusable; })
      .Case<TupleOp>([](Operation *) { return P::Tuple; })
      // nn.cc: dropout is kOpaque (stateful).
      .Default([](Operation *) { return P::Opaque; });
}
