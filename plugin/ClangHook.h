//===- ClangHook.h - Handing MIP's passes to clang's code generator -*- C++ -*-===//
//
// How differs by release, as a whole mechanism, so a file each; the build
// compiles one into libmip-clang.so:
//   ClangHookCallbacks.cpp    clang 17 and later: a pass-builder callback
//                             (CodeGenOptions::PassBuilderCallbacks)
//   ClangHookPassPlugins.cpp  before 17: libmip.so itself as a pass plugin
//                             (what -fpass-plugin= adds), which then adds
//                             the passes with the options stored here
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_CLANGHOOK_H
#define MIP_PLUGIN_CLANGHOOK_H

#include "Options.h"

namespace clang {
class CompilerInstance;
}

namespace mip {

// Makes the code generator of CI run MIP's passes, as Opts asks.
void addToCodeGen(clang::CompilerInstance &CI, const Options &Opts);

} // namespace mip

#endif
