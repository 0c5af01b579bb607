//===- ClangHookCallbacks.cpp - The passes into clang 17 and later --------===//
//
// Clang 17 and later run the pass-builder callbacks a plugin adds to the
// code-generation options (ClangHook.h).
//
//===----------------------------------------------------------------------===//

#include "ClangHook.h"
#include "Registration.h"

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Passes/PassBuilder.h"

namespace mip {

void addToCodeGen(clang::CompilerInstance &CI, const Options &Opts) {
  Options Copy = Opts;
  CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
      [Copy](llvm::PassBuilder &PB) { registerPasses(PB, Copy); });
}

} // namespace mip
