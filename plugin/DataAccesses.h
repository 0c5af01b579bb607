//===- DataAccesses.h - Counting accesses to global variables ---*- C++ -*-===//
#ifndef MIP_PLUGIN_DATAACCESSES_H
#define MIP_PLUGIN_DATAACCESSES_H

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace mip {

// One global variable whose accesses a module counts, as its map record
// describes it (mip/layout/map_data.inc).
struct DataInfo {
  llvm::GlobalVariable *Counter;
  llvm::GlobalVariable *Object; // null unless this module defines it
  uint64_t Size;                // 0 unless this module defines it
  uint32_t Flags;               // MIP_DATA_*
  std::string Name;             // its symbol
  std::string Unit;             // the module's source, for a local one
};

// Data mode: every load, store, atomic and memory intrinsic of an
// instrumented function whose address is, through constant offsets and
// casts, that of a global variable adds 1 to the variable's counter.
class DataAccesses {
public:
  // FAM gives each function's target: how wide its widest vector
  // register is, so that an access the code generator splits counts as
  // the accesses it becomes.
  DataAccesses(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
               bool Atomic)
      : M(M), FAM(FAM), Atomic(Atomic) {}

  // Instruments F's accesses (records() must follow, once). Must run before any other instrumentation
  // goes into F, so that none of it is counted.
  void count(llvm::Function &F);

  // The map's records: the variables counted so far, every other one this
  // module defines (so that the profile has the address and size of each,
  // and one that no unit touched is known), and every one whose address
  // escapes here (so that the profile knows). Gives the latter two their
  // counters.
  std::vector<DataInfo> records();

private:
  llvm::GlobalVariable *counterOf(llvm::GlobalVariable &GV);

  llvm::Module &M;
  llvm::FunctionAnalysisManager &FAM;
  bool Atomic;
  llvm::MapVector<llvm::GlobalVariable *, llvm::GlobalVariable *> Counters;
};

// Whether data mode counts accesses to GV: a named variable of the
// program's, neither thread-local nor in a section of its own (other than
// one -fmip-use gave it), nor one of the compiler's or MIP's.
bool isCountedData(const llvm::GlobalVariable &GV);

// The attribute -fmip-use gives a variable it puts in a hot or cold
// section ("hot" or "unlikely"; DataSections.cpp).
constexpr const char *DataTemperatureAttr = "mip-data-temperature";

} // namespace mip

#endif
