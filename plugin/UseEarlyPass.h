//===- UseEarlyPass.h - -fmip-use before inlining ---------------*- C++ -*-===//
#ifndef MIP_PLUGIN_USEEARLYPASS_H
#define MIP_PLUGIN_USEEARLYPASS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace mip {

class Profile;

// Gives LLVM's profile-driven optimizations what a profile with call
// counts says, where LLVM's own profile loader runs: after the early
// simplification and before the inliner. Each function the profile knows
// by its key gets its calls as its entry count (function_entry_count, 0
// when it never ran), and the module a profile summary of all the
// profile's counts, so that the inliner, the size optimization of cold
// code and block placement see which functions and call sites are hot and
// which cold. The blocks, temperature and allocation decisions, which
// need the function as the profiled build saw it, stay with UsePass at the
// end of the pipeline (docs/use.md).
class UseEarlyPass : public llvm::PassInfoMixin<UseEarlyPass> {
public:
  explicit UseEarlyPass(std::shared_ptr<const Profile> P) : P(std::move(P)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::shared_ptr<const Profile> P;
};

// Whether UseEarlyPass gave M's functions their counts.
bool countedEarly(const llvm::Module &M);

} // namespace mip

#endif
