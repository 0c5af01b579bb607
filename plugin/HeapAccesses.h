//===- HeapAccesses.h - Counting accesses to heap memory --------*- C++ -*-===//
#ifndef MIP_PLUGIN_HEAPACCESSES_H
#define MIP_PLUGIN_HEAPACCESSES_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace mip {

// Before every load, store, atomicrmw, cmpxchg and masked load or store of
// F whose address is not provably on the stack or in a global, adds 1 to
// the address's shadow counter (accesses of one basic block through one
// pointer: their number, once); before memcpy, memmove and memset (calls
// and intrinsics), tells the runtime their ranges. Must run before any
// other instrumentation goes into F, so that none of it is counted.
void countHeapAccesses(llvm::Function &F);


} // namespace mip

#endif
