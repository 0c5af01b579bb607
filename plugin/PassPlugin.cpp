//===- PassPlugin.cpp - libmip.so: the LLVM pass plugin -------------------===//
//
//   opt -load-pass-plugin=libmip.so -passes='mip-generate<MODES>' ...
//   clang -fplugin=libmip.so -fplugin-arg-mip-generate[=MODES] ...
//
// This library uses LLVM only, so opt can load it. The clang side needs
// clang's own symbols, which opt does not have; it lives in
// libmip-clang.so, which this library loads when it finds itself inside
// clang.
//
//===----------------------------------------------------------------------===//

#include "GeneratePass.h"
#include "Registration.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace llvm;

namespace mip {

void registerPasses(PassBuilder &PB, const Options &Opts) {
  if (!Opts.Generate)
    return;
  Modes Generated = Opts.Generated;
  PB.registerOptimizerLastEPCallback(
      [Generated](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(GeneratePass(Generated));
      });
}

namespace {

bool parseGeneratePipeline(StringRef Name, ModulePassManager &MPM) {
  if (!Name.consume_front("mip-generate"))
    return false;
  StringRef Params;
  if (Name.consume_front("<") && Name.consume_back(">"))
    Params = Name;
  else if (!Name.empty())
    return false;
  std::string List = Params.str();
  std::replace(List.begin(), List.end(), ';', ',');
  Expected<Modes> Generated = parseModes(List);
  if (!Generated) {
    errs() << "mip: " << toString(Generated.takeError()) << "\n";
    return false;
  }
  MPM.addPass(GeneratePass(*Generated));
  return true;
}

// Present in every clang that can load -fplugin libraries.
constexpr const char *ClangPluginRegistry =
    "_ZN4llvm8RegistryIN5clang15PluginASTActionEE4HeadE";

__attribute__((constructor)) void loadClangFrontend() {
  if (!dlsym(RTLD_DEFAULT, ClangPluginRegistry))
    return; // not inside clang: opt, or another LLVM tool
  Dl_info Self;
  if (!dladdr(reinterpret_cast<void *>(&loadClangFrontend), &Self) ||
      !Self.dli_fname)
    return;
  SmallString<256> Path(sys::path::parent_path(Self.dli_fname));
  sys::path::append(Path, "libmip-clang.so");
  if (!dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL))
    errs() << "mip: cannot load " << Path << ": " << dlerror() << "\n";
}

} // namespace

} // namespace mip

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mip", "1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  return mip::parseGeneratePipeline(Name, MPM);
                });
          }};
}
