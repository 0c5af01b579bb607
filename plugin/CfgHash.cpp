//===- CfgHash.cpp - Structural hash of a function's CFG -----------------===//

#include "CfgHash.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace mip {

namespace {

// Words are appended little-endian so the hash does not depend on the
// host that compiles.
void appendWord(SmallVectorImpl<uint8_t> &Bytes, uint64_t Word) {
  for (int I = 0; I < 8; ++I)
    Bytes.push_back(static_cast<uint8_t>(Word >> (8 * I)));
}

} // namespace

uint64_t computeCfgHash(const Function &F) {
  DenseMap<const BasicBlock *, uint64_t> Index;
  for (const BasicBlock &BB : F)
    Index[&BB] = Index.size();

  SmallVector<uint8_t, 256> Bytes;
  appendWord(Bytes, Index.size());
  for (const BasicBlock &BB : F) {
    uint64_t Calls = 0;
    for (const Instruction &I : BB)
      if (isa<CallBase>(I))
        ++Calls;
    const Instruction *Term = BB.getTerminator();
    appendWord(Bytes, Term ? Term->getOpcode() : 0);
    appendWord(Bytes, Calls);
    appendWord(Bytes, Term ? Term->getNumSuccessors() : 0);
    if (Term)
      for (const BasicBlock *Succ : successors(Term))
        appendWord(Bytes, Index.lookup(Succ));
  }
  return xxh3_64bits(Bytes);
}

} // namespace mip
