//===- ContextHints.cpp - MemProf metadata from MIP's contexts ------------===//
//
// A heap profile has, for each allocation site, one MemInfoBlock per
// calling context, and each context's frames (function, line, column;
// inlined frames expanded) from the allocation call down to main. LLVM's
// MemProf reads the same kind of profile into metadata:
//
//   %p = call ptr @malloc(i64 %n), !memprof !0, !callsite !5
//   !0 = !{!1, !3}                     ; one MIB per context kept
//   !1 = !{!2, !"cold"}                ; its class
//   !2 = !{i64 ID(xmalloc:8:13), i64 ID(cold_make:6:17)}
//   ...
//   call ptr @xmalloc(i64 64), !callsite !7   ; in cold_make
//   !7 = !{i64 ID(cold_make:6:17)}
//
// and, at the link, MemProfContextDisambiguation clones the functions
// between an allocation and the frame where its contexts part, each clone
// with the class of its contexts as the call's "memprof" attribute
// (LtoHints.cpp turns that into the hinted call). This file writes that
// metadata from MIP's profile, with the ids MIP's own: a hash of the
// frame's function (linkage name, else name, as the profile names it),
// line and column, computed the same way from a call's debug location and
// its inlined-at chain, so a call matches the contexts whose innermost
// frames are its own, whatever the profiled build inlined. Calls without
// debug locations (no -g) match nothing. LLVM's CallStackTrie trims each
// allocation's contexts to the frames that tell their classes apart.
//
//===----------------------------------------------------------------------===//

#include "ContextHints.h"

#include "AllocCalls.h"
#include "Profile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/MemoryProfileInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"

#include <cstdio>

using namespace llvm;
using llvm::memprof::CallStackTrie;

namespace mip {

namespace {

uint64_t stackId(StringRef Function, uint32_t Line, uint32_t Column) {
  return MD5Hash((Function + ":" + Twine(Line) + ":" + Twine(Column)).str());
}

// The ids of a call's location and of the calls it was inlined through,
// innermost first; empty without a debug location.
SmallVector<uint64_t, 4> inlineStack(const Instruction &I) {
  SmallVector<uint64_t, 4> Ids;
  for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt()) {
    const DISubprogram *SP = L->getScope()->getSubprogram();
    if (!SP)
      return {};
    StringRef Name = SP->getLinkageName();
    Ids.push_back(stackId(Name.empty() ? SP->getName() : Name, L->getLine(),
                          L->getColumn()));
  }
  return Ids;
}

// LLVM 19's context disambiguation tells two kinds of contexts apart,
// "cold" and "notcold", and clones for the cold ones (its Hot it neither
// clones for nor expects). At a site whose contexts disagree, those of
// the class mip_cloned_class picks (cold if any, else hot) go in as its
// "cold", every other as "notcold"; the call records what "cold" stands
// for (ClonedClassAttribute), and the link hints each clone by it.
AllocationType traitOf(mip_alloc_class C, mip_alloc_class Cloned) {
  return C == Cloned ? AllocationType::Cold : AllocationType::NotCold;
}

// The profile's allocation contexts as stack ids, indexed for matching.
class ContextIndex {
public:
  struct Context {
    SmallVector<uint64_t, 8> Ids;
    mip_alloc_class Class;
    uint64_t Bytes;
  };

  Error read(const Profile &P, const mip_decide_options &Options);

  // The contexts whose innermost frames are Ids.
  SmallVector<const Context *, 4> allocatedAt(ArrayRef<uint64_t> Ids) const {
    SmallVector<const Context *, 4> Found;
    auto It = ByAllocation.find(Ids.front());
    if (It == ByAllocation.end())
      return Found;
    for (uint32_t I : It->second) {
      ArrayRef<uint64_t> Frames = Contexts[I].Ids;
      if (Frames.size() >= Ids.size() && Frames.take_front(Ids.size()) == Ids)
        Found.push_back(&Contexts[I]);
    }
    return Found;
  }

  bool isCaller(uint64_t Id) const { return Callers.contains(Id); }

  // The functions the call at frame Id called in the contexts.
  ArrayRef<std::string> calleesAt(uint64_t Id) const {
    auto It = Callees.find(Id);
    return It == Callees.end() ? ArrayRef<std::string>() : It->second;
  }

private:
  Error readContext(const mip_view &V, uint64_t I,
                    const mip_decide_options &Options);
  void noteCallee(uint64_t Id, StringRef Name);
  Error fail() const {
    return createStringError(inconvertibleErrorCode(), Path + ": " + Err.msg);
  }

