//===- GeneratePass.h - -fmip-generate --------------------------*- C++ -*-===//
#ifndef MIP_PLUGIN_GENERATEPASS_H
#define MIP_PLUGIN_GENERATEPASS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace mip {

// Instruments every eligible function of the module for the requested
// modes and writes the map. Runs once per module, at the end of the
// optimization pipeline, so the functions counted are those that reach the
// object file.
class GeneratePass : public llvm::PassInfoMixin<GeneratePass> {
public:
  explicit GeneratePass(Modes M) : Generated(M) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Instrument optnone (-O0) modules too.
  static bool isRequired() { return true; }

private:
  Modes Generated;
};

} // namespace mip

#endif
