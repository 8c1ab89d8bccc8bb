//===- FuseOps.cpp - relax-fuse-ops -----------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's FuseOps: the IndexedForwardGraph of a dataflow block, partitioned by
// the shared GraphPartitioner (mlc/Dialect/Utils/GraphPartitioner.h), then
// each group outlined into a private primitive function called from the
// block.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/Utils/GraphPartitioner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXFUSEOPS
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;
using mlc::tensorir::OpPatternKind;

namespace {

using Kind = OpPatternKind;

// The shared partitioner's kinds use the same numbering.
static_assert(static_cast<unsigned>(Kind::out_ewise_fusable) ==
                  static_cast<unsigned>(mlc::FusionPattern::OutEWiseFusable) &&
              static_cast<unsigned>(Kind::tuple) ==
                  static_cast<unsigned>(mlc::FusionPattern::Tuple) &&
              static_cast<unsigned>(Kind::opaque) ==
                  static_cast<unsigned>(mlc::FusionPattern::Opaque));

static mlc::FusionPattern toFusion(Kind kind) {
  return static_cast<mlc::FusionPattern>(static_cast<unsigned>(kind));
}

//===----------------------------------------------------------------------===//
// IndexedForwardGraph
//===----------------------------------------------------------------------===//

/// The graph of a dataflow block: leaves (values from outside the block)
/// when first used, then ops in block order.
struct BlockGraph {
  mlc::FusionGraph graph;
  /// The op of each node, or null for a leaf.
  SmallVector<Operation *> ops;
  DenseMap<Value, unsigned> valueNode;
};

static Kind calleePattern(CallTIROp call, SymbolTableCollection &symbols) {
  // relax-fuse-tir merges kernels over static buffers only: a call with
  // tir_vars or a dynamically shaped result stays alone (runs unfused).
  if (call.getTirVars() || llvm::any_of(call.getResultTypes(), [](Type type) {
        return !cast<ShapedType>(type).hasStaticShape();
      }))
    return Kind::opaque;
  Operation *callee =
      symbols.lookupNearestSymbolFrom(call, call.getCalleeAttr());
  if (!callee)
    return Kind::opaque;
  auto attr = callee->getAttrOfType<mlc::tensorir::OpPatternKindAttr>(
      mlc::tensorir::TensorIRDialect::getOpPatternAttrName());
  return attr ? attr.getValue() : Kind::opaque;
}

static BlockGraph buildGraph(DataflowOp dataflow,
                             SymbolTableCollection &symbols) {
  BlockGraph bg;
  Block &body = dataflow.getBody().front();
  for (Operation &op : body.without_terminator()) {
    Kind pattern = Kind::opaque;
    if (auto call = dyn_cast<CallTIROp>(op))
      pattern = calleePattern(call, symbols);
    // Leaves first, so that producers precede consumers.
    for (Value operand : op.getOperands()) {
      if (bg.valueNode.count(operand))
        continue;
      bg.valueNode[operand] = bg.graph.addNode(mlc::FusionPattern::Opaque);
      bg.ops.push_back(nullptr);
    }
    bool externRef = false;
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers())
        if (isa<OutputOp>(user) || user->getBlock() != &body)
          externRef = true;
    unsigned index = bg.graph.addNode(toFusion(pattern), externRef);
    bg.ops.push_back(&op);
    for (Value result : op.getResults())
      bg.valueNode[result] = index;
    for (Value operand : op.getOperands()) {
      // A broadcast op is elementwise in the arguments that have its result
      // shape (TVM: the bias add of conv2d + bias + relu).
      Kind edgePattern = pattern;
      if (pattern == Kind::broadcast && op.getNumResults() == 1 &&
          operand.getType() == op.getResult(0).getType())
        edgePattern = Kind::elemwise;
      bg.graph.addEdge(bg.valueNode[operand], index, toFusion(edgePattern));
    }
  }
  return bg;
}

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// Outlines `members` (ops of one dataflow block, in block order) into a
/// private primitive function and replaces them by a call.
static LogicalResult outlineGroup(ArrayRef<Operation *> members,
                                  ModuleOp module, SymbolTable &symbolTable) {
  llvm::SmallPtrSet<Operation *, 8> memberSet(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  SmallVector<Value> outputs;
  std::string name = "fused";
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
    if (auto call = dyn_cast<CallTIROp>(op))
      name += "_" + call.getCallee().str();
  }

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
  func->setAttr("relax.primitive", builder.getUnitAttr());
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

//===----------------------------------------------------------------------===//
// Multi-output casts
//===----------------------------------------------------------------------===//

using Groups = llvm::MapVector<unsigned, SmallVector<Operation *>>;

static int64_t getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : -1;
}

