//===- UseEarlyPass.cpp - -fmip-use before inlining -----------------------===//
//
// The profile was taken at the end of the pipeline, so its blocks are
// those of optimized code, which the early IR does not have yet; but a
// function's calls are a fact about its callers, whatever its body became,
// and the function is found by its key (its name, unit;name for a static
// one) as UsePass finds it. So here, by key:
//
// * each function's calls become its entry count;
// * with block counts, a function they show cold (by the profile
//   summary, LLVM's rule) is optimized for size before the inliner and
//   the unroller grow it;
// * a call site gets a count where the profile determines it: the
//   callee's calls times the share of its sampled calls that came from
//   this caller (edges), split evenly among the caller's sites of that
//   callee; without edges, a static callee's calls split among its sites;
// * the blocks' frequencies follow from those counts by flow inference
//   (FlowWeights.cpp), as branch weights;
// * a static function the profiled build inlined into all its callers,
//   and so has no entry, gets the sum of its call sites' counts in its
//   callers, by their block frequencies, callers first.
//
// The structural hash that tells a changed function is checked at the end
// (UsePass). A key the profile holds more than once (static functions of
// two units with the same source name) cannot be told apart before the
// end: such a function gets no count.
//
//===----------------------------------------------------------------------===//

#include "UseEarlyPass.h"

#include "Compat.h"
#include "EdgeCountWeights.h"
#include "FlowWeights.h"
#include "FunctionKey.h"
#include "FunctionTemperature.h"
#include "Profile.h"

#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/ProfileCommon.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace mip {

namespace {

// The module's mark that it was given counts (named metadata, which the
// object file does not keep).
constexpr const char *CountedEarly = "mip.counted";

// LLVM's counts are integers, and the count it derives for a block (the
// entry count times the block's frequency relative to the entry) rounds
// down: in a function called a few times, a block it estimates to run
// less than once per call would count 0, which is cold, and be optimized
// for size, its loops not unrolled. Counts in thousandths of a call keep
// such estimates above 0; only what never ran counts 0.
cl::opt<unsigned> CountScale(
    "mip-use-count-scale", cl::Hidden, cl::init(1000),
    cl::desc("MIP: counts given to LLVM per call of the profile"));

cl::opt<bool> UseFlowWeights(
    "mip-use-flow-weights", cl::Hidden, cl::init(true),
    cl::desc("MIP: before inlining, weigh branches by the flow that the "
             "entry and call-site counts imply (-fmip-use)"));

// What the block counts show cold (every block ran no more than the
// profile summary's cold count) is what LLVM's own PGO marks `cold`; it
// is optimized for size here, before inlining, as LLVM's
// -pgo-cold-func-opt=minsize does for its own profiles: otherwise the
// inliner, unroller and block alignment grow it like any other code, and
// a rebuild whose hot paths grew by their inlining ends up larger than
// the plain build (lua: 6 % more .text). Cold by the summary, it costs
// next to no instructions.
cl::opt<bool> ColdMinSize(
    "mip-use-cold-minsize", cl::Hidden, cl::init(true),
    cl::desc("MIP: before inlining, optimize for size (minsize) the "
             "functions whose block counts are all cold (-fmip-use)"));

// The summary LLVM's instrumented PGO would write for the profile's
// counters, with the same cutoffs, so that a hot count is one among those
// that make 99% of all. With edge counts (block-counts mode) those are its
// counters, as LLVM's are. With calls only, no count above 0 is cold: the
// profile counts calls, not how often each block ran, and a function
// called a few times may well loop for most of the run (compressing a
// file, sorting); estimated from its few calls, its loop would look cold
// and be optimized for size. So the cold cutoffs (those above the hot
// one) have a least count of 0: only what never ran is cold. Every
// translation unit gets the same summary (a link-time optimization
// refuses modules whose summaries differ).
std::unique_ptr<ProfileSummary>
summarize(ArrayRef<std::vector<uint64_t>> Records, bool CallsOnly) {
  constexpr uint32_t HotCutoff = 990000; // LLVM's -profile-summary-cutoff-hot
  InstrProfSummaryBuilder Builder(ProfileSummaryBuilder::DefaultCutoffs);
  for (const std::vector<uint64_t> &Counts : Records) {
    std::vector<uint64_t> Scaled;
    for (uint64_t C : Counts)
      Scaled.push_back(C > UINT64_MAX / CountScale ? UINT64_MAX
                                                   : C * CountScale);
    if (!Scaled.empty())
      Builder.addRecord(InstrProfRecord(std::move(Scaled)));
  }
  std::unique_ptr<ProfileSummary> S = Builder.getSummary();
  SummaryEntryVector Detailed;
  for (const ProfileSummaryEntry &E : S->getDetailedSummary())
    Detailed.emplace_back(E.Cutoff,
                          CallsOnly && E.Cutoff > HotCutoff ? 0 : E.MinCount,
                          E.NumCounts);
  return std::make_unique<ProfileSummary>(
      ProfileSummary::PSK_Instr, Detailed, S->getTotalCount(),
      S->getMaxCount(), S->getMaxInternalCount(), S->getMaxFunctionCount(),
      S->getNumCounts(), S->getNumFunctions());
}

// A function's calls, scaled.
uint64_t callsOf(const Profile::Function &Fn) {
  uint64_t Calls = Fn.Record.cnt_offset != MIP_NO_OFFSET ? Fn.Record.calls : 0;
  return Calls > UINT64_MAX / CountScale ? UINT64_MAX : Calls * CountScale;
}

const Function *directCallee(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return nullptr;
  const Function *Callee = Call->getCalledFunction();
  return Callee && !Callee->isIntrinsic() ? Callee : nullptr;
}

uint64_t entryCountOf(const Function &F) {
  return compat::entryCount(F).value_or(0);
}

// The call sites of F, if they are all it has: none of its uses takes
// its address or calls it through another type.
std::optional<SmallVector<const CallBase *, 4>> onlyCallsOf(const Function &F) {
  SmallVector<const CallBase *, 4> Calls;
  for (const Use &U : F.uses()) {
    const auto *Call = dyn_cast<CallBase>(U.getUser());
    if (!Call || !Call->isCallee(&U) || Call->getFunctionType() != F.getFunctionType())
      return std::nullopt;
    Calls.push_back(Call);
  }
  return Calls;
}

// A function's block counts by LLVM's block frequency, from its entry
// count and branch weights.
class BlockCountsOf {
public:
  explicit BlockCountsOf(Function &F)
      : DT(F), LI(DT), BPI(F, LI), BFI(F, BPI, LI) {}
  uint64_t of(const BasicBlock &BB) const {
    return compat::blockProfileCount(BFI, BB);
  }

private:
  DominatorTree DT;
  LoopInfo LI;
  BranchProbabilityInfo BPI;
  BlockFrequencyInfo BFI;
};

class EarlyUse {
public:
  EarlyUse(const Profile &P, Module &M) : P(P), M(M) {}

