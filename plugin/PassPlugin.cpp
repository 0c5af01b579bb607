//===- PassPlugin.cpp - libmip.so: the LLVM pass plugin -------------------===//
//
//   opt -load-pass-plugin=libmip.so -passes='mip-generate<MODES>' ...
//   opt -load-pass-plugin=libmip.so -passes='mip-use<profile=FILE;...>' ...
//   opt -load-pass-plugin=libmip.so -passes='mip-use-early<profile=FILE>' ...
//   clang -fplugin=libmip.so -fplugin-arg-mip-generate[=MODES] ...
//   clang -fplugin=libmip.so -fplugin-arg-mip-use=FILE ...
//
// This library uses LLVM only, so opt can load it. The clang side needs
// clang's own symbols, which opt does not have; it lives in
// libmip-clang.so, which this library loads when it finds itself inside
// clang.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "DataSections.h"
#include "EdgeCounters.h"
#include "GeneratePass.h"
#include "LtoHints.h"
#include "Registration.h"
#include "UseEarlyPass.h"
#include "UsePass.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <optional>

using namespace llvm;

namespace mip {

namespace {

cl::opt<bool> UseEntryCounts(
    "mip-use-entry-counts", cl::Hidden, cl::init(true),
    cl::desc("MIP: give functions their calls as entry counts, and the "
             "module a profile summary, before inlining (-fmip-use)"));

} // namespace

void registerPasses(PassBuilder &PB, const Options &Opts) {
  if (!Opts.Generate && !Opts.UseProfile)
    return;
  // Where LLVM loads its own profiles: after the early simplification,
  // before the inliner, which is what needs the counts most; edges are
  // counted at the same point, so that the rebuild finds the same graphs.
  bool UseEarly =
      Opts.UseProfile && UseEntryCounts && compat::CountsBeforeInlining;
  bool CountEdges = Opts.Generate && Opts.Generated.BlockCounts;
  if (UseEarly || CountEdges)
    PB.registerPipelineEarlySimplificationEPCallback(
        [Opts, UseEarly, CountEdges](ModulePassManager &MPM,
                                     OptimizationLevel) {
          if (UseEarly)
            MPM.addPass(UseEarlyPass(Opts.UseProfile));
          if (CountEdges)
            MPM.addPass(EdgeCountersPass(Opts.Generated));
        });
  // The profile is used before anything is instrumented, so a build that
  // does both instruments the code the profile shaped.
  PB.registerOptimizerLastEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel) {
        if (Opts.LtoPreLink)
          return addLtoCompilePasses(MPM, Opts);
        if (Opts.UseProfile) {
          MPM.addPass(UsePass(Opts.Use, Opts.UseProfile));
          MPM.addPass(DataSectionsPass(Opts.Use, Opts.UseProfile));
        }
        if (Opts.Generate)
          MPM.addPass(GeneratePass(Opts.Generated));
      });
}

namespace {

// The parameters of NAME<PARAMS> (';'-separated), or nullopt when Text
// is not that pipeline element.
std::optional<SmallVector<StringRef, 4>> pipelineParams(StringRef Text,
                                                        StringRef Name) {
  if (!Text.consume_front(Name))
    return std::nullopt;
  SmallVector<StringRef, 4> Params;
  if (Text.consume_front("<") && Text.consume_back(">"))
    Text.split(Params, ';', -1, false);
  else if (!Text.empty())
    return std::nullopt;
  return Params;
}

bool report(Error E) {
  errs() << "mip: " << toString(std::move(E)) << "\n";
  return false;
}

// mip-generate<counts;order>: the modes, as -fplugin-arg-mip-generate=
// takes them (with ';' for ',').
bool parseGeneratePipeline(StringRef Name, ModulePassManager &MPM) {
  std::optional<SmallVector<StringRef, 4>> Params =
      pipelineParams(Name, "mip-generate");
  if (!Params)
    return false;
  Expected<Modes> Generated = parseModes(join(*Params, ","));
  if (!Generated)
    return report(Generated.takeError());
  if (Generated->BlockCounts)
    MPM.addPass(EdgeCountersPass(*Generated));
  MPM.addPass(GeneratePass(*Generated));
  return true;
}

// The options of a mip-use<...> or mip-use-early<...> element, with
// the profile opened; nullopt after reporting an error.
std::optional<Options> useOptions(ArrayRef<StringRef> Params) {
  Options Opts;
  for (StringRef Param : Params) {
    std::string Arg = compat::startsWith(Param, "profile=")
                          ? ("use=" + Param.drop_front(8)).str()
                          : Param.str();
    if (Error E = applyPluginArg(Opts, Arg)) {
      report(std::move(E));
      return std::nullopt;
    }
  }
  Error E = Opts.Use.File.empty()
                ? createStringError(inconvertibleErrorCode(),
                                    "mip-use needs profile=FILE")
                : openUseProfile(Opts);
  if (E) {
    report(std::move(E));
    return std::nullopt;
  }
  return Opts;
}

// mip-use<profile=FILE;hot-share=0.8;list-stale>: the arguments
// -fplugin-arg-mip-* takes, with profile=FILE for use=FILE; and
// mip-use-early<profile=FILE>, the part clang runs before inlining.
bool parseUsePipeline(StringRef Name, ModulePassManager &MPM) {
  std::optional<SmallVector<StringRef, 4>> Params =
      pipelineParams(Name, "mip-use-early");
  bool Early = Params.has_value();
  if (!Early)
    Params = pipelineParams(Name, "mip-use");
  if (!Params)
    return false;
  std::optional<Options> Opts = useOptions(*Params);
  if (!Opts)
    return false;
  if (Early)
    MPM.addPass(UseEarlyPass(Opts->UseProfile));
  else {
    MPM.addPass(UsePass(Opts->Use, Opts->UseProfile));
    MPM.addPass(DataSectionsPass(Opts->Use, Opts->UseProfile));
  }
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
            mip::registerCodeGenPasses(PB);
            mip::registerLinkPasses(PB);
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  return mip::parseGeneratePipeline(Name, MPM) ||
                         mip::parseUsePipeline(Name, MPM);
                });
          }};
}
