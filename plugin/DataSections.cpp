//===- DataSections.cpp - Hot and cold global variables -------------------===//
//
// A profile of data mode counts the accesses to each global variable
// (DataAccesses.cpp). At the rebuild, each variable this module defines
// gets the temperature the format library decides (mip_data_temperature:
// the same rule `mipdata show --data` and `mipdata order --data` use), and
// a hot or cold one a section of its own named after it, in the section
// the code generator would have chosen, with a prefix:
//
//   .data.hot.NAME     .rodata.hot.NAME     .bss.hot.NAME
//   .data.unlikely.NAME ...                 (.data.rel.ro.* for constants
//                                             the loader relocates)
//
// LLVM 19 gives a variable's section prefix (!section_prefix) no meaning,
// so the names are set whole. The prefixes tell a reader of the object
// (and a linker script) which is which; what puts the hot variables on the
// same pages and cache lines is the symbol ordering file of `mipdata order
// --data`, which names them first (lld sorts input sections by it; -fmip-
// order in mipcc passes both). Variables in a COMDAT group, in a section
// the program chose, thread-local ones and common symbols are left alone.
//
//===----------------------------------------------------------------------===//

#include "DataSections.h"

#include "DataAccesses.h"
#include "Profile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

// The profile's variables by key ("name", "unit;name" for a local one),
// with their temperatures.
StringMap<mip_temperature> temperatures(const Profile &P, double HotShare) {
  const mip_view &V = P.view();
  uint64_t N = mip_view_count(&V, MIP_PROF_DATA);
  std::vector<mip_data_object> Data(N);
  mip_error Err;
  for (uint64_t I = 0; I < N; I++)
    if (mip_view_data(&V, I, &Data[I], &Err))
      return {}; // cannot happen: the view checked every entry
  uint64_t Threshold =
      mip_data_hot_threshold(Data.data(), Data.size(), HotShare, V.runs);
  StringMap<mip_temperature> ByKey;
  for (const mip_data_object &D : Data)
    ByKey[P.string(D.key)] = mip_data_temperature(&D, V.runs, Threshold);
  return ByKey;
}

std::string keyOf(const GlobalVariable &GV) {
  StringRef Name = GlobalValue::dropLLVMManglingEscape(GV.getName());
  if (!GV.hasLocalLinkage())
    return Name.str();
  return (GV.getParent()->getSourceFileName() + ";" + Name).str();
}

// The section the code generator would put GV in, by its contents.
StringRef baseSection(const GlobalVariable &GV) {
  const Constant *Init = GV.getInitializer();
  if (GV.isConstant())
    return Init->needsRelocation() ? ".data.rel.ro" : ".rodata";
  return isa<UndefValue>(Init) || Init->isNullValue() ? ".bss" : ".data";
}

bool mayMove(const GlobalVariable &GV) {
  return isCountedData(GV) && !GV.hasSection() &&
         !GV.isDeclarationForLinker() && !GV.hasComdat() &&
         !GV.hasCommonLinkage();
}

} // namespace

PreservedAnalyses DataSectionsPass::run(Module &M, ModuleAnalysisManager &) {
  if (!mip_view_count(&P->view(), MIP_PROF_DATA))
    return PreservedAnalyses::all();
  StringMap<mip_temperature> ByKey =
      temperatures(*P, Settings.Decide.hot_share);
  bool Changed = false;
  for (GlobalVariable &GV : M.globals()) {
    if (!mayMove(GV))
      continue;
    auto It = ByKey.find(keyOf(GV));
    if (It == ByKey.end() ||
        (It->second != MIP_TEMP_HOT && It->second != MIP_TEMP_COLD))
      continue;
    StringRef Prefix = It->second == MIP_TEMP_HOT ? "hot" : "unlikely";
    GV.setSection((baseSection(GV) + "." + Prefix + "." +
                   GlobalValue::dropLLVMManglingEscape(GV.getName()))
                      .str());
    GV.addAttribute(DataTemperatureAttr, Prefix);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace mip
