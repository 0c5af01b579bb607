//===- HeapGlue.h - What a heap module adds once ----------------*- C++ -*-===//
#ifndef MIP_PLUGIN_HEAPGLUE_H
#define MIP_PLUGIN_HEAPGLUE_H

namespace llvm {
class Module;
}

namespace mip {

// Adds to a module built with heap mode the weak free/realloc/reallocarray
// that send frees from anywhere in the process to the runtime, and, in the
// module that defines main, the .preinit_array entry that maps the shadow
// before any constructor runs (docs/heap.md).
void addHeapGlue(llvm::Module &M);

} // namespace mip

#endif
