//===- DataAccesses.cpp - Counting accesses to global variables -----------===//
//
// Data mode counts, per global variable, the loads and stores that reach
// it, so that a rebuild can put the hot ones together and the untouched
// ones out of the way (DataSections.cpp, docs/instrumentation.md). The
// variable an access reaches is known at compile time for every access
// whose address is the variable's plus an offset (getUnderlyingObject:
// through GEPs, with constant or variable indices, and casts), so each
// variable gets one 64-bit counter and an access costs one add to a fixed
// address:
//
//   addq $1, __mip_data.table(%rip)
//
// A basic block's accesses to one variable, between two calls that may
// not return, are one add of their number at the first. An access counts
// the machine accesses it becomes: one, unless it is wider than the
// target's registers (a vector wider than its vector registers, an i128
// on a 64-bit target), which the code generator splits into as many as
// fit. A load and a store are two, and so are the read and the write of
// an atomic read-modify-write or compare-and-exchange. A memcpy, memmove
// or memset intrinsic counts one per variable it reads or writes, however
// many instructions it becomes.
//
// Not counted: accesses through a pointer that is not visibly the
// variable's (stored, passed to a function, merged by a phi or select),
// which is what inside the called function becomes of every one passed by
// address, and accesses by code MIP did not compile. A variable whose
// address goes anywhere but to such a counted access is marked
// MIP_DATA_ESCAPES, so that no counted access is not taken for never
// touched.
//
// The counter of a variable other units can see is shared by all of
// them: linkonce_odr, hidden, in a COMDAT group of its own name, so the
// linker keeps one. A local variable's is local to its unit.
//
//===----------------------------------------------------------------------===//

#include "DataAccesses.h"

#include "Compat.h"
#include "Counters.h"
#include "FunctionFilter.h"

#include "mip/format.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace mip {

bool isCountedData(const GlobalVariable &GV) {
  StringRef Name = GV.getName();
  if (Name.empty() || GV.hasPrivateLinkage() || GV.hasAppendingLinkage() ||
      GV.isThreadLocal() || GV.getType()->getAddressSpace() != 0)
    return false;
  // A section of the program's own; one a profile gave (a build that uses
  // a profile and instruments too) is still counted.
  if (GV.hasSection() && !GV.hasAttribute(DataTemperatureAttr))
    return false;
  // '#pragma clang section' variables, and MIP's counters.
  if (GV.hasAttribute("bss-section") || GV.hasAttribute("data-section") ||
      GV.hasAttribute("rodata-section"))
    return false;
  return !compat::startsWith(Name, "llvm.") && !compat::startsWith(Name, "__mip");
}

namespace {

// Whether F's accesses are counted: the functions data mode instruments.
bool countsIn(const Function &F) {
  return shouldInstrument(F) &&
         !F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation);
}

// The addresses I reads or writes that data mode counts, once per access
// (an atomic update: a read and a write).
void addressesOf(Instruction &I, SmallVectorImpl<Value *> &Out) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    Out.push_back(L->getPointerOperand());
  else if (auto *S = dyn_cast<StoreInst>(&I))
    Out.push_back(S->getPointerOperand());
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Out.append(2, RMW->getPointerOperand());
  else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    Out.append(2, X->getPointerOperand());
  else if (auto *T = dyn_cast<AnyMemTransferInst>(&I)) {
    Out.push_back(T->getRawDest());
    Out.push_back(T->getRawSource());
  } else if (auto *S = dyn_cast<AnyMemSetInst>(&I))
    Out.push_back(S->getRawDest());
  else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (II->getIntrinsicID() == Intrinsic::masked_load)
      Out.push_back(II->getArgOperand(0));
    else if (II->getIntrinsicID() == Intrinsic::masked_store)
      Out.push_back(II->getArgOperand(1));
  }
}

// Whether V, a use of a variable's address by User, is one count()
// counts: the address of a counted access in a counted function.
bool isCountedAccess(const User *U, const Value *V) {
  const auto *I = dyn_cast<Instruction>(U);
  if (!I || !countsIn(*I->getFunction()))
    return false;
  SmallVector<Value *, 2> Addresses;
  addressesOf(const_cast<Instruction &>(*I), Addresses);
  // A store of the address itself (as a value) is not an access to it.
  if (const auto *S = dyn_cast<StoreInst>(I); S && S->getValueOperand() == V)
    return false;
  return is_contained(Addresses, V);
}

