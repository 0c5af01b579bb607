//===- GeneratePass.cpp - -fmip-generate ----------------------------------===//

#include "GeneratePass.h"

#include "CfgHash.h"
#include "Counters.h"
#include "DataAccesses.h"
#include "BlockProbes.h"
#include "EntryProbe.h"
#include "FunctionFilter.h"
#include "mip/format.h"
#include "HeapAccesses.h"
#include "HeapGlue.h"
#include "HeapSites.h"
#include "LinkRefs.h"
#include "MapWriter.h"
#include "Target.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

// Marks a module as instrumented, so that compiling saved IR again
// (-save-temps, -x ir) does not count every function twice.
constexpr const char *InstrumentedFlag = "mip.instrumented";

bool alreadyInstrumented(const Module &M) {
  return M.getModuleFlag(InstrumentedFlag) != nullptr;
}

} // namespace

PreservedAnalyses GeneratePass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (alreadyInstrumented(M))
    return PreservedAnalyses::all();
  // One error, before anything is instrumented, for a target without
  // MIP's runtime.
  Expected<const Target &> T = targetOf(M);
  if (!T) {
    M.getContext().emitError("mip: " + toString(T.takeError()));
    return PreservedAnalyses::all();
  }

  SmallVector<InstrumentedFunction, 64> Done;
  DataAccesses Data(
      M, MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager(),
      Generated.Atomic);
  for (Function &F : M) {
    if (!shouldInstrument(F))
      continue;
    // Hash first: it describes the function as a rebuild will see it,
    // without our probes. Heap accesses next, before any of our own code
    // is there to be counted (they add no blocks). Blocks then, while they
    // are the original ones; heap sites may split invoke edges and the
    // entry probe the entry block.
    InstrumentedFunction IF{&F, computeCfgHash(F, writtenCfgHashRecipe()),
                            {}, {}, {}};
    if (Generated.Heap && !Generated.HeapAllocsOnly)
      countHeapAccesses(F);
    if (Generated.Data)
      Data.count(F);
    if (Generated.Blocks)
      addBlockProbes(IF, Generated.AllBlocks);
    if (Generated.Heap)
      addHeapSites(IF);
    addEntryProbe(IF, Generated);
    Done.push_back(std::move(IF));
  }
  if (!Done.empty())
    addLinkRefs(M, Generated.Heap);
  if (Generated.Heap && !Done.empty())
    addHeapGlue(M);
  writeMap(M, Done,
           Generated.Data && !Done.empty() ? Data.records()
                                           : std::vector<DataInfo>(),
           Generated.HeapAllocsOnly ? MIP_MAP_UNIT_HEAP_UNCOUNTED : 0);
  M.addModuleFlag(Module::Max, InstrumentedFlag, 1);
  return Done.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace mip
