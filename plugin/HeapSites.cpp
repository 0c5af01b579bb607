//===- HeapSites.cpp - Hooks at allocation and deallocation calls ---------===//
//
// Heap mode tells the runtime about every block that instrumented code
// allocates or frees, with the call site that did it:
//
//   p = malloc(n);         ->  p = malloc(n);
//                              __mip_heap_alloc(p, n, &site);
//   free(p);               ->  __mip_heap_free(p, &site);
//                              free(p);
//
// `site` is the call's own byte in __mip_site (the runtime sets it when the
// site runs); the map describes it (file, line, column, allocator,
// innermost function) in a MIP_MAP_HEAP_SITE record.
//
// Calls are recognised by the callee's name, so only direct calls count:
// a call through a function pointer cannot be told apart from any other.
// Allocation hooks go after the call, for an invoke at the start of its
// normal destination (split off when other edges lead there too);
// deallocation hooks go before the call, while the block is still there.
//
//===----------------------------------------------------------------------===//

#include "HeapSites.h"

#include "mip/format.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace mip {

namespace {

// The runtime call that follows (or precedes) a call.
enum class Hook {
  Alloc,    // __mip_heap_alloc(p, size, site), after
  AllocStr, // __mip_heap_alloc_str(p, site), after
  AllocAt,  // __mip_heap_alloc_at(out, result, size, site), after
  Realloc,  // __mip_heap_realloc(old, p, size, site), after
  Free,     // __mip_heap_free(p, site), before
};

// An allocation or deallocation function: which hook, and which of its
// arguments the hook needs (-1: none).
struct AllocFn {
  uint32_t Allocator; // MIP_ALLOC_*
  Hook What;
  int Ptr;    // realloc's old block, posix_memalign's out, the freed block
  int Size;   // the size, or its first factor
  int Factor; // the size's second factor (calloc, reallocarray)
};

const StringMap<AllocFn> &allocFns() {
  static const StringMap<AllocFn> Table = [] {
    StringMap<AllocFn> T;
    T["malloc"] = {MIP_ALLOC_MALLOC, Hook::Alloc, -1, 0, -1};
    T["calloc"] = {MIP_ALLOC_CALLOC, Hook::Alloc, -1, 0, 1};
    T["aligned_alloc"] = {MIP_ALLOC_ALIGNED_ALLOC, Hook::Alloc, -1, 1, -1};
    T["memalign"] = {MIP_ALLOC_MEMALIGN, Hook::Alloc, -1, 1, -1};
    T["valloc"] = {MIP_ALLOC_VALLOC, Hook::Alloc, -1, 0, -1};
    // No kind of its own: a valloc that rounds the size up to pages.
    T["pvalloc"] = {MIP_ALLOC_VALLOC, Hook::Alloc, -1, 0, -1};
    T["posix_memalign"] = {MIP_ALLOC_POSIX_MEMALIGN, Hook::AllocAt, 0, 2, -1};
    T["realloc"] = {MIP_ALLOC_REALLOC, Hook::Realloc, 0, 1, -1};
    T["reallocarray"] = {MIP_ALLOC_REALLOCARRAY, Hook::Realloc, 0, 1, 2};
    for (const char *Name : {"strdup", "__strdup"})
      T[Name] = {MIP_ALLOC_STRDUP, Hook::AllocStr, -1, -1, -1};
    for (const char *Name : {"strndup", "__strndup"})
      T[Name] = {MIP_ALLOC_STRNDUP, Hook::AllocStr, -1, -1, -1};
    for (const char *Name : {"free", "cfree"})
      T[Name] = {MIP_ALLOC_FREE, Hook::Free, 0, -1, -1};

    // operator new and delete, Itanium-mangled; size_t is m (64-bit) or
    // j (32-bit).
    for (const char *Size : {"m", "j"}) {
      for (const char *Tail : {"", "RKSt9nothrow_t", "St11align_val_t",
                               "St11align_val_tRKSt9nothrow_t"}) {
        T[std::string("_Znw") + Size + Tail] = {MIP_ALLOC_NEW, Hook::Alloc, -1,
                                                0, -1};
        T[std::string("_Zna") + Size + Tail] = {MIP_ALLOC_NEW_ARRAY,
                                                Hook::Alloc, -1, 0, -1};
      }
    }
    for (const char *Size : {"", "m", "j"}) {
      for (const char *Align : {"", "St11align_val_t"}) {
        for (const char *NoThrow : {"", "RKSt9nothrow_t"}) {
          std::string Tail = std::string("Pv") + Size + Align + NoThrow;
          T["_Zdl" + Tail] = {MIP_ALLOC_DELETE, Hook::Free, 0, -1, -1};
          T["_Zda" + Tail] = {MIP_ALLOC_DELETE_ARRAY, Hook::Free, 0, -1, -1};
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

// The allocation function CB calls directly, if any.
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

// The site as the map describes it: where the call is in the innermost
// function, which for inlined code is the line of the allocation call
// itself, not that of the call it was inlined into.
HeapSiteInfo describeSite(const CallBase &CB, uint32_t Allocator) {
  HeapSiteInfo S{Allocator, 0, 0, "", ""};
  const DILocation *Loc = CB.getDebugLoc().get();
  if (!Loc)
    return S;
  S.Line = Loc->getLine();
  S.Column = Loc->getColumn();
  StringRef File = Loc->getFilename();
  StringRef Dir = Loc->getDirectory();
  if (!File.empty() && !Dir.empty() && !sys::path::is_absolute(File))
    S.File = (Dir + "/" + File).str();
  else
    S.File = File.str();
  if (const DISubprogram *SP = Loc->getScope()->getSubprogram())
    S.Name =
        (SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName())
            .str();
  return S;
}

// Where the code that runs right after CB returns normally starts.
Instruction *afterCall(CallBase &CB) {
  auto *II = dyn_cast<InvokeInst>(&CB);
  if (!II)
    return CB.getNextNode();
  BasicBlock *Dest = II->getNormalDest();
  // Other edges into it must not run the hook: give this one a block.
  if (!Dest->getSinglePredecessor())
    Dest = SplitEdge(II->getParent(), Dest);
  return &*Dest->getFirstInsertionPt();
}

FunctionCallee runtimeHook(Module &M, StringRef Name, Type *Result,
                           ArrayRef<Type *> Params) {
  FunctionCallee Hook =
      M.getOrInsertFunction(Name, FunctionType::get(Result, Params, false));
  if (auto *Fn = dyn_cast<Function>(Hook.getCallee()))
    Fn->setDoesNotThrow();
  return Hook;
}

Value *sizeArg(IRBuilder<> &B, CallBase &CB, int Index) {
  return B.CreateZExtOrTrunc(CB.getArgOperand(Index), B.getInt64Ty());
}

// The requested size: an argument, or the product of two (UINT64_MAX when
// it overflows, as the allocator fails then).
Value *requestedSize(IRBuilder<> &B, CallBase &CB, const AllocFn &A) {
  Value *N = sizeArg(B, CB, A.Size);
  if (A.Factor < 0)
    return N;
  Value *M = sizeArg(B, CB, A.Factor);
  auto *CN = dyn_cast<ConstantInt>(N);
  auto *CM = dyn_cast<ConstantInt>(M);
  if (CN && CM) {
    bool Overflow = false;
    APInt Product = CN->getValue().umul_ov(CM->getValue(), Overflow);
    return B.getInt64(Overflow ? UINT64_MAX : Product.getZExtValue());
  }
  Value *WithOverflow = B.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow,
                                                N, M, nullptr, "mip.mul");
  Value *Product = B.CreateExtractValue(WithOverflow, 0, "mip.product");
  Value *Overflow = B.CreateExtractValue(WithOverflow, 1, "mip.overflow");
  return B.CreateSelect(Overflow, B.getInt64(UINT64_MAX), Product, "mip.size");
}

void insertHook(CallBase &CB, const AllocFn &A, Constant *Site) {
  Module &M = *CB.getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Void = Type::getVoidTy(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);

  if (A.What == Hook::Free) {
    IRBuilder<> B(&CB);
    B.CreateCall(runtimeHook(M, "__mip_heap_free", Void, {Ptr, Ptr}),
                 {CB.getArgOperand(A.Ptr), Site});
    return;
  }
  IRBuilder<> B(afterCall(CB));
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  switch (A.What) {
  case Hook::Alloc:
    B.CreateCall(runtimeHook(M, "__mip_heap_alloc", Void, {Ptr, I64, Ptr}),
                 {&CB, requestedSize(B, CB, A), Site});
    break;
  case Hook::AllocStr:
    B.CreateCall(runtimeHook(M, "__mip_heap_alloc_str", Void, {Ptr, Ptr}),
                 {&CB, Site});
    break;
  case Hook::AllocAt:
    B.CreateCall(
        runtimeHook(M, "__mip_heap_alloc_at", Void, {Ptr, I32, I64, Ptr}),
        {CB.getArgOperand(A.Ptr), B.CreateSExtOrTrunc(&CB, I32),
         requestedSize(B, CB, A), Site});
    break;
  case Hook::Realloc:
    B.CreateCall(
        runtimeHook(M, "__mip_heap_realloc", Void, {Ptr, Ptr, I64, Ptr}),
        {CB.getArgOperand(A.Ptr), &CB, requestedSize(B, CB, A), Site});
    break;
  case Hook::Free:
    break;
  }
}

} // namespace

void addHeapSites(InstrumentedFunction &IF) {
  Function &F = *IF.F;
  // A program's own malloc or operator new: the calls of it are the
  // sites, not what it calls to do its job (which would record each block
  // twice).
  if (allocFns().count(GlobalValue::dropLLVMManglingEscape(F.getName())))
    return;

  SmallVector<std::pair<CallBase *, const AllocFn *>, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const AllocFn *A = allocFnOf(*CB))
        Calls.push_back({CB, A});
  if (Calls.empty())
    return;

  unsigned Count = Calls.size();
  LLVMContext &Ctx = F.getContext();
  GlobalVariable *Bytes =
      createCounterArray(F, MIP_RAW_SITE, Type::getInt8Ty(Ctx), Count);
  IF.Slots.push_back({MIP_RAW_SITE, Count, Bytes});
  Type *I64 = Type::getInt64Ty(Ctx);
  for (auto [Index, Call] : enumerate(Calls)) {
    auto [CB, A] = Call;
    Constant *Site = Bytes;
    if (Count > 1)
      Site = ConstantExpr::getInBoundsGetElementPtr(
          Bytes->getValueType(), Bytes,
          ArrayRef<Constant *>{ConstantInt::get(I64, 0),
                               ConstantInt::get(I64, Index)});
    IF.HeapSites.push_back(describeSite(*CB, A->Allocator));
    insertHook(*CB, *A, Site);
  }
}

} // namespace mip
