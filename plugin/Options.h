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

#include <cstdint>
#include <string>

namespace mip {

struct Options {
  bool Generate = false;
  // Bit set of counter kinds to emit (MIP_MODE_BIT(MIP_RAW_*)).
  // Coverage is always part of it.
  uint64_t Modes = 0;
  std::string UseFile;
};

// Parses a comma-separated mode list ("" means coverage only).
llvm::Expected<uint64_t> parseModes(llvm::StringRef List);

// Applies one plugin argument ("generate", "generate=counts", "use=FILE").
llvm::Error applyPluginArg(Options &Opts, llvm::StringRef Arg);

} // namespace mip

#endif
