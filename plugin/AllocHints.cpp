//===- AllocHints.cpp - Hot and cold hints to the allocator ---------------===//
//
// Each allocation call of a function is one heap site of its profile (the
// sites of a function are its calls of allocation and deallocation
// functions, in order: AllocCalls.h). A site whose allocation contexts
// are all cold (or all hot) by MemProf's rules gets that hint:
//
//   p = malloc(n)          ->  p = __mip_malloc_hint(n, 1)
//   p = operator new(n)    ->  p = operator new(n, (__hot_cold_t)1)
//
// The C forms are MIP's allocator library (include/mip/alloc.h), the C++
// forms tcmalloc's interface, which that library implements too. A site
// whose contexts disagree stays as it is (notcold): one call cannot tell
// its callers apart, nor can a call through a function pointer be given
// a hinted allocator. docs/use.md has the rules.
//
//===----------------------------------------------------------------------===//

#include "AllocHints.h"

#include "AllocCalls.h"

#include "mip/alloc.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace mip {

namespace {

constexpr const char *PassName = "mip";

// Whether the function's calls are still the ones the profile saw: the
// same count, allocators and, with debug information, lines and columns.
bool sameSites(ArrayRef<AllocCall> Calls, ArrayRef<Profile::Site> Sites) {
  if (Calls.size() != Sites.size())
    return false;
  for (size_t I = 0; I < Calls.size(); I++) {
    const mip_heap_site &S = Sites[I].Record;
    if (S.allocator != Calls[I].Fn->Allocator)
      return false;
    const DILocation *Loc = Calls[I].Call->getDebugLoc().get();
    if (Loc && S.line && (Loc->getLine() != S.line ||
                          Loc->getColumn() != S.column))
      return false;
  }
  return true;
}

Function *declareHinted(Module &M, const CallBase &CB, StringRef Name) {
  FunctionType *Ty = CB.getFunctionType();
  SmallVector<Type *, 4> Params(Ty->param_begin(), Ty->param_end());
  Params.push_back(Type::getInt8Ty(M.getContext()));
  auto *HintedTy = FunctionType::get(Ty->getReturnType(), Params, false);
  if (Function *F = M.getFunction(Name))
    return F->getFunctionType() == HintedTy ? F : nullptr;
  Function *F =
      Function::Create(HintedTy, GlobalValue::ExternalLinkage, Name, M);
  // What the plain function promises (noalias result, allocsize, ...)
  // holds for the hinted one; the hint is an unsigned byte.
  if (const Function *Plain = CB.getCalledFunction())
    F->setAttributes(Plain->getAttributes());
  F->addParamAttr(Params.size() - 1, Attribute::ZExt);
  return F;
}

// Replaces CB by a call of Hinted with the same arguments and Hint.
void rewrite(CallBase &CB, Function *Hinted, uint8_t Hint) {
  SmallVector<Value *, 4> Args(CB.args());
  Args.push_back(ConstantInt::get(Type::getInt8Ty(CB.getContext()), Hint));
  SmallVector<OperandBundleDef, 1> Bundles;
  CB.getOperandBundlesAsDefs(Bundles);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(&CB))
    New = InvokeInst::Create(Hinted, II->getNormalDest(), II->getUnwindDest(),
                             Args, Bundles, "", &CB);
  else {
    auto *CI = CallInst::Create(Hinted, Args, Bundles, "", &CB);
    CI->setTailCallKind(cast<CallInst>(CB).getTailCallKind());
    New = CI;
  }
  New->setCallingConv(CB.getCallingConv());
  New->setAttributes(CB.getAttributes());
  New->addParamAttr(Args.size() - 1, Attribute::ZExt);
  New->copyMetadata(CB);
  New->setDebugLoc(CB.getDebugLoc());
  New->takeName(&CB);
  CB.replaceAllUsesWith(New);
  CB.eraseFromParent();
}

