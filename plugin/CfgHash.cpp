//===- CfgHash.cpp - Structural hash of a function's CFG -----------------===//

#include "CfgHash.h"
#include "Compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace mip {

namespace {

cl::opt<unsigned> WrittenRecipe(
    "mip-cfg-hash-recipe", cl::Hidden, cl::init(2),
    cl::desc("MIP: the CFG hash recipe maps are written with (1: an older "
             "MIP's, shape only; for testing)"));

// Words are appended little-endian so the hash does not depend on the
// host that compiles.
void appendWord(SmallVectorImpl<uint8_t> &Bytes, uint64_t Word) {
  for (int I = 0; I < 8; ++I)
    Bytes.push_back(static_cast<uint8_t>(Word >> (8 * I)));
}


// What a direct call calls: its name's hash; 0 for an indirect call or an
// intrinsic (debug intrinsics come and go with -g, and a memcpy's form
// with the target's choices, without changing what runs).
uint64_t calleeWord(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isIntrinsic())
    return 0;
  return compat::xxh3(Callee->getName());
}

// A constant as a word: an integer's value (its low 64 bits), a float's
// bits; 0 for anything else.
uint64_t constantWord(const Value *V) {
  if (const auto *I = dyn_cast<ConstantInt>(V))
    return I->getValue().getLimitedValue();
  if (const auto *F = dyn_cast<ConstantFP>(V))
    return F->getValueAPF().bitcastToAPInt().getLimitedValue();
  return 0;
}

// The constant a conditional branch's comparison sets against, with the
// predicate (a loop's bound, a threshold): words appended to Bytes.
void appendCondition(SmallVectorImpl<uint8_t> &Bytes, const Instruction &Term) {
  if (const auto *Switch = dyn_cast<SwitchInst>(&Term)) {
    for (const auto &Case : Switch->cases())
      appendWord(Bytes, constantWord(Case.getCaseValue()));
    return;
  }
  const auto *Br = dyn_cast<BranchInst>(&Term);
  if (!Br || !Br->isConditional())
    return;
  const auto *Cmp = dyn_cast<CmpInst>(Br->getCondition());
  if (!Cmp)
    return;
  appendWord(Bytes, Cmp->getPredicate());
  appendWord(Bytes, constantWord(Cmp->getOperand(0)));
  appendWord(Bytes, constantWord(Cmp->getOperand(1)));
}

constexpr const char *EdgeCounterKind = "mip.edge_counter";

// A block made to count an edge: counter code, then a branch on, marked
// as the counter's (an original block that holds only a counter is not
// one).
bool isEdgeCounterBlock(const BasicBlock &BB) {
  const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
  if (!Br || Br->isConditional() || !Br->getMetadata(EdgeCounterKind))
    return false;
  for (const Instruction &I : BB)
    if (&I != Br && !I.getMetadata(EdgeCounterKind) && !I.isDebugOrPseudoInst())
      return false;
  return true;
}

// Where control goes from BB, past any edge-counter blocks.
const BasicBlock *pastEdgeCounters(const BasicBlock *BB) {
  for (unsigned Steps = 0; Steps < 8 && isEdgeCounterBlock(*BB); ++Steps)
    BB = BB->getSingleSuccessor();
  return BB;
}

} // namespace

void markEdgeCounter(Instruction &I) {
  I.setMetadata(EdgeCounterKind, MDNode::get(I.getContext(), {}));
}

uint64_t computeCfgHash(const Function &F, CfgHashRecipe Recipe) {
  bool Targets = Recipe == CfgHashRecipe::ShapeAndTargets;
  DenseMap<const BasicBlock *, uint64_t> Index;
  for (const BasicBlock &BB : F)
    if (!isEdgeCounterBlock(BB))
      Index[&BB] = Index.size();

  SmallVector<uint8_t, 256> Bytes;
  appendWord(Bytes, Index.size());
  for (const BasicBlock &BB : F) {
    if (!Index.count(&BB))
      continue;
    uint64_t Calls = 0;
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        ++Calls;
        if (Targets)
          appendWord(Bytes, calleeWord(*Call));
      }
    const Instruction *Term = BB.getTerminator();
    appendWord(Bytes, Term ? Term->getOpcode() : 0);
    appendWord(Bytes, Calls);
    appendWord(Bytes, Term ? Term->getNumSuccessors() : 0);
    if (Term)
      for (const BasicBlock *Succ : successors(Term))
        appendWord(Bytes, Index.lookup(pastEdgeCounters(Succ)));
    if (Term && Targets)
      appendCondition(Bytes, *Term);
  }
  return compat::xxh3(Bytes);
}

CfgHashRecipe writtenCfgHashRecipe() {
  return WrittenRecipe == 1 ? CfgHashRecipe::Shape
                            : CfgHashRecipe::ShapeAndTargets;
}

} // namespace mip
