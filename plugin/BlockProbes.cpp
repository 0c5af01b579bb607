//===- BlockProbes.cpp - Basic-block coverage -----------------------------===//
//
// LLVM's BlockCoverageInference picks the blocks that need a probe: a block
// whose coverage follows from its neighbours' (it is covered exactly when
// one of a set of other blocks is) gets none. Only the picked blocks get a
// byte and a store; the map lists, for every other block, the blocks its
// coverage follows from, and mipdata works it out from the counters. The
// entry block never needs a byte of its own: the function's coverage byte
// says whether it ran. The inference leaves some dependency cycles
// unanchored; those get a probe too (knownBlocks), which the end-to-end
// tests check by comparing with a probe in every block.
//
// Inference assumes that a block which runs also reaches a return or
// another terminal block; execution that stops inside a callee (exit() in
// a function not marked noreturn, longjmp) can leave blocks before it
// reported as not run. Mode all-blocks probes every block.
//
//===----------------------------------------------------------------------===//

#include "BlockProbes.h"
#include "Compat.h"

#include "mip/format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"

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

// Whether each block's coverage is known: probed, the entry, or inferred
// from blocks that are known themselves. Dependencies can form cycles
// that nothing anchors (LLVM's inference leaves one in a loop whose latch
// and exit are separate blocks); blocks in them are not known.
std::vector<bool> knownBlocks(const std::vector<BlockInfo> &Blocks) {
  std::vector<bool> Known(Blocks.size());
  for (size_t I = 0; I < Blocks.size(); ++I)
    Known[I] = Blocks[I].Probe != MIP_PROBE_NONE;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Blocks.size(); ++I) {
      const BlockInfo &B = Blocks[I];
      if (Known[I] || B.Deps.empty())
        continue;
      if (all_of(B.Deps, [&](uint32_t D) { return Known[D]; }))
        Known[I] = Changed = true;
    }
  }
  return Known;
}

} // namespace

void addBlockProbes(InstrumentedFunction &IF, bool ProbeAll) {
  Function &F = *IF.F;
  compat::BlockCoverage Inference(F);
  DenseMap<const BasicBlock *, uint32_t> Number;
  SmallVector<BasicBlock *, 32> ByNumber;
  for (BasicBlock &BB : F) {
    Number[&BB] = ByNumber.size();
    ByNumber.push_back(&BB);
  }

  SmallVector<BasicBlock *, 16> Probed;
  auto Probe = [&](BlockInfo &Info, BasicBlock &BB) {
    Info.Probe = Probed.size();
    Info.Deps.clear();
    Probed.push_back(&BB);
  };
  for (BasicBlock &BB : F) {
    BlockInfo Info{blockLine(BB), MIP_PROBE_NONE, {}};
    if (&BB == &F.getEntryBlock())
      Info.Probe = MIP_PROBE_ENTRY;
    else if ((ProbeAll || Inference.shouldProbe(BB)) && canProbe(BB))
      Probe(Info, BB);
    else
      for (const BasicBlock *Dep : Inference.dependencies(BB))
        Info.Deps.push_back(Number.lookup(Dep));
    IF.Blocks.push_back(std::move(Info));
  }
  // Probe blocks whose coverage would stay unknown, one at a time (each
  // may settle others), until every block is known or cannot be probed.
  for (bool Settled = false; !Settled;) {
    std::vector<bool> Known = knownBlocks(IF.Blocks);
    Settled = true;
    for (size_t I = 0; I < IF.Blocks.size() && Settled; ++I)
      if (!Known[I] && canProbe(*ByNumber[I])) {
        Probe(IF.Blocks[I], *ByNumber[I]);
        Settled = false;
      }
  }
  if (Probed.empty())
    return;

  Type *Int8 = Type::getInt8Ty(F.getContext());
  GlobalVariable *Bytes =
      createCounterArray(F, MIP_RAW_BLK, Int8, Probed.size());
  IF.Slots.push_back({MIP_RAW_BLK, static_cast<unsigned>(Probed.size()), Bytes});
  for (unsigned Index = 0; Index < Probed.size(); ++Index) {
    BasicBlock *BB = Probed[Index];
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
