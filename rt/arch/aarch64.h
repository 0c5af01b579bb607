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

static inline long mip_rt_arch_syscall(long nr, long a, long b, long c, long d,
                                       long e, long f) {
  register long x8 __asm__("x8") = nr;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc #0"
                   : "+r"(x0)
                   : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                   : "memory");
  return x0;
}

#define MIP_RT_ASM_TAIL_JUMP(sym) "  b " sym "\n"
#define MIP_RT_ASM_TRAP "  brk #0\n"

#define MIP_RT_R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define MIP_RT_R_GLOB_DAT R_AARCH64_GLOB_DAT
#define MIP_RT_R_ABS64 R_AARCH64_ABS64

/* Four zero bytes are udf #0, which traps. */
#define MIP_RT_TRAP_BYTE 0x00

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