/// The group (by root) that `castOps` (a group's members) may join: the one
/// whose result is every input of `castOps`, or nullopt.
static std::optional<unsigned>
getCastProducer(const BlockGraph &bg, ArrayRef<Operation *> castOps,
                const DenseMap<Operation *, unsigned> &groupOf,
                const Groups &groups) {
  llvm::SmallPtrSet<Operation *, 8> members(castOps.begin(), castOps.end());
  std::optional<Value> input;
  for (Operation *op : castOps) {
    auto pattern = static_cast<unsigned>(
        bg.graph.nodes[bg.valueNode.lookup(op->getResult(0))].pattern);
    if (!isa<CallTIROp>(op) || op->getNumResults() != 1 ||
        pattern > static_cast<unsigned>(mlc::FusionPattern::Injective))
      return std::nullopt;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && members.contains(def))
        continue;
      if (!def || !groupOf.count(def) || (input && *input != operand))
        return std::nullopt;
      input = operand;
    }
  }
  // Every value of the cast group has as many elements as its input (a
  // cast, reshapes): the write-back of the input writes it too. One op
  // changes the element type (reshapes alone become views of their input).
  auto elementType = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType();
  };
  if (!input || getNumElements(input->getType()) < 0 ||
      llvm::any_of(castOps,
                   [&](Operation *op) {
                     return getNumElements(op->getResult(0).getType()) !=
                            getNumElements(input->getType());
                   }) ||
      llvm::none_of(castOps, [&](Operation *op) {
        return elementType(op->getResult(0)) != elementType(op->getOperand(0));
      }))
    return std::nullopt;
  // The input has users besides the cast group (else the cast would have
  // fused into its group already).
  if (llvm::all_of(input->getUsers(),
                   [&](Operation *user) { return members.contains(user); }))
    return std::nullopt;
  unsigned producer = groupOf.lookup(input->getDefiningOp());
  ArrayRef<Operation *> producerOps = groups.find(producer)->second;
  bool fusable = llvm::any_of(producerOps, [&](Operation *op) {
    return bg.graph.nodes[bg.valueNode.lookup(op->getResult(0))].pattern ==
           mlc::FusionPattern::OutEWiseFusable;
  });
  if (!fusable || !producerOps.back()->isBeforeInBlock(castOps.front()))
    return std::nullopt;
  // The merged group's call replaces the cast's last op: every other use of
  // the producer's values must come after it.
  Operation *last = castOps.back();
  for (Operation *op : producerOps)
    for (Operation *user : op->getUsers())
      if (!members.contains(user) && !llvm::is_contained(producerOps, user) &&
          user->getBlock() == last->getBlock() && !last->isBeforeInBlock(user))
        return std::nullopt;
  return producer;
}

/// mlc's multi-output-casts: each group of injective ops whose only input is
/// a result of a GEMM or convolution group joins it.
static void mergeCastGroups(const BlockGraph &bg, Groups &groups,
                            unsigned maxDepth) {
  DenseMap<Operation *, unsigned> groupOf;
  for (auto &[root, members] : groups)
    for (Operation *op : members)
      groupOf[op] = root;
  for (auto &[root, members] : groups) {
    if (members.empty())
      continue;
    std::optional<unsigned> producer =
        getCastProducer(bg, members, groupOf, groups);
    if (!producer)
      continue;
    SmallVector<Operation *> &target = groups[*producer];
    if (target.size() + members.size() > maxDepth)
      continue;
    for (Operation *op : members)
      groupOf[op] = *producer;
    target.append(members.begin(), members.end());
    members.clear();
  }
}

struct FuseOpsPass : public mlc::relax::impl::RelaxFuseOpsBase<FuseOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (fuseOptLevel <= 0)
      return markAllAnalysesPreserved();
    SymbolTable symbolTable(module);
    SymbolTableCollection symbols;
    SmallVector<DataflowOp> blocks;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func->hasAttr("relax.primitive"))
        func.walk([&](DataflowOp op) { blocks.push_back(op); });

    for (DataflowOp dataflow : blocks) {
      BlockGraph bg = buildGraph(dataflow, symbols);
      SmallVector<unsigned> roots =
          mlc::partitionFusionGraph(bg.graph, fuseOptLevel, maxDepth);
      if (roots.size() != bg.ops.size()) {
        dataflow.emitError("relax-fuse-ops: the block's graph is not in "
                           "topological order");
        return signalPassFailure();
      }
      // Members of each group in block order, groups by their first op.
      llvm::MapVector<unsigned, SmallVector<Operation *>> groups;
      for (auto [i, op] : llvm::enumerate(bg.ops))
        if (op)
          groups[roots[i]].push_back(op);
      if (multiOutputCasts)
        mergeCastGroups(bg, groups, maxDepth);
      for (auto &[root, members] : groups) {
        if (members.size() < 2)
          continue;
        if (failed(outlineGroup(members, module, symbolTable)))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
