//===- UseEarlyPass.cpp - -fmip-use before inlining -----------------------===//
//
// The profile was taken at the end of the pipeline, so its blocks are
// those of optimized code, which the early IR does not have yet; but a
// function's calls are a fact about its callers, whatever its body became,
// and the function is found by its key (its name, unit;name for a static
// one) as UsePass finds it. So entry counts are set here, by key, and the
// structural hash that tells a changed function is checked at the end.
// A key the profile holds more than once (static functions of two units
// with the same source name) cannot be told apart before the end: such a
// function gets no count.
//
//===----------------------------------------------------------------------===//

#include "UseEarlyPass.h"

#include "FunctionKey.h"
#include "Profile.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/ProfileCommon.h"

using namespace llvm;

namespace mip {

namespace {

// The summary LLVM's instrumented PGO would write for a profile whose only
// counters are the functions' entries: the same cutoffs, so that "hot" and
// "cold" counts mean what they mean with LLVM's own profiles. Every
// translation unit gets the same one (a link-time optimization refuses
// modules whose summaries differ).
std::unique_ptr<ProfileSummary> summarize(ArrayRef<uint64_t> Calls) {
  InstrProfSummaryBuilder Builder(ProfileSummaryBuilder::DefaultCutoffs);
  for (uint64_t C : Calls)
    Builder.addRecord(InstrProfRecord(std::vector<uint64_t>{C}));
  return Builder.getSummary();
}

// F's calls by the profile, if it knows F's key exactly once.
Expected<std::optional<uint64_t>> callsOf(const Profile &P,
                                          const Function &F) {
  Expected<SmallVector<Profile::Function, 1>> Found = P.find(profileKey(F));
  if (!Found)
    return Found.takeError();
  if (Found->size() != 1)
    return std::nullopt;
  const mip_profile_function &R = Found->front().Record;
  return R.cnt_offset != MIP_NO_OFFSET ? R.calls : 0;
}

Error setEntryCounts(Module &M, const Profile &P) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    Expected<std::optional<uint64_t>> Calls = callsOf(P, F);
    if (!Calls)
      return Calls.takeError();
    if (*Calls)
      F.setEntryCount(Function::ProfileCount(**Calls, Function::PCT_Real));
  }
  return Error::success();
}

void fail(Module &M, Error E) {
  M.getContext().diagnose(DiagnosticInfoPGOProfile(
      nullptr, "mip: " + toString(std::move(E)), DS_Error));
}

} // namespace

PreservedAnalyses UseEarlyPass::run(Module &M, ModuleAnalysisManager &) {
  // Without runs UsePass warns; without counts there is nothing to count;
  // a module that already has a profile (LLVM's own) keeps it.
  if (!P || P->runs() == 0 || !P->hasCounts() || M.getProfileSummary(false))
    return PreservedAnalyses::all();
  Expected<std::vector<uint64_t>> Calls = P->allCalls();
  if (!Calls) {
    fail(M, Calls.takeError());
    return PreservedAnalyses::all();
  }
  if (Error E = setEntryCounts(M, *P)) {
    fail(M, std::move(E));
    return PreservedAnalyses::none();
  }
  M.setProfileSummary(summarize(*Calls)->getMD(M.getContext()),
                      ProfileSummary::PSK_Instr);
  return PreservedAnalyses::none();
}

} // namespace mip
