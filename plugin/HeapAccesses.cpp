//===- HeapAccesses.cpp - Counting accesses to heap memory ----------------===//
//
// Heap mode measures how densely each block is used: every access that may
// touch the heap adds 1 to the 64-bit shadow counter of its 64-byte
// granule, at ((addr >> 6) << 3) + an offset per architecture
// (include/mip/arch.h: 0x7fff8000 on x86-64, 2^36 on AArch64),
// AddressSanitizer's layout, which the runtime maps. On x86-64 (-O1 and
// up) that is a copy of the address into a scratch register, a shift and
// an increment:
//
//   mov  %addr, %r          (or lea, when the address is computed)
//   shr  $6, %r
//   incq 0x7fff8000(,%r,8)
//
// On Armv7 (CounterShift 2) the counter is a u32 that saturates
// (llvm.sadd.sat: qadd), at base + (((addr >> 6) & mask) << 2), where
// {base, mask} is the image's __mip_heap_shadow, loaded at the function's
// entry: the runtime points it at the shadow once it has one, and a
// process without one runs on, counting into a word of the runtime's.
//
// The increment is plain: threads hitting one granule at once can lose
// counts, never invent them. One access counts one, whatever its size; a
// load and a store to the same place are two. A basic block's accesses
// through one pointer at constant inbounds offsets, between calls that may
// free, are one add of their number at the first (countsOf below): the
// block they all lie in sums to the same total with fewer increments.
//
// Accesses provably to the stack (an alloca of this function, through
// GEPs, casts, phis and selects; an argument passed by value) or
// to a global variable are not counted: they are not heap blocks, and the
// instrumentation's own counters are globals. memcpy, memmove and memset
// (the library calls and the llvm.mem* intrinsics, element-wise atomic
// ones too) count one access in every granule their ranges touch: inline
// for a constant length of at most 64 bytes, else by calling
// __mip_heap_access_range.
//
// Not counted: gathers, scatters, expanding loads and compressing stores
// (vectors of addresses), accesses in other address spaces, inline
// assembly, the copy of a by-value argument, and everything inside
// functions MIP did not compile (libc's string functions among them).
//
//===----------------------------------------------------------------------===//

#include "HeapAccesses.h"
#include "Compat.h"
#include "LinkRefs.h"
#include "Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace mip {

namespace {

constexpr unsigned GranuleShift = 6; // 64 bytes per counter
// void __mip_heap_access_range(const void *p, uint64_t size)
constexpr const char *AccessRange = "__mip_heap_access_range";
// The image's {base, mask} of the shadow, where the target reaches it so
constexpr const char *ShadowBase = "__mip_heap_shadow";
// How many GEPs and casts to look through for an address's object.
constexpr unsigned MaxLookup = 16;

// An object that is not a heap block: this function's stack, the caller's
// copy of a by-value argument, a global (thread-local ones too). Null and
// undef are no block either.
bool isStackOrGlobal(const Value *Object) {
  if (isa<AllocaInst>(Object) || isa<GlobalValue>(Object) ||
      isa<ConstantPointerNull>(Object) || isa<UndefValue>(Object) ||
      compat::isThreadLocalAddress(Object))
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
  I->setMetadata(compat::noSanitizeKind(I->getContext()),
                 MDNode::get(I->getContext(), {}));
}

// Where a function's counters are: the shadow's layout for its target,
// and on a 32-bit target the image's {base, mask}, loaded once at its
// entry (shadowThroughBase, Target.h).
struct Shadow {
  const Target &T;
  IntegerType *Addr;    // an address as an integer (i64, or i32)
  IntegerType *Counter; // i64, or i32 that saturates
  Value *Base = nullptr, *Mask = nullptr;

  Shadow(const Target &T, const DataLayout &DL, LLVMContext &Ctx)
      : T(T), Addr(DL.getIntPtrType(Ctx)),
        Counter(IntegerType::get(Ctx, 8u << T.CounterShift)) {}

  // The loads of __mip_heap_shadow at F's entry: {base, mask}, words of
  // the image's runtime that start as {a word of its own, 0}, so that
  // every counter is that word until the shadow is in place, and become
  // {ShadowOffset, all ones} once it is (rt/heap/heap_shadow.c).
  void loadBase(Function &F) {
    if (!T.shadowThroughBase())
      return;
    Module &M = *F.getParent();
    Type *Words = ArrayType::get(Addr, 2);
    auto *G = cast<GlobalVariable>(
        M.getOrInsertGlobal(ShadowBase, Words)->stripPointerCasts());
    G->setVisibility(GlobalValue::HiddenVisibility);
    G->setDSOLocal(true);
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    LoadInst *L = B.CreateLoad(
        Addr, B.CreateConstInBoundsGEP2_32(Words, G, 0, 0), "mip.shadow.base");
    LoadInst *K = B.CreateLoad(
        Addr, B.CreateConstInBoundsGEP2_32(Words, G, 0, 1), "mip.shadow.mask");
    markOwn(L);
    markOwn(K);
    Base = L;
    Mask = K;
  }

  // The counter of the granule holding byte A (an Addr integer).
  Value *counterOf(IRBuilder<> &B, Value *A) const {
    Value *Granule = B.CreateLShr(A, GranuleShift, "mip.granule");
    Value *At;
    if (Base)
      At = B.CreateAdd(Base, B.CreateShl(B.CreateAnd(Granule, Mask),
                                         T.CounterShift));
    else
      At = B.CreateAdd(B.CreateShl(Granule, T.CounterShift),
                       ConstantInt::get(Addr, T.ShadowOffset));
    return B.CreateIntToPtr(At, compat::ptrTo(Counter), "mip.shadow");
  }

