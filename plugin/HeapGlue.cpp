//===- HeapGlue.cpp - What a heap module adds once ------------------------===//
//
// The .preinit_array entry, next to main, maps the shadow before any
// constructor of any object runs; shared objects cannot have one and map
// it from their constructors. (free, realloc and reallocarray of the
// process are not defined here but in the interposer object mipcc links
// beside the runtime, and a heap object refers to it: LinkRefs.cpp.)
//
//===----------------------------------------------------------------------===//

#include "HeapGlue.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace mip {

namespace {

// A pointer-wide entry (%preinit_array: on Arm, @ starts a comment).
std::string preinitEntry(const Module &M) {
  bool Wide = M.getDataLayout().getPointerSize() == 8;
  return std::string(".pushsection .preinit_array,\"aw\",%preinit_array\n") +
         (Wide ? ".p2align 3\n.quad" : ".p2align 2\n.long") +
         " __mip_heap_preinit\n"
         ".hidden __mip_heap_preinit\n"
         ".popsection\n";
}

bool definesMain(const Module &M) {
  const Function *Main = M.getFunction("main");
  return Main && !Main->isDeclaration();
}

} // namespace

void addHeapGlue(Module &M) {
  if (definesMain(M))
    M.appendModuleInlineAsm(preinitEntry(M));
}

} // namespace mip
