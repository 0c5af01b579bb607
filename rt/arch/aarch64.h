/* The runtime on AArch64 (rt/arch/arch.h says what each name is). */
#ifndef MIP_RT_ARCH_AARCH64_H
#define MIP_RT_ARCH_AARCH64_H

#include <elf.h>
#include <stdint.h>

#define MIP_RT_ARCH MIP_ARCH_AARCH64

static inline uintptr_t mip_rt_thread_pointer(void) {
  uintptr_t tp;
  __asm__("mrs %0, tpidr_el0" : "=r"(tp));
  return tp;
}

static inline void mip_rt_cpu_relax(void) { __asm__ volatile("yield"); }

/* mip_rt_syscall (rt/profile/sys.h): the number in x0, the arguments
 * after it; the kernel's result (-errno on an error). */
#define MIP_RT_ASM_SYSCALL                                                     \
  "  mov x8, x0\n"                                                              \
  "  mov x0, x1\n"                                                              \
  "  mov x1, x2\n"                                                              \
  "  mov x2, x3\n"                                                              \
  "  mov x3, x4\n"                                                              \
  "  mov x4, x5\n"                                                              \
  "  mov x5, xzr\n"                                                             \
  "  svc #0\n"                                                                  \
  "  ret\n"

#define MIP_RT_ASM_TAIL_JUMP(sym) "  b " sym "\n"
#define MIP_RT_ASM_TRAP "  brk #0\n"

#define MIP_RT_R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define MIP_RT_R_GLOB_DAT R_AARCH64_GLOB_DAT
#define MIP_RT_R_ABS64 R_AARCH64_ABS64

/* Four zero bytes are udf #0, which traps. */
#define MIP_RT_TRAP_BYTE 0x00

/* Coverage bytes start at 1 ("not yet"): bytes in the file. */
#define MIP_RT_ASM_COV_SECTION_TYPE "%progbits"

#define MIP_RT_A64_BTI_C 0xd503245fu /* a no-op where BTI is off */
#define MIP_RT_A64_BTI_J 0xd503249fu
#define MIP_RT_A64_BTI_JC 0xd50324dfu

/* bti c; ldr x16, word; br x16 (then the instruction cache told) */
static inline void mip_rt_trampoline_put(uint8_t *code, const uint64_t *word) {
  int64_t ldr_to = (int64_t)((uintptr_t)word - (uintptr_t)(code + 4));
  mip_put_le32(code, MIP_RT_A64_BTI_C);
  mip_put_le32(code + 4,
               0x58000000u | (((uint32_t)(ldr_to >> 2) & 0x7ffffu) << 5) | 16u);
  mip_put_le32(code + 8, 0xd61f0200u);
  __builtin___clear_cache((char *)code, (char *)code + 12);
}

/* [bti c|j|jc] b imm26 */
static inline uintptr_t mip_rt_direct_jump(const uint8_t *c) {
  uint32_t insn = mip_get_le32(c);
  if (insn == MIP_RT_A64_BTI_C || insn == MIP_RT_A64_BTI_J ||
      insn == MIP_RT_A64_BTI_JC)
    insn = mip_get_le32(c += 4);
  if ((insn & 0xfc000000u) != 0x14000000u)
    return 0;
  int64_t words = (int64_t)((int32_t)(insn << 6) >> 6);
  return (uintptr_t)c + (uintptr_t)(words * 4);
}

#endif
