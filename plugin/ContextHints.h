//===- ContextHints.h - MemProf metadata from MIP's contexts ----*- C++ -*-===//
//
// The compile half of allocation hints through wrappers (-flto): the
// profile's allocation contexts become LLVM MemProf's !memprof and
// !callsite metadata, which the link's context disambiguation
// (MemProfContextDisambiguation) reads to clone a wrapper per context.
// LtoHints.h has the link half. docs/use.md, "Wrappers and LTO".
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_CONTEXTHINTS_H
#define MIP_PLUGIN_CONTEXTHINTS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace mip {

class Profile;

// Annotates the allocation calls of a -flto compile whose contexts the
// profile has, and the calls those contexts pass through, and records
// the -fmip-use settings in the module for the link.
class ContextHintsPass : public llvm::PassInfoMixin<ContextHintsPass> {
public:
  ContextHintsPass(UseSettings Settings, std::shared_ptr<const Profile> P)
      : Settings(std::move(Settings)), P(std::move(P)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  UseSettings Settings;
  std::shared_ptr<const Profile> P;
};

// The name of the module's named metadata that carries the -fmip-use
// settings from the compile to the link: one tuple of strings per unit,
// each a plugin argument (use=FILE, hot-share=F, no-alloc-hints, ...).
inline constexpr const char *UseSettingsMetadata = "mip.use";

// The metadata kind on an indirect call of a context that names the
// functions the profile saw it call (a tuple of strings).
inline constexpr const char *ProfiledCalleesMetadata = "mip.callees";

// The attribute on an allocation call whose contexts disagree that says
// which class context disambiguation's "cold" stands for there: "cold",
// or "hot" at a site with hot contexts and no cold one (ContextHints.cpp).
inline constexpr const char *ClonedClassAttribute = "mip-cloned-class";

} // namespace mip

#endif