  std::string Path;
  std::vector<Context> Contexts;
  DenseMap<uint64_t, SmallVector<uint32_t, 2>> ByAllocation;
  DenseSet<uint64_t> Callers;
  DenseMap<uint64_t, SmallVector<std::string, 1>> Callees;
  mutable mip_error Err{};
};

Error ContextIndex::readContext(const mip_view &V, uint64_t I,
                                const mip_decide_options &Options) {
  mip_heap_context C;
  mip_heap_site S;
  if (mip_view_heap_context(&V, I, &C, &Err))
    return fail();
  if (C.site == MIP_NO_SITE || !C.mib.v[MIP_MIBI_AllocCount])
    return Error::success();
  if (mip_view_heap_site(&V, C.site, &S, &Err))
    return fail();
  if (!mip_allocator_allocates(S.allocator))
    return Error::success();
  Context Ctx{{}, mip_view_context_class(&V, &C.mib, &Options),
              C.mib.v[MIP_MIBI_TotalSize]};
  mip_heap_frame Inner{};
  // Frames outside the image (libc's __libc_start_call_main) or unknown
  // end what a compile can match.
  for (uint32_t K = 0; K < C.frame_count; K++) {
    uint32_t FrameIndex;
    mip_heap_frame F;
    if (mip_view_heap_stack(&V, C.first_frame + K, &FrameIndex, &Err) ||
        mip_view_heap_frame(&V, FrameIndex, &F, &Err))
      return fail();
    const char *Name = mip_view_string(&V, F.function);
    // A frame on line 0 (the profiled build merged two calls into one) is
    // kept: lineless() matches the calls it may be.
    if ((F.flags & MIP_FRAME_OUTSIDE) || F.object || !Name || !*Name)
      break;
    Ctx.Ids.push_back(stackId(Name, F.line, F.column));
    // The call at this frame called the previous frame's function, unless
    // that was inlined into this one.
    if (K && !(Inner.flags & MIP_FRAME_INLINED))
      noteCallee(Ctx.Ids.back(), mip_view_string(&V, Inner.function));
    Inner = F;
  }
  if (Ctx.Ids.empty())
    return Error::success();
  ByAllocation[Ctx.Ids.front()].push_back(Contexts.size());
  for (uint64_t Id : ArrayRef<uint64_t>(Ctx.Ids).drop_front())
    Callers.insert(Id);
  Contexts.push_back(std::move(Ctx));
  return Error::success();
}

void ContextIndex::noteCallee(uint64_t Id, StringRef Name) {
  SmallVector<std::string, 1> &Names = Callees[Id];
  if (!llvm::is_contained(Names, Name))
    Names.push_back(Name.str());
}

Error ContextIndex::read(const Profile &P, const mip_decide_options &Options) {
  Path = P.path().str();
  const mip_view &V = P.view();
  uint64_t Count = mip_view_count(&V, MIP_PROF_HEAP_CONTEXTS);
  for (uint64_t I = 0; I < Count; I++)
    if (Error E = readContext(V, I, Options))
      return E;
  return Error::success();
}

// The name a profile frame gives the function F.
StringRef frameName(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return GlobalValue::dropLLVMManglingEscape(F.getName());
  return SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName();
}

// For a direct call that matches no frame: the frame of the function it
// is in (inlined or not) on line 0 whose call the contexts saw reach its
// callee. The profiled build merged calls of one function there (two
// arms' lua_pushstring in Lua's setpath), and any of them may be the one.
std::optional<uint64_t> lineless(const CallBase &CB, const ContextIndex &Index) {
  const Function *Callee = CB.getCalledFunction();
  const DISubprogram *SP = CB.getDebugLoc()->getScope()->getSubprogram();
  if (!Callee || !SP)
    return std::nullopt;
  StringRef Name =
      SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName();
  uint64_t Id = stackId(Name, 0, 0);
  if (!Index.isCaller(Id) ||
      !llvm::is_contained(Index.calleesAt(Id), frameName(*Callee)))
    return std::nullopt;
  return Id;
}

// One class for all of an allocation's contexts: the attribute, as
// MemProf's own profile reader sets it; contexts that disagree: the
// trimmed contexts as !memprof, and the call's own frames as !callsite.
void annotateAllocation(CallBase &CB, ArrayRef<uint64_t> Ids,
                        ArrayRef<const ContextIndex::Context *> Found) {
  bool OneClass = llvm::all_of(Found, [&](const ContextIndex::Context *C) {
    return C->Class == Found.front()->Class;
  });
  if (OneClass) {
    CB.addFnAttr(Attribute::get(CB.getContext(), "memprof",
                                mip_alloc_class_name(Found.front()->Class)));
    return;
  }
  uint64_t Counts[MIP_CLASS_COUNT] = {};
  for (const ContextIndex::Context *C : Found)
    Counts[C->Class]++;
  mip_alloc_class Cloned = mip_cloned_class(Counts);
  // An attribute, not metadata: calls merged into one keep it only if
  // both had the same (metadata of a kind LLVM does not know is dropped).
  CB.addFnAttr(Attribute::get(CB.getContext(), ClonedClassAttribute,
                              mip_alloc_class_name(Cloned)));
  CallStackTrie Trie;
  for (const ContextIndex::Context *C : Found)
    Trie.addCallStack(traitOf(C->Class, Cloned), C->Ids, C->Bytes);
  if (Trie.buildAndAttachMIBMetadata(&CB))
    CB.setMetadata(LLVMContext::MD_callsite,
                   memprof::buildCallstackMetadata(Ids, CB.getContext()));
}

// An indirect call gets the functions the profile saw it call, so that a
// full LTO link can make it direct (LtoHints.cpp) for LLVM's context
// disambiguation, which follows direct calls only.
void nameCallees(CallBase &CB, ArrayRef<std::string> Names) {
  if (Names.empty())
    return;
  SmallVector<Metadata *, 2> Strings;
  for (const std::string &Name : Names)
    Strings.push_back(MDString::get(CB.getContext(), Name));
  CB.setMetadata(ProfiledCalleesMetadata,
                 MDTuple::get(CB.getContext(), Strings));
}

void annotateFunction(Function &F, const ContextIndex &Index) {
  DenseSet<const CallBase *> Allocations;
  for (const AllocCall &Call : collectAllocCalls(F))
    if (mip_allocator_allocates(Call.Fn->Allocator) && Call.Through.empty())
      Allocations.insert(Call.Call);
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || isa<IntrinsicInst>(CB))
      continue;
    SmallVector<uint64_t, 4> Ids = inlineStack(*CB);
    if (Ids.empty())
      continue;
    if (Allocations.contains(CB)) {
      SmallVector<const ContextIndex::Context *, 4> Found =
          Index.allocatedAt(Ids);
      if (!Found.empty())
        annotateAllocation(*CB, Ids, Found);
      continue;
    }
    if (!Index.isCaller(Ids.front())) {
      std::optional<uint64_t> Merged = lineless(*CB, Index);
      if (!Merged)
        continue;
      Ids.front() = *Merged;
    }
    CB->setMetadata(LLVMContext::MD_callsite,
                    memprof::buildCallstackMetadata(Ids, CB->getContext()));
    if (!CB->getCalledFunction())
      nameCallees(*CB, Index.calleesAt(Ids.front()));
  }
}

