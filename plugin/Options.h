//===- Options.h - What -fplugin-arg-mip-* asked for ------------*- C++ -*-===//
//
// The plugin's settings, parsed from the clang plugin arguments
// (-fplugin-arg-mip-generate[=MODES], -fplugin-arg-mip-use=FILE, ...) or
// from an opt pipeline element (mip-generate<MODES>, mip-use<profile=FILE;
// ...>). Both spellings share one parser so they mean the same everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_OPTIONS_H
#define MIP_PLUGIN_OPTIONS_H

#include "mipfmt.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mip {

// What to collect. Function-entry coverage is always on.
struct Modes {
  bool Counts = false; // calls per function
  bool Order = false;  // rank of each function's first call
  bool Blocks = false; // basic-block coverage
  bool Edges = false;  // sampled call edges (implies Counts)
  bool Atomic = false; // exact counts under threads (atomic increments)
  // Heap profiling: hooks at allocation and deallocation calls, and a
  // shadow counter per 64 bytes that every heap access increments. Not
  // part of "all": it costs far more than the other modes.
  bool Heap = false;
  // Heap profiling without the shadow counters (mode heap-allocs): the
  // hooks alone, what a sampled run (heap_sample) costs next to nothing
  // with; the profile says accesses were not counted.
  bool HeapAllocsOnly = false;
  // Accesses per global variable (DataAccesses.cpp). Not part of "all"
  // either: every access to a global costs an add.
  bool Data = false;
  // Probe every block instead of only those whose coverage cannot be
  // inferred: to check the inference, at a higher cost.
  bool AllBlocks = false;
  // Edge counters before inlining, from which a rebuild knows how often
  // every block and edge ran (EdgeCounters.h).
  bool BlockCounts = false;
};

class Profile;

// What -fmip-use=FILE does with the profile (docs/use.md).
struct UseSettings {
  std::string File;
  mip_decide_options Decide; // hotness and allocation class thresholds
  bool ListStale = false;    // name each stale function, not just count
  bool ColdMinSize = false;  // cold functions also optimized for size
  bool AllocHints = true;    // pass hot/cold hints to the allocator
  bool BranchWeights = true; // from block coverage, where the profile has it

  UseSettings() { mip_decide_defaults(&Decide); }
};

struct Options {
  // The compile of a -flto build: its output is bitcode for the link,
  // where the code is generated (LtoHints.h).
  bool LtoPreLink = false;
  bool Generate = false;
  Modes Generated;
  UseSettings Use;
  std::shared_ptr<const Profile> UseProfile; // opened once Use.File is known
};

// Parses a comma-separated mode list: coverage, counts, order, blocks,
// edges, all (those four), heap, data, atomic, all-blocks,
// block-counts ("" means coverage
// only).
llvm::Expected<Modes> parseModes(llvm::StringRef List);

// Applies one plugin argument ("generate", "generate=counts", "use=FILE",
// "hot-share=0.8", ...; docs/use.md lists them).
llvm::Error applyPluginArg(Options &Opts, llvm::StringRef Arg);

// Opens Opts.Use.File into Opts.UseProfile, once all arguments are in.
llvm::Error openUseProfile(Options &Opts);

} // namespace mip

#endif
