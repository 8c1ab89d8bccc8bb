//===- FuseOps.cpp - relay-fuse-ops -----------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's relay FuseOps (src/relay/transforms/fuse_ops.cc): the
// IndexedForwardGraph of a relay function body as TVM builds it for the same
// Relay program, partitioned by the shared GraphPartitioner, then every
// group holding a relay operator outlined into a private function marked
// `relay.Primitive` and called from the body.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/RelayOpPattern.h"
#include "mlc/Dialect/Relay/Transforms/Passes.h"
#include "mlc/Dialect/Utils/GraphPartitioner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relay {
#define GEN_PASS_DEF_RELAYFUSEOPS
#include "mlc/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace mlc::relay

using namespace mlir;
using namespace mlc;
using namespace mlc::relay;

namespace {

using P = FusionPattern;

constexpr llvm::StringLiteral kPrimitiveAttr = "relay.Primitive";
/// TVM's kMaxFuncNameLength for fused function names.
constexpr size_t kMaxNameLength = 80;

/// A relay operator (TVM: a call of an Op), as opposed to the expression
/// nodes TVM has for constants and tuples.
static bool isRelayOperator(Operation *op) {
  // Unregistered ops have no dialect.
  Dialect *dialect = op->getDialect();
  return dialect && isa<RelayDialect>(dialect) &&
         !isa<ConstantOp, TupleOp, TupleGetItemOp>(op);
}

/// Ops that return a tuple in Relay; here each field is a result.
static bool returnsTuple(Operation *op) {
  return isRelayOperator(op) && (op->getNumResults() != 1 || isa<SplitOp>(op));
}

/// TVM: a scalar constant of a simple dtype is elementwise (fused and kept
/// inside the function); any other constant is an opaque argument.
static P constantPattern(ConstantOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  if (!type || type.getRank() != 0)
    return P::Opaque;
  Type element = type.getElementType();
  if (element.isF32() || element.isF64() || element.isInteger(1) ||
      element.isInteger(32) || element.isInteger(64))
    return P::ElemWise;
  return P::Opaque;
}

/// The graph of one block: leaves (values from outside the block) when
/// first used, then the nodes of each op in block order.
struct BlockGraph {
  FusionGraph graph;
  /// The op of each node; null for a leaf or a node only TVM's graph has
  /// (the tuple of a concatenate, the TupleGetItem of a tuple result).
  SmallVector<Operation *> ops;
  DenseMap<Value, unsigned> valueNode;

  unsigned addNode(Operation *op, P pattern, bool externRef = false) {
    ops.push_back(op);
    return graph.addNode(pattern, externRef);
  }

  unsigned nodeOf(Value value) {
    auto it = valueNode.find(value);
    if (it != valueNode.end())
      return it->second;
    unsigned node = addNode(nullptr, P::Opaque);
    valueNode[value] = node;
    return node;
  }
};

/// The value leaves the block (TVM: the function body or a value used
/// outside the expression being partitioned).
static bool isExternal(Value value, Block &block) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return user->getBlock() != &block ||
           user->hasTrait<mlir::OpTrait::IsTerminator>();
  });
}

static BlockGraph buildGraph(Block &block) {
  BlockGraph bg;
  for (Operation &op : block) {
    if (op.hasTrait<mlir::OpTrait::IsTerminator>())
      continue;
    // Leaves first, so that producers precede consumers.
    for (Value operand : op.getOperands())
      bg.nodeOf(operand);

    bool tupleResult = returnsTuple(&op);
    bool externRef =
        !tupleResult && llvm::any_of(op.getResults(), [&](Value result) {
          return isExternal(result, block);
        });

    if (auto constant = dyn_cast<ConstantOp>(op)) {
      bg.valueNode[constant] =
          bg.addNode(&op, constantPattern(constant), externRef);
      continue;
    }

    if (auto tuple = dyn_cast<TupleOp>(op)) {
      unsigned node = bg.addNode(&op, P::Tuple, externRef);
      bg.valueNode[tuple] = node;
      for (Value field : tuple.getFields()) {
        if (isa<TensorType>(field.getType()))
          bg.graph.addEdge(bg.nodeOf(field), node, P::Injective);
        else
          bg.graph.nodes[bg.nodeOf(field)].externRef = true;
      }
      continue;
    }

    if (auto get = dyn_cast<TupleGetItemOp>(op)) {
      auto tupleType = dyn_cast<TupleType>(get.getTuple().getType());
      bool allTensors =
          tupleType && llvm::all_of(tupleType.getTypes(), [](Type type) {
            return isa<TensorType>(type);
          });
      unsigned tupleNode = bg.nodeOf(get.getTuple());
      unsigned node =
          bg.addNode(&op, allTensors ? P::Injective : P::Opaque, externRef);
      bg.valueNode[get] = node;
      if (allTensors)
        bg.graph.addEdge(tupleNode, node, P::Injective);
      else
        bg.graph.nodes[tupleNode].externRef = true;
      continue;
    }

    P pattern = isRelayOperator(&op) ? getOpPattern(&op) : P::Opaque;
    SmallVector<std::pair<unsigned, Value>> inputs;
    if (isa<ConcatenateOp>(op)) {
      // Relay's concatenate takes a tuple: its fields go through a tuple
      // node, which can fuse into the concatenate (or take injective
      // producers in phase 2).
      unsigned tupleNode = bg.addNode(nullptr, P::Tuple);
      for (Value field : op.getOperands())
        bg.graph.addEdge(bg.nodeOf(field), tupleNode, P::Injective);
      inputs.push_back({tupleNode, Value()});
    } else {
      for (Value operand : op.getOperands())
        inputs.push_back({bg.nodeOf(operand), operand});
    }

    unsigned node = bg.addNode(&op, pattern, externRef);
    auto resultType =
        !tupleResult && op.getNumResults() == 1
            ? dyn_cast<RankedTensorType>(op.getResult(0).getType())
            : RankedTensorType();
    for (auto [input, operand] : inputs) {
      // A broadcast op is elementwise in the operands that have its result
      // shape (TVM compares shapes only).
      P edgePattern = pattern;
      if (pattern == P::Broadcast && resultType && operand)
        if (auto operandType = dyn_cast<RankedTensorType>(operand.getType()))
          if (operandType.getShape() == resultType.getShape())
            edgePattern = P::ElemWise;
      bg.graph.addEdge(input, node, edgePattern);
    }

    if (!tupleResult) {
      for (Value result : op.getResults())
        bg.valueNode[result] = node;
      continue;
    }
    // TVM projects the tuple with a TupleGetItem per used field.
    for (Value result : op.getResults()) {
      if (result.use_empty())
        continue;
      unsigned get =
          bg.addNode(nullptr, P::Injective, isExternal(result, block));
      bg.graph.addEdge(node, get, P::Injective);
      bg.valueNode[result] = get;
    }
  }
  return bg;
}

