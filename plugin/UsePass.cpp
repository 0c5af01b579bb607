//===- UsePass.cpp - -fmip-use --------------------------------------------===//
//
// For every function the profile knows: check that it is still the
// function that was profiled (same structural hash), then mark it hot or
// cold, weigh its branches and hint its allocations. A function the
// profile does not know is left alone; a stale one too, and the pass
// warns once per translation unit with their count (each one with
// list-stale).
//
//===----------------------------------------------------------------------===//

#include "UsePass.h"

#include "AllocHints.h"
#include "BranchWeights.h"
#include "CfgHash.h"
#include "Compat.h"
#include "EdgeCountWeights.h"
#include "FunctionFilter.h"
#include "FunctionKey.h"
#include "FunctionTemperature.h"
#include "Profile.h"
#include "UseEarlyPass.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

constexpr const char *PassName = "mip";

struct Tally {
  unsigned Changed = 0;
  std::vector<std::string> Stale;
};

// Clang prints these as "warning: mip: ..." (or error, note).
void diagnose(Module &M, DiagnosticSeverity Severity, const Twine &Message) {
  Twine Text = "mip: " + Message;
  M.getContext().diagnose(DiagnosticInfoPGOProfile(nullptr, Text, Severity));
}

// The profile's entry for F with F's hash, if any; sets IsStale when the
// profile knows F only with another hash.
Expected<std::optional<Profile::Function>>
lookUp(const Profile &P, Function &F, bool &IsStale) {
  IsStale = false;
  Expected<SmallVector<Profile::Function, 1>> Found = P.find(profileKey(F));
  if (!Found)
    return Found.takeError();
  if (Found->empty())
    return std::nullopt;
  // By the recipe the profile's entry was hashed with: a profile of an
  // older MIP keeps matching what it matched.
  std::optional<uint64_t> Hashes[2];
  for (const Profile::Function &Fn : *Found) {
    bool Targets = Fn.Record.flags & MIP_FN_HASH_CALLS;
    std::optional<uint64_t> &Hash = Hashes[Targets];
    if (!Hash)
      Hash = computeCfgHash(F, Targets ? CfgHashRecipe::ShapeAndTargets
                                       : CfgHashRecipe::Shape);
    if (Fn.Record.cfg_hash == *Hash)
      return Fn;
  }
  IsStale = true;
  return std::nullopt;
}

class FunctionUse {
public:
  FunctionUse(const UseSettings &S, const Profile &P, Function &F,
              const Profile::Function &Fn)
      : S(S), P(P), F(F), Fn(Fn), ORE(&F) {}

  // Applies the profile; returns whether F changed.
  Expected<bool> apply() {
    Expected<bool> Temperature = applyTemperatureOf();
    if (!Temperature)
      return Temperature.takeError();
    bool Changed = *Temperature;
    // Weights from edge counts are exact; block coverage would only
    // blur them.
    if (S.BranchWeights && Fn.Record.block_count && !hasExactCounts(F)) {
      Expected<std::vector<bool>> Ran = P.blocksRan(Fn);
      if (!Ran)
        return Ran.takeError();
      Changed |= weighBranches(F, *Ran, ORE) > 0;
    }
    if (S.AllocHints && P.hasHeap()) {
      Expected<unsigned> Hinted = hintAllocations(F, P, Fn, S.Decide, ORE);
      if (!Hinted)
        return Hinted.takeError();
      Changed |= *Hinted > 0;
    }
    return Changed;
  }

private:
  Expected<bool> applyTemperatureOf() {
    Expected<uint64_t> Threshold = P.hotThreshold(S.Decide.hot_share);
    if (!Threshold)
      return Threshold.takeError();
    const mip_profile_function &R = Fn.Record;
    TemperatureReason Why{
        mip_function_temperature(&R, P.runs(), *Threshold), P.runs(),
        R.cnt_offset != MIP_NO_OFFSET ? R.calls : 0, *Threshold,
        S.Decide.hot_share};
    return applyTemperature(F, Why, S.ColdMinSize, ORE);
  }

  const UseSettings &S;
  const Profile &P;
  Function &F;
  const Profile::Function &Fn;
  OptimizationRemarkEmitter ORE;
};

void remarkStale(Function &F) {
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemarkMissed(PassName, "Stale", &F)
           << "profile not used: the function changed since it was profiled";
  });
}

void reportStale(Module &M, const Profile &P, const UseSettings &S,
                 const Tally &T) {
  if (T.Stale.empty())
    return;
  size_t N = T.Stale.size();
  // With counts before inlining (UseEarlyPass), the inliner follows the
  // profile, so a function into which it inlined otherwise than the
  // profiled build comes out different too, unchanged in the source.
  const char *Why =
      countedEarly(M)
          ? " from the profiled build (changed since, or inlined otherwise "
            "by the profile's counts) and will not use its blocks"
          : " since the profile was taken and will not use it";
  const char *Verb = countedEarly(M) ? (N == 1 ? " differs" : " differ")
                                     : (N == 1 ? " has changed" : " have changed");
  diagnose(M, DS_Warning,
           P.path() + ": " + Twine(N) + (N == 1 ? " function" : " functions") +
               " of " + M.getSourceFileName() + Verb + Why +
               (S.ListStale ? "" : " (-fmip-list-stale lists them)"));
  if (S.ListStale)
    for (const std::string &Name : T.Stale)
      diagnose(M, DS_Note, "stale: " + Name);
}

bool fail(Module &M, Error E) {
  diagnose(M, DS_Error, toString(std::move(E)));
  return false;
}

// Returns false on a profile error, after reporting it.
bool useFunction(Module &M, const Profile &P, const UseSettings &S,
                 Function &F, Tally &T) {
  bool IsStale;
  Expected<std::optional<Profile::Function>> Fn = lookUp(P, F, IsStale);
  if (!Fn)
    return fail(M, Fn.takeError());
  if (!*Fn) {
    // A function given exact counts before inlining is the profiled one:
    // its end differs only by what the counters and the counts changed.
    if (IsStale && !hasExactCounts(F)) {
      T.Stale.push_back(profileKey(F));
      remarkStale(F);
    }
    return true;
  }
  Expected<bool> Changed = FunctionUse(S, P, F, **Fn).apply();
  if (!Changed)
    return fail(M, Changed.takeError());
  T.Changed += *Changed;
  return true;
}

} // namespace

PreservedAnalyses UsePass::run(Module &M, ModuleAnalysisManager &) {
  if (!P)
    return PreservedAnalyses::all();
  if (P->runs() == 0) {
    diagnose(M, DS_Warning,
             P->path() + ": no runs merged into this profile; not used");
    return PreservedAnalyses::all();
  }
  // Edge counts are applied before inlining, which only LLVM 19 does.
  if (!compat::CountsBeforeInlining && P->hasEdgeCounts())
    diagnose(M, DS_Warning,
             P->path() + ": its block counts are used by LLVM 19 and later "
                         "only; this rebuild uses the rest of the profile");
  Tally T;
  for (Function &F : M) {
    if (!shouldInstrument(F))
      continue;
    if (!useFunction(M, *P, Settings, F, T))
      break;
  }
  reportStale(M, *P, Settings, T);
  return T.Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace mip
