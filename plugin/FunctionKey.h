//===- FunctionKey.h - How maps and profiles name a function ----*- C++ -*-===//
#ifndef MIP_PLUGIN_FUNCTIONKEY_H
#define MIP_PLUGIN_FUNCTIONKEY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
}

namespace mip {

// The function's mangled name, as the linker sees it.
llvm::StringRef linkageName(const llvm::Function &F);

// What tells local (static) functions of the same name apart: the source
// file the module was compiled from; empty for other functions.
llvm::StringRef unitName(const llvm::Function &F);

// The function's key in a profile: its name, or "unit;name" for a local
// function (docs/formats.md).
std::string profileKey(const llvm::Function &F);

} // namespace mip

#endif