/// TVM's fused function name: the operator names joined, `.` as `_`.
static std::string groupName(ArrayRef<Operation *> members) {
  std::string name = "fused";
  for (Operation *op : members) {
    if (!isRelayOperator(op))
      continue;
    name += "_";
    for (char c : op->getName().stripDialect())
      name += c == '.' ? '_' : c;
  }
  if (name.size() > kMaxNameLength)
    name.resize(kMaxNameLength);
  return name;
}

/// Outlines `members` (ops of one block, in block order) into a private
/// primitive function and replaces them by a call.
static LogicalResult outlineGroup(ArrayRef<Operation *> members,
                                  ModuleOp module, SymbolTable &symbolTable) {
  llvm::SmallPtrSet<Operation *, 8> memberSet(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  SmallVector<Value> outputs;
  for (Operation *op : members) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !memberSet.contains(def))
        inputs.insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !memberSet.contains(user);
          }))
        outputs.push_back(result);
  }
  std::string name = groupName(members);

  // The call goes where the last member was; every use outside the group
  // must come after it (post-dominance guarantees this).
  Operation *last = members.back();
  for (Value output : outputs)
    for (Operation *user : output.getUsers())
      if (!memberSet.contains(user) && user->getBlock() == last->getBlock() &&
          user->isBeforeInBlock(last))
        return user->emitOpError("uses a value of fused group '")
               << name << "' before the group's last op";

  OpBuilder builder(module.getContext());
  auto funcType = builder.getFunctionType(
      llvm::to_vector(TypeRange(ValueRange(inputs.getArrayRef()))),
      llvm::to_vector(TypeRange(ValueRange(outputs))));
  auto func = func::FuncOp::create(last->getLoc(), name, funcType);
  func.setPrivate();
  func->setAttr(kPrimitiveAttr, builder.getI64IntegerAttr(1));
  // Before the function it comes from, renamed on a clash.
  symbolTable.insert(func,
                     last->getParentOfType<func::FuncOp>()->getIterator());

  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), entry->getArguments());
  for (Operation *op : members)
    builder.clone(*op, mapping);
  func::ReturnOp::create(
      builder, last->getLoc(),
      llvm::map_to_vector(outputs, [&](Value v) { return mapping.lookup(v); }));

  builder.setInsertionPointAfter(last);
  auto call =
      func::CallOp::create(builder, last->getLoc(), func, inputs.getArrayRef());
  for (auto [output, result] : llvm::zip(outputs, call.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !memberSet.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(members))
    op->erase();
  return success();
}

struct FuseOpsPass : public mlc::relay::impl::RelayFuseOpsBase<FuseOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (fuseOptLevel < 0) {
      module.emitError("relay-fuse-ops: fuse-opt-level must be at least 0, "
                       "got ")
          << static_cast<int>(fuseOptLevel);
      return signalPassFailure();
    }
    SymbolTable symbolTable(module);
    SmallVector<Block *> blocks;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func->hasAttr(kPrimitiveAttr))
        for (Block &block : func.getBody())
          blocks.push_back(&block);

    for (Block *block : blocks) {
      BlockGraph bg = buildGraph(*block);
      SmallVector<unsigned> roots =
          partitionFusionGraph(bg.graph, fuseOptLevel, maxDepth);
      if (roots.size() != bg.ops.size()) {
        block->getParentOp()->emitError(
            "relay-fuse-ops: the block's graph is not in topological order");
        return signalPassFailure();
      }
      // Members of each group in block order, groups by their first op.
      llvm::MapVector<unsigned, SmallVector<Operation *>> groups;
      for (auto [i, op] : llvm::enumerate(bg.ops))
        if (op)
          groups[roots[i]].push_back(op);
      for (auto &[root, members] : groups) {
        // TVM makes a function of every group with an operator call, even
        // a lone one; a lone tuple, projection or constant stays.
        if (llvm::none_of(members, isRelayOperator))
          continue;
        if (failed(outlineGroup(members, module, symbolTable)))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
