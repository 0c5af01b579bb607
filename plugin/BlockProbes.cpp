//===- BlockProbes.cpp - Basic-block coverage -----------------------------===//
//
// LLVM's BlockCoverageInference picks the blocks that need a probe: a block
// whose coverage follows from its neighbours' (it is covered exactly when
// one of a set of other blocks is) gets none. Only the picked blocks get a
// byte and a store; the map lists, for every other block, the blocks its
// coverage follows from, and mipdata works it out from the counters. The
// entry block never needs a byte of its own: the function's coverage byte
// says whether it ran.
//
//===----------------------------------------------------------------------===//

#include "BlockProbes.h"

#include "mip/format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Instrumentation/BlockCoverageInference.h"

using namespace llvm;

namespace mip {

namespace {

// The line, in this function's own source, of the block's first located
// instruction: for code inlined from elsewhere, the line of the call.
uint32_t blockLine(const BasicBlock &BB) {
  for (const Instruction &I : BB) {
    const DILocation *Loc = I.getDebugLoc().get();
    if (!Loc || Loc->getLine() == 0)
      continue;
    while (const DILocation *Outer = Loc->getInlinedAt())
      Loc = Outer;
    return Loc->getLine();
  }
  return 0;
}

// A block a store can go into (not a catchswitch, say).
bool canProbe(const BasicBlock &BB) {
  return BB.getFirstInsertionPt() != BB.end();
}

} // namespace

void addBlockProbes(InstrumentedFunction &IF) {
  Function &F = *IF.F;
  BlockCoverageInference Inference(F, /*ForceInstrumentEntry=*/false);
  DenseMap<const BasicBlock *, uint32_t> Number;
  for (const BasicBlock &BB : F)
    Number[&BB] = Number.size();

  SmallVector<BasicBlock *, 16> Probed;
  for (BasicBlock &BB : F) {
    BlockInfo Info{blockLine(BB), MIP_PROBE_NONE, {}};
    if (&BB == &F.getEntryBlock()) {
      Info.Probe = MIP_PROBE_ENTRY;
    } else if (Inference.shouldInstrumentBlock(BB) && canProbe(BB)) {
      Info.Probe = Probed.size();
      Probed.push_back(&BB);
    } else {
      for (const BasicBlock *Dep : Inference.getDependencies(BB))
        Info.Deps.push_back(Number.lookup(Dep));
    }
    IF.Blocks.push_back(std::move(Info));
  }
  if (Probed.empty())
    return;

  Type *Int8 = Type::getInt8Ty(F.getContext());
  GlobalVariable *Bytes =
      createCounterArray(F, MIP_RAW_BLK, Int8, Probed.size());
  IF.Slots.push_back({MIP_RAW_BLK, static_cast<unsigned>(Probed.size()), Bytes});
  for (auto [Index, BB] : enumerate(Probed)) {
    IRBuilder<> B(&*BB->getFirstInsertionPt());
    Value *Byte = Probed.size() == 1
                      ? static_cast<Value *>(Bytes)
                      : B.CreateConstInBoundsGEP2_32(Bytes->getValueType(),
                                                     Bytes, 0, Index);
    StoreInst *S = B.CreateStore(B.getInt8(1), Byte);
    S->setAtomic(AtomicOrdering::Monotonic);
    S->setAlignment(Align(1));
  }
}

} // namespace mip
