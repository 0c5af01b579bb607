//===- Target.cpp - What the plugin does per architecture ----------------===//
//
// The architectures of include/mip/arch.h, on Linux: every other triple
// is refused with one error before anything is instrumented, since the
// runtime, the map's layout and heap mode's shadow exist for these only.
// What differs in the code the plugin leaves to the back end:
//
//   x86-64   coverage  movb $1, disp32(%rip)                  7 bytes
//            counts    decq disp32(%rip)                      7 bytes
//   AArch64  coverage  adrp x8, cov; strb wzr, [x8, :lo12:cov] 8 bytes
//                      (the byte starts at 1: CovEntered is 0)
//            counts    adrp; ldr; sub; str                   16 bytes
//   Armv7    coverage  Thumb-2: ldr r0, =cov-pc; movs r1, #1;
//                      add r0, pc; strb r1, [r0] (+ the literal) 12 bytes
//                      Arm: the same in 4-byte instructions  20 bytes
//                      (the byte's address is pc-relative, a literal
//                      for each; no zero register: the byte starts at 0)
//            counts    ldr; add pc; ldrd; subs; sbc; strd    22 bytes
//                      (Thumb-2, with its literal; Arm 32)
//            heap      and.w (lsr #6); ldr.w; qadd; str.w of a u32
//                      ({base, mask} loaded at the function's entry)
//
// (docs/instrumentation.md, "Architectures", has every mode's.)
//
//===----------------------------------------------------------------------===//

#include "Target.h"
#include "Compat.h"

#include "mip/arch.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

namespace {

#define MIP_TARGET(ARCH)                                                       \
  ARCH(MIP_ARCH_NAME), ARCH(MIP_ARCH_SHADOW_OFFSET),                          \
      ARCH(MIP_ARCH_COV_ENTERED), ARCH(MIP_ARCH_COUNTER_SHIFT)
const Target Targets[] = {
    // R_X86_64_PLT32 (gold takes it in a shared library, LinkRefs.cpp)
    {MIP_TARGET(MIP_ARCH_X86_64), ".long ", "@PLT", true, false},
    // R_AARCH64_PLT32
    {MIP_TARGET(MIP_ARCH_AARCH64), ".word ", "@PLT - .", true, false},
    // R_ARM_REL32
    {MIP_TARGET(MIP_ARCH_ARMV7), ".long ", " - .", false, true},
};
#undef MIP_TARGET

// Linux, not x32, Armv7 or later in little-endian Arm or Thumb state,
// with the hard-float ABI: what the runtime is built for.
const Target *find(const Triple &T) {
  if (!T.isOSLinux() || T.isX32())
    return nullptr;
  StringRef Arch = Triple::getArchTypeName(T.getArch());
  if (T.getArch() == Triple::thumb)
    Arch = "arm";
  if (Arch == "arm" && (ARM::parseArchVersion(T.getArchName()) < 7 ||
                        T.getEnvironment() != Triple::GNUEABIHF))
    return nullptr;
  for (const Target &Tg : Targets)
    if (T.getArchName() == Tg.Name || Arch == Tg.Name)
      return &Tg;
  return nullptr;
}

// A module without a triple is compiled for the default target (opt, llc).
std::string tripleOf(const Module &M) {
  const std::string &T = M.getTargetTriple();
  return T.empty() ? sys::getDefaultTargetTriple() : T;
}

} // namespace

Expected<const Target &> targetOf(const Module &M) {
  Triple T(tripleOf(M));
  if (const Target *Tg = find(T))
    return *Tg;
  std::string Names;
  for (const Target &Tg : Targets)
    Names += (Names.empty() ? "" : ", ") +
             (Tg.Name == "arm" ? "armv7-linux-gnueabihf" : Tg.Name.str() + "-linux");
  return createStringError(inconvertibleErrorCode(),
                           "target " + T.str() +
                               " is not supported (MIP supports " + Names +
                               ")");
}

const Target &checkedTargetOf(const Module &M) {
  return *find(Triple(tripleOf(M)));
}

} // namespace mip
