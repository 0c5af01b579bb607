//===- BlockProbes.h - Basic-block coverage ---------------------*- C++ -*-===//
#ifndef MIP_PLUGIN_BLOCKPROBES_H
#define MIP_PLUGIN_BLOCKPROBES_H

#include "Counters.h"

namespace mip {

// Puts a coverage byte in the blocks of IF.F whose coverage cannot be
// inferred from the others' (in every block but the entry with
// ProbeAll), and describes every block in IF.Blocks. Must run before
// anything else changes the function's blocks.
void addBlockProbes(InstrumentedFunction &IF, bool ProbeAll);

} // namespace mip

#endif