// Whether a constant that holds the address is only in llvm.used and the
// like, which are no uses at run time.
bool onlyInCompilerLists(const Constant *C) {
  for (const User *U : C->users()) {
    const auto *GV = dyn_cast<GlobalVariable>(U);
    if (!GV || !compat::startsWith(GV->getName(), "llvm."))
      return false;
  }
  return true;
}

// Whether GV's address reaches anything but a counted access: see the
// file comment.
bool escapes(const GlobalVariable &GV) {
  SmallVector<const Value *, 16> Work{&GV};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<GEPOperator>(U) || isa<BitCastOperator>(U) ||
          isa<AddrSpaceCastOperator>(U)) {
        Work.push_back(U);
        continue;
      }
      if (isCountedAccess(U, V))
        continue;
      if (const auto *C = dyn_cast<Constant>(U);
          C && !isa<GlobalValue>(C) && onlyInCompilerLists(C))
        continue;
      return true;
    }
  }
  return false;
}

// "__mip_data.<name>", with anything an assembler might trip over
// replaced, so the map's module assembly can name it unquoted.
std::string counterName(const GlobalVariable &GV) {
  std::string Name = "__mip_data.";
  for (char C : GlobalValue::dropLLVMManglingEscape(GV.getName()))
    Name += isAlnum(C) || C == '_' || C == '.' ? C : '_';
  return Name;
}

// Our own instructions, which neither mode counts and a sanitizer running
// after us leaves alone.
void markOwn(Instruction *I) {
  I->setMetadata(compat::noSanitizeKind(I->getContext()),
                 MDNode::get(I->getContext(), {}));
}

// Adds N to Counter, atomically when asked (exact counts under threads).
void addTo(IRBuilder<> &B, GlobalVariable *Counter, unsigned N, bool Atomic) {
  Type *I64 = B.getInt64Ty();
  if (Atomic) {
    markOwn(B.CreateAtomicRMW(AtomicRMWInst::Add, Counter, B.getInt64(N),
                              Align(8), AtomicOrdering::Monotonic));
    return;
  }
  LoadInst *Old = B.CreateAlignedLoad(I64, Counter, Align(8), "mip.data");
  markOwn(Old);
  markOwn(B.CreateAlignedStore(B.CreateAdd(Old, B.getInt64(N)), Counter,
                               Align(8)));
}

// A call that may not come back (exit, longjmp, a throw): accesses on
// either side of it are counted apart, so none is counted that was not
// made.
bool mayNotReturn(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  return CB && !isa<IntrinsicInst>(CB) &&
         !(CB->doesNotThrow() && CB->hasFnAttr(Attribute::WillReturn));
}

struct Increment {
  Instruction *Before;
  GlobalVariable *Object;
  unsigned N;
};

// The widest registers of a function's target: for vectors, and for
// scalars (its pointers).
struct RegisterBits {
  uint64_t Vector;
  uint64_t Scalar;
};

// How many machine accesses a load or store of Ty becomes: the pieces of
// the widest register that hold it.
unsigned piecesOf(Type *Ty, const DataLayout &DL, RegisterBits Bits) {
  if (!Ty->isSized())
    return 1;
  uint64_t Size = DL.getTypeStoreSizeInBits(Ty).getKnownMinValue();
  uint64_t Width = Ty->isVectorTy() ? Bits.Vector : Bits.Scalar;
  if (!Ty->isVectorTy() && !Ty->isIntegerTy())
    return 1; // floating point: x87 and SSE registers hold it whole
  if (Width == 0 || Size <= Width)
    return 1;
  return static_cast<unsigned>((Size + Width - 1) / Width);
}

// The type I loads or stores, or null.
Type *accessedType(const Instruction &I) {
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return L->getType();
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return S->getValueOperand()->getType();
  return nullptr;
}

