//===- EntryProbe.h - What runs when a function is entered ------*- C++ -*-===//
#ifndef MIP_PLUGIN_ENTRYPROBE_H
#define MIP_PLUGIN_ENTRYPROBE_H

#include "Counters.h"
#include "Options.h"

namespace mip {

// Gives IF.F its entry counters (coverage always; calls, first-call rank
// and edge sampling as M asks) and the code that updates them on entry.
void addEntryProbe(InstrumentedFunction &IF, const Modes &M);

} // namespace mip

#endif
