//===- AllocCalls.cpp - Calls of allocation and deallocation functions ----===//
//
// Direct calls are recognised by the callee's name. A call through a
// function pointer is recognised by its prototype, and its hook by what
// the pointer holds when it runs (HeapSites.cpp).
//
//===----------------------------------------------------------------------===//

#include "AllocCalls.h"
#include "Compat.h"

#include "mip/format.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>

using namespace llvm;

namespace mip {

namespace {

// The hinted form of a C allocation function (include/mip/alloc.h).
std::string hinted(const char *Name) {
  return std::string("__mip_") + Name + "_hint";
}

// An allocator of mip/allocators.inc, as its hook sees it, with the
// hinted form Hinted.
AllocFn allocator(uint32_t Id, std::string Hinted) {
  switch (Id) {
#define MIP_ALLOCATOR(id, NAME, name, frees, c, hook, ptr, size, factor)      \
  case id:                                                                     \
    return {id, Hook::hook, ptr, size, factor, std::move(Hinted)};
#include "mip/allocators.inc"
#undef MIP_ALLOCATOR
  }
  llvm_unreachable("an allocator mip/allocators.inc does not list");
}

const StringMap<AllocFn> &allocFns() {
  static const StringMap<AllocFn> Table = [] {
    StringMap<AllocFn> T;
    // The C functions under their own names; a deallocation has no hint.
#define MIP_ALLOCATOR(id, NAME, name, frees, c, hook, ptr, size, factor)      \
  if (c)                                                                       \
    T[name] = allocator(id, frees ? "" : hinted(name));
#include "mip/allocators.inc"
#undef MIP_ALLOCATOR
    // Other names of them. pvalloc has no kind of its own: a valloc that
    // rounds the size up to pages.
    T["pvalloc"] = allocator(MIP_ALLOC_VALLOC, hinted("pvalloc"));
    T["__strdup"] = allocator(MIP_ALLOC_STRDUP, hinted("strdup"));
    T["__strndup"] = allocator(MIP_ALLOC_STRNDUP, hinted("strndup"));
    T["cfree"] = allocator(MIP_ALLOC_FREE, "");

    // operator new and delete, Itanium-mangled; size_t is m (64-bit) or
    // j (32-bit). The hinted forms are tcmalloc's, which exist for m.
    for (const char *Size : {"m", "j"}) {
      for (const char *Tail : {"", "RKSt9nothrow_t", "St11align_val_t",
                               "St11align_val_tRKSt9nothrow_t"}) {
        for (auto [Kind, Allocator] : {std::pair{"_Znw", MIP_ALLOC_NEW},
                                       std::pair{"_Zna", MIP_ALLOC_NEW_ARRAY}}) {
          std::string Name = std::string(Kind) + Size + Tail;
          T[Name] = allocator(Allocator,
                              *Size == 'm' ? Name + "12__hot_cold_t" : "");
        }
      }
    }
    for (const char *Size : {"", "m", "j"}) {
      for (const char *Align : {"", "St11align_val_t"}) {
        for (const char *NoThrow : {"", "RKSt9nothrow_t"}) {
          std::string Tail = std::string("Pv") + Size + Align + NoThrow;
          T["_Zdl" + Tail] = allocator(MIP_ALLOC_DELETE, "");
          T["_Zda" + Tail] = allocator(MIP_ALLOC_DELETE_ARRAY, "");
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

// The C allocator whose exact prototype an indirect call has (size_t
// being the pointer-sized integer), or "". Only the three that every
// memory suite holds: a pointer to free needs no site, as the runtime's
// free closes every block whoever frees it (docs/heap.md), and a pointer
// of another allocator's prototype is rarely one.
StringRef allocatorByPrototype(const CallBase &CB) {
  const FunctionType *Ty = CB.getFunctionType();
  if (Ty->isVarArg() || !isPlainPointer(Ty->getReturnType()))
    return "";
  const Type *Size =
      CB.getModule()->getDataLayout().getIntPtrType(CB.getContext());
  const Type *Ptr = compat::ptrTy(CB.getContext());
  auto Params = Ty->params();
  if (Params.size() == 1 && Params[0] == Size)
    return "malloc";
  if (Params.size() == 2 && Params[0] == Size && Params[1] == Size)
    return "calloc";
  if (Params.size() == 2 && Params[0] == Ptr && Params[1] == Size)
    return "realloc";
  return "";
}

// The call's site, if it is one.
std::optional<AllocCall> allocCallOf(CallBase &CB) {
  if (isa<CallBrInst>(CB) || CB.isInlineAsm())
    return std::nullopt;
  const StringMap<AllocFn> &Fns = allocFns();
  StringRef Name, Through;
  if (const auto *Callee =
          dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts()))
    Name = GlobalValue::dropLLVMManglingEscape(Callee->getName());
  else if (!isa<Constant>(CB.getCalledOperand()))
    Name = Through = allocatorByPrototype(CB);
  auto It = Fns.find(Name);
  if (Name.empty() || It == Fns.end() || !fits(It->second, CB))
    return std::nullopt;
  // Nothing may come between a musttail call and its return.
  if (It->second.What != Hook::Free && CB.isMustTailCall())
    return std::nullopt;
  return AllocCall{&CB, &It->second, Through};
}

} // namespace

SmallVector<AllocCall, 8> collectAllocCalls(Function &F) {
  SmallVector<AllocCall, 8> Calls;
  if (allocFns().count(GlobalValue::dropLLVMManglingEscape(F.getName())))
    return Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (std::optional<AllocCall> Call = allocCallOf(*CB))
        Calls.push_back(*Call);
  return Calls;
}

} // namespace mip
