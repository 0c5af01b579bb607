//===- LtoHints.h - -fmip-use at the link of a -flto build ------*- C++ -*-===//
//
// With -flto the code is generated at the link, where lld runs the LTO
// pipelines and loads libmip.so (--load-pass-plugin). The compile records
// the -fmip-use settings in each module and annotates its calls with the
// profile's contexts (ContextHints.h); LLVM's context disambiguation,
// which the link runs, clones each wrapper per context; and here, at the
// end of each link-time pipeline, the profile is applied as a compile
// without LTO applies it (UsePass.h), and allocation calls whose
// "memprof" attribute says cold or hot get that hint. docs/use.md,
// "Wrappers and LTO".
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_LTOHINTS_H
#define MIP_PLUGIN_LTOHINTS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
}

namespace mip {

// What the compile of a -flto build adds to its pipeline: the context
// annotation and the settings, for the link; nothing that needs the
// final code (instrumentation included: the link does it).
void addLtoCompilePasses(llvm::ModulePassManager &MPM, const Options &Opts);

// The link half, for the pipelines a linker's LTO builds: the ThinLTO
// backends' and full LTO's.
void registerLinkPasses(llvm::PassBuilder &PB);

// The name of the module's named metadata that carries the modes of
// -fmip-generate from the compile to the link: one tuple per unit, its
// one string the modes (generate=MODES).
inline constexpr const char *GenerateModesMetadata = "mip.generate";

// Applies the profile the module's settings name, once, and hints the
// allocation calls their contexts made cold or hot; then instruments the
// module with the modes it records, once.
class LinkPass : public llvm::PassInfoMixin<LinkPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace mip

#endif
