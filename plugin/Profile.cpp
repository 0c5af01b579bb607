//===- Profile.cpp - An indexed profile, as -fmip-use reads it ------------===//

#include "Profile.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace mip {

Expected<std::shared_ptr<const Profile>> Profile::open(StringRef Path) {
  std::shared_ptr<Profile> P(new Profile());
  P->Path = Path.str();
  if (mip_view_open(P->Path.c_str(), &P->View, &P->Err))
    return P->error();
  return std::shared_ptr<const Profile>(std::move(P));
}

Profile::~Profile() { mip_view_close(&View); }

Error Profile::error() const {
  return createStringError(inconvertibleErrorCode(), Err.msg);
}

std::string Profile::string(uint32_t Offset) const {
  const char *S = mip_view_string(&View, Offset);
  return S ? S : "";
}

Expected<SmallVector<Profile::Function, 1>>
Profile::find(StringRef Key) const {
  std::string K = Key.str();
  uint64_t First;
  uint64_t Count = mip_view_find(&View, K.c_str(), &First);
  SmallVector<Function, 1> Found;
  for (uint64_t I = First; I < First + Count; I++) {
    Function F{I, {}};
    if (mip_view_function(&View, I, &F.Record, &Err))
      return error();
    Found.push_back(F);
  }
  return Found;
}

bool Profile::hasCounts() const {
  return View.modes & MIP_MODE_BIT(MIP_RAW_CNT);
}

Expected<std::vector<uint64_t>> Profile::allCalls() const {
  std::vector<uint64_t> Calls(mip_view_count(&View, MIP_PROF_FUNCTIONS));
  for (uint64_t I = 0; I < Calls.size(); I++) {
    mip_profile_function F;
    if (mip_view_function(&View, I, &F, &Err))
      return error();
    Calls[I] = F.cnt_offset != MIP_NO_OFFSET ? F.calls : 0;
  }
  return Calls;
}

bool Profile::hasEdgeCounts() const {
  return mip_view_count(&View, MIP_PROF_EDGE_COUNTS) > 0;
}

namespace {

std::vector<uint64_t> countersOf(const mip_view &V,
                                 const mip_profile_edge_counts &E) {
  std::vector<uint64_t> Counts(E.count);
  for (uint32_t I = 0; I < E.count; I++)
    Counts[I] = mip_view_edge_counter(&V, E.first + I);
  return Counts;
}

} // namespace

Expected<Profile::EdgeCounts> Profile::edgeCounts(StringRef Key,
                                                  uint64_t CfgHash,
                                                  uint32_t Expected) const {
  std::string K = Key.str();
  uint64_t First;
  uint64_t N = mip_view_find_edge_counts(&View, K.c_str(), &First);
  EdgeCounts Found;
  for (uint64_t I = First; I < First + N; I++) {
    mip_profile_edge_counts E;
    if (mip_view_edge_counts(&View, I, &E, &Err))
      return error();
    if (E.cfg_hash != CfgHash || E.count != Expected) {
      Found.Stale = true;
      continue;
    }
    Found.Counts = countersOf(View, E);
    Found.Stale = false;
    break;
  }
  return Found;
}

Expected<std::vector<std::vector<uint64_t>>> Profile::allEdgeCounts() const {
  std::vector<std::vector<uint64_t>> All;
  for (uint64_t I = 0; I < mip_view_count(&View, MIP_PROF_EDGE_COUNTS); I++) {
    mip_profile_edge_counts E;
    if (mip_view_edge_counts(&View, I, &E, &Err))
      return error();
    All.push_back(countersOf(View, E));
  }
  return All;
}

bool Profile::hasEdges() const {
  uint64_t Period;
  return mip_view_stat(&View, MIP_STAT_EDGE_PERIOD, &Period) && Period;
}

// Every callee's samples, from all its callers (instrumented or not).
Error Profile::indexEdges() const {
  SamplesOfCallee.assign(mip_view_count(&View, MIP_PROF_FUNCTIONS), 0);
  for (uint64_t I = 0; I < mip_view_count(&View, MIP_PROF_EDGES); I++) {
    mip_edge E;
    if (mip_view_edge(&View, I, &E, &Err))
      return error();
    SamplesOfCallee[E.callee] += E.samples;
  }
  EdgesIndexed = true;
  return Error::success();
}

