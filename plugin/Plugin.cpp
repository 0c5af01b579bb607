//===- Plugin.cpp - Entry points of libmip.so -----------------------------===//
//
// One library, two hosts:
//   clang -fplugin=libmip.so -fplugin-arg-mip-generate[=MODES] ...
//     a PluginASTAction that only adds a pass-builder callback; the AST is
//     left alone.
//   opt -load-pass-plugin=libmip.so -passes='mip-generate<MODES>' ...
//     the pass by name, for IR-level tests.
//
//===----------------------------------------------------------------------===//

#include "GeneratePass.h"
#include "Options.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

namespace mip {

namespace {

void registerGenerate(PassBuilder &PB, uint64_t Modes) {
  PB.registerOptimizerLastEPCallback(
      [Modes](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(GeneratePass(Modes));
      });
}

class MipAction : public clang::PluginASTAction {
public:
  bool ParseArgs(const clang::CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      if (Error E = applyPluginArg(Opts, Arg)) {
        clang::DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                   "mip: %0"))
            << toString(std::move(E));
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    if (Opts.Generate) {
      uint64_t Modes = Opts.Modes;
      CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
          [Modes](PassBuilder &PB) { registerGenerate(PB, Modes); });
    }
    return std::make_unique<clang::ASTConsumer>();
  }

private:
  Options Opts;
};

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
  Expected<uint64_t> Modes = parseModes(List);
  if (!Modes) {
    errs() << "mip: " << toString(Modes.takeError()) << "\n";
    return false;
  }
  MPM.addPass(GeneratePass(*Modes));
  return true;
}

} // namespace

} // namespace mip

static clang::FrontendPluginRegistry::Add<mip::MipAction>
    RegisterMip("mip", "MIP profiling instrumentation");

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mip", "1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  return mip::parseGeneratePipeline(Name, MPM);
                });
          }};
}
