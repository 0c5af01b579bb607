//===- HeapGlue.cpp - What a heap module adds once ------------------------===//
//
// The runtime cannot itself define free, realloc and reallocarray: an
// archive member defining them would be pulled into every program that
// frees memory, coverage-only ones too. So each heap object carries weak
// definitions that jump to the runtime, in one COMDAT group the linker
// keeps a single copy of; referring to the runtime, they also pull the
// heap runtime into images whose code only counts accesses. A program's
// own (strong) free wins over them, and then only instrumented frees are
// seen. The .preinit_array entry, next to main, maps the shadow before
// any constructor of any object runs; shared objects cannot have one and
// map it from their constructors.
//
//===----------------------------------------------------------------------===//

#include "HeapGlue.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

// A weak symbol, in the interpose group, that jumps to the runtime.
std::string forwarder(const char *Name) {
  std::string N = Name;
  return ".weak " + N + "\n.type " + N + ",@function\n" + N +
         ":\n  jmp __mip_heap_interposed_" + N + "\n.size " + N + ", .-" +
         N + "\n.hidden __mip_heap_interposed_" + N + "\n";
}

std::string interposeGroup() {
  return std::string(".pushsection .text.__mip_heap_interpose,\"axG\","
                     "@progbits,__mip_heap_interpose,comdat\n"
                     ".weak __mip_heap_interpose\n"
                     ".hidden __mip_heap_interpose\n"
                     ".type __mip_heap_interpose,@function\n"
                     "__mip_heap_interpose:\n") +
         forwarder("free") + forwarder("realloc") +
         forwarder("reallocarray") +
         ".size __mip_heap_interpose, .-__mip_heap_interpose\n"
         ".popsection\n";
}

const char *PreinitEntry = ".pushsection .preinit_array,\"aw\",@preinit_array\n"
                           ".p2align 3\n"
                           ".quad __mip_heap_preinit\n"
                           ".hidden __mip_heap_preinit\n"
                           ".popsection\n";

bool definesMain(const Module &M) {
  const Function *Main = M.getFunction("main");
  return Main && !Main->isDeclaration();
}

} // namespace

void addHeapGlue(Module &M) {
  M.appendModuleInlineAsm(interposeGroup());
  if (definesMain(M))
    M.appendModuleInlineAsm(PreinitEntry);
}

} // namespace mip
