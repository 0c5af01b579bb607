//===- HeapGlue.h - What a heap module adds once ----------------*- C++ -*-===//
#ifndef MIP_PLUGIN_HEAPGLUE_H
#define MIP_PLUGIN_HEAPGLUE_H

namespace llvm {
class Module;
}

namespace mip {

// Adds to the module that defines main, built with heap mode, the
// .preinit_array entry that maps the shadow before any constructor runs
// (docs/heap.md).
void addHeapGlue(llvm::Module &M);

} // namespace mip

#endif
