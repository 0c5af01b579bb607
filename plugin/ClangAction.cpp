//===- ClangAction.cpp - libmip-clang.so: clang's -fplugin side ----------===//
//
// A PluginASTAction that leaves the AST alone: it reads
// -fplugin-arg-mip-* and hands MIP's passes to the code generator
// (ClangHook.h says how, per release). Loaded by libmip.so, never directly.
//
//===----------------------------------------------------------------------===//

#include "ClangHook.h"
#include "Options.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace llvm;

namespace mip {

namespace {

class MipAction : public clang::PluginASTAction {
public:
  bool ParseArgs(const clang::CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args)
      if (Error E = applyPluginArg(Opts, Arg))
        return report(CI, std::move(E));
    // A profile that cannot be read stops the compilation here, before
    // the source is even parsed.
    if (Error E = openUseProfile(Opts))
      return report(CI, std::move(E));
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    Options Copy = Opts;
    Copy.LtoPreLink = CI.getCodeGenOpts().PrepareForLTO;
    addToCodeGen(CI, Copy);
    return std::make_unique<clang::ASTConsumer>();
  }

private:
  static bool report(const clang::CompilerInstance &CI, Error E) {
    clang::DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(clang::DiagnosticsEngine::Error, "mip: %0"))
        << toString(std::move(E));
    return false;
  }

  Options Opts;
};

} // namespace

} // namespace mip

static clang::FrontendPluginRegistry::Add<mip::MipAction>
    RegisterMip("mip", "MIP profiling instrumentation");
