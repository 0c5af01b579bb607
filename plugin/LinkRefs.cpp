//===- LinkRefs.cpp - What an instrumented object needs at its link -------===//
//
// Coverage-only code refers to nothing of the runtime: its probes store to
// the object's own counters, and the runtime finds them by their section.
// Linked without the runtime (by another driver, or by a build that links
// without -fmip-generate), such a program would run and silently write no
// profile. So every instrumented object refers to a symbol libmip_rt.a
// defines, named for what to do when it is missing, and heap objects to
// one the heap interposer object defines; an object that calls mip_dump()
// also to the symbol of the runtime's member that defines it, and one
// with counters of another kind than coverage bytes to the member that
// knows every kind:
//
//   .pushsection .rodata.mip.link,"aGR",%progbits,
//                __mip_link_with_mipcc_or_libmip_rt.ref,comdat
//   .p2align 2
//   .long __mip_link_with_mipcc_or_libmip_rt@PLT
//   .hidden __mip_link_with_mipcc_or_libmip_rt
//   .popsection
//
// Hidden: an undefined hidden symbol is an error in a shared library too,
// where default-visibility ones may stay undefined. In an allocated
// section: lld reports no undefined symbol that only non-allocated
// sections (.debug_mip) refer to, nor one that only R_X86_64_NONE does.
// Retained (SHF_GNU_RETAIN, "R"): --gc-sections never drops it, whatever
// of the object's code it keeps. PLT32 rather than PC32: gold, linking a
// shared library, reports PC32 against an undefined symbol as needing
// -fPIC before it says undefined; resolved within the image (the symbol
// is hidden), PLT32 is the offset to it, with no PLT entry and no dynamic
// relocation. Each reference is a COMDAT group of its own, named for its
// symbol: the linker keeps one copy of each in the image, whatever the
// number of objects that make the reference (4 bytes of .rodata each;
// it was 4 bytes an object: 172 bytes of zstd's 43), and the copy it
// keeps still makes the link fail when the symbol is missing (bfd, gold
// and lld alike, --gc-sections or not). On
// AArch64 the same is `.word SYMBOL@PLT - .`, R_AARCH64_PLT32, on Armv7
// `.long SYMBOL - .`, R_ARM_REL32 (Target.cpp). (%progbits: on Arm, @
// starts a comment.)
//
//===----------------------------------------------------------------------===//

#include "LinkRefs.h"
#include "Target.h"

#include "mip/link.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

// Whether M has counters in another section than the coverage bytes'
// (the plugin names counter sections with these attributes: Counters.cpp).
bool hasOtherCounters(const Module &M) {
  for (const GlobalVariable &GV : M.globals()) {
    for (const char *Attr : {"bss-section", "data-section"}) {
      if (!GV.hasAttribute(Attr))
        continue;
      StringRef Section = GV.getAttribute(Attr).getValueAsString();
      if (Section.take_front(6) == "__mip_" && Section != "__mip_cov")
        return true;
    }
  }
  return false;
}

std::string reference(const Target &T, const char *Symbol) {
  return (Twine(".pushsection " MIP_LINK_SECTION ",\"aGR\",%progbits,") +
          Symbol + ".ref,comdat\n.p2align 2\n" + T.RefBefore + Symbol +
          T.RefAfter + "\n.hidden " + Symbol + "\n.popsection\n")
      .str();
}

} // namespace

void addLinkRefs(Module &M, bool Heap) {
  const Target &T = checkedTargetOf(M);
  std::string Asm = reference(T, MIP_RT_LINK_SYMBOL);
  if (Heap)
    Asm += reference(T, MIP_HEAP_LINK_SYMBOL);
  // mip_dump() is linked only into images whose objects call it (a weak
  // reference, as <mip/mip.h> declares it, pulls nothing out of an
  // archive).
  if (M.getFunction("mip_dump"))
    Asm += reference(T, MIP_RT_DUMP_SYMBOL);
  // Counters of another kind than coverage bytes: the runtime's code for
  // every kind (a coverage image carries the coverage bytes' only).
  if (hasOtherCounters(M))
    Asm += reference(T, MIP_RT_KINDS_SYMBOL);
  M.appendModuleInlineAsm(Asm);
}

void markRuntimeFunction(Function &F) {
  F.setVisibility(GlobalValue::HiddenVisibility);
  F.setDSOLocal(true);
}

} // namespace mip
