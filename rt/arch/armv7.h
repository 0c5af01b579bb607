/* The runtime on Armv7-A (rt/arch/arch.h says what each name is). The
 * runtime itself is Thumb-2 code (rt/build.mk); it serves programs in
 * either state, since every call between them goes through bx, blx or a
 * linker's veneer. */
#ifndef MIP_RT_ARCH_ARMV7_H
#define MIP_RT_ARCH_ARMV7_H

#include <elf.h>
#include <stdint.h>

#define MIP_RT_ARCH MIP_ARCH_ARMV7

/* TPIDRURO, which the kernel (and qemu-user) keep the thread pointer in
 * for every Armv6K and later core. */
static inline uintptr_t mip_rt_thread_pointer(void) {
  uintptr_t tp;
  __asm__("mrc p15, 0, %0, c13, c0, 3" : "=r"(tp));
  return tp;
}

static inline void mip_rt_cpu_relax(void) { __asm__ volatile("yield"); }

/* mip_rt_syscall (rt/profile/sys.h): the number in r0, the arguments in
 * r1-r3 and on the stack; the kernel wants the number in r7 and the
 * arguments in r0-r5 (r4, r5 and r7 are the caller's, so kept). The
 * kernel's result (-errno on an error). */
#define MIP_RT_ASM_SYSCALL                                                     \
  "  push {r4, r5, r7, lr}\n"                                                   \
  "  mov r7, r0\n"                                                              \
  "  mov r0, r1\n"                                                              \
  "  mov r1, r2\n"                                                              \
  "  mov r2, r3\n"                                                              \
  "  ldr r3, [sp, #16]\n"                                                       \
  "  ldr r4, [sp, #20]\n"                                                       \
  "  movs r5, #0\n"                                                             \
  "  svc #0\n"                                                                  \
  "  pop {r4, r5, r7, pc}\n"

/* Functions defined in the runtime's assembler text are Thumb code, as
 * the runtime is: .thumb_func before the label marks the symbol so, and
 * calls from Arm state switch to it. */
#define MIP_RT_ASM_FUNCTION_STATE "  .thumb\n  .thumb_func\n"

/* Arm's back end has no preserve_most: the plain convention. */
#define MIP_RT_PRESERVE_MOST

#define MIP_RT_ASM_TAIL_JUMP(sym) "  b.w " sym "\n"
#define MIP_RT_ASM_TRAP "  udf #0\n"

#define MIP_RT_R_JUMP_SLOT R_ARM_JUMP_SLOT
#define MIP_RT_R_GLOB_DAT R_ARM_GLOB_DAT
#define MIP_RT_R_ABS64 R_ARM_ABS32 /* the pointer-wide absolute one */
/* Dynamic relocations without addends (DT_REL), as Arm's ABI has them. */
#define MIP_RT_ELF_REL 1

/* 0xdede is Thumb's udf #0xde. */
#define MIP_RT_TRAP_BYTE 0xde

/* Coverage bytes start at 0 (a store of 1 costs what a store of 0 does:
 * Arm has no zero register): no file bytes. */
#define MIP_RT_ASM_COV_SECTION_TYPE "%nobits"

/* A Thumb-2 instruction: its two halfwords, first one first. */
static inline void mip_rt_t32_put(uint8_t *code, uint16_t first,
                                  uint16_t second) {
  code[0] = (uint8_t)first;
  code[1] = (uint8_t)(first >> 8);
  code[2] = (uint8_t)second;
  code[3] = (uint8_t)(second >> 8);
}

/* movw/movt's split of a 16-bit immediate into imm4:i:imm3:imm8. */
static inline void mip_rt_t32_put_imm16(uint8_t *code, uint16_t op,
                                        unsigned rd, uint16_t imm) {
  mip_rt_t32_put(code,
                 (uint16_t)(op | ((imm >> 11) & 1u) << 10 | (imm >> 12)),
                 (uint16_t)(((imm >> 8) & 7u) << 12 | rd << 8 | (imm & 0xffu)));
}

/* Thumb-2: movw ip, #:lower16:word; movt ip, #:upper16:word;
 * ldr.w pc, [ip] (which switches state by bit 0 of what it loads), 12
 * bytes: the word of a 32-bit address is its first four bytes. The
 * trampoline is entered at code + 1 (Thumb). */
static inline void mip_rt_trampoline_put(uint8_t *code, const uint64_t *word) {
  uint32_t at = (uint32_t)(uintptr_t)word;
  mip_rt_t32_put_imm16(code, 0xf240u, 12, (uint16_t)at);
  mip_rt_t32_put_imm16(code + 4, 0xf2c0u, 12, (uint16_t)(at >> 16));
  mip_rt_t32_put(code + 8, 0xf8dcu, 0xf000u);
  __builtin___clear_cache((char *)code, (char *)code + 12);
}

/* The bit a pointer to Thumb code (a trampoline, a return address into
 * Thumb code) carries. */
#define MIP_RT_THUMB_BIT 1u

/* Thumb (c's bit 0 set): b.w; Arm: b (always). */
static inline uintptr_t mip_rt_direct_jump(const uint8_t *c) {
  if ((uintptr_t)c & 1u) {
    const uint8_t *t = c - 1;
    uint32_t hi = (uint32_t)(t[0] | t[1] << 8), lo = (uint32_t)(t[2] | t[3] << 8);
    if ((hi & 0xf800u) != 0xf000u || (lo & 0xd000u) != 0x9000u)
      return 0;
    uint32_t s = (hi >> 10) & 1u;
    uint32_t i1 = !(((lo >> 13) & 1u) ^ s), i2 = !(((lo >> 11) & 1u) ^ s);
    uint32_t imm = s << 24 | i1 << 23 | i2 << 22 | (hi & 0x3ffu) << 12 |
                   (lo & 0x7ffu) << 1;
    int32_t off = (int32_t)(imm << 7) >> 7;
    return (uintptr_t)t + 4 + (uintptr_t)off + 1;
  }
  uint32_t insn = mip_get_le32(c);
  if ((insn & 0xff000000u) != 0xea000000u)
    return 0;
  int32_t words = (int32_t)(insn << 8) >> 8;
  return (uintptr_t)c + 8 + (uintptr_t)(words * 4);
}

#endif
