//===- MapWriter.h - The build-time map section -----------------*- C++ -*-===//
#ifndef MIP_PLUGIN_MAPWRITER_H
#define MIP_PLUGIN_MAPWRITER_H

#include "Counters.h"
#include "DataAccesses.h"

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Module;
}

namespace mip {

// Appends to M's module assembly the map records of its instrumented
// functions: one unit record, then per function its function record, its
// blocks record (blocks mode) and one record per heap site. Records of
// COMDAT functions go into the function's group, so a duplicate the linker
// drops takes its record along. Then one record per counted global
// variable (data mode). Layouts: mip/layout/map_*.inc.
// UnitFlags: MIP_MAP_UNIT_* (the unit record's flags).
void writeMap(llvm::Module &M, llvm::ArrayRef<InstrumentedFunction> Functions,
              llvm::ArrayRef<DataInfo> Data = {}, uint32_t UnitFlags = 0);

} // namespace mip

#endif
