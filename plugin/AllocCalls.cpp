//===- AllocCalls.cpp - Calls of allocation and deallocation functions ----===//
//
// Calls are recognised by the callee's name, so only direct calls count:
// a call through a function pointer cannot be told apart from any other.
//
//===----------------------------------------------------------------------===//

#include "AllocCalls.h"

#include "mip/format.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace mip {

namespace {

// The hinted form of a C allocation function (include/mip/alloc.h).
std::string hinted(const char *Name) {
  return std::string("__mip_") + Name + "_hint";
}

const StringMap<AllocFn> &allocFns() {
  static const StringMap<AllocFn> Table = [] {
    StringMap<AllocFn> T;
    T["malloc"] = {MIP_ALLOC_MALLOC, Hook::Alloc, -1, 0, -1, hinted("malloc")};
    T["calloc"] = {MIP_ALLOC_CALLOC, Hook::Alloc, -1, 0, 1, hinted("calloc")};
    T["aligned_alloc"] = {MIP_ALLOC_ALIGNED_ALLOC, Hook::Alloc, -1, 1, -1,
                          hinted("aligned_alloc")};
    T["memalign"] = {MIP_ALLOC_MEMALIGN, Hook::Alloc, -1, 1, -1,
                     hinted("memalign")};
    T["valloc"] = {MIP_ALLOC_VALLOC, Hook::Alloc, -1, 0, -1, hinted("valloc")};
    // No kind of its own: a valloc that rounds the size up to pages.
    T["pvalloc"] = {MIP_ALLOC_VALLOC, Hook::Alloc, -1, 0, -1,
                    hinted("pvalloc")};
    T["posix_memalign"] = {MIP_ALLOC_POSIX_MEMALIGN, Hook::AllocAt, 0, 2, -1,
                           hinted("posix_memalign")};
    T["realloc"] = {MIP_ALLOC_REALLOC, Hook::Realloc, 0, 1, -1,
                    hinted("realloc")};
    T["reallocarray"] = {MIP_ALLOC_REALLOCARRAY, Hook::Realloc, 0, 1, 2,
                         hinted("reallocarray")};
    for (const char *Name : {"strdup", "__strdup"})
      T[Name] = {MIP_ALLOC_STRDUP, Hook::AllocStr, -1, -1, -1,
                 hinted("strdup")};
    for (const char *Name : {"strndup", "__strndup"})
      T[Name] = {MIP_ALLOC_STRNDUP, Hook::AllocStr, -1, -1, -1,
                 hinted("strndup")};
    for (const char *Name : {"free", "cfree"})
      T[Name] = {MIP_ALLOC_FREE, Hook::Free, 0, -1, -1, ""};

    // operator new and delete, Itanium-mangled; size_t is m (64-bit) or
    // j (32-bit). The hinted forms are tcmalloc's, which exist for m.
    for (const char *Size : {"m", "j"}) {
      for (const char *Tail : {"", "RKSt9nothrow_t", "St11align_val_t",
                               "St11align_val_tRKSt9nothrow_t"}) {
        for (auto [Kind, Allocator] : {std::pair{"_Znw", MIP_ALLOC_NEW},
                                       std::pair{"_Zna", MIP_ALLOC_NEW_ARRAY}}) {
          std::string Name = std::string(Kind) + Size + Tail;
          T[Name] = {static_cast<uint32_t>(Allocator), Hook::Alloc, -1, 0, -1,
                     *Size == 'm' ? Name + "12__hot_cold_t" : ""};
        }
      }
    }
    for (const char *Size : {"", "m", "j"}) {
      for (const char *Align : {"", "St11align_val_t"}) {
        for (const char *NoThrow : {"", "RKSt9nothrow_t"}) {
          std::string Tail = std::string("Pv") + Size + Align + NoThrow;
          T["_Zdl" + Tail] = {MIP_ALLOC_DELETE, Hook::Free, 0, -1, -1, ""};
          T["_Zda" + Tail] = {MIP_ALLOC_DELETE_ARRAY, Hook::Free, 0, -1, -1,
                              ""};
        }
      }
    }
    return T;
  }();
  return Table;
}

bool isPlainPointer(const Type *Ty) {
  return Ty->isPointerTy() && Ty->getPointerAddressSpace() == 0;
}

// Whether the call passes what the hook needs, where it needs it: a
// function of the same name with another prototype is not an allocator.
bool fits(const AllocFn &A, const CallBase &CB) {
  auto Arg = [&](int I) -> const Type * {
    return I < 0 || static_cast<unsigned>(I) >= CB.arg_size()
               ? nullptr
               : CB.getArgOperand(I)->getType();
  };
  for (int I : {A.Size, A.Factor})
    if (I >= 0 && (!Arg(I) || !Arg(I)->isIntegerTy()))
      return false;
  if (A.Ptr >= 0 && (!Arg(A.Ptr) || !isPlainPointer(Arg(A.Ptr))))
    return false;
  switch (A.What) {
  case Hook::Alloc:
  case Hook::AllocStr:
  case Hook::Realloc:
    return isPlainPointer(CB.getType());
  case Hook::AllocAt:
    return CB.getType()->isIntegerTy();
  case Hook::Free:
    return true;
  }
  return false;
}

} // namespace

const AllocFn *allocFnOf(const CallBase &CB) {
  if (isa<CallBrInst>(CB))
    return nullptr;
  const auto *Callee =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee)
    return nullptr;
  const StringMap<AllocFn> &Fns = allocFns();
  auto It = Fns.find(GlobalValue::dropLLVMManglingEscape(Callee->getName()));
  if (It == Fns.end() || !fits(It->second, CB))
    return nullptr;
  // Nothing may come between a musttail call and its return.
  if (It->second.What != Hook::Free && CB.isMustTailCall())
    return nullptr;
  return &It->second;
}

SmallVector<AllocCall, 8> collectAllocCalls(Function &F) {
  SmallVector<AllocCall, 8> Calls;
  if (allocFns().count(GlobalValue::dropLLVMManglingEscape(F.getName())))
    return Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const AllocFn *A = allocFnOf(*CB))
        Calls.push_back({CB, A});
  return Calls;
}

} // namespace mip
