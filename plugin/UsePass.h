//===- UsePass.h - -fmip-use ------------------------------------*- C++ -*-===//
#ifndef MIP_PLUGIN_USEPASS_H
#define MIP_PLUGIN_USEPASS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace mip {

class Profile;

// Applies a profile to the module: hot and cold functions, branch weights
// from block coverage, hot and cold allocation hints. Runs where
// -fmip-generate instruments, at the end of the optimization pipeline, so
// it sees each function as the profiled build did, and the structural
// hash tells whether the function changed since (docs/use.md).
class UsePass : public llvm::PassInfoMixin<UsePass> {
public:
  UsePass(UseSettings Settings, std::shared_ptr<const Profile> P)
      : Settings(std::move(Settings)), P(std::move(P)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  UseSettings Settings;
  std::shared_ptr<const Profile> P;
};

} // namespace mip

#endif