void incrementsOf(BasicBlock &BB, RegisterBits Bits,
                  SmallVectorImpl<Increment> &Out) {
  const DataLayout &DL = BB.getModule()->getDataLayout();
  SmallDenseMap<GlobalVariable *, size_t, 8> Open; // variable -> its add
  SmallVector<Value *, 2> Addresses;
  for (Instruction &I : BB) {
    if (I.hasMetadata(compat::noSanitizeKind(I.getContext())))
      continue;
    Addresses.clear();
    addressesOf(I, Addresses);
    Type *Ty = accessedType(I);
    unsigned Pieces = Ty ? piecesOf(Ty, DL, Bits) : 1;
    for (Value *Address : Addresses) {
      auto *GV = dyn_cast<GlobalVariable>(
          getUnderlyingObject(Address, /*MaxLookup=*/0));
      if (!GV || !isCountedData(*GV))
        continue;
      auto [It, First] = Open.try_emplace(GV, Out.size());
      if (First)
        Out.push_back({&I, GV, Pieces});
      else
        Out[It->second].N += Pieces;
    }
    if (mayNotReturn(I))
      Open.clear();
  }
}

} // namespace

GlobalVariable *DataAccesses::counterOf(GlobalVariable &GV) {
  GlobalVariable *&Counter = Counters[&GV];
  if (Counter)
    return Counter;
  Type *I64 = Type::getInt64Ty(M.getContext());
  bool Local = GV.hasLocalLinkage();
  Counter = new GlobalVariable(
      M, I64, /*isConstant=*/false,
      Local ? GlobalValue::InternalLinkage : GlobalValue::LinkOnceODRLinkage,
      ConstantInt::get(I64, 0), counterName(GV));
  if (!Local) {
    Counter->setVisibility(GlobalValue::HiddenVisibility);
    Counter->setComdat(M.getOrInsertComdat(Counter->getName()));
  }
  // As Counters.cpp's arrays: in the kind's section, without file bytes.
  Counter->addAttribute("bss-section", counterSectionName(MIP_RAW_DATA));
  Counter->addAttribute("data-section", counterSectionName(MIP_RAW_DATA));
  Counter->setAlignment(Align(8));
  return Counter;
}

void DataAccesses::count(Function &F) {
  if (!countsIn(F))
    return;
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  RegisterBits Bits{
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue(),
      std::max<uint64_t>(
          TTI.getRegisterBitWidth(TargetTransformInfo::RGK_Scalar)
              .getFixedValue(),
          M.getDataLayout().getPointerSizeInBits())};
  SmallVector<Increment, 16> Increments;
  for (BasicBlock &BB : F)
    incrementsOf(BB, Bits, Increments);
  for (const Increment &Inc : Increments) {
    IRBuilder<> B(Inc.Before);
    addTo(B, counterOf(*Inc.Object), Inc.N, Atomic);
  }
}

std::vector<DataInfo> DataAccesses::records() {
  const DataLayout &DL = M.getDataLayout();
  // Collected first: a new counter replaces llvm.compiler.used.
  SmallVector<GlobalVariable *, 16> Others;
  for (GlobalVariable &GV : M.globals())
    if (isCountedData(GV) && !Counters.count(&GV) &&
        (!GV.isDeclarationForLinker() || escapes(GV)))
      Others.push_back(&GV);
  for (GlobalVariable *GV : Others)
    counterOf(*GV);
  // The map refers to the counters from module assembly, which the
  // optimizer cannot see.
  SmallVector<GlobalValue *, 16> Used;
  for (const auto &Entry : Counters)
    Used.push_back(Entry.second);
  appendToCompilerUsed(M, Used);
  std::vector<DataInfo> Out;
  for (const auto &[GV, Counter] : Counters) {
    bool Defined = !GV->isDeclarationForLinker();
    bool Zero = Defined && !GV->isConstant() &&
                GV->getInitializer()->isNullValue();
    uint32_t Flags = (GV->hasLocalLinkage() ? MIP_DATA_LOCAL : 0) |
                     (GV->isConstant() ? MIP_DATA_CONSTANT : 0) |
                     (Zero ? MIP_DATA_ZERO : 0) |
                     (escapes(*GV) ? MIP_DATA_ESCAPES : 0) |
                     (Defined ? MIP_DATA_DEFINED : 0);
    Out.push_back(
        {Counter, Defined ? GV : nullptr,
         Defined ? DL.getTypeAllocSize(GV->getValueType()).getFixedValue() : 0,
         Flags, GlobalValue::dropLLVMManglingEscape(GV->getName()).str(),
         GV->hasLocalLinkage() ? M.getSourceFileName() : std::string()});
  }
  return Out;
}

} // namespace mip