  Error run() {
    for (Function &F : M)
      if (Error E = applyExactCounts(F))
        return E;
    sizeColdFunctions();
    for (Function &F : M)
      if (Error E = setEntryCount(F))
        return E;
    if (!UseFlowWeights)
      return Error::success();
    for (Function &F : M)
      if (Error E = weigh(F))
        return E;
    return countInlinedAway();
  }

private:
  // F's profile entry, if the profile knows its key exactly once.
  Expected<std::optional<Profile::Function>> entryOf(const Function &F) {
    auto It = Entries.find(&F);
    if (It != Entries.end())
      return It->second;
    Expected<SmallVector<Profile::Function, 1>> Found = P.find(profileKey(F));
    if (!Found)
      return Found.takeError();
    std::optional<Profile::Function> Entry;
    if (Found->size() == 1)
      Entry = Found->front();
    Entries[&F] = Entry;
    return Entry;
  }

  // Where the profile counted F's edges: its entry count and every
  // branch's weights, exactly.
  Error applyExactCounts(Function &F) {
    Expected<EdgeCountsResult> Use = applyEdgeCounts(F, P, CountScale);
    if (!Use)
      return Use.takeError();
    OptimizationRemarkEmitter ORE(&F);
    if (Use->Use == EdgeCountsUse::Stale)
      ORE.emit([&] {
        return OptimizationRemarkMissed("mip", "StaleBlockCounts", &F)
               << "block counts not used: the function changed since they "
                  "were counted; estimated from its calls";
      });
    if (Use->Use != EdgeCountsUse::Applied)
      return Error::success();
    MaxBlockCounts.push_back({&F, Use->MaxBlockCount});
    ORE.emit([&] {
      return OptimizationRemark("mip", "BlockCounts", &F)
             << ore::NV("Function", F.getName()) << ": "
             << ore::NV("Calls", entryCountOf(F) / CountScale)
             << " calls and its branches from its block counts";
    });
    return Error::success();
  }

