//===- Before19.cpp - What the plugin does without LLVM 19's machinery ---===//
//
// Built in place of LtoHints.cpp, ContextHints.cpp and FlowWeights.cpp for
// the releases before 19 (plugin/build.mk): those three rest on what only
// LLVM 19 has among the releases MIP supports, MemProf's context
// disambiguation and a profile inference that takes an IR function.
// Without them, as docs/llvm.md says:
//   * a -flto compile with -fmip-use or -fmip-generate stops with one
//     error naming the release, rather than build without the profile;
//   * -fmip-use before inlining gives entry counts, call-site counts and
//     the profile summary, but no inferred branch weights (the end of the
//     pipeline still weighs what block coverage says).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "FlowWeights.h"
#include "LtoHints.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace mip {

namespace {

struct LtoRefusal : PassInfoMixin<LtoRefusal> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    M.getContext().emitError(
        Twine("mip: -flto with -fmip-use or -fmip-generate needs MIP's "
              "plugin for LLVM 19 (this is LLVM ") +
        Twine(compat::LLVMMajor) + ")");
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

void addLtoCompilePasses(ModulePassManager &MPM, const Options &) {
  MPM.addPass(LtoRefusal());
}

void registerLinkPasses(PassBuilder &) {}

unsigned weighByFlow(Function &, const BlockCounts &) { return 0; }

} // namespace mip
