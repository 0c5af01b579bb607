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

} // namespace mip

#endif
