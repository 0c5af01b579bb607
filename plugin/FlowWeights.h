//===- FlowWeights.h - Branch weights by flow inference ---------*- C++ -*-===//
#ifndef MIP_PLUGIN_FLOWWEIGHTS_H
#define MIP_PLUGIN_FLOWWEIGHTS_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace mip {

// How often some of F's blocks ran: its entry block and blocks with a
// call whose count the profile gives.
using BlockCounts = llvm::DenseMap<const llvm::BasicBlock *, uint64_t>;

// Infers a flow through F's CFG that matches Known as closely as it can
// (LLVM's profile inference, SampleProfileInference.h) and weighs by it
// the branches and switches whose successors all have known counts, and
// the exits of loops that a known block says how often iterate. Returns
// how many terminators it weighed.
unsigned weighByFlow(llvm::Function &F, const BlockCounts &Known);

} // namespace mip

#endif
