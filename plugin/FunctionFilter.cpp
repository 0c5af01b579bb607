//===- FunctionFilter.cpp - Which functions get instrumented -------------===//

#include "FunctionFilter.h"
#include "Compat.h"

#include "llvm/IR/Function.h"

using namespace llvm;

namespace mip {

bool shouldInstrument(const Function &F) {
  // No code of its own here: a declaration, or a body kept only for
  // inlining whose real definition lives (and is counted) elsewhere.
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
    return false;
  // A naked function is all inline assembly: there is no prologue to put a
  // store in, and one would break its calling convention.
  if (F.hasFnAttribute(Attribute::Naked))
    return false;
  // __attribute__((no_profile_instrument_function)) and friends.
  if (compat::skipsProfile(F))
    return false;
  // The runtime's own code, should someone build it with the plugin: it
  // runs while the profile is being written.
  if (compat::startsWith(F.getName(), "__mip_"))
    return false;
  return true;
}

} // namespace mip
