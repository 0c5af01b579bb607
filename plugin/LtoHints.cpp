//===- LtoHints.cpp - -fmip-use at the link of a -flto build --------------===//
//
// The settings come in the module (lld passes -mllvm options only to
// what it has loaded when it reads them, which a pass plugin is not yet),
// one tuple per unit; a full LTO module has every unit's. The profile is
// opened once per module: ThinLTO backends run on threads of their own.
//
//===----------------------------------------------------------------------===//

#include "LtoHints.h"

#include "AllocCalls.h"
#include "AllocHints.h"
#include "ContextHints.h"
#include "GeneratePass.h"
#include "Profile.h"
#include "UsePass.h"

#include "mip/alloc.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/MemProfContextDisambiguation.h"
#include "llvm/Transforms/Utils/CallPromotionUtils.h"

using namespace llvm;

namespace mip {

namespace {

constexpr const char *PassName = "mip";

void diagnose(Module &M, DiagnosticSeverity Severity, const Twine &Message) {
  M.getContext().diagnose(
      DiagnosticInfoPGOProfile(nullptr, "mip: " + Message, Severity));
}

// The strings the module's first unit recorded under Name, taken out of
// the module (a pipeline that runs again finds nothing to do); Differ
// when another unit of a full LTO module recorded others.
std::optional<std::vector<std::string>> takeFirstUnit(Module &M, StringRef Name,
                                                      bool &Differ) {
  NamedMDNode *Units = M.getNamedMetadata(Name);
  if (!Units)
    return std::nullopt;
  const MDNode *First = Units->getNumOperands() ? Units->getOperand(0) : nullptr;
  Differ = llvm::any_of(Units->operands(),
                        [&](const MDNode *N) { return N != First; });
  std::vector<std::string> Strings;
  for (const MDOperand &Arg : First ? First->operands() : ArrayRef<MDOperand>())
    if (auto *S = dyn_cast<MDString>(Arg))
      Strings.push_back(S->getString().str());
  M.eraseNamedMetadata(Units);
  return Strings;
}

// The settings of the module's first unit; a warning when another unit
// was compiled with other ones.
std::optional<Options> takeSettings(Module &M) {
  bool Differ;
  std::optional<std::vector<std::string>> Args =
      takeFirstUnit(M, UseSettingsMetadata, Differ);
  if (!Args)
    return std::nullopt;
  Options Opts;
  Error E = Error::success();
  for (const std::string &Arg : *Args)
    if (!E)
      E = applyPluginArg(Opts, Arg);
  if (!E)
    E = openUseProfile(Opts);
  if (E) {
    diagnose(M, DS_Error, toString(std::move(E)));
    return std::nullopt;
  }
  if (Differ)
    diagnose(M, DS_Warning,
             "units of this link were compiled with different -fmip-use "
             "settings; using those of the first (" +
                 Opts.Use.File + ")");
  return Opts;
}

uint8_t hintNamed(StringRef Class) {
  return Class == "cold" ? MIP_HINT_COLD : Class == "hot" ? MIP_HINT_HOT : 0;
}

// The class an allocation call's "memprof" attribute gives it: the
// attribute's own, set by the compile for a site whose contexts agree;
// at a site whose contexts disagree, set by context disambiguation,
// whose "cold" stands for the class the compile cloned for (cold or hot,
// ClonedClassAttribute) and whose "notcold" for the rest, unhinted.
StringRef classOf(const CallBase &CB) {
  Attribute A = CB.getFnAttr("memprof");
  if (!A.isValid())
    return "";
  Attribute Cloned = CB.getFnAttr(ClonedClassAttribute);
  if (!Cloned.isValid())
    return A.getValueAsString();
  return A.getValueAsString() == "cold" ? Cloned.getValueAsString() : "";
}

// The function a context clone was made from ("xmalloc" for
// "xmalloc.memprof.1"), or "" for one that is no clone.
StringRef cloneOf(const Function &F) {
  size_t At = F.getName().find(".memprof.");
  return At == StringRef::npos ? "" : F.getName().take_front(At);
}

void remarkHinted(OptimizationRemarkEmitter &ORE, CallBase &CB,
                  StringRef Class) {
  const Function &F = *CB.getFunction();
  StringRef Original = cloneOf(F);
  bool Mixed = CB.getFnAttr(ClonedClassAttribute).isValid();
  ORE.emit([&] {
    OptimizationRemark R(PassName, "AllocContextHint", &CB);
    R << "allocation hinted " << Class;
    if (Original.empty() && !Mixed)
      R << ": every context of it is " << Class;
    else if (Original.empty())
      R << " in " << ore::NV("Function", F.getName())
        << ", which context cloning kept for its " << Class << " contexts";
    else
      R << " in " << ore::NV("Clone", F.getName())
        << ", the clone of " << ore::NV("Original", Original)
        << " for its " << Class << " contexts";
    return R;
  });
}

// Hints the allocation calls of F whose "memprof" attribute is cold or
// hot: set by the compile for a site whose contexts agree, by context
// disambiguation in each clone of one whose contexts do not.
unsigned hintByAttribute(Function &F) {
  OptimizationRemarkEmitter ORE(&F);
  unsigned Hinted = 0;
  for (const AllocCall &Call : collectAllocCalls(F)) {
    if (!mip_allocator_allocates(Call.Fn->Allocator))
      continue;
    std::string Class = classOf(*Call.Call).str();
    uint8_t Hint = hintNamed(Class);
    if (!Hint)
      continue;
    CallBase &CB = *Call.Call;
    // The remark first: the rewrite replaces the call.
    if (Call.Through.empty() && !Call.Fn->Hinted.empty())
      remarkHinted(ORE, CB, Class);
    if (!rewriteWithHint(Call, Hint)) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(PassName, "AllocContextHint", &CB)
               << "allocation is " << Class
               << " but has no hinted form (a function pointer, or an "
                  "allocator without one)";
      });
      continue;
    }
    Hinted++;
  }
  return Hinted;
}

