//===- DataSections.h - Hot and cold global variables -----------*- C++ -*-===//
#ifndef MIP_PLUGIN_DATASECTIONS_H
#define MIP_PLUGIN_DATASECTIONS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace mip {

class Profile;

// -fmip-use with a profile of data mode: each global variable this module
// defines that the profile finds hot goes into a section of its own named
// .data.hot.NAME (.rodata.hot., .data.rel.ro.hot., .bss.hot.), each one
// no run touched into .data.unlikely.NAME and the like, so that the
// linker, given `mipdata order --data`'s file, puts the hot ones
// together and the cold ones after them (docs/use.md).
class DataSectionsPass : public llvm::PassInfoMixin<DataSectionsPass> {
public:
  DataSectionsPass(UseSettings Settings, std::shared_ptr<const Profile> P)
      : Settings(std::move(Settings)), P(std::move(P)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  UseSettings Settings;
  std::shared_ptr<const Profile> P;
};

} // namespace mip

#endif
