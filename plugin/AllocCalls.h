//===- AllocCalls.h - Calls of allocation and deallocation functions -*- C++ -*-===//
//
// Which calls allocate or free heap blocks: the heap sites of heap mode
// (HeapSites.cpp) and the calls an allocation hint can go to at rebuild
// (AllocHints.cpp). Both number a function's sites the same way, so a
// profile's site N is the rebuilt function's call N.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_ALLOCCALLS_H
#define MIP_PLUGIN_ALLOCCALLS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace mip {

// The heap runtime's call that heap mode puts next to a site.
enum class Hook {
  Alloc,    // __mip_heap_alloc(p, size, site), after
  AllocStr, // __mip_heap_alloc_str(p, site), after
  AllocAt,  // __mip_heap_alloc_at(out, result, size, site), after
  Realloc,  // __mip_heap_realloc(old, p, size, site), after
  Free,     // __mip_heap_free(p, site), before
};

// An allocation or deallocation function: which hook, and which of its
// arguments the hook needs (-1: none).
struct AllocFn {
  uint32_t Allocator; // MIP_ALLOC_*
  Hook What;
  int Ptr;    // realloc's old block, posix_memalign's out, the freed block
  int Size;   // the size, or its first factor
  int Factor; // the size's second factor (calloc, reallocarray)
  // The same allocation with a hot/cold hint as one more, last, argument
  // (include/mip/alloc.h, or tcmalloc's operator new with __hot_cold_t);
  // empty when there is none.
  std::string Hinted;
};

struct AllocCall {
  llvm::CallBase *Call;
  const AllocFn *Fn;
  // For a call through a function pointer, the allocator the pointer may
  // hold (its symbol, which the site's hook compares the pointer with);
  // empty for a direct call.
  llvm::StringRef Through;
};

// F's heap sites in order, none when F is itself an allocation or
// deallocation function (a program's own malloc: the calls of it are the
// sites, not what it does inside). A site is a direct call of one of
// those functions, or a call through a function pointer of exactly the
// prototype of malloc, calloc or realloc: a memory suite's pointer
// (expat's, libxml2's xmlMalloc) that may hold that allocator.
llvm::SmallVector<AllocCall, 8> collectAllocCalls(llvm::Function &F);

} // namespace mip

#endif
