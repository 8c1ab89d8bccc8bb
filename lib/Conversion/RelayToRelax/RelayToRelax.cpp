//===- RelayToRelax.cpp - relay-to-relax ------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Turns relay functions into relax functions: parameter names, op-by-op
// rewrites, and one dataflow block around the body.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/RelayToRelax/Passes.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relay/IR/Relay.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlc {
#define GEN_PASS_DEF_RELAYTORELAX
#include "mlc/Conversion/RelayToRelax/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;

static constexpr llvm::StringLiteral kRelayNameAttr = "relay.name";

namespace {

struct ConvertConstant : OpRewritePattern<relay::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::ConstantOp>(op, op.getValueAttr());
    return success();
  }
};

struct ConvertAdd : OpRewritePattern<relay::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::AddOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relax::AddOp>(op, op.getType(), op.getLhs(),
                                              op.getRhs());
    return success();
  }
};

/// nn.matmul without transposes is numpy matmul with a 2-D rhs. (Transposed
/// forms, nn.dense included, wait for a relax transpose op.)
struct ConvertMatmul : OpRewritePattern<relay::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(relay::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getTransposeA() || op.getTransposeB())
      return rewriter.notifyMatchFailure(op, "transposed operands");
    auto resultType = cast<RankedTensorType>(op.getType());
    Type lhs = op.getTensorA().getType().getElementType();
    Type rhs = op.getTensorB().getType().getElementType();
    TypeAttr outDtype;
    if (lhs != rhs || lhs != resultType.getElementType())
      outDtype = TypeAttr::get(resultType.getElementType());
    rewriter.replaceOpWithNewOp<relax::MatmulOp>(
        op, resultType, op.getTensorA(), op.getTensorB(), outDtype);
    return success();
  }
};

bool isRelayFunction(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, kRelayNameAttr))
      return true;
  return func
      .walk([](Operation *op) {
        return isa<relay::RelayDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Moves the non-constant ops of the single-block body of `func` into one
/// relax.dataflow in front of the terminator. Leaves bodies with several
/// blocks, with effects or with a dataflow block already alone.
void wrapInDataflow(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator()) {
    if (isa<relax::DataflowOp>(op) || !isMemoryEffectFree(&op))
      return;
    if (!op.hasTrait<OpTrait::ConstantLike>())
      ops.push_back(&op);
  }
  if (ops.empty())
    return;
  // Values defined by the moved ops and used after them become outputs.
  llvm::SmallPtrSet<Operation *, 16> moved(ops.begin(), ops.end());
  llvm::SetVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!moved.contains(user))
          escaping.insert(result);
  SmallVector<Type> types;
  for (Value v : escaping)
    types.push_back(v.getType());
  OpBuilder builder(terminator);
  auto dataflow = relax::DataflowOp::create(builder, func.getLoc(), types);
  Block &inner = dataflow.getBody().front();
  builder.setInsertionPointToEnd(&inner);
  auto output =
      relax::OutputOp::create(builder, func.getLoc(), escaping.getArrayRef());
  for (Operation *op : ops)
    op->moveBefore(output);
  for (auto [i, escaped] : llvm::enumerate(escaping)) {
    Value value = escaped;
    value.replaceUsesWithIf(dataflow.getResult(i), [&](OpOperand &use) {
      return !dataflow->isProperAncestor(use.getOwner());
    });
  }
}

struct RelayToRelaxPass : mlc::impl::RelayToRelaxBase<RelayToRelaxPass> {
  using RelayToRelaxBase::RelayToRelaxBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateRelayToRelaxPatterns(set);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!isRelayFunction(func))
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (Attribute name = func.getArgAttr(i, kRelayNameAttr)) {
          func.removeArgAttr(i, kRelayNameAttr);
          func.setArgAttr(i, relax::kParamNameAttr, name);
        }
      if (func.isExternal())
        continue;
      GreedyRewriteConfig config;
      config.enableFolding(false).setRegionSimplificationLevel(
          GreedySimplifyRegionLevel::Disabled);
      if (failed(applyPatternsGreedily(func.getBody(), patterns, config))) {
        func.emitError("relay-to-relax did not converge");
        return signalPassFailure();
      }
      if (!allowRelayOps) {
        WalkResult result = func.walk([&](Operation *op) {
          if (!isa<relay::RelayDialect>(op->getDialect()))
            return WalkResult::advance();
          op->emitError("relay-to-relax: '")
              << op->getName()
              << "' has no relax equivalent yet (set allow-relay-ops to "
                 "keep it)";
          return WalkResult::interrupt();
        });
        if (result.wasInterrupted())
          return signalPassFailure();
      }
      wrapInDataflow(func);
    }
  }

  FrozenRewritePatternSet patterns;
};

} // namespace

void mlc::populateRelayToRelaxPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvertConstant, ConvertAdd, ConvertMatmul>(
      patterns.getContext());
}
