//===- Target.h - What the plugin does per architecture ----------*- C++ -*-===//
#ifndef MIP_PLUGIN_TARGET_H
#define MIP_PLUGIN_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace mip {

// An architecture MIP instruments for (include/mip/arch.h holds the facts
// the runtime and mipdata share; the rest is in Target.cpp).
struct Target {
  llvm::StringRef Name;  // as in the triple: "x86_64", "aarch64", "arm"
  uint64_t ShadowOffset; // heap mode's shadow: ((a >> 6) << CounterShift)
                         // + this
  uint8_t CovEntered;    // a coverage byte once its function ran
  uint8_t CounterShift;  // log2 of a shadow counter's bytes
  // A 4-byte reference to a symbol the image must define, resolved
  // within it (LinkRefs.cpp): Before SYMBOL After.
  llvm::StringRef RefBefore, RefAfter;
  // __mip_first_call keeps the caller's registers (preserve_most), where
  // the back end has that convention (not Arm's).
  bool PreserveMost;
  // Instrumented code finds the shadow through the image's
  // __mip_heap_shadow, {base, mask}, rather than at ShadowOffset itself:
  // 32-bit targets, where the runtime may have to do without one
  // (rt/heap/heap_shadow.c).
  bool shadowThroughBase() const { return CounterShift < 3; }
  // Its entries' addresses in the map carry the Thumb bit (bit 0).
  bool ThumbBit;
};

// The target M is compiled for; an error naming its triple when MIP does
// not support it (MIP's runtime exists only for these).
llvm::Expected<const Target &> targetOf(const llvm::Module &M);

// The same for a module already checked.
const Target &checkedTargetOf(const llvm::Module &M);

} // namespace mip

#endif
