//===- GraphPartitioner.cpp - TVM's fusion partitioning -----------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's DominatorTree (post-dominators) and GraphPartitioner
// (src/relay/analysis/graph_partitioner.cc) over a FusionGraph.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/GraphPartitioner.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlc;

namespace {

using Kind = FusionPattern;
using Edge = FusionGraph::Edge;
using GraphNode = FusionGraph::Node;

static unsigned rank(Kind k) { return static_cast<unsigned>(k); }
static bool kindLE(Kind a, Kind b) { return rank(a) <= rank(b); }
static Kind combine(Kind a, Kind b) { return rank(a) >= rank(b) ? a : b; }

//===----------------------------------------------------------------------===//
// Post-dominator tree
//===----------------------------------------------------------------------===//

struct DomNode {
  int parent = -1;
  unsigned depth = 1;
  /// Combined kind of the paths to the parent.
  Kind pattern = Kind::Opaque;
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

  static PostDominatorTree build(const FusionGraph &graph) {
    PostDominatorTree tree;
    tree.nodes.resize(graph.nodes.size());
    for (size_t i = graph.nodes.size(); i-- > 0;) {
      const GraphNode &gnode = graph.nodes[i];
      DomNode &dnode = tree.nodes[i];
      if (gnode.externRef) {
        dnode = DomNode{};
        continue;
      }
      Kind pattern = Kind::ElemWise;
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
  Kind pattern = Kind::Opaque;
  /// The group holds an out_ewise_fusable op (TVM's anchor_ref).
  bool hasAnchor = false;
  unsigned numNodes = 1;
};

class GraphPartitioner {
public:
  GraphPartitioner(const FusionGraph &graph, unsigned maxDepth)
      : graph(graph), maxDepth(maxDepth) {}

  /// The group root of every node.
  SmallVector<unsigned> partition(int optLevel) {
    groups.resize(graph.nodes.size());
    for (auto [i, node] : llvm::enumerate(graph.nodes)) {
      groups[i].pattern = node.pattern;
      groups[i].hasAnchor = node.pattern == Kind::OutEWiseFusable;
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
      if (pattern == Kind::Opaque || domNode.parent < 0)
        continue;
      unsigned domParent = domNode.parent;
      if (countFusedNodesWithNewChild(nid, domParent) > maxDepth)
        continue;

      if (phase == 2) {
        // Fuse injective ops into intermediate tuples, if any.
        if (!kindLE(pattern, Kind::Injective))
          continue;
        Kind parentPattern = groups[domParent].pattern;
        Kind rootPattern = groups[findRoot(domParent)].pattern;
        if (rootPattern == Kind::Tuple)
          continue;
        if (parentPattern == Kind::Tuple &&
            kindLE(rootPattern, Kind::Injective) &&
            checkPath(nid, domParent,
                      [](Kind k, bool) { return kindLE(k, Kind::Injective); }))
          commitFuse(nid, domParent);
        continue;
      }

      // Already fused into the post-dominator's group.
      if (findRoot(nid) == findRoot(domParent))
        continue;
      // Do not fuse into tuples for now (TVM).
      if (groups[domParent].pattern == Kind::Tuple)
        continue;

      if (pattern == Kind::OutEWiseFusable) {
        // conv2d: absorb elementwise consumers while every op on the way is
        // at most broadcast.
        if (phase != 0 || domNode.pattern != Kind::ElemWise)
          continue;
        if (checkPath(nid, domParent,
                      [](Kind k, bool) { return kindLE(k, Kind::Broadcast); }))
          commitFuse(nid, domParent);
      } else if (kindLE(pattern, Kind::Broadcast)) {
        // Only into an injective or reduction post-dominator.
        if (!kindLE(domNode.pattern, Kind::Injective) &&
            domNode.pattern != Kind::CommReduce)
          continue;
        auto fcond = [](Kind k, bool isSink) {
          if (!isSink)
            return kindLE(k, Kind::Injective);
          return kindLE(k, Kind::Injective) || k == Kind::CommReduce ||
                 k == Kind::OutEWiseFusable;
        };
        if (checkPath(nid, domParent, fcond))
          commitFuse(nid, domParent);
      } else if (pattern == Kind::Injective || pattern == Kind::Tuple) {
        // Second phase, so that conv2d groups are complete first.
        if (phase != 1)
          continue;
        if (checkPath(nid, domParent,
                      [](Kind k, bool) { return kindLE(k, Kind::Injective); }))
          commitFuse(nid, domParent);
      }
      // comm_reduce: nothing to do (it is a sink only).
    }
  }

  const FusionGraph &graph;
  unsigned maxDepth;
  PostDominatorTree tree;
  SmallVector<Group> groups;
  DenseSet<unsigned> visited;
};

} // namespace

SmallVector<unsigned> mlc::partitionFusionGraph(const FusionGraph &graph,
                                                int optLevel,
                                                unsigned maxDepth) {
  for (auto [i, node] : llvm::enumerate(graph.nodes))
    for (const Edge &edge : node.outputs)
      if (edge.node <= i || edge.node >= graph.nodes.size())
        return {};
  return GraphPartitioner(graph, maxDepth).partition(optLevel);
}
