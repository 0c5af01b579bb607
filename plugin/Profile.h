//===- Profile.h - An indexed profile, as -fmip-use reads it ----*- C++ -*-===//
//
// The profile a rebuild uses, read into memory through the format library's
// view (lib/profile_view.c): opening it checks the whole file, as mipdata
// does (lib/profile_check.c), and each translation unit then reads the
// entries of its own functions. The rules that turn the numbers into decisions are the
// library's too (lib/decide.c), shared with `mipdata annotate`.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_PROFILE_H
#define MIP_PLUGIN_PROFILE_H

#include "mipfmt.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mip {

class Profile {
public:
  // The profile's entry for one function, and where it is in the profile.
  struct Function {
    uint64_t Index;
    mip_profile_function Record;
  };

  // One heap site of a function, and its index among the profile's sites.
  struct Site {
    uint32_t Index;
    mip_heap_site Record;
  };

  static llvm::Expected<std::shared_ptr<const Profile>>
  open(llvm::StringRef Path);
  ~Profile();
  Profile(const Profile &) = delete;
  Profile &operator=(const Profile &) = delete;

  llvm::StringRef path() const { return Path; }
  uint64_t runs() const { return View.runs; }
  bool hasHeap() const { return View.has_heap; }
  // Whether the profile counted calls (-fmip-generate=counts).
  bool hasCounts() const;

  // Every function's calls, in the profile's order (0 for a function
  // without a count).
  llvm::Expected<std::vector<uint64_t>> allCalls() const;

  // The functions whose key (docs/formats.md) is Key: usually one, more
  // for static functions of two units of the same name.
  llvm::Expected<llvm::SmallVector<Function, 1>>
  find(llvm::StringRef Key) const;

  // Whether the profile has sampled call edges (-fmip-generate=edges).
  bool hasEdges() const;

  // The share of Callee's sampled calls made by Caller (profile indices),
  // 0 when none was sampled; nullopt when Callee has no samples at all.
  llvm::Expected<std::optional<double>> callerShare(uint64_t Caller,
                                                    uint64_t Callee) const;

  // Whether the profile counted edges (-fmip-generate=block-counts).
  bool hasEdgeCounts() const;

  // The edge counts of the function with Key, as counted before inlining:
  // Counts holds them when the profile has Key with CfgHash and Expected
  // counters; Stale says when it has Key only otherwise.
  struct EdgeCounts {
    std::vector<uint64_t> Counts;
    bool Stale = false;
  };
  llvm::Expected<EdgeCounts> edgeCounts(llvm::StringRef Key, uint64_t CfgHash,
                                        uint32_t Expected) const;

  // Every function's edge counts, in the profile's order.
  llvm::Expected<std::vector<std::vector<uint64_t>>> allEdgeCounts() const;

  // The fewest calls of a hot function for share (UINT64_MAX: none).
  llvm::Expected<uint64_t> hotThreshold(double Share) const;

  // Which of F's blocks ran in some merged run, in the function's order.
  llvm::Expected<std::vector<bool>> blocksRan(const Function &F) const;

  // F's heap sites, in the order of their bytes (the order of the calls).
  llvm::Expected<llvm::ArrayRef<Site>> sites(const Function &F) const;

  llvm::Expected<mip_site_decision>
  decide(const Site &S, const mip_decide_options &Options) const;

  std::string string(uint32_t Offset) const;

  // The format library's view, checked whole when opened, for readers of
  // what this class does not wrap (the heap contexts: ContextHints.cpp;
  // the variables: DataSections.cpp).
  const mip_view &view() const { return View; }

private:
  Profile() = default;
  llvm::Error error() const;
  llvm::Error indexSites() const;
  llvm::Error indexEdges() const;

  std::string Path;
  mip_view View{};
  mutable mip_error Err{};
  // Caches: one compilation asks many times.
  mutable std::optional<std::pair<double, uint64_t>> Threshold;
  mutable bool SitesIndexed = false;
  mutable std::vector<Site> AllSites; // grouped by function
  mutable std::vector<std::pair<uint64_t, uint32_t>> FirstSite; // fn, at
  mutable bool EdgesIndexed = false;
  mutable std::vector<uint64_t> SamplesOfCallee; // by function index
};

} // namespace mip

#endif