std::string numbers(const mip_site_decision &D) {
  std::string S;
  raw_string_ostream OS(S);
  uint64_t Contexts = 0;
  for (uint64_t C : D.contexts)
    Contexts += C;
  OS << Contexts << (Contexts == 1 ? " context, " : " contexts, ")
     << D.total.allocs << " allocations, mean lifetime "
     << format("%.3g", D.total.lifetime) << " s, "
     << format("%.3g", D.total.density) << " accesses/byte/s";
  return S;
}

void remarkMixed(OptimizationRemarkEmitter &ORE, CallBase &CB,
                 const mip_site_decision &D) {
  ORE.emit([&] {
    return OptimizationRemarkMissed(PassName, "AllocMixed", &CB)
           << "allocation left notcold: its contexts disagree ("
           << ore::NV("Cold", D.contexts[MIP_CLASS_COLD]) << " cold, "
           << ore::NV("Hot", D.contexts[MIP_CLASS_HOT]) << " hot, "
           << ore::NV("NotCold", D.contexts[MIP_CLASS_NOTCOLD]) << " notcold)";
  });
}

// The hint of a decision, 0 for none.
uint8_t hintOf(mip_alloc_class C) {
  return C == MIP_CLASS_COLD  ? MIP_HINT_COLD
         : C == MIP_CLASS_HOT ? MIP_HINT_HOT
                              : 0;
}

// Hints one allocation call; returns whether it rewrote it.
bool hintCall(const AllocCall &Call, const mip_site_decision &D,
              OptimizationRemarkEmitter &ORE) {
  CallBase &CB = *Call.Call;
  if (D.mixed) {
    remarkMixed(ORE, CB, D);
    return false;
  }
  uint8_t Hint = hintOf(D.alloc_class);
  if (!Hint)
    return false;
  const char *Class = mip_alloc_class_name(D.alloc_class);
  if (!Call.Through.empty()) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(PassName, "AllocHint", &CB)
             << "allocation is " << Class
             << " but made through a function pointer, which no hinted "
                "allocator can replace";
    });
    return false;
  }
  Function *Hinted = Call.Fn->Hinted.empty()
                         ? nullptr
                         : declareHinted(*CB.getModule(), CB, Call.Fn->Hinted);
  if (!Hinted) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(PassName, "AllocHint", &CB)
             << "allocation is " << Class
             << " but its allocator has no hinted form";
    });
    return false;
  }
  std::string Why = numbers(D);
  ORE.emit([&] {
    return OptimizationRemark(PassName, "AllocHint", &CB)
           << "allocation hinted " << Class << ": " << Why;
  });
  rewrite(CB, Hinted, Hint);
  return true;
}

} // namespace

bool rewriteWithHint(const AllocCall &Call, uint8_t Hint) {
  if (!Call.Through.empty() || Call.Fn->Hinted.empty())
    return false;
  CallBase &CB = *Call.Call;
  Function *Hinted = declareHinted(*CB.getModule(), CB, Call.Fn->Hinted);
  if (!Hinted)
    return false;
  rewrite(CB, Hinted, Hint);
  return true;
}

Expected<unsigned> hintAllocations(Function &F, const Profile &P,
                                   const Profile::Function &Fn,
                                   const mip_decide_options &Options,
                                   OptimizationRemarkEmitter &ORE) {
  Expected<ArrayRef<Profile::Site>> Sites = P.sites(Fn);
  if (!Sites)
    return Sites.takeError();
  SmallVector<AllocCall, 8> Calls = collectAllocCalls(F);
  if (Sites->empty())
    return 0;
  if (!sameSites(Calls, *Sites)) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(PassName, "AllocSites", &F)
             << "allocation calls changed since the profile: no hints";
    });
    return 0;
  }
  unsigned Hinted = 0;
  for (size_t I = 0; I < Calls.size(); I++) {
    if (!mip_allocator_allocates(Calls[I].Fn->Allocator))
      continue;
    Expected<mip_site_decision> D = P.decide((*Sites)[I], Options);
    if (!D)
      return D.takeError();
    Hinted += hintCall(Calls[I], *D, ORE);
  }
  return Hinted;
}

} // namespace mip
