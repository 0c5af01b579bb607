//===- HeapSites.h - Hooks at allocation and deallocation calls -*- C++ -*-===//
#ifndef MIP_PLUGIN_HEAPSITES_H
#define MIP_PLUGIN_HEAPSITES_H

#include "Counters.h"

namespace mip {

// Gives every direct call (or invoke) in IF.F of an allocation or
// deallocation function a byte in __mip_site and a call to the heap
// runtime: after the call for allocations, before it for deallocations.
// Records the sites in IF.HeapSites and their bytes as IF's SITE slot.
void addHeapSites(InstrumentedFunction &IF);

} // namespace mip

#endif
