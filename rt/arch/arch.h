/*
 * What the runtime does differently per architecture, one header each
 * (x86_64.h, aarch64.h, armv7.h), chosen here by the compiler's target; the facts
 * the plugin shares with it are in mip/arch.h. A new
 * architecture is a line there, a header here and a block in
 * plugin/Target.cpp (docs/instrumentation.md, "Architectures").
 *
 * Each header defines:
 *   MIP_RT_ARCH(X)             its macro of mip/arch.h
 *   mip_rt_thread_pointer()    the thread pointer (glibc's TLS and rseq
 *                              offsets are relative to it)
 *   mip_rt_cpu_relax()         the spin-wait hint
 *   MIP_RT_ASM_SYSCALL         assembler text: the body of
 *                              mip_rt_syscall (rt/profile/sys.c)
 *   MIP_RT_ASM_FUNCTION_STATE  assembler text before a function's label in
 *                              the runtime's assembler text (Armv7: Thumb)
 *   MIP_RT_PRESERVE_MOST       __mip_first_call's calling convention,
 *                              as the plugin calls it (plugin/Target.cpp):
 *                              preserve_most, but on Armv7
 *   MIP_RT_ASM_TAIL_JUMP(sym)  assembler text: a jump to sym
 *   MIP_RT_ASM_TRAP            assembler text: one instruction that traps
 *   MIP_RT_R_JUMP_SLOT, MIP_RT_R_GLOB_DAT, MIP_RT_R_ABS64
 *                              the dynamic relocations of GOT slots
 *                              (ABS64: the pointer-wide absolute one)
 *   MIP_RT_ELF_REL             1 where dynamic relocations have no
 *                              addend (DT_REL: Armv7); 0 by default (RELA)
 *   MIP_RT_ASM_COV_SECTION_TYPE
 *                              assembler text: the type of the coverage
 *                              bytes' section (%nobits where they start
 *                              at 0, %progbits where at 1)
 *   MIP_RT_TRAP_BYTE           a byte that, repeated, fills code with traps
 *   mip_rt_trampoline_put(code, word)
 *                              writes at code (16 bytes at most) a jump
 *                              through the u64 at word
 *   MIP_RT_THUMB_BIT           the bit a pointer to Thumb code carries
 *                              (Armv7: 1; the runtime's trampolines are
 *                              Thumb, return addresses into Thumb code
 *                              have it); 0 by default
 *   mip_rt_direct_jump(code)   where the code at code jumps directly, if
 *                              it is a tail jump (after a landing pad
 *                              perhaps); 0 if not
 */
#ifndef MIP_RT_ARCH_H
#define MIP_RT_ARCH_H

#include <stdint.h>

#include "mip/arch.h"
#include "mip/le.h"

#if defined(__x86_64__)
#include "x86_64.h"
#elif defined(__aarch64__)
#include "aarch64.h"
#elif defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7 &&            \
    !defined(__ARMEB__)
#include "armv7.h"
#else
#error "MIP's runtime supports x86-64, AArch64 and Armv7 Linux (mip/arch.h)"
#endif

#ifndef MIP_RT_PRESERVE_MOST
#define MIP_RT_PRESERVE_MOST __attribute__((preserve_most))
#endif
#ifndef MIP_RT_ELF_REL
#define MIP_RT_ELF_REL 0
#endif
#ifndef MIP_RT_THUMB_BIT
#define MIP_RT_THUMB_BIT 0u
#endif
#ifndef MIP_RT_ASM_FUNCTION_STATE
#define MIP_RT_ASM_FUNCTION_STATE ""
#endif

#define MIP_RT_SHADOW_OFFSET MIP_RT_ARCH(MIP_ARCH_SHADOW_OFFSET)
#define MIP_RT_ADDR_BITS MIP_RT_ARCH(MIP_ARCH_ADDR_BITS)
#define MIP_RT_COUNTER_SHIFT MIP_RT_ARCH(MIP_ARCH_COUNTER_SHIFT)
/* A coverage byte once its function ran, and before. */
#define MIP_RT_COV_ENTERED MIP_RT_ARCH(MIP_ARCH_COV_ENTERED)
#define MIP_RT_COV_NOT_YET (!MIP_RT_COV_ENTERED)

#endif
