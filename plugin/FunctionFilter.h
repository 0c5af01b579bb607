//===- FunctionFilter.h - Which functions get instrumented ------*- C++ -*-===//
#ifndef MIP_PLUGIN_FUNCTIONFILTER_H
#define MIP_PLUGIN_FUNCTIONFILTER_H

namespace llvm {
class Function;
}

namespace mip {

// True when F is a function whose code ends up in the object file and may
// carry a counter store. docs/instrumentation.md lists what is skipped.
bool shouldInstrument(const llvm::Function &F);

} // namespace mip

#endif
