//===- FlowWeights.cpp - Branch weights by flow inference -----------------===//
//
// Before inlining the profile's blocks do not map onto the function (they
// were recorded on optimized code), but some block counts are known: the
// entry block runs as often as the function is called, and a block with a
// call runs as often as that call site is taken. LLVM's profile inference
// (the min-cost flow of sample PGO, "profi") finds the flow through the
// CFG that fits those counts best; the branches whose successors all have
// known counts then get that flow as weights, so that the inliner and
// block frequency see a loop that calls a function a million times from a
// function called once run a million times, and a call of a function
// that never ran as never taken. Other branches keep LLVM's estimates.
//
//===----------------------------------------------------------------------===//

#include "FlowWeights.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/SampleProfileInference.h"

#include <algorithm>

using namespace llvm;

// The header's generic exit test is the machine-level one; LLVM's sample
// profile loader specializes it for IR in its own source, as here.
template <>
inline bool SampleProfileInference<Function>::isExit(const BasicBlock *BB) {
  return succ_empty(BB);
}

namespace mip {

namespace {

using Inference = SampleProfileInference<Function>;

// Each block's distinct successors (a switch may name one several times:
// one flow edge).
Inference::BlockEdgeMap successorsOf(const Function &F) {
  Inference::BlockEdgeMap Successors;
  for (const BasicBlock &BB : F) {
    SmallPtrSet<const BasicBlock *, 8> Seen;
    for (const BasicBlock *Succ : successors(&BB))
      if (Seen.insert(Succ).second)
        Successors[&BB].push_back(Succ);
  }
  return Successors;
}

// The weights of Term's successors from the flow: a successor named twice
// gets the flow once. Scaled to 32 bits; a flow of 0 stays 0, as sample
// PGO writes profi's flows.
SmallVector<uint32_t, 4> weightsOf(const Instruction &Term,
                                   const Inference::EdgeWeightMap &Flow) {
  SmallVector<uint64_t, 4> Raw;
  SmallPtrSet<const BasicBlock *, 8> Seen;
  const BasicBlock *From = Term.getParent();
  for (const BasicBlock *Succ : successors(&Term))
    Raw.push_back(Seen.insert(Succ).second ? Flow.lookup({From, Succ}) : 0);
  uint64_t Max = *std::max_element(Raw.begin(), Raw.end());
  uint64_t Scale = Max / UINT32_MAX + 1;
  SmallVector<uint32_t, 4> Weights;
  for (uint64_t W : Raw)
    Weights.push_back(static_cast<uint32_t>(W / Scale));
  return Weights;
}

// Whether all of Term's successors have known counts. Where one has not,
// its flow is only what the minimum-cost flow needed to route through it,
// often nothing at all, and LLVM's own estimates (a loop runs several
// times, an error path rarely) are better.
bool leadsToKnown(const Instruction &Term, const BlockCounts &Known) {
  return all_of(successors(&Term),
                [&](const BasicBlock *Succ) { return Known.count(Succ); });
}

// A known block of a loop's own body that every iteration passes through
// (it dominates every latch) runs as often as the loop iterates: its count
// is the header's, give or take the last test. Outer loops are counted
// from their own blocks; an inner loop's block says nothing about how
// often the outer one iterates.
void countLoopHeaders(const LoopInfo &LI, const DominatorTree &DT,
                      BlockCounts &Known) {
  for (const Loop *L : LI.getLoopsInPreorder()) {
    if (Known.count(L->getHeader()))
      continue;
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    for (const BasicBlock *BB : L->blocks()) {
      auto It = Known.find(BB);
      if (It == Known.end() || LI.getLoopFor(BB) != L ||
          !all_of(Latches, [&](const BasicBlock *Latch) {
            return DT.dominates(BB, Latch);
          }))
        continue;
      Known[L->getHeader()] = It->second;
      break;
    }
  }
}

// Whether Term leaves or repeats a loop whose header has a known count:
// its flow is then fixed by that count and what enters the loop, and is
// what makes the loop run as often as it did.
bool controlsKnownLoop(const Instruction &Term, const LoopInfo &LI,
                       const BlockCounts &Known) {
  for (const Loop *L = LI.getLoopFor(Term.getParent()); L;
       L = L->getParentLoop())
    if (Known.count(L->getHeader()) && (L->isLoopExiting(Term.getParent()) ||
                                        L->isLoopLatch(Term.getParent())))
      return true;
  return false;
}


} // namespace

unsigned weighByFlow(Function &F, const BlockCounts &Counts) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  BlockCounts Known = Counts;
  countLoopHeaders(LI, DT, Known);
  Inference::BlockEdgeMap Successors = successorsOf(F);
  Inference::BlockWeightMap Samples(Known.begin(), Known.end());
  Inference::BlockWeightMap BlockFlow;
  Inference::EdgeWeightMap EdgeFlow;
  Inference(F, Successors, Samples).apply(BlockFlow, EdgeFlow);
  if (EdgeFlow.empty())
    return 0;
  unsigned Weighed = 0;
  MDBuilder MDB(F.getContext());
  for (BasicBlock &BB : F) {
    Instruction *Term = BB.getTerminator();
    if (!Term || Term->getNumSuccessors() < 2 || !BlockFlow.count(&BB) ||
        !(isa<BranchInst>(Term) || isa<SwitchInst>(Term)) ||
        !(leadsToKnown(*Term, Known) || controlsKnownLoop(*Term, LI, Known)))
      continue;
    Term->setMetadata(LLVMContext::MD_prof,
                      MDB.createBranchWeights(weightsOf(*Term, EdgeFlow)));
    Weighed++;
  }
  return Weighed;
}

} // namespace mip
