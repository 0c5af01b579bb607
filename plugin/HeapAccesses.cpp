//===- HeapAccesses.cpp - Counting accesses to heap memory ----------------===//
//
// Heap mode measures how densely each block is used: every access that may
// touch the heap adds 1 to the 64-bit shadow counter of its 64-byte
// granule, at ((addr >> 6) << 3) + 0x7fff8000, AddressSanitizer's layout on
// Linux x86-64, which the runtime maps. On x86-64 (-O1 and up) that is a
// copy of the address into a scratch register, a shift and an increment:
//
//   mov  %addr, %r          (or lea, when the address is computed)
//   shr  $6, %r
//   incq 0x7fff8000(,%r,8)
//
// The increment is plain: threads hitting one granule at once can lose
// counts, never invent them. One access is one increment, whatever its
// size, in the granule of its first byte; a load and a store to the same
// place are two.
//
// Accesses provably to the stack (an alloca of this function, through
// GEPs, casts, phis and selects; an argument passed by value) or
// to a global variable are not counted: they are not heap blocks, and the
// instrumentation's own counters are globals. memcpy, memmove and memset
// (the library calls and the llvm.mem* intrinsics, element-wise atomic
// ones too) hand their ranges to __mip_heap_access_range instead, which
// counts one access in every granule they touch.
//
// Not counted: gathers, scatters, expanding loads and compressing stores
// (vectors of addresses), accesses in other address spaces, inline
// assembly, the copy of a by-value argument, and everything inside
// functions MIP did not compile (libc's string functions among them).
//
//===----------------------------------------------------------------------===//

#include "HeapAccesses.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

constexpr uint64_t ShadowOffset = 0x7fff8000;
constexpr unsigned GranuleShift = 6; // 64 bytes per counter
constexpr unsigned CounterShift = 3; // of 8 bytes
// void __mip_heap_access_range(const void *p, uint64_t size)
constexpr const char *AccessRange = "__mip_heap_access_range";
// How many GEPs and casts to look through for an address's object.
constexpr unsigned MaxLookup = 16;

// An object that is not a heap block: this function's stack, the caller's
// copy of a by-value argument, a global (thread-local ones too). Null and
// undef are no block either.
bool isStackOrGlobal(const Value *Object) {
  if (isa<AllocaInst>(Object) || isa<GlobalValue>(Object) ||
      isa<ConstantPointerNull>(Object) || isa<UndefValue>(Object))
    return true;
  if (const auto *A = dyn_cast<Argument>(Object))
    return A->hasPassPointeeByValueCopyAttr();
  return false;
}

// Whether an access through Ptr is counted: it may reach the heap, and
// its address is an ordinary one.
bool mayBeHeap(const Value *Ptr) {
  if (!Ptr->getType()->isPointerTy() ||
      Ptr->getType()->getPointerAddressSpace() != 0 || Ptr->isSwiftError())
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, MaxLookup);
  return !all_of(Objects, isStackOrGlobal);
}

// Library functions that copy or fill memory: their destination, source
// (-1: none) and length arguments.
struct MemFn {
  int Dst, Src, Len;
};

std::optional<MemFn> memFnOf(const CallBase &CB) {
  const auto *Callee =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee || Callee->isIntrinsic())
    return std::nullopt;
  std::optional<MemFn> Fn =
      StringSwitch<std::optional<MemFn>>(
          GlobalValue::dropLLVMManglingEscape(Callee->getName()))
          .Cases("memcpy", "memmove", "mempcpy", MemFn{0, 1, 2})
          .Cases("__memcpy_chk", "__memmove_chk", "__mempcpy_chk",
                 MemFn{0, 1, 2})
          .Cases("memset", "__memset_chk", MemFn{0, -1, 2})
          .Default(std::nullopt);
  if (!Fn || CB.arg_size() <= static_cast<unsigned>(Fn->Len) ||
      !CB.getArgOperand(Fn->Len)->getType()->isIntegerTy() ||
      !CB.getArgOperand(Fn->Dst)->getType()->isPointerTy() ||
      (Fn->Src >= 0 && !CB.getArgOperand(Fn->Src)->getType()->isPointerTy()))
    return std::nullopt;
  return Fn;
}