// Hints the module's allocation calls by their attribute; the compile set
// none when its -fmip-use had -fno-mip-alloc-hints.
void hintModule(Module &M) {
  for (Function &F : M)
    if (!F.isDeclaration())
      hintByAttribute(F);
}

} // namespace

namespace {

// The modes of a -flto compile with -fmip-generate, as the plugin
// argument generate=MODES takes them.
std::string modesArg(const Modes &M) {
  std::string List;
  auto Add = [&](bool On, const char *Name) {
    if (On)
      List += (List.empty() ? "" : ",") + std::string(Name);
  };
  Add(M.Counts, "counts");
  Add(M.Order, "order");
  Add(M.Blocks && !M.AllBlocks, "blocks");
  Add(M.AllBlocks, "all-blocks");
  Add(M.BlockCounts, "block-counts");
  Add(M.Edges, "edges");
  Add(M.Atomic, "atomic");
  Add(M.Heap && !M.HeapAllocsOnly, "heap");
  Add(M.HeapAllocsOnly, "heap-allocs");
  return List;
}

// Records the modes in the module: the link instruments, once, the code
// it generates (a compile that instrumented would have its probes
// optimized across units, and the map would not be the final code's).
class RecordGeneratePass : public PassInfoMixin<RecordGeneratePass> {
public:
  explicit RecordGeneratePass(Modes Generated) : Generated(Generated) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    Metadata *Arg = MDString::get(M.getContext(), modesArg(Generated));
    M.getOrInsertNamedMetadata(GenerateModesMetadata)
        ->addOperand(MDTuple::get(M.getContext(), Arg));
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }

private:
  Modes Generated;
};

// The modes the module's first unit was compiled with; a warning when
// another unit's differ.
std::optional<Modes> takeModes(Module &M) {
  bool Differ;
  std::optional<std::vector<std::string>> Args =
      takeFirstUnit(M, GenerateModesMetadata, Differ);
  if (!Args)
    return std::nullopt;
  std::string List = Args->empty() ? "" : Args->front();
  Expected<Modes> Generated = parseModes(List);
  if (!Generated) {
    diagnose(M, DS_Error, toString(Generated.takeError()));
    return std::nullopt;
  }
  if (Differ)
    diagnose(M, DS_Warning,
             "units of this link were compiled with different "
             "-fmip-generate modes; instrumenting with those of the first (" +
                 List + ")");
  return *Generated;
}

} // namespace

