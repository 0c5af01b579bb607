//===- AllocHints.h - Hot and cold hints to the allocator -------*- C++ -*-===//
#ifndef MIP_PLUGIN_ALLOCHINTS_H
#define MIP_PLUGIN_ALLOCHINTS_H

#include "Profile.h"

namespace llvm {
class Function;
class OptimizationRemarkEmitter;
} // namespace llvm

namespace mip {

struct AllocCall;

// Rewrites the allocation calls of F (profile entry Fn) whose sites the
// profile finds cold or hot into calls that pass that hint to the
// allocator. Returns how many it rewrote.
llvm::Expected<unsigned> hintAllocations(llvm::Function &F,
                                         const Profile &P,
                                         const Profile::Function &Fn,
                                         const mip_decide_options &Options,
                                         llvm::OptimizationRemarkEmitter &ORE);

// Rewrites one allocation call into its hinted form with Hint (MIP_HINT_*);
// false, and the call left as it is, when it goes through a function
// pointer or its allocator has no hinted form.
bool rewriteWithHint(const AllocCall &Call, uint8_t Hint);

} // namespace mip

#endif