struct Access {
  Instruction *Before;
  Value *Ptr;
  Value *Len; // a range's length; nullptr for a single access
};

// What I accesses, as single accesses and ranges.
void accessesOf(Instruction &I, SmallVectorImpl<Access> &Out) {
  auto Add = [&](Value *Ptr, Value *Len = nullptr) {
    if (mayBeHeap(Ptr))
      Out.push_back({&I, Ptr, Len});
  };
  if (auto *L = dyn_cast<LoadInst>(&I))
    return Add(L->getPointerOperand());
  if (auto *S = dyn_cast<StoreInst>(&I))
    return Add(S->getPointerOperand());
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return Add(RMW->getPointerOperand());
  if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    return Add(X->getPointerOperand());
  if (auto *T = dyn_cast<AnyMemTransferInst>(&I)) {
    Add(T->getRawDest(), T->getLength());
    Add(T->getRawSource(), T->getLength());
    return;
  }
  if (auto *S = dyn_cast<AnyMemSetInst>(&I))
    return Add(S->getRawDest(), S->getLength());
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    // llvm.masked.load(ptr, align, mask, passthru) and
    // llvm.masked.store(value, ptr, align, mask): one access, whatever
    // the mask.
    if (II->getIntrinsicID() == Intrinsic::masked_load)
      Add(II->getArgOperand(0));
    else if (II->getIntrinsicID() == Intrinsic::masked_store)
      Add(II->getArgOperand(1));
    return;
  }
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (std::optional<MemFn> Fn = memFnOf(*CB)) {
      Value *Len = CB->getArgOperand(Fn->Len);
      Add(CB->getArgOperand(Fn->Dst), Len);
      if (Fn->Src >= 0)
        Add(CB->getArgOperand(Fn->Src), Len);
    }
  }
}

// Instrumentation code a sanitizer running after us must leave alone.
void markOwn(Instruction *I) {
  I->setMetadata(LLVMContext::MD_nosanitize,
                 MDNode::get(I->getContext(), std::nullopt));
}

void countOne(IRBuilder<> &B, Value *Ptr) {
  Type *I64 = B.getInt64Ty();
  Value *Addr = B.CreatePtrToInt(Ptr, I64);
  Value *Granule = B.CreateLShr(Addr, GranuleShift, "mip.granule");
  Value *Offset = B.CreateShl(Granule, CounterShift);
  Value *Shadow =
      B.CreateIntToPtr(B.CreateAdd(Offset, B.getInt64(ShadowOffset)),
                       B.getPtrTy(), "mip.shadow");
  LoadInst *Old = B.CreateAlignedLoad(I64, Shadow, Align(8), "mip.accesses");
  StoreInst *New =
      B.CreateAlignedStore(B.CreateAdd(Old, B.getInt64(1)), Shadow, Align(8));
  markOwn(Old);
  markOwn(New);
}

void countRange(IRBuilder<> &B, Value *Ptr, Value *Len) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Hook = M.getOrInsertFunction(AccessRange, B.getVoidTy(),
                                              B.getPtrTy(), B.getInt64Ty());
  if (auto *Fn = dyn_cast<Function>(Hook.getCallee()))
    Fn->setDoesNotThrow();
  B.CreateCall(Hook, {Ptr, B.CreateZExtOrTrunc(Len, B.getInt64Ty())});
}

} // namespace

void countHeapAccesses(Function &F) {
  // Code that asked to be left alone by memory instrumentation.
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return;
  SmallVector<Access, 32> Accesses;
  for (Instruction &I : instructions(F))
    if (!I.hasMetadata(LLVMContext::MD_nosanitize))
      accessesOf(I, Accesses);
  for (const Access &A : Accesses) {
    if (A.Len) {
      if (auto *C = dyn_cast<ConstantInt>(A.Len); C && C->isZero())
        continue;
    }
    IRBuilder<> B(A.Before);
    if (A.Len)
      countRange(B, A.Ptr, A.Len);
    else
      countOne(B, A.Ptr);
  }
}


} // namespace mip
