//===- BranchWeights.cpp - Branch weights from block coverage -------------===//
//
// Block coverage says which blocks ran in some merged run, not how often.
// So only one thing is certain: an edge into a block that never ran was
// never taken. Such a successor gets weight 1, the others the weight LLVM
// gives a branch it is told is all but certain (MDBuilder's likely
// weights); the code generator then moves the never-run code out of the
// way. A branch whose successors all ran (or none did) keeps its weights.
//
//===----------------------------------------------------------------------===//

#include "BranchWeights.h"
#include "Compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"

using namespace llvm;

namespace mip {

namespace {

// The weights of MDBuilder::createLikelyBranchWeights.
uint32_t likelyWeight(LLVMContext &Ctx) {
  MDNode *Likely = compat::likelyBranchWeights(Ctx);
  auto *Weight = mdconst::extract<ConstantInt>(Likely->getOperand(1));
  return static_cast<uint32_t>(Weight->getZExtValue());
}

// The successors' weights, or none when coverage tells nothing new.
SmallVector<uint32_t, 4> weightsFor(const Instruction &Term,
                                    const DenseMap<const BasicBlock *, bool> &Ran,
                                    uint32_t Likely) {
  SmallVector<uint32_t, 4> Weights;
  bool AnyRan = false, AnyNot = false;
  for (const BasicBlock *Succ : successors(&Term)) {
    bool R = Ran.lookup(Succ);
    AnyRan |= R;
    AnyNot |= !R;
    Weights.push_back(R ? Likely : 1);
  }
  if (!AnyRan || !AnyNot)
    Weights.clear();
  return Weights;
}

} // namespace

unsigned weighBranches(Function &F, const std::vector<bool> &Ran,
                       OptimizationRemarkEmitter &ORE) {
  if (Ran.size() != F.size())
    return 0;
  DenseMap<const BasicBlock *, bool> RanOf;
  unsigned Index = 0;
  for (const BasicBlock &BB : F)
    RanOf[&BB] = Ran[Index++];
  uint32_t Likely = likelyWeight(F.getContext());
  unsigned Weighed = 0;
  for (BasicBlock &BB : F) {
    Instruction *Term = BB.getTerminator();
    if (!RanOf.lookup(&BB) || !Term ||
        !(isa<SwitchInst>(Term) ||
          (isa<BranchInst>(Term) && cast<BranchInst>(Term)->isConditional())))
      continue;
    SmallVector<uint32_t, 4> Weights = weightsFor(*Term, RanOf, Likely);
    if (Weights.empty())
      continue;
    Term->setMetadata(LLVMContext::MD_prof,
                      MDBuilder(F.getContext()).createBranchWeights(Weights));
    Weighed++;
  }
  if (Weighed)
    ORE.emit([&] {
      return OptimizationRemark("mip", "BranchWeights", &F)
             << "weighed " << ore::NV("Branches", Weighed)
             << (Weighed == 1 ? " branch" : " branches")
             << " by the blocks that never ran";
    });
  return Weighed;
}

} // namespace mip
