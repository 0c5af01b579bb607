//===- FunctionTemperature.h - Hot and cold functions at rebuild -*- C++ -*-===//
#ifndef MIP_PLUGIN_FUNCTIONTEMPERATURE_H
#define MIP_PLUGIN_FUNCTIONTEMPERATURE_H

#include "Profile.h"

namespace llvm {
class Function;
class OptimizationRemarkEmitter;
} // namespace llvm

namespace mip {

// What made a function hot or cold, for its remark.
struct TemperatureReason {
  mip_temperature Temperature;
  uint64_t Runs;      // merged runs
  uint64_t Calls;     // its calls (hot)
  uint64_t Threshold; // the fewest calls of a hot function
  double HotShare;
};

// Marks F cold (attribute `cold`, section prefix "unlikely", and with
// MinSize `minsize`) or hot (`hot`, "hot"), and says so in a remark.
// Leaves a function alone whose source already says the opposite, or
// that has a section of its own. Returns whether F changed.
bool applyTemperature(llvm::Function &F, const TemperatureReason &Why,
                      bool MinSize, llvm::OptimizationRemarkEmitter &ORE);

// Marks F cold and optimized for size (attributes `cold`, `minsize`,
// `optsize`; section prefix "unlikely") before inlining, as its block
// counts show it cold: even its busiest block, which ran MaxCount times
// (Calls per call of the profile), ran no more than the profile summary
// calls cold. Leaves alone a function whose source marks it hot or gives
// it a section; an optnone one gets no minsize. Says so in a remark;
// returns whether F changed.
bool applyColdCounts(llvm::Function &F, uint64_t MaxCount, uint64_t Scale,
                     llvm::OptimizationRemarkEmitter &ORE);

} // namespace mip

#endif