  // Adds N (a Counter integer) to a counter: wrapping is out of reach
  // for a u64; a u32 saturates (Arm's qadd: signed, at 2^31 - 1).
  void addTo(IRBuilder<> &B, Value *C, Value *N) const {
    LoadInst *Old = B.CreateAlignedLoad(Counter, C,
                                        Align(1u << T.CounterShift),
                                        "mip.accesses");
    Value *Sum = Counter->getBitWidth() == 64
                     ? B.CreateAdd(Old, N)
                     : B.CreateBinaryIntrinsic(Intrinsic::sadd_sat, Old, N);
    StoreInst *New = B.CreateAlignedStore(Sum, C, Align(1u << T.CounterShift));
    markOwn(Old);
    markOwn(New);
  }

  // Adds N to Ptr's granule counter.
  void countAt(IRBuilder<> &B, Value *Ptr, unsigned N) const {
    Value *A = B.CreatePtrToInt(Ptr, Addr);
    addTo(B, counterOf(B, A), ConstantInt::get(Counter, N));
  }

  // A range of at most one granule's size touches one granule or two:
  // one access in the first, and one in the last unless it is the first.
  // Inline, no call: most are struct copies.
  void countSmallRange(IRBuilder<> &B, Value *Ptr, uint64_t Len) const {
    Value *First = B.CreatePtrToInt(Ptr, Addr);
    Value *Last = B.CreateAdd(First, ConstantInt::get(Addr, Len - 1));
    Value *Two = B.CreateICmpNE(B.CreateLShr(First, GranuleShift),
                                B.CreateLShr(Last, GranuleShift));
    addTo(B, counterOf(B, First), ConstantInt::get(Counter, 1));
    addTo(B, counterOf(B, Last), B.CreateZExt(Two, Counter));
  }

  void countRange(IRBuilder<> &B, Value *Ptr, Value *Len) const;
};

constexpr uint64_t InlineRange = uint64_t(1) << GranuleShift;

void Shadow::countRange(IRBuilder<> &B, Value *Ptr, Value *Len) const {
  if (auto *C = dyn_cast<ConstantInt>(Len); C && C->getValue().ule(InlineRange))
    return countSmallRange(B, Ptr, C->getZExtValue());
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Hook = M.getOrInsertFunction(AccessRange, B.getVoidTy(),
                                              compat::ptrTy(M.getContext()),
                                              B.getInt64Ty());
  if (auto *Fn = dyn_cast<Function>(Hook.getCallee())) {
    Fn->setDoesNotThrow();
    markRuntimeFunction(*Fn);
  }
  B.CreateCall(Hook, {compat::asPtr(B, Ptr),
                      B.CreateZExtOrTrunc(Len, B.getInt64Ty())});
}

// What one increment adds: N accesses at Ptr's granule, or a range.
struct Count {
  Instruction *Before;
  Value *Ptr;
  Value *Len; // a range's length; nullptr for N single accesses
  unsigned N;
};

// The pointer Ptr is a constant offset from, through inbounds GEPs and
// casts: every address so derived lies in the object Base points into.
const Value *baseOf(const Value *Ptr, const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  return Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                                /*AllowNonInbounds=*/false);
}

// Whether I may free memory (or hand it to code that does): a call that
// is neither an intrinsic nor known not to free. Accesses on either side
// of it are counted apart.
bool mayFree(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || isa<IntrinsicInst>(CB) || CB->hasFnAttr(Attribute::NoFree))
    return false;
  return !memFnOf(*CB);
}

// The increments BB needs. Single accesses through one base, between two
// calls that may free, are one increment of their number, at the first
// of them: all of them lie in the block the base points into, so its
// total is the same; only which of its granules holds them differs.
void countsOf(BasicBlock &BB, const DataLayout &DL,
              SmallVectorImpl<Count> &Out) {
  SmallDenseMap<const Value *, size_t, 8> Open; // base -> its Count
  SmallVector<Access, 2> Accesses;
  for (Instruction &I : BB) {
    if (I.hasMetadata(compat::noSanitizeKind(I.getContext())))
      continue;
    Accesses.clear();
    accessesOf(I, Accesses);
    for (const Access &A : Accesses) {
      if (A.Len) {
        if (auto *C = dyn_cast<ConstantInt>(A.Len); !C || !C->isZero())
          Out.push_back({A.Before, A.Ptr, A.Len, 1});
        continue;
      }
      auto [It, First] = Open.try_emplace(baseOf(A.Ptr, DL), Out.size());
      if (First)
        Out.push_back({A.Before, A.Ptr, nullptr, 1});
      else
        Out[It->second].N++;
    }
    if (mayFree(I))
      Open.clear();
  }
}

} // namespace

void countHeapAccesses(Function &F) {
  // Code that asked to be left alone by memory instrumentation.
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return;
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<Count, 32> Counts;
  for (BasicBlock &BB : F)
    countsOf(BB, DL, Counts);
  if (Counts.empty())
    return;
  Shadow S(checkedTargetOf(*F.getParent()), DL, F.getContext());
  S.loadBase(F);
  for (const Count &C : Counts) {
    IRBuilder<> B(C.Before);
    if (C.Len)
      S.countRange(B, C.Ptr, C.Len);
    else
      S.countAt(B, C.Ptr, C.N);
  }
}

} // namespace mip
