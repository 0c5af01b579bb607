//===- ClangHookPassPlugins.cpp - The passes into clang before 17 ---------===//
//
// Clang before 17 has no pass-builder callbacks for plugins, only pass
// plugins: the libraries -fpass-plugin= names, which the code generator
// loads and asks for llvmGetPassPluginInfo. So the action names libmip.so
// (already loaded, so the same copy) as one, and leaves it the options
// -fplugin-arg-mip-* gave; its llvmGetPassPluginInfo adds the passes with
// them (Registration.h). -fplugin=libmip.so is all a build needs, on every
// release (ClangHook.h).
//
//===----------------------------------------------------------------------===//

#include "ClangHook.h"
#include "Registration.h"

#include "clang/Frontend/CompilerInstance.h"

#include <dlfcn.h>

namespace mip {

void addToCodeGen(clang::CompilerInstance &CI, const Options &Opts) {
  Dl_info Lib;
  if (!dladdr(reinterpret_cast<void *>(&setCodeGenOptions), &Lib) ||
      !Lib.dli_fname) {
    clang::DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(clang::DiagnosticsEngine::Error,
                               "mip: cannot find libmip.so's own path"));
    return;
  }
  setCodeGenOptions(Opts);
  CI.getCodeGenOpts().PassPlugins.push_back(Lib.dli_fname);
}

} // namespace mip
