/* The runtime on x86-64 (rt/arch/arch.h says what each name is). */
#ifndef MIP_RT_ARCH_X86_64_H
#define MIP_RT_ARCH_X86_64_H

#include <elf.h>
#include <stdint.h>

#define MIP_RT_ARCH MIP_ARCH_X86_64

static inline uintptr_t mip_rt_thread_pointer(void) {
  uintptr_t tp;
  __asm__("mov %%fs:0, %0" : "=r"(tp));
  return tp;
}

static inline void mip_rt_cpu_relax(void) { __builtin_ia32_pause(); }

/* mip_rt_syscall (rt/profile/sys.h): the number in %rdi, the arguments
 * after it; the kernel's result (-errno on an error). */
#define MIP_RT_ASM_SYSCALL                                                     \
  "  mov %rdi, %rax\n"                                                          \
  "  mov %rsi, %rdi\n"                                                          \
  "  mov %rdx, %rsi\n"                                                          \
  "  mov %rcx, %rdx\n"                                                          \
  "  mov %r8, %r10\n"                                                           \
  "  mov %r9, %r8\n"                                                            \
  "  xor %r9d, %r9d\n"                                                          \
  "  syscall\n"                                                                 \
  "  ret\n"

#define MIP_RT_ASM_TAIL_JUMP(sym) "  jmp " sym "\n"
#define MIP_RT_ASM_TRAP "  int3\n"

#define MIP_RT_R_JUMP_SLOT R_X86_64_JUMP_SLOT
#define MIP_RT_R_GLOB_DAT R_X86_64_GLOB_DAT
#define MIP_RT_R_ABS64 R_X86_64_64

#define MIP_RT_TRAP_BYTE 0xcc /* int3 */

/* Coverage bytes start at 0: no file bytes. */
#define MIP_RT_ASM_COV_SECTION_TYPE "%nobits"

/* jmp *disp32(%rip) */
static inline void mip_rt_trampoline_put(uint8_t *code, const uint64_t *word) {
  uint32_t disp = (uint32_t)((uintptr_t)word - (uintptr_t)(code + 6));
  code[0] = 0xff;
  code[1] = 0x25;
  mip_put_le32(code + 2, disp);
}

/* [endbr64] jmp rel32 */
static inline uintptr_t mip_rt_direct_jump(const uint8_t *c) {
  if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
    c += 4;
  if (c[0] != 0xe9)
    return 0;
  return (uintptr_t)(c + 5) + (uintptr_t)(intptr_t)(int32_t)mip_get_le32(c + 1);
}

#endif
