//===- EdgeCountWeights.h - Counts from -fmip-generate=block-counts -*- C++ -*-===//
//
// The rebuild's side of block-counts mode: the function's spanning tree
// again (SpanningTree.h), the counted edges' counts from the profile, the
// tree edges' by conservation, and from them the function's entry count
// and every branch's weights, exactly as the profiled run took them.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_EDGECOUNTWEIGHTS_H
#define MIP_PLUGIN_EDGECOUNTWEIGHTS_H

#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class Function;
}

namespace mip {

class Profile;

// What the profile's edge counts did for F.
enum class EdgeCountsUse {
  Absent,  // the profile has none for F
  Stale,   // it has some for another graph of F
  Applied, // F has its entry count (times Scale) and branch weights
};

struct EdgeCountsResult {
  EdgeCountsUse Use = EdgeCountsUse::Absent;
  // Applied: the count of F's block that ran most (times Scale), which
  // says, as LLVM's own PGO reads it, whether the whole function is cold.
  uint64_t MaxBlockCount = 0;
};

llvm::Expected<EdgeCountsResult> applyEdgeCounts(llvm::Function &F,
                                                 const Profile &P,
                                                 uint64_t Scale);

// Whether F's counts came from its edge counts (which the end of the
// pipeline then leaves as they are).
bool hasExactCounts(const llvm::Function &F);

} // namespace mip

#endif
