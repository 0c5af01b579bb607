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
// AllocCalls.cpp says which calls are sites. Allocation hooks go after the
// call, for an invoke at the start of its normal destination (split off
// when other edges lead there too); deallocation hooks go before the
// call, while the block is still there. A call through a function pointer
// that may hold an allocator runs its hook only when it does:
//
//   p = fn(n);             ->  p = fn(n);
//                              if (fn == malloc)
//                                __mip_heap_alloc(p, n, &site);
//
// which costs the calls that reach anything else one comparison.
//
//===----------------------------------------------------------------------===//

#include "HeapSites.h"
#include "Compat.h"

#include "AllocCalls.h"
#include "LinkRefs.h"

#include "mip/format.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace mip {

namespace {

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
  if (auto *Fn = dyn_cast<Function>(Hook.getCallee())) {
    Fn->setDoesNotThrow();
    markRuntimeFunction(*Fn);
  }
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

// Where an allocation's hook goes: after the call, and for a call through
// a pointer, in a block of its own that runs when the pointer holds the
// allocator. Its symbol is declared as the allocator's own prototype:
// the pointer is compared with the address the whole process calls it by.
Instruction *allocationHookPoint(const AllocCall &Call) {
  CallBase &CB = *Call.Call;
  Instruction *After = afterCall(CB);
  if (Call.Through.empty())
    return After;
  Module &M = *CB.getModule();
  FunctionCallee Allocator =
      M.getOrInsertFunction(Call.Through, CB.getFunctionType());
  IRBuilder<> B(After);
  Value *Holds = B.CreateICmpEQ(compat::asPtr(B, CB.getCalledOperand()),
                                compat::asPtr(B, Allocator.getCallee()),
                                "mip.is." + Call.Through);
  return SplitBlockAndInsertIfThen(Holds, After, false);
}

// A hook call no pass may merge with another site's: the runtime takes the
// calling context from the hook's return address, which two sites must
// not share (branch folding would tail-merge the identical calls, a sink
// would make one call with the site as a phi). The runtime keeps contexts
// of different sites apart all the same; unmerged calls keep each site's
// first frame on its own line.
CallInst *callHook(IRBuilder<> &B, FunctionCallee Hook,
                   ArrayRef<Value *> Args) {
  CallInst *Call = B.CreateCall(Hook, Args);
  Call->setCannotMerge();
  return Call;
}

void insertHook(const AllocCall &Call, Constant *Site) {
  CallBase &CB = *Call.Call;
  const AllocFn &A = *Call.Fn;
  Module &M = *CB.getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Void = Type::getVoidTy(Ctx);
  Type *Ptr = compat::ptrTy(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);

  if (A.What == Hook::Free) {
    IRBuilder<> B(&CB);
    callHook(B, runtimeHook(M, "__mip_heap_free", Void, {Ptr, Ptr}),
             {compat::asPtr(B, CB.getArgOperand(A.Ptr)), Site});
    return;
  }
  IRBuilder<> B(allocationHookPoint(Call));
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  switch (A.What) {
  case Hook::Alloc:
    callHook(B, runtimeHook(M, "__mip_heap_alloc", Void, {Ptr, I64, Ptr}),
             {compat::asPtr(B, &CB), requestedSize(B, CB, A), Site});
    break;
  case Hook::AllocStr:
    callHook(B, runtimeHook(M, "__mip_heap_alloc_str", Void, {Ptr, Ptr}),
             {compat::asPtr(B, &CB), Site});
    break;
  case Hook::AllocAt:
    callHook(B,
             runtimeHook(M, "__mip_heap_alloc_at", Void, {Ptr, I32, I64, Ptr}),
             {compat::asPtr(B, CB.getArgOperand(A.Ptr)),
              B.CreateSExtOrTrunc(&CB, I32),
              requestedSize(B, CB, A), Site});
    break;
  case Hook::Realloc:
    callHook(B,
             runtimeHook(M, "__mip_heap_realloc", Void, {Ptr, Ptr, I64, Ptr}),
             {compat::asPtr(B, CB.getArgOperand(A.Ptr)), compat::asPtr(B, &CB),
              requestedSize(B, CB, A), Site});
    break;
  case Hook::Free:
    break;
  }
}

} // namespace

void addHeapSites(InstrumentedFunction &IF) {
  Function &F = *IF.F;
  SmallVector<AllocCall, 8> Calls = collectAllocCalls(F);
  if (Calls.empty())
    return;

  unsigned Count = Calls.size();
  LLVMContext &Ctx = F.getContext();
  GlobalVariable *Bytes =
      createCounterArray(F, MIP_RAW_SITE, Type::getInt8Ty(Ctx), Count);
  IF.Slots.push_back({MIP_RAW_SITE, Count, Bytes});
  Type *I64 = Type::getInt64Ty(Ctx);
  for (unsigned Index = 0; Index < Count; ++Index) {
    const AllocCall &Call = Calls[Index];
    // The first site's byte is the array's own address (LLVM 14 would
    // otherwise keep a GEP of zeros).
    Constant *Site = compat::asPtr(Bytes);
    if (Index > 0)
      Site = compat::asPtr(ConstantExpr::getInBoundsGetElementPtr(
          Bytes->getValueType(), Bytes,
          ArrayRef<Constant *>{ConstantInt::get(I64, 0),
                               ConstantInt::get(I64, Index)}));
    IF.HeapSites.push_back(describeSite(*Call.Call, Call.Fn->Allocator));
    insertHook(Call, Site);
  }
}

} // namespace mip
