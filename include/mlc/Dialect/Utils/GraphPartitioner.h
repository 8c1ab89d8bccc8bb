//===- GraphPartitioner.h - TVM's fusion partitioning -----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The dialect-independent core of `relax-fuse-ops` and `relay-fuse-ops`:
// TVM's IndexedForwardGraph, its post-dominator tree and GraphPartitioner's
// fusion phases (src/relay/analysis/graph_partitioner.cc). A pass builds the
// graph of one block (nodes in topological order, each with its pattern
// kind, edges carrying the consumer's kind) and gets back the group of every
// node; outlining the groups is the pass's business.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_GRAPHPARTITIONER_H
#define MLC_DIALECT_UTILS_GRAPHPARTITIONER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlc {

/// TVM's OpPatternKind (include/tvm/relay/op_attr_types.h) with TVM's
/// numbering, which is also `mlc::tensorir::OpPatternKind`'s: a larger kind
/// is more complex, and kinds combine with max.
enum class FusionPattern : unsigned {
  ElemWise = 0,
  Broadcast = 1,
  Injective = 2,
  CommReduce = 3,
  OutEWiseFusable = 4,
  Tuple = 7,
  Opaque = 8,
};

/// TVM's IndexedForwardGraph: nodes in topological order (producers before
/// consumers), each with the edges to its consumers.
struct FusionGraph {
  struct Edge {
    unsigned node;
    /// The consumer's kind as seen from this producer (TVM: a broadcast op
    /// is elementwise in the operands that have its result shape).
    FusionPattern pattern;
  };
  struct Node {
    FusionPattern pattern = FusionPattern::Opaque;
    /// The node's value leaves the graph (TVM's extern_ref): it has no
    /// post-dominator, so it is never fused into its consumers (it may
    /// still be the root of a group).
    bool externRef = false;
    llvm::SmallVector<Edge, 2> outputs;
  };

  /// Appends a node; returns its index.
  unsigned addNode(FusionPattern pattern, bool externRef = false) {
    nodes.push_back(Node{pattern, externRef, {}});
    return nodes.size() - 1;
  }
  /// Adds an edge; `producer` must precede `consumer`.
  void addEdge(unsigned producer, unsigned consumer, FusionPattern pattern) {
    nodes[producer].outputs.push_back(Edge{consumer, pattern});
  }

  llvm::SmallVector<Node> nodes;
};

/// Partitions `graph` as TVM's GraphPartitioner with `optLevel` (0: every
/// node is its own group) and `maxDepth` (the largest number of nodes a
/// fusion may make a group). Returns, for every node, the index of its
/// group's root node (the node the group was fused into; TVM's root_ref).
/// Returns an empty vector if an edge does not go forward.
llvm::SmallVector<unsigned>
partitionFusionGraph(const FusionGraph &graph, int optLevel, unsigned maxDepth);

} // namespace mlc

#endif // MLC_DIALECT_UTILS_GRAPHPARTITIONER_H
