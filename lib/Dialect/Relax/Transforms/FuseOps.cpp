//===- FuseOps.cpp - relax-fuse-ops -----------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's FuseOps: the IndexedForwardGraph of a dataflow block, its
// post-dominator tree and GraphPartitioner's three fusion phases
// (src/relay/analysis/graph_partitioner.cc), then each group outlined into a
// private primitive function called from the block.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

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

static unsigned rank(Kind k) { return static_cast<unsigned>(k); }
static bool kindLE(Kind a, Kind b) { return rank(a) <= rank(b); }
static Kind combine(Kind a, Kind b) { return rank(a) >= rank(b) ? a : b; }

//===----------------------------------------------------------------------===//
// IndexedForwardGraph
//===----------------------------------------------------------------------===//

struct Edge {
  unsigned node;
  Kind pattern;
};

struct GraphNode {
  /// The op of the node, or null for a value from outside the block.
  Operation *op = nullptr;
  Kind pattern = Kind::opaque;
  /// The node's value leaves the block (TVM: a non-dataflow var); it cannot
  /// be fused into its consumers.
  bool externRef = false;
  SmallVector<Edge> outputs;
};

/// Nodes in topological (TVM: post-DFS) order: leaves when first used, then
/// ops in block order.
struct IndexedForwardGraph {
  SmallVector<GraphNode> nodes;
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

static IndexedForwardGraph buildGraph(DataflowOp dataflow,
                                      SymbolTableCollection &symbols) {
  IndexedForwardGraph graph;
  Block &body = dataflow.getBody().front();
  for (Operation &op : body.without_terminator()) {
    Kind pattern = Kind::opaque;
    if (auto call = dyn_cast<CallTIROp>(op))
      pattern = calleePattern(call, symbols);
    // Leaves first, so that producers precede consumers.
    for (Value operand : op.getOperands()) {
      if (graph.valueNode.count(operand))
        continue;
      graph.valueNode[operand] = graph.nodes.size();
      graph.nodes.push_back(GraphNode{});
    }
    unsigned index = graph.nodes.size();
    GraphNode node;
    node.op = &op;
    node.pattern = pattern;
    for (Value result : op.getResults()) {
      graph.valueNode[result] = index;
      for (Operation *user : result.getUsers())
        if (isa<OutputOp>(user) || user->getBlock() != &body)
          node.externRef = true;
    }
    graph.nodes.push_back(std::move(node));
    for (Value operand : op.getOperands()) {
      // A broadcast op is elementwise in the arguments that have its result
      // shape (TVM: the bias add of conv2d + bias + relu).
      Kind edgePattern = pattern;
      if (pattern == Kind::broadcast && op.getNumResults() == 1 &&
          operand.getType() == op.getResult(0).getType())
        edgePattern = Kind::elemwise;
      graph.nodes[graph.valueNode[operand]].outputs.push_back(
          Edge{index, edgePattern});
    }
  }
  return graph;
}

//===----------------------------------------------------------------------===//
// Post-dominator tree
//===----------------------------------------------------------------------===//

struct DomNode {
  int parent = -1;
  unsigned depth = 1;
  /// Combined kind of the paths to the parent.
  Kind pattern = Kind::opaque;
};

struct PostDominatorTree {
  SmallVector<DomNode> nodes;

  int lca(int lhs, int rhs, Kind &pattern) {
    while (lhs != rhs) {
      if (lhs < 0 || rhs < 0)
        return -1;
      DomNode &l = nodes[lhs], &r = nodes[rhs];
      if (l.depth < r.depth) {
        pattern = combine(pattern, r.pattern);
        rhs = r.parent;
      } else if (r.depth < l.depth) {
        pattern = combine(pattern, l.pattern);
        lhs = l.parent;
      } else {
        pattern = combine(pattern, l.pattern);
        pattern = combine(pattern, r.pattern);
        lhs = l.parent;
        rhs = r.parent;
      }
    }
    return lhs;
  }

