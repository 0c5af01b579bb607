//===- LinkRefs.h - What an instrumented object needs at its link -*- C++ -*-===//
#ifndef MIP_PLUGIN_LINKREFS_H
#define MIP_PLUGIN_LINKREFS_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace mip {

// Adds to an instrumented module its references to what its link needs:
// the runtime, and with heap mode the heap interposer (include/mip/link.h,
// docs/mipcc.md). A link without them fails, naming the symbol.
void addLinkRefs(llvm::Module &M, bool Heap);

// Marks a declaration of a runtime function as hidden: every image has
// its own runtime, and a shared library linked without one must fail
// rather than leave the reference to whatever defines it at run time.
void markRuntimeFunction(llvm::Function &F);

} // namespace mip

#endif
