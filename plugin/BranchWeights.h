//===- BranchWeights.h - Branch weights from block coverage -----*- C++ -*-===//
#ifndef MIP_PLUGIN_BRANCHWEIGHTS_H
#define MIP_PLUGIN_BRANCHWEIGHTS_H

#include <vector>

namespace llvm {
class Function;
class OptimizationRemarkEmitter;
} // namespace llvm

namespace mip {

// Weighs the conditional branches and switches of F whose block ran and
// some of whose successors never did: successors that ran are likely,
// those that never ran are not. Ran[i] is block i of F, in F's order (as
// the profile numbered them). Returns how many terminators it weighed.
unsigned weighBranches(llvm::Function &F, const std::vector<bool> &Ran,
                       llvm::OptimizationRemarkEmitter &ORE);

} // namespace mip

#endif