  static PostDominatorTree build(const IndexedForwardGraph &graph) {
    PostDominatorTree tree;
    tree.nodes.resize(graph.nodes.size());
    for (size_t i = graph.nodes.size(); i-- > 0;) {
      const GraphNode &gnode = graph.nodes[i];
      DomNode &dnode = tree.nodes[i];
      if (gnode.externRef) {
        dnode = DomNode{};
        continue;
      }
      Kind pattern = Kind::elemwise;
      int parent = -1;
      for (auto [k, edge] : llvm::enumerate(gnode.outputs)) {
        parent = k == 0 ? static_cast<int>(edge.node)
                        : tree.lca(parent, edge.node, pattern);
        pattern = combine(pattern, edge.pattern);
      }
      dnode.parent = parent;
      dnode.depth = parent >= 0 ? tree.nodes[parent].depth + 1 : 1;
      dnode.pattern = pattern;
    }
    return tree;
  }
};

//===----------------------------------------------------------------------===//
// GraphPartitioner
//===----------------------------------------------------------------------===//

struct Group {
  int parent = -1;
  Kind pattern = Kind::opaque;
  /// The group holds an out_ewise_fusable op (TVM's anchor_ref).
  bool hasAnchor = false;
  unsigned numNodes = 1;
};

class GraphPartitioner {
public:
  GraphPartitioner(const IndexedForwardGraph &graph, unsigned maxDepth)
      : graph(graph), maxDepth(maxDepth) {}

  /// The group root of every node.
  SmallVector<unsigned> partition(int optLevel) {
    groups.resize(graph.nodes.size());
    for (auto [i, node] : llvm::enumerate(graph.nodes)) {
      groups[i].pattern = node.pattern;
      groups[i].hasAnchor = node.pattern == Kind::out_ewise_fusable;
    }
    if (optLevel > 0) {
      tree = PostDominatorTree::build(graph);
      for (int phase = 0; phase < 3; ++phase)
        runFuse(phase);
    }
    SmallVector<unsigned> roots;
    for (unsigned i = 0, e = groups.size(); i < e; ++i)
      roots.push_back(findRoot(i));
    return roots;
  }

private:
  unsigned findRoot(unsigned g) {
    unsigned root = g;
    while (groups[root].parent >= 0)
      root = groups[root].parent;
    // Path compression.
    while (groups[g].parent >= 0) {
      unsigned next = groups[g].parent;
      groups[g].parent = root;
      g = next;
    }
    return root;
  }

  template <typename F>
  bool checkPathImpl(unsigned src, unsigned sink, F fcond) {
    if (!visited.insert(src).second)
      return true;
    if (!fcond(groups[findRoot(src)].pattern, src == sink))
      return false;
    if (src == sink)
      return true;
    for (const Edge &edge : graph.nodes[src].outputs)
      if (!checkPathImpl(edge.node, sink, fcond))
        return false;
    return true;
  }

  /// Every node on a path from `src` (exclusive) to `sink` satisfies fcond.
  template <typename F> bool checkPath(unsigned src, unsigned sink, F fcond) {
    visited.clear();
    for (const Edge &edge : graph.nodes[src].outputs)
      if (!checkPathImpl(edge.node, sink, fcond))
        return false;
    return true;
  }

  void mergeFromTo(unsigned child, unsigned parent) {
    child = findRoot(child);
    parent = findRoot(parent);
    if (child == parent)
      return;
    groups[parent].numNodes += groups[child].numNodes;
    groups[child].parent = parent;
    if (groups[child].hasAnchor) {
      groups[parent].hasAnchor = true;
      groups[parent].pattern =
          combine(groups[child].pattern, groups[parent].pattern);
    }
  }

  void commitFuseImpl(unsigned src, unsigned sink, unsigned target) {
    if (src == sink || !visited.insert(src).second)
      return;
    mergeFromTo(src, target);
    for (const Edge &edge : graph.nodes[src].outputs)
      commitFuseImpl(edge.node, sink, target);
  }

  /// Merges every node on the paths from `src` to `sink` into sink's group.
  void commitFuse(unsigned src, unsigned sink) {
    visited.clear();
    commitFuseImpl(src, sink, sink);
  }

