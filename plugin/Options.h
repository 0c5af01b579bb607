//===- Options.h - What -fplugin-arg-mip-* asked for ------------*- C++ -*-===//
//
// The plugin's settings, parsed from the clang plugin arguments
// (-fplugin-arg-mip-generate[=MODES], -fplugin-arg-mip-use=FILE) or from an
// opt pipeline element (mip-generate<MODES>). Both spellings share one
// parser so the modes mean the same everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_OPTIONS_H
#define MIP_PLUGIN_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

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
  // Probe every block instead of only those whose coverage cannot be
  // inferred: to check the inference, at a higher cost.
  bool AllBlocks = false;
};

struct Options {
  bool Generate = false;
  Modes Generated;
  std::string UseFile;
};

// Parses a comma-separated mode list: coverage, counts, order, blocks,
// edges, all (those four), heap, atomic, all-blocks ("" means coverage
// only).
llvm::Expected<Modes> parseModes(llvm::StringRef List);

// Applies one plugin argument ("generate", "generate=counts", "use=FILE").
llvm::Error applyPluginArg(Options &Opts, llvm::StringRef Arg);

} // namespace mip

#endif
