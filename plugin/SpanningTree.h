//===- SpanningTree.h - The edges block counts are measured on --*- C++ -*-===//
//
// Block-counts mode counts a function's control flow exactly for the cost
// of counters on only some of its edges: those a spanning tree of its
// graph leaves out. The graph has one node per block and one more, the
// outside, with an edge from the outside into the entry block and one
// from each block that leaves the function (return, unreachable, resume)
// back to it, so that every count is a flow that enters and leaves. Each
// tree edge's count then follows from the counted ones by conservation
// (what enters a block leaves it), leaf by leaf.
//
// The instrumenting build (EdgeCounters.cpp) and the rebuild
// (EdgeCountWeights.cpp) must pick the same tree from the same function,
// so it depends on the graph's shape alone: edges likely to run most
// (deepest in loops) join the tree first, so that counters sit on the
// edges that run least; ties go by the order of the blocks and their
// successors. The function's CFG hash, taken at the same point of the
// pipeline, says whether the rebuild sees the same graph.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_SPANNINGTREE_H
#define MIP_PLUGIN_SPANNINGTREE_H

#include <cstdint>
#include <optional>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace mip {

struct CfgEdge {
  // Src null: the edge into the entry block. Dst null: an edge that
  // leaves the function.
  llvm::BasicBlock *Src = nullptr;
  llvm::BasicBlock *Dst = nullptr;
  unsigned SuccIndex = 0; // which successor of Src's terminator Dst is
  bool InTree = false;
  // Index of its counter (measured edges only).
  unsigned Counter = 0;
};

class SpanningTree {
public:
  // The tree of F, or nullopt when some edge that must carry a counter
  // can hold none (an edge into an exception pad with other predecessors,
  // say, which cannot be split): such a function is not counted.
  static std::optional<SpanningTree> of(llvm::Function &F);

  const std::vector<CfgEdge> &edges() const { return Edges; }
  unsigned counters() const { return Counters; }

  // Every edge's count, from the measured edges' counts (in the order of
  // their Counter indices): conservation at each node settles the tree
  // edges one by one. A count that would come out below zero (a flow
  // broken by exit() or longjmp, or counters raced by threads) is 0.
  std::vector<uint64_t> solve(const std::vector<uint64_t> &Measured) const;

private:
  SpanningTree() = default;
  std::vector<CfgEdge> Edges;
  unsigned Counters = 0;
  unsigned Nodes = 0; // blocks, then the outside
  std::vector<unsigned> NodeOfSrc, NodeOfDst; // per edge
};

// Where Edge's counter goes: at the start of its source block (the edge
// into the entry, or the source's only edge), of its destination (the
// destination's only edge), or of a new block on it (a critical edge).
enum class CounterPlace { Source, Destination, NewBlock };
CounterPlace counterPlaceOf(const CfgEdge &Edge);

// Whether Edge can carry a counter there (a critical edge that cannot be
// split, or a block that holds no instruction of ours, cannot).
bool canCountOn(const CfgEdge &Edge);

} // namespace mip

#endif
