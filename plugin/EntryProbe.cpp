//===- EntryProbe.cpp - What runs when a function is entered -------------===//
//
// Coverage only: one store of 1 to the function's byte; on x86-64 a single
// `movb $1, disp32(%rip)`: no register, no flags, no load.
//
// With counts: the 64-bit call counter is incremented (`incq disp32(%rip)`);
// plain increments can lose counts when threads enter the same function at
// the same instant, the `atomic` mode uses atomic ones instead. 2^64 calls
// are out of reach of any run, so the counter cannot wrap.
//
// With order: instead of the coverage store, a test of the coverage byte;
// the first entry (a cold branch) sets it and takes a rank from the image's
// clock. Ranks are unique even with threads; a function entered by two
// threads at once keeps the first rank written.
//
// With edges: on the first call and every MIP_EDGE_PERIOD-th, a cold call
// hands the runtime the return address, which names the call site.
//
//===----------------------------------------------------------------------===//

#include "EntryProbe.h"

#include "mip/format.h"

#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace mip {

namespace {

// The image's first-call clock, defined (hidden) by the runtime.
constexpr const char *OrderClock = "__mip_order_clock";
// void __mip_edge_sample(const uint8_t *callee_cov, void *return_address)
constexpr const char *EdgeSample = "__mip_edge_sample";

// A branch to a block that runs once per function, or once per
// MIP_EDGE_PERIOD calls: tell the optimizer and the code layout.
Instruction *coldBranch(Value *Cond, Instruction *Before) {
  MDNode *Weights =
      MDBuilder(Cond->getContext()).createBranchWeights(1, 1u << 20);
  return SplitBlockAndInsertIfThen(Cond, Before, /*Unreachable=*/false,
                                   Weights);
}

GlobalVariable *orderClock(Module &M) {
  Type *Int32 = Type::getInt32Ty(M.getContext());
  if (GlobalVariable *GV = M.getNamedGlobal(OrderClock))
    return GV;
  auto *GV = new GlobalVariable(M, Int32, /*isConstant=*/false,
                                GlobalValue::ExternalLinkage, nullptr,
                                OrderClock);
  GV->setVisibility(GlobalValue::HiddenVisibility);
  GV->setDSOLocal(true);
  return GV;
}

void storeOne(IRBuilder<> &B, Value *Byte) {
  StoreInst *S = B.CreateStore(B.getInt8(1), Byte);
  S->setAtomic(AtomicOrdering::Monotonic);
  S->setAlignment(Align(1));
}

// Returns the count before this call.
Value *countCall(IRBuilder<> &B, InstrumentedFunction &IF, const Modes &M) {
  GlobalVariable *Cnt =
      createCounterArray(*IF.F, MIP_RAW_CNT, B.getInt64Ty(), 1);
  IF.Slots.push_back({MIP_RAW_CNT, 1, Cnt});
  if (M.Atomic)
    return B.CreateAtomicRMW(AtomicRMWInst::Add, Cnt, B.getInt64(1),
                             MaybeAlign(8), AtomicOrdering::Monotonic);
  LoadInst *Old = B.CreateLoad(B.getInt64Ty(), Cnt, "mip.calls");
  B.CreateStore(B.CreateAdd(Old, B.getInt64(1)), Cnt);
  return Old;
}

// if (!cov) { cov = 1; rank = ++clock; ord = ord ? ord : rank; }
void rankFirstCall(IRBuilder<> &B, InstrumentedFunction &IF,
                   GlobalVariable *Cov, Instruction *Anchor) {
  GlobalVariable *Ord =
      createCounterArray(*IF.F, MIP_RAW_ORD, B.getInt32Ty(), 1);
  IF.Slots.push_back({MIP_RAW_ORD, 1, Ord});
  LoadInst *Seen = B.CreateLoad(B.getInt8Ty(), Cov, "mip.seen");
  Seen->setAtomic(AtomicOrdering::Monotonic);
  Instruction *Then = coldBranch(B.CreateIsNull(Seen), Anchor);
  IRBuilder<> C(Then);
  storeOne(C, Cov);
  Value *Tick = C.CreateAtomicRMW(AtomicRMWInst::Add,
                                  orderClock(*IF.F->getParent()),
                                  C.getInt32(1), MaybeAlign(4),
                                  AtomicOrdering::Monotonic);
  C.CreateAtomicCmpXchg(Ord, C.getInt32(0), C.CreateAdd(Tick, C.getInt32(1)),
                        MaybeAlign(4), AtomicOrdering::Monotonic,
                        AtomicOrdering::Monotonic);
  B.SetInsertPoint(Anchor);
}

void sampleEdge(IRBuilder<> &B, Function &F, GlobalVariable *Cov,
                Value *CallsBefore, Instruction *Anchor) {
  Module &M = *F.getParent();
  Value *Phase = B.CreateAnd(CallsBefore, B.getInt64(MIP_EDGE_PERIOD - 1));
  Instruction *Then = coldBranch(B.CreateIsNull(Phase), Anchor);
  IRBuilder<> C(Then);
  Value *ReturnAddress = C.CreateIntrinsic(
      Intrinsic::returnaddress, {}, {C.getInt32(0)}, nullptr, "mip.site");
  FunctionCallee Sample = M.getOrInsertFunction(
      EdgeSample, C.getVoidTy(), C.getPtrTy(), C.getPtrTy());
  C.CreateCall(Sample, {Cov, ReturnAddress});
  B.SetInsertPoint(Anchor);
}

} // namespace

void addEntryProbe(InstrumentedFunction &IF, const Modes &M) {
  Function &F = *IF.F;
  Instruction *Anchor = entryProbePoint(F);
  IRBuilder<> B(Anchor);
  GlobalVariable *Cov = createCounterArray(F, MIP_RAW_COV, B.getInt8Ty(), 1);
  IF.Slots.push_back({MIP_RAW_COV, 1, Cov});
  Value *CallsBefore = M.Counts ? countCall(B, IF, M) : nullptr;
  if (M.Order)
    rankFirstCall(B, IF, Cov, Anchor);
  else
    storeOne(B, Cov);
  if (M.Edges)
    sampleEdge(B, F, Cov, CallsBefore, Anchor);
}

} // namespace mip