std::string number(double D) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, "%.17g", D);
  return Buf;
}

// The settings as the plugin arguments that give them, the profile by its
// absolute name (the link may run elsewhere).
std::vector<std::string> settingsArgs(const UseSettings &S) {
  SmallString<256> File(S.File);
  sys::fs::make_absolute(File);
  sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  std::vector<std::string> Args{("use=" + File).str()};
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  Args.push_back(std::string(key) + "=" + number(S.Decide.field));
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
  auto Flag = [&](bool On, const char *Name) {
    Args.push_back((On ? "" : "no-") + std::string(Name));
  };
  Flag(S.ListStale, "list-stale");
  Flag(S.ColdMinSize, "cold-minsize");
  Flag(S.AllocHints, "alloc-hints");
  Flag(S.BranchWeights, "branch-weights");
  return Args;
}

void recordSettings(Module &M, const UseSettings &S) {
  SmallVector<Metadata *, 12> Strings;
  for (const std::string &Arg : settingsArgs(S))
    Strings.push_back(MDString::get(M.getContext(), Arg));
  M.getOrInsertNamedMetadata(UseSettingsMetadata)
      ->addOperand(MDTuple::get(M.getContext(), Strings));
}

} // namespace

PreservedAnalyses ContextHintsPass::run(Module &M, ModuleAnalysisManager &) {
  if (!P)
    return PreservedAnalyses::all();
  recordSettings(M, Settings);
  if (!Settings.AllocHints || !P->hasHeap() || P->runs() == 0)
    return PreservedAnalyses::none();
  ContextIndex Index;
  if (Error E = Index.read(*P, Settings.Decide)) {
    M.getContext().diagnose(DiagnosticInfoPGOProfile(
        nullptr, "mip: " + toString(std::move(E)), DS_Error));
    return PreservedAnalyses::none();
  }
  for (Function &F : M)
    if (!F.isDeclaration())
      annotateFunction(F, Index);
  return PreservedAnalyses::none();
}

} // namespace mip