Expected<std::optional<double>> Profile::callerShare(uint64_t Caller,
                                                     uint64_t Callee) const {
  if (!EdgesIndexed)
    if (Error E = indexEdges())
      return std::move(E);
  if (Callee >= SamplesOfCallee.size() || !SamplesOfCallee[Callee])
    return std::nullopt;
  // Edges are sorted by caller, then callee.
  uint64_t Lo = 0, Hi = mip_view_count(&View, MIP_PROF_EDGES);
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    mip_edge E;
    if (mip_view_edge(&View, Mid, &E, &Err))
      return error();
    if (std::tie(E.caller, E.callee) < std::tie(Caller, Callee))
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  mip_edge E;
  if (Lo == mip_view_count(&View, MIP_PROF_EDGES))
    return 0.0;
  if (mip_view_edge(&View, Lo, &E, &Err))
    return error();
  if (E.caller != Caller || E.callee != Callee)
    return 0.0;
  return static_cast<double>(E.samples) / SamplesOfCallee[Callee];
}

Expected<uint64_t> Profile::hotThreshold(double Share) const {
  if (Threshold && Threshold->first == Share)
    return Threshold->second;
  uint64_t T;
  if (mip_view_hot_threshold(&View, Share, &T, &Err))
    return error();
  Threshold = {Share, T};
  return T;
}

Expected<std::vector<bool>> Profile::blocksRan(const Function &F) const {
  std::vector<bool> Ran(F.Record.block_count);
  for (uint32_t I = 0; I < F.Record.block_count; I++) {
    mip_block B;
    if (mip_view_block(&View, F.Record.first_block + I, &B, &Err))
      return error();
    Ran[I] = B.covered_runs > 0;
  }
  return Ran;
}

// One pass over all sites, the first time a function asks: sites are
// sorted by their byte, and a function's bytes are one array, so each
// function's sites come out together and in call order.
Error Profile::indexSites() const {
  AllSites.clear();
  FirstSite.clear();
  uint64_t Count = mip_view_count(&View, MIP_PROF_HEAP_SITES);
  AllSites.reserve(Count);
  for (uint64_t I = 0; I < Count; I++) {
    Site S{static_cast<uint32_t>(I), {}};
    if (mip_view_heap_site(&View, I, &S.Record, &Err))
      return error();
    AllSites.push_back(S);
  }
  std::sort(AllSites.begin(), AllSites.end(), [](const Site &A, const Site &B) {
    return std::tie(A.Record.function, A.Index) <
           std::tie(B.Record.function, B.Index);
  });
  for (uint32_t I = 0; I < AllSites.size(); I++)
    if (!I || AllSites[I].Record.function != AllSites[I - 1].Record.function)
      FirstSite.push_back({AllSites[I].Record.function, I});
  SitesIndexed = true;
  return Error::success();
}

Expected<ArrayRef<Profile::Site>> Profile::sites(const Function &F) const {
  if (!SitesIndexed)
    if (Error E = indexSites())
      return std::move(E);
  auto It = std::lower_bound(
      FirstSite.begin(), FirstSite.end(), F.Index,
      [](const std::pair<uint64_t, uint32_t> &E, uint64_t Fn) {
        return E.first < Fn;
      });
  if (It == FirstSite.end() || It->first != F.Index)
    return ArrayRef<Site>();
  uint32_t End = std::next(It) == FirstSite.end() ? AllSites.size()
                                                  : std::next(It)->second;
  return ArrayRef<Site>(AllSites).slice(It->second, End - It->second);
}

Expected<mip_site_decision>
Profile::decide(const Site &S, const mip_decide_options &Options) const {
  mip_site_decision D;
  if (mip_view_site_decision(&View, S.Index, &Options, &D, &Err))
    return error();
  return D;
}

} // namespace mip
