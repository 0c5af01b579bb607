//===- CodeGenOptions.cpp - Options kept for clang's pass plugins ---------===//
//
// Clang before 17 loads libmip.so a second time, as a pass plugin, after
// the action read -fplugin-arg-mip-*: the options wait here in between
// (Registration.h, ClangHookPassPlugins.cpp).
//
//===----------------------------------------------------------------------===//

#include "Registration.h"

#include <optional>

namespace mip {

namespace {

std::optional<Options> &kept() {
  static std::optional<Options> Opts;
  return Opts;
}

} // namespace

void setCodeGenOptions(const Options &Opts) { kept() = Opts; }

void registerCodeGenPasses(llvm::PassBuilder &PB) {
  if (kept())
    registerPasses(PB, *kept());
}

} // namespace mip