  // The functions with exact counts that LLVM's rule calls cold, by the
  // module's profile summary (already set).
  void sizeColdFunctions() {
    if (!ColdMinSize || MaxBlockCounts.empty())
      return;
    ProfileSummaryInfo PSI(M);
    for (auto [F, Max] : MaxBlockCounts)
      if (PSI.isColdCount(Max)) {
        OptimizationRemarkEmitter ORE(F);
        applyColdCounts(*F, Max, CountScale, ORE);
      }
  }

  Error setEntryCount(Function &F) {
    if (F.isDeclaration() || hasExactCounts(F) || !P.hasCounts())
      return Error::success();
    Expected<std::optional<Profile::Function>> Fn = entryOf(F);
    if (!Fn)
      return Fn.takeError();
    if (*Fn)
      F.setEntryCount(Function::ProfileCount(callsOf(**Fn), Function::PCT_Real));
    return Error::success();
  }

  // A static function the profiled build inlined into all its callers has
  // no entry in the profile; here, before inlining, its calls are the sum
  // of its call sites' counts in its callers, once those have theirs.
  // Callers first: each round counts the functions whose callers are all
  // counted, until a round counts none (recursion stays uncounted).
  Error countInlinedAway() {
    SmallVector<Function *, 16> Pending;
    for (Function &F : M) {
      Expected<std::optional<Profile::Function>> Fn = entryOf(F);
      if (!Fn)
        return Fn.takeError();
      if (!F.isDeclaration() && F.hasLocalLinkage() && !*Fn &&
          !hasExactCounts(F))
        Pending.push_back(&F);
    }
    for (bool Progress = true; Progress;) {
      Progress = false;
      for (Function *&F : Pending) {
        std::optional<uint64_t> Count = F ? callsFromCallers(*F) : std::nullopt;
        if (!Count)
          continue;
        F->setEntryCount(Function::ProfileCount(*Count, Function::PCT_Real));
        if (Error E = weigh(*F))
          return E;
        F = nullptr;
        Progress = true;
      }
    }
    return Error::success();
  }

  // The sum of F's call sites' counts, if all its callers have counts.
  std::optional<uint64_t> callsFromCallers(const Function &F) {
    std::optional<SmallVector<const CallBase *, 4>> Calls = onlyCallsOf(F);
    if (!Calls || Calls->empty())
      return std::nullopt;
    uint64_t Sum = 0;
    for (const CallBase *Call : *Calls) {
      Function *Caller = const_cast<Function *>(Call->getFunction());
      if (Caller == &F || !Caller->getEntryCount())
        return std::nullopt;
      std::unique_ptr<BlockCountsOf> &Counts = CountsOf[Caller];
      if (!Counts)
        Counts = std::make_unique<BlockCountsOf>(*Caller);
      Sum += Counts->of(*Call->getParent());
    }
    return Sum;
  }

  // How many of the module's call sites of Callee may run: those in
  // functions that are not known never to.
  unsigned sitesOf(const Function &Callee) {
    auto [It, New] = Sites.try_emplace(&Callee, 0);
    if (New)
      for (const User *U : Callee.users()) {
        const auto *Call = dyn_cast<CallBase>(U);
        if (!Call || Call->getCalledFunction() != &Callee)
          continue;
        std::optional<uint64_t> Count =
            compat::entryCount(*Call->getFunction());
        It->second += !Count || *Count > 0;
      }
    return It->second;
  }

  // The count of a call from Caller (SitesInCaller sites of Callee) to
  // Callee, where the profile determines it. Caller may have no entry of
  // its own (the profiled build inlined it away).
  Expected<std::optional<uint64_t>>
  siteCount(const std::optional<Profile::Function> &Caller,
            const Function &Callee, unsigned SitesInCaller) {
    Expected<std::optional<Profile::Function>> G = entryOf(Callee);
    if (!G)
      return G.takeError();
    if (!*G)
      return std::nullopt;
    // A callee that never ran was never called from here either (as
    // UsePass's `cold` says late).
    uint64_t Calls = callsOf(**G);
    if (!Calls)
      return (*G)->Record.covered_runs ? std::nullopt
                                       : std::optional<uint64_t>(0);
    if (P.hasEdges() && Caller) {
      Expected<std::optional<double>> Share =
          P.callerShare(Caller->Index, (*G)->Index);
      if (!Share)
        return Share.takeError();
      // No sample from this caller: it may have inlined the callee in the
      // profiled build, so its count is unknown rather than 0.
      if (*Share && **Share > 0)
        return static_cast<uint64_t>(Calls * **Share / SitesInCaller);
    }
    // A static callee is called from this module only: its calls split
    // evenly among its sites.
    if (!Callee.hasLocalLinkage() || !sitesOf(Callee))
      return std::nullopt;
    return Calls / sitesOf(Callee);
  }

