//===- EdgeCounters.cpp - -fmip-generate=block-counts ---------------------===//

#include "EdgeCounters.h"

#include "CfgHash.h"
#include "Counters.h"
#include "FunctionFilter.h"
#include "FunctionKey.h"
#include "SpanningTree.h"

#include "mip/format.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace mip {

namespace {

constexpr const char *OwnerKind = "mip.edge_counts";
// Marks a module whose edges are counted, so that compiling saved IR
// again does not count them twice.
constexpr const char *CountedFlag = "mip.edges_counted";

// The start of BB, where its counter counts it even when BB ends in a
// call that does not return (a throw, exit()): in the entry block, after
// the static allocas.
Instruction *startOf(BasicBlock &BB) {
  if (&BB == &BB.getParent()->getEntryBlock())
    return entryProbePoint(*BB.getParent());
  return &*BB.getFirstInsertionPt();
}

// Where the counter of edge E goes; splits E when it is critical.
Instruction *counterPoint(const CfgEdge &E) {
  switch (counterPlaceOf(E)) {
  case CounterPlace::Source:
    return startOf(*E.Src);
  case CounterPlace::Destination:
    return startOf(*E.Dst);
  case CounterPlace::NewBlock:
    break;
  }
  BasicBlock *Split = SplitCriticalEdge(E.Src->getTerminator(), E.SuccIndex);
  if (!Split)
    return nullptr;
  markEdgeCounter(*Split->getTerminator());
  return Split->getTerminator();
}

void increment(Instruction *At, GlobalVariable *Counters, unsigned Index,
               bool Atomic) {
  IRBuilder<> B(At);
  Type *Int64 = B.getInt64Ty();
  Value *Counter = Counters->getValueType()->isArrayTy()
                       ? B.CreateConstInBoundsGEP2_32(Counters->getValueType(),
                                                      Counters, 0, Index)
                       : static_cast<Value *>(Counters);
  SmallVector<Value *, 4> Made;
  if (Atomic) {
    Made.push_back(B.CreateAtomicRMW(AtomicRMWInst::Add, Counter,
                                     B.getInt64(1), MaybeAlign(8),
                                     AtomicOrdering::Monotonic));
  } else {
    LoadInst *Old = B.CreateAlignedLoad(Int64, Counter, Align(8), "mip.edge");
    Value *New = B.CreateAdd(Old, B.getInt64(1));
    Made = {Old, New, B.CreateAlignedStore(New, Counter, Align(8))};
  }
  if (Counter != Counters)
    Made.push_back(Counter);
  for (Value *V : Made)
    if (auto *I = dyn_cast<Instruction>(V))
      markEdgeCounter(*I);
}

// Unlike other counters, these are used by every function F is inlined
// into, so they live on without F: not tied to it (an association with a
// function that inlining deleted is no section to link to), and for a
// function of a COMDAT group, in a group of their own, which the linker
// keeps once, as it keeps the function, so that code inlined from any
// copy counts into the one that is kept.
void detachFromFunction(GlobalVariable &Counters, const Function &F) {
  Counters.setMetadata(LLVMContext::MD_associated, nullptr);
  if (!F.hasComdat())
    return;
  Counters.setLinkage(GlobalValue::LinkOnceODRLinkage);
  Counters.setVisibility(GlobalValue::HiddenVisibility);
  Counters.setComdat(
      Counters.getParent()->getOrInsertComdat(Counters.getName()));
}

void recordOwner(GlobalVariable &GV, const Function &F, uint64_t Hash) {
  LLVMContext &Ctx = F.getContext();
  Metadata *Fields[] = {
      MDString::get(Ctx, linkageName(F)), MDString::get(Ctx, unitName(F)),
      ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(Ctx), Hash))};
  GV.setMetadata(OwnerKind, MDNode::get(Ctx, Fields));
}

// Counts F's edges; false when its graph has an edge that must be counted
// and cannot be.
bool countEdges(Function &F, bool Atomic) {
  uint64_t Hash = computeCfgHash(F, CfgHashRecipe::ShapeAndTargets);
  std::optional<SpanningTree> Tree = SpanningTree::of(F);
  if (!Tree || !Tree->counters())
    return false;
  GlobalVariable *Counters = createCounterArray(
      F, MIP_RAW_BCNT, Type::getInt64Ty(F.getContext()), Tree->counters());
  detachFromFunction(*Counters, F);
  recordOwner(*Counters, F, Hash);
  // Every point first: splitting an edge changes no other edge's point.
  SmallVector<std::pair<Instruction *, unsigned>, 16> Points;
  for (const CfgEdge &E : Tree->edges())
    if (!E.InTree)
      Points.push_back({counterPoint(E), E.Counter});
  for (auto [At, Index] : Points)
    if (At)
      increment(At, Counters, Index, Atomic);
  return true;
}

} // namespace

PreservedAnalyses EdgeCountersPass::run(Module &M, ModuleAnalysisManager &) {
  if (M.getModuleFlag(CountedFlag))
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M)
    if (shouldInstrument(F))
      Changed |= countEdges(F, Generated.Atomic);
  M.addModuleFlag(Module::Max, CountedFlag, 1);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

std::optional<EdgeCountsOwner> edgeCountsOwner(const GlobalVariable &GV) {
  const MDNode *N = GV.getMetadata(OwnerKind);
  if (!N || N->getNumOperands() != 3)
    return std::nullopt;
  auto *Name = dyn_cast<MDString>(N->getOperand(0));
  auto *Unit = dyn_cast<MDString>(N->getOperand(1));
  auto *Hash = mdconst::dyn_extract<ConstantInt>(N->getOperand(2));
  if (!Name || !Unit || !Hash)
    return std::nullopt;
  return EdgeCountsOwner{Name->getString().str(), Unit->getString().str(),
                         Hash->getZExtValue()};
}

} // namespace mip
