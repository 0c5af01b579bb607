//===- EdgeCounters.h - -fmip-generate=block-counts -------------*- C++ -*-===//
//
// Counts, before inlining, how often each edge of each function's control
// flow runs: a u64 counter on each edge the function's spanning tree
// (SpanningTree.h) leaves out. It runs where -fmip-use applies the counts
// (UseEarlyPass.h), so the rebuild finds the same graph, whatever the
// inliner later makes of it; code inlined elsewhere keeps counting into
// its own function's counters.
//
// The counters carry their function's name, unit and CFG hash as
// metadata (mip.edge_counts), from which the map writer, at the end of
// the pipeline, writes their records (MapWriter.h).
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_EDGECOUNTERS_H
#define MIP_PLUGIN_EDGECOUNTERS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

#include <optional>
#include <string>

namespace llvm {
class GlobalVariable;
}

namespace mip {

class EdgeCountersPass : public llvm::PassInfoMixin<EdgeCountersPass> {
public:
  explicit EdgeCountersPass(Modes M) : Generated(M) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Modes Generated;
};

// What a counter array of EdgeCountersPass says of its function.
struct EdgeCountsOwner {
  std::string Name; // linkage name
  std::string Unit; // source name for a local function, else empty
  uint64_t CfgHash;
};

// The owner of GV, if GV is an array of edge counters.
std::optional<EdgeCountsOwner> edgeCountsOwner(const llvm::GlobalVariable &GV);

} // namespace mip

#endif