PreservedAnalyses LinkPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::optional<Options> Opts = takeSettings(M);
  std::optional<Modes> Generated = takeModes(M);
  if (!Opts && !Generated)
    return PreservedAnalyses::all();
  // As without LTO: the profile is used first, then the code it shaped is
  // instrumented.
  if (Opts) {
    // The profile's own per-site hints would match the sites as the
    // profiled build had them; here the contexts have already been
    // matched at the compile, and the attributes carry them.
    bool AllocHints = Opts->Use.AllocHints;
    Opts->Use.AllocHints = false;
    UsePass(Opts->Use, Opts->UseProfile).run(M, MAM);
    // What the early passes left: calls the pipeline made since.
    if (AllocHints)
      hintModule(M);
  }
  if (Generated)
    GeneratePass(*Generated).run(M, MAM);
  return PreservedAnalyses::none();
}

void addLtoCompilePasses(ModulePassManager &MPM, const Options &Opts) {
  if (Opts.UseProfile)
    MPM.addPass(ContextHintsPass(Opts.Use, Opts.UseProfile));
  if (Opts.Generate)
    MPM.addPass(RecordGeneratePass(Opts.Generated));
}

namespace {

// The module's functions by their IR name and by the name their debug
// information gives (a profile frame's), the first one of each.
StringMap<Function *> functionsByName(Module &M) {
  StringMap<Function *> ByName;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    ByName.try_emplace(F.getName(), &F);
    if (const DISubprogram *SP = F.getSubprogram())
      ByName.try_emplace(SP->getLinkageName().empty() ? SP->getName()
                                                      : SP->getLinkageName(),
                         &F);
  }
  return ByName;
}

// Makes each indirect call that the profile saw call one function a
// direct call of it, behind a comparison of the pointer (the indirect call
// stays for other targets), so that context disambiguation can follow it:
// LLVM 19 builds no callsite graph edge for an indirect call. Lua calls
// its allocator through a pointer (luaM_malloc_ through g->frealloc).
// Only the whole program knows the target, so only full LTO does this.
void promoteProfiledCallees(Module &M) {
  SmallVector<CallBase *, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (I.getMetadata(ProfiledCalleesMetadata))
        Calls.push_back(cast<CallBase>(&I));
  if (Calls.empty())
    return;
  StringMap<Function *> ByName = functionsByName(M);
  for (CallBase *CB : Calls) {
    const MDNode *Names = CB->getMetadata(ProfiledCalleesMetadata);
    CB->setMetadata(ProfiledCalleesMetadata, nullptr);
    auto *Name = Names->getNumOperands() == 1
                     ? dyn_cast<MDString>(Names->getOperand(0))
                     : nullptr;
    Function *Target = Name ? ByName.lookup(Name->getString()) : nullptr;
    if (!Target || CB->getCalledFunction() || !isLegalToPromote(*CB, Target))
      continue;
    promoteCallWithIfThenElse(*CB, Target, nullptr);
    // The contexts go through the direct call, the copy that has them.
    CB->setMetadata(LLVMContext::MD_callsite, nullptr);
  }
}

// LLVM 19's context disambiguation on a module (not on a summary) crashes
// on an indirect call with !callsite: those left indirect lose it, and
// the contexts through them are not cloned.
void dropIndirectCallsites(Module &M) {
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!CB->getCalledFunction() && CB->getMetadata(LLVMContext::MD_callsite))
          CB->setMetadata(LLVMContext::MD_callsite, nullptr);
}

// Full LTO's own context disambiguation runs after its inlining, by which
// time interprocedural constant propagation has rewritten the calls of a
// wrapper called with constant arguments (xmalloc(64)) without their
// !callsite metadata, and the contexts no longer reach their callers. Run
// first, it sees the calls as the compile annotated them; the pipeline's
// own run later finds nothing left to do.
class EarlyContextClonePass : public PassInfoMixin<EarlyContextClonePass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (!M.getNamedMetadata(UseSettingsMetadata))
      return PreservedAnalyses::all();
    promoteProfiledCallees(M);
    dropIndirectCallsites(M);
    MemProfContextDisambiguation().run(M, MAM);
    hintModule(M);
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

// In a ThinLTO backend, right after the cloning decisions are applied
// (LLVM does that first thing): the hints go in before the optimizer
// rewrites the calls that carry them, and with them their attribute
// (realloc(NULL, n) becomes malloc(n), without it).
class EarlyHintPass : public PassInfoMixin<EarlyHintPass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!M.getNamedMetadata(UseSettingsMetadata))
      return PreservedAnalyses::all();
    hintModule(M);
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

} // namespace

void registerLinkPasses(PassBuilder &PB) {
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(EarlyHintPass());
      });
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(EarlyContextClonePass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LinkPass());
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LinkPass());
      });
}

} // namespace mip
