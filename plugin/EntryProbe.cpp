//===- EntryProbe.cpp - What runs when a function is entered -------------===//
//
// Coverage only: one store to the function's byte of the value that says
// "entered"; on x86-64 a single `movb $1, disp32(%rip)`: no register, no
// flags, no load. On AArch64 the byte starts at 1 and the store is of 0,
// `adrp; strb wzr`, two instructions where a 1 would need a third to make
// it (Target.cpp, include/mip/arch.h).
//
// With counts: the 64-bit call counter counts down from 0 (it holds minus
// the calls): `decq disp32(%rip)`, and with order `subq $1, disp32(%rip)`
// whose borrow says "first call" for free. Plain updates can lose counts
// when threads enter the same function at the same instant; the `atomic`
// mode uses atomic ones instead. 2^64 calls are out of reach of any run,
// so the counter cannot wrap.
//
// With order: the first call (the borrow above, or a zero coverage byte
// without counts) takes a cold branch to the runtime's __mip_first_call,
// which sets the coverage byte and ranks the function; so the fast path
// is one `subq` and one `jb`, and each function carries only a call.
//
// With edges: on the first call and every MIP_EDGE_PERIOD-th, a cold call
// hands the runtime the return address, which names the call site.
//
//===----------------------------------------------------------------------===//

#include "EntryProbe.h"
#include "Compat.h"
#include "LinkRefs.h"
#include "Target.h"

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

// void __mip_first_call(uint8_t *cov, uint32_t *rank), preserve_most
// where the target has it (Target.h).
constexpr const char *FirstCall = "__mip_first_call";
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

void storeEntered(IRBuilder<> &B, Value *Byte, const Target &T) {
  StoreInst *S = B.CreateStore(B.getInt8(T.CovEntered), Byte);
  S->setAtomic(AtomicOrdering::Monotonic);
  S->setAlignment(Align(1));
}

// Counts the call down; returns the counter before it (0 on a first
// call, minus the calls so far after).
Value *countCall(IRBuilder<> &B, InstrumentedFunction &IF, const Modes &M) {
  GlobalVariable *Cnt =
      createCounterArray(*IF.F, MIP_RAW_CNT, B.getInt64Ty(), 1);
  IF.Slots.push_back({MIP_RAW_CNT, 1, Cnt});
  if (M.Atomic)
    return B.CreateAtomicRMW(AtomicRMWInst::Sub, Cnt, B.getInt64(1),
                             MaybeAlign(8), AtomicOrdering::Monotonic);
  LoadInst *Old = B.CreateLoad(B.getInt64Ty(), Cnt, "mip.calls");
  B.CreateStore(B.CreateAdd(Old, B.getInt64(-1)), Cnt);
  return Old;
}

// On the first call, __mip_first_call(cov, ord) out of line.
void rankFirstCall(IRBuilder<> &B, InstrumentedFunction &IF,
                   GlobalVariable *Cov, Value *CallsBefore,
                   Instruction *Anchor) {
  GlobalVariable *Ord =
      createCounterArray(*IF.F, MIP_RAW_ORD, B.getInt32Ty(), 1);
  IF.Slots.push_back({MIP_RAW_ORD, 1, Ord});
  Value *First;
  if (CallsBefore) {
    First = B.CreateIsNull(CallsBefore, "mip.first");
  } else {
    LoadInst *Seen = B.CreateLoad(B.getInt8Ty(), Cov, "mip.seen");
    Seen->setAtomic(AtomicOrdering::Monotonic);
    First = checkedTargetOf(*IF.F->getParent()).CovEntered
                ? B.CreateIsNull(Seen, "mip.first")
                : B.CreateIsNotNull(Seen, "mip.first");
  }
  IRBuilder<> C(coldBranch(First, Anchor));
  Module &M = *IF.F->getParent();
  FunctionCallee Callee = M.getOrInsertFunction(
      FirstCall, C.getVoidTy(), compat::ptrTy(M.getContext()),
      compat::ptrTy(M.getContext()));
  auto *Fn = cast<Function>(Callee.getCallee());
  CallingConv::ID Conv = checkedTargetOf(M).PreserveMost
                             ? CallingConv::PreserveMost
                             : CallingConv::C;
  Fn->setCallingConv(Conv);
  Fn->setDoesNotThrow();
  markRuntimeFunction(*Fn);
  CallInst *Call = C.CreateCall(Callee, {Cov, compat::asPtr(C, Ord)});
  Call->setCallingConv(Conv);
  B.SetInsertPoint(Anchor);
}

void sampleEdge(IRBuilder<> &B, Function &F, GlobalVariable *Cov,
                Value *CallsBefore, Instruction *Anchor) {
  Module &M = *F.getParent();
  // The counter holds minus the calls: its low bits are 0 on the same
  // calls as theirs.
  Value *Phase = B.CreateAnd(CallsBefore, B.getInt64(MIP_EDGE_PERIOD - 1));
  Instruction *Then = coldBranch(B.CreateIsNull(Phase), Anchor);
  IRBuilder<> C(Then);
  Value *ReturnAddress = C.CreateIntrinsic(
      Intrinsic::returnaddress, {}, {C.getInt32(0)}, nullptr, "mip.site");
  FunctionCallee Sample = M.getOrInsertFunction(
      EdgeSample, C.getVoidTy(), compat::ptrTy(M.getContext()),
      compat::ptrTy(M.getContext()));
  markRuntimeFunction(*cast<Function>(Sample.getCallee()));
  C.CreateCall(Sample, {Cov, ReturnAddress});
  B.SetInsertPoint(Anchor);
}

} // namespace

void addEntryProbe(InstrumentedFunction &IF, const Modes &M) {
  Function &F = *IF.F;
  Instruction *Anchor = entryProbePoint(F);
  IRBuilder<> B(Anchor);
  GlobalVariable *Cov = createCounterArray(F, MIP_RAW_COV, B.getInt8Ty(), 1);
  const Target &T = checkedTargetOf(*F.getParent());
  if (!T.CovEntered)
    Cov->setInitializer(B.getInt8(1)); // not yet
  IF.Slots.push_back({MIP_RAW_COV, 1, Cov});
  Value *CallsBefore = M.Counts ? countCall(B, IF, M) : nullptr;
  if (M.Order)
    rankFirstCall(B, IF, Cov, CallsBefore, Anchor);
  else
    storeEntered(B, Cov, T);
  if (M.Edges)
    sampleEdge(B, F, Cov, CallsBefore, Anchor);
}

} // namespace mip