  unsigned countNodesUptoSink(unsigned src, unsigned sink) {
    if (src == sink || !visited.insert(src).second)
      return 0;
    // TVM counts the node's own group object here, not its root's.
    unsigned sum = groups[src].numNodes;
    for (const Edge &edge : graph.nodes[src].outputs)
      sum += countNodesUptoSink(edge.node, sink);
    return sum;
  }

  unsigned countFusedNodesWithNewChild(unsigned child, unsigned domParent) {
    visited.clear();
    return groups[findRoot(domParent)].numNodes +
           countNodesUptoSink(child, domParent);
  }

  void runFuse(int phase) {
    for (unsigned nid = 0, e = graph.nodes.size(); nid < e; ++nid) {
      DomNode &domNode = tree.nodes[nid];
      Kind pattern = groups[nid].pattern;
      // Opaque nodes (and leaves) stay alone.
      if (pattern == Kind::opaque || domNode.parent < 0)
        continue;
      unsigned domParent = domNode.parent;
      if (countFusedNodesWithNewChild(nid, domParent) > maxDepth)
        continue;

      if (phase == 2) {
        // Fuse injective ops into intermediate tuples, if any.
        if (!kindLE(pattern, Kind::injective))
          continue;
        Kind parentPattern = groups[domParent].pattern;
        Kind rootPattern = groups[findRoot(domParent)].pattern;
        if (rootPattern == Kind::tuple)
          continue;
        if (parentPattern == Kind::tuple &&
            kindLE(rootPattern, Kind::injective) &&
            checkPath(nid, domParent,
                      [](Kind k, bool) { return kindLE(k, Kind::injective); }))
          commitFuse(nid, domParent);
        continue;
      }

      // Already fused into the post-dominator's group.
      if (findRoot(nid) == findRoot(domParent))
        continue;
      // Do not fuse into tuples for now (TVM).
      if (groups[domParent].pattern == Kind::tuple)
        continue;

      if (pattern == Kind::out_ewise_fusable) {
        // conv2d: absorb elementwise consumers while every op on the way is
        // at most broadcast.
        if (phase != 0 || domNode.pattern != Kind::elemwise)
          continue;
        if (checkPath(nid, domParent,
                      [](Kind k, bool) { return kindLE(k, Kind::broadcast); }))
          commitFuse(nid, domParent);
      } else if (kindLE(pattern, Kind::broadcast)) {
        // Only into an injective or reduction post-dominator.
        if (!kindLE(domNode.pattern, Kind::injective) &&
            domNode.pattern != Kind::comm_reduce)
          continue;
        auto fcond = [](Kind k, bool isSink) {
          if (!isSink)
            return kindLE(k, Kind::injective);
          return kindLE(k, Kind::injective) || k == Kind::comm_reduce ||
                 k == Kind::out_ewise_fusable;
        };
        if (checkPath(nid, domParent, fcond))
          commitFuse(nid, domParent);
      } else if (pattern == Kind::injective || pattern == Kind::tuple) {
        // Second phase, so that conv2d groups are complete first.
        if (phase != 1)
          continue;
        if (checkPath(nid, domParent,
                      [](Kind k, bool) { return kindLE(k, Kind::injective); }))
          commitFuse(nid, domParent);
      }
      // comm_reduce: nothing to do (it is a sink only).
    }
  }

  const IndexedForwardGraph &graph;
  unsigned maxDepth;
  PostDominatorTree tree;
  SmallVector<Group> groups;
  DenseSet<unsigned> visited;
};

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
      IndexedForwardGraph graph = buildGraph(dataflow, symbols);
      SmallVector<unsigned> roots =
          GraphPartitioner(graph, maxDepth).partition(fuseOptLevel);
      // Members of each group in block order, groups by their first op.
      llvm::MapVector<unsigned, SmallVector<Operation *>> groups;
      for (auto [i, node] : llvm::enumerate(graph.nodes))
        if (node.op)
          groups[roots[i]].push_back(node.op);
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
