//===- Registration.h - Adding MIP to a pass pipeline -----------*- C++ -*-===//
//
// The one entry point both hosts use: opt through llvmGetPassPluginInfo,
// clang through the frontend glue in libmip-clang.so.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_REGISTRATION_H
#define MIP_PLUGIN_REGISTRATION_H

#include "Options.h"

namespace llvm {
class PassBuilder;
}

namespace mip {

// Adds MIP's passes, as Opts asks, to the pipelines PB will build.
void registerPasses(llvm::PassBuilder &PB, const Options &Opts);

// Clang before 17 (ClangHookPassPlugins.cpp): the options of the
// compilation, kept for when the code generator loads libmip.so as a pass
// plugin; registerCodeGenPasses adds the passes with them, and nothing
// when none were kept (opt, clang 17 and later).
void setCodeGenOptions(const Options &Opts);
void registerCodeGenPasses(llvm::PassBuilder &PB);

} // namespace mip

#endif