  // The blocks of F whose counts the profile gives: the entry and those
  // with a call site it counts.
  Expected<BlockCounts> knownCounts(Function &F,
                                    const std::optional<Profile::Function> &Fn) {
    DenseMap<const Function *, unsigned> SitesInF;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        if (const Function *Callee = directCallee(I))
          SitesInF[Callee]++;
    BlockCounts Known;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        const Function *Callee = directCallee(I);
        if (!Callee)
          continue;
        Expected<std::optional<uint64_t>> Count =
            siteCount(Fn, *Callee, SitesInF[Callee]);
        if (!Count)
          return Count.takeError();
        if (*Count)
          Known[&BB] = std::max(Known.lookup(&BB), **Count);
      }
    Known[&F.getEntryBlock()] = entryCountOf(F);
    return Known;
  }

  Error weigh(Function &F) {
    if (F.isDeclaration() || F.size() < 2 || !entryCountOf(F) ||
        hasExactCounts(F))
      return Error::success();
    Expected<std::optional<Profile::Function>> Fn = entryOf(F);
    if (!Fn)
      return Fn.takeError();
    Expected<BlockCounts> Known = knownCounts(F, *Fn);
    if (!Known)
      return Known.takeError();
    // The entry alone says nothing about the branches: LLVM's own
    // estimates are better than an even spread.
    if (Known->size() < 2)
      return Error::success();
    unsigned Weighed = weighByFlow(F, *Known);
    if (Weighed) {
      OptimizationRemarkEmitter ORE(&F);
      ORE.emit([&] {
        return OptimizationRemark("mip", "FlowWeights", &F)
               << "weighed " << ore::NV("Branches", Weighed)
               << (Weighed == 1 ? " branch" : " branches") << " by the flow of "
               << ore::NV("Counts", static_cast<unsigned>(Known->size()))
               << " block counts";
      });
    }
    return Error::success();
  }

  const Profile &P;
  Module &M;
  DenseMap<const Function *, std::optional<Profile::Function>> Entries;
  DenseMap<const Function *, unsigned> Sites;
  DenseMap<Function *, std::unique_ptr<BlockCountsOf>> CountsOf;
  // Each function with exact counts and the count of its busiest block.
  std::vector<std::pair<Function *, uint64_t>> MaxBlockCounts;
};

// The counts the summary is made of: the edge counters, where the profile
// has them; else each function's calls.
Expected<std::vector<std::vector<uint64_t>>> summaryRecords(const Profile &P) {
  if (P.hasEdgeCounts())
    return P.allEdgeCounts();
  Expected<std::vector<uint64_t>> Calls = P.allCalls();
  if (!Calls)
    return Calls.takeError();
  std::vector<std::vector<uint64_t>> Records;
  for (uint64_t C : *Calls)
    Records.push_back({C});
  return Records;
}

void fail(Module &M, Error E) {
  M.getContext().diagnose(DiagnosticInfoPGOProfile(
      nullptr, "mip: " + toString(std::move(E)), DS_Error));
}

} // namespace

PreservedAnalyses UseEarlyPass::run(Module &M, ModuleAnalysisManager &) {
  // Without runs UsePass warns; without counts there is nothing to count;
  // a module that already has a profile (LLVM's own) keeps it.
  if (!P || P->runs() == 0 || !(P->hasCounts() || P->hasEdgeCounts()) ||
      M.getProfileSummary(false))
    return PreservedAnalyses::all();
  Expected<std::vector<std::vector<uint64_t>>> Records = summaryRecords(*P);
  if (!Records) {
    fail(M, Records.takeError());
    return PreservedAnalyses::all();
  }
  // Set first: what is cold is read from it.
  M.setProfileSummary(summarize(*Records, !P->hasEdgeCounts())
                          ->getMD(M.getContext()),
                      ProfileSummary::PSK_Instr);
  if (Error E = EarlyUse(*P, M).run()) {
    fail(M, std::move(E));
    return PreservedAnalyses::none();
  }
  M.getOrInsertNamedMetadata(CountedEarly);
  return PreservedAnalyses::none();
}

bool countedEarly(const Module &M) { return M.getNamedMetadata(CountedEarly); }

} // namespace mip
