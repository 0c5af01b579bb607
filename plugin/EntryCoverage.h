//===- EntryCoverage.h - One byte and one store per function ----*- C++ -*-===//
#ifndef MIP_PLUGIN_ENTRYCOVERAGE_H
#define MIP_PLUGIN_ENTRYCOVERAGE_H

#include "Counters.h"

namespace mip {

// Gives F a coverage byte and sets it at F's entry.
CounterSlot addEntryCoverage(llvm::Function &F);

} // namespace mip

#endif
