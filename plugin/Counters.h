//===- Counters.h - Counter arrays and the functions that own them -*- C++ -*-===//
//
// Every instrumentation mode gives a function one array of counters in the
// section of its kind (mip/layout/raw_kinds.inc). This is what the modes
// hand to the map writer.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_COUNTERS_H
#define MIP_PLUGIN_COUNTERS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Instruction;
class Type;
} // namespace llvm

namespace mip {

struct CounterSlot {
  unsigned Kind;              // MIP_RAW_*
  unsigned Count;             // elements in Array
  llvm::GlobalVariable *Array;
};

// One basic block as the map describes it (mip/layout/map_block.inc).
struct BlockInfo {
  uint32_t Line;
  uint32_t Probe; // BLK index, MIP_PROBE_ENTRY or MIP_PROBE_NONE
  std::vector<uint32_t> Deps;
};

// One call of an allocation or deallocation function, as the map describes
// it (mip/layout/map_heap_site.inc). Its index in the function's sites is
// the index of its byte in the SITE counters.
struct HeapSiteInfo {
  uint32_t Allocator; // MIP_ALLOC_*
  uint32_t Line;      // of the call, in the innermost (inlined) function
  uint32_t Column;
  std::string File;
  std::string Name; // linkage name of the innermost function
};

struct InstrumentedFunction {
  llvm::Function *F;
  uint64_t CfgHash;
  llvm::SmallVector<CounterSlot, 4> Slots;
  std::vector<BlockInfo> Blocks; // empty unless block coverage is on
  std::vector<HeapSiteInfo> HeapSites; // empty unless heap mode is on

  llvm::GlobalVariable *counters(unsigned Kind) const;
};

// Creates F's zero-initialised counter array of the given kind: internal,
// in the kind's section, in F's COMDAT group when it has one, and tied to F
// (SHF_LINK_ORDER) so that the linker drops it together with F.
llvm::GlobalVariable *createCounterArray(llvm::Function &F, unsigned Kind,
                                         llvm::Type *ElemTy, unsigned Count);

// The section name and element size of a counter kind.
const char *counterSectionName(unsigned Kind);
unsigned counterElemSize(unsigned Kind);

// Where a function's probes go: after the static allocas of its entry
// block, which must stay there to remain static.
llvm::Instruction *entryProbePoint(llvm::Function &F);

} // namespace mip

#endif
