//===- SpanningTree.cpp - The edges block counts are measured on ----------===//

#include "SpanningTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <deque>
#include <numeric>

using namespace llvm;

namespace mip {

namespace {

bool canInsertInto(const BasicBlock &BB) {
  return BB.getFirstInsertionPt() != BB.end();
}


bool isCritical(const CfgEdge &E) {
  return E.Src && E.Dst && E.Src->getTerminator()->getNumSuccessors() > 1 &&
         E.Dst->getSinglePredecessor() != E.Src;
}

// Union-find over the graph's nodes.
class Components {
public:
  explicit Components(unsigned N) : Parent(N) {
    std::iota(Parent.begin(), Parent.end(), 0);
  }
  // Joins the components of A and B; false when they were one already.
  bool join(unsigned A, unsigned B) {
    A = find(A), B = find(B);
    if (A == B)
      return false;
    Parent[A] = B;
    return true;
  }

private:
  unsigned find(unsigned X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  }
  std::vector<unsigned> Parent;
};

} // namespace

CounterPlace counterPlaceOf(const CfgEdge &E) {
  if (!E.Src)
    return CounterPlace::Destination;
  if (!E.Dst || E.Src->getTerminator()->getNumSuccessors() == 1)
    return CounterPlace::Source;
  if (E.Dst->getSinglePredecessor() == E.Src)
    return CounterPlace::Destination;
  return CounterPlace::NewBlock;
}

bool canCountOn(const CfgEdge &E) {
  switch (counterPlaceOf(E)) {
  case CounterPlace::Source:
    return canInsertInto(*E.Src);
  case CounterPlace::Destination:
    return canInsertInto(*E.Dst);
  case CounterPlace::NewBlock:
    break;
  }
  const Instruction *Term = E.Src->getTerminator();
  return !isa<IndirectBrInst>(Term) && !isa<CallBrInst>(Term) &&
         !E.Dst->isEHPad();
}

std::optional<SpanningTree> SpanningTree::of(Function &F) {
  SpanningTree T;
  DenseMap<const BasicBlock *, unsigned> Node;
  for (BasicBlock &BB : F)
    Node[&BB] = T.Nodes++;
  unsigned Outside = T.Nodes++;

  T.Edges.push_back({nullptr, &F.getEntryBlock(), 0});
  for (BasicBlock &BB : F) {
    const Instruction *Term = BB.getTerminator();
    if (Term->getNumSuccessors() == 0)
      T.Edges.push_back({&BB, nullptr, 0});
    for (unsigned I = 0; I < Term->getNumSuccessors(); ++I)
      T.Edges.push_back({&BB, Term->getSuccessor(I), I});
  }
  for (const CfgEdge &E : T.Edges) {
    T.NodeOfSrc.push_back(E.Src ? Node[E.Src] : Outside);
    T.NodeOfDst.push_back(E.Dst ? Node[E.Dst] : Outside);
  }

  // How much an edge should be in the tree: first those that must (the
  // entry, which every call would otherwise count, and edges that can
  // hold no counter); then by loop depth, an edge running about as often
  // as the shallower of its ends; at one depth, a critical edge first,
  // which would need a block of its own to be counted.
  DominatorTree DT(F);
  LoopInfo LI(DT);
  auto DepthOf = [&](const BasicBlock *BB) {
    return BB ? LI.getLoopDepth(BB) : 0u;
  };
  std::vector<uint64_t> Rank(T.Edges.size());
  for (size_t I = 0; I < T.Edges.size(); ++I) {
    const CfgEdge &E = T.Edges[I];
    bool Must = !E.Src || !canCountOn(E);
    unsigned Depth = E.Src && E.Dst ? std::min(DepthOf(E.Src), DepthOf(E.Dst))
                                    : DepthOf(E.Src ? E.Src : E.Dst);
    Rank[I] = (uint64_t(Must) << 40) | (uint64_t(Depth) << 1) | isCritical(E);
  }
  std::vector<size_t> Order(T.Edges.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Rank[A] != Rank[B] ? Rank[A] > Rank[B] : A < B;
  });

  Components Joined(T.Nodes);
  for (size_t I : Order)
    T.Edges[I].InTree = Joined.join(T.NodeOfSrc[I], T.NodeOfDst[I]);
  for (CfgEdge &E : T.Edges) {
    if (E.InTree)
      continue;
    if (!canCountOn(E))
      return std::nullopt;
    E.Counter = T.Counters++;
  }
  return T;
}

std::vector<uint64_t>
SpanningTree::solve(const std::vector<uint64_t> &Measured) const {
  std::vector<uint64_t> Count(Edges.size());
  std::vector<bool> Known(Edges.size());
  // Per node: its edges, and how many of them are still unknown.
  std::vector<std::vector<unsigned>> EdgesOf(Nodes);
  std::vector<unsigned> Unknown(Nodes);
  for (unsigned I = 0; I < Edges.size(); ++I) {
    EdgesOf[NodeOfSrc[I]].push_back(I);
    if (NodeOfDst[I] != NodeOfSrc[I])
      EdgesOf[NodeOfDst[I]].push_back(I);
    if (Edges[I].InTree) {
      Unknown[NodeOfSrc[I]]++;
      Unknown[NodeOfDst[I]]++;
      continue;
    }
    Known[I] = true;
    Count[I] = Edges[I].Counter < Measured.size() ? Measured[Edges[I].Counter]
                                                  : 0;
  }
  std::deque<unsigned> Ready;
  for (unsigned N = 0; N < Nodes; ++N)
    if (Unknown[N] == 1)
      Ready.push_back(N);
  while (!Ready.empty()) {
    unsigned N = Ready.front();
    Ready.pop_front();
    if (Unknown[N] != 1)
      continue;
    // In and out of N, but for its one unknown edge.
    uint64_t In = 0, Out = 0;
    unsigned Missing = 0;
    for (unsigned I : EdgesOf[N]) {
      if (!Known[I]) {
        Missing = I;
        continue;
      }
      if (NodeOfDst[I] == N)
        In += Count[I];
      if (NodeOfSrc[I] == N)
        Out += Count[I];
    }
    bool Enters = NodeOfDst[Missing] == N;
    Count[Missing] = Enters ? (Out > In ? Out - In : 0)
                            : (In > Out ? In - Out : 0);
    Known[Missing] = true;
    for (unsigned End : {NodeOfSrc[Missing], NodeOfDst[Missing]})
      if (--Unknown[End] == 1)
        Ready.push_back(End);
  }
  return Count;
}

} // namespace mip
