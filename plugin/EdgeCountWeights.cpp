//===- EdgeCountWeights.cpp - Counts from -fmip-generate=block-counts -----===//

#include "EdgeCountWeights.h"

#include "CfgHash.h"
#include "FunctionKey.h"
#include "Profile.h"
#include "SpanningTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"

#include <algorithm>

using namespace llvm;

namespace mip {

namespace {

constexpr const char *ExactCounts = "mip-block-counts";

// Counts as branch weights, which are 32-bit: scaled down together when
// one does not fit.
SmallVector<uint32_t, 4> weightsOf(ArrayRef<uint64_t> Counts) {
  uint64_t Max = *std::max_element(Counts.begin(), Counts.end());
  uint64_t Divisor = Max > UINT32_MAX ? Max / UINT32_MAX + 1 : 1;
  SmallVector<uint32_t, 4> Weights;
  for (uint64_t C : Counts)
    Weights.push_back(static_cast<uint32_t>(C / Divisor));
  return Weights;
}

bool takesWeights(const Instruction &Term) {
  return Term.getNumSuccessors() > 1 &&
         (isa<BranchInst>(Term) || isa<SwitchInst>(Term) ||
          isa<IndirectBrInst>(Term) || isa<InvokeInst>(Term) ||
          isa<CallBrInst>(Term));
}

// Sets each branch's weights to its edges' counts; a branch that never
// ran keeps what it had.
void weighBranches(Function &F, const SpanningTree &Tree,
                   const std::vector<uint64_t> &Count) {
  DenseMap<const BasicBlock *, SmallVector<uint64_t, 4>> Out;
  for (size_t I = 0; I < Tree.edges().size(); ++I) {
    const CfgEdge &E = Tree.edges()[I];
    if (!E.Src || !E.Dst)
      continue;
    SmallVector<uint64_t, 4> &Counts = Out[E.Src];
    Counts.resize(E.Src->getTerminator()->getNumSuccessors());
    Counts[E.SuccIndex] = Count[I];
  }
  MDBuilder MDB(F.getContext());
  for (BasicBlock &BB : F) {
    Instruction *Term = BB.getTerminator();
    auto It = Out.find(&BB);
    if (!takesWeights(*Term) || It == Out.end() ||
        all_of(It->second, [](uint64_t C) { return C == 0; }))
      continue;
    Term->setMetadata(LLVMContext::MD_prof,
                      MDB.createBranchWeights(weightsOf(It->second)));
  }
}

uint64_t scaled(uint64_t Count, uint64_t Scale) {
  return Count > UINT64_MAX / Scale ? UINT64_MAX : Count * Scale;
}

// A block's count is the sum of the edges into it (the entry block's
// includes the edge from outside: the calls).
uint64_t maxBlockCount(const SpanningTree &Tree,
                       const std::vector<uint64_t> &Count) {
  DenseMap<const BasicBlock *, uint64_t> In;
  uint64_t Max = 0;
  for (size_t I = 0; I < Tree.edges().size(); ++I)
    if (const BasicBlock *Dst = Tree.edges()[I].Dst) {
      uint64_t &C = In[Dst];
      C = Count[I] > UINT64_MAX - C ? UINT64_MAX : C + Count[I];
      Max = std::max(Max, C);
    }
  return Max;
}

} // namespace

Expected<EdgeCountsResult> applyEdgeCounts(Function &F, const Profile &P,
                                           uint64_t Scale) {
  if (F.isDeclaration() || !P.hasEdgeCounts())
    return EdgeCountsResult{};
  std::optional<SpanningTree> Tree = SpanningTree::of(F);
  if (!Tree || !Tree->counters())
    return EdgeCountsResult{};
  Expected<Profile::EdgeCounts> Found = P.edgeCounts(
      profileKey(F), computeCfgHash(F, CfgHashRecipe::ShapeAndTargets),
      Tree->counters());
  if (!Found)
    return Found.takeError();
  if (Found->Counts.empty())
    return EdgeCountsResult{Found->Stale ? EdgeCountsUse::Stale
                                         : EdgeCountsUse::Absent};
  std::vector<uint64_t> Count = Tree->solve(Found->Counts);
  // The first edge is the one into the entry block: the calls.
  F.setEntryCount(Function::ProfileCount(scaled(Count[0], Scale),
                                         Function::PCT_Real));
  weighBranches(F, *Tree, Count);
  F.addFnAttr(ExactCounts);
  return EdgeCountsResult{EdgeCountsUse::Applied,
                          scaled(maxBlockCount(*Tree, Count), Scale)};
}

bool hasExactCounts(const Function &F) { return F.hasFnAttribute(ExactCounts); }

} // namespace mip
