/* The runtime's system calls (sys.h): one entry point for every call
 * site. */
#include <errno.h>

#include "sys.h"

__asm__(".pushsection .text.mip_rt_syscall,\"ax\",%progbits\n"
        ".globl mip_rt_syscall\n"
        ".hidden mip_rt_syscall\n"
        ".type mip_rt_syscall, %function\n"
        ".p2align 2\n" MIP_RT_ASM_FUNCTION_STATE
        "mip_rt_syscall:\n" MIP_RT_ASM_SYSCALL
        ".size mip_rt_syscall, . - mip_rt_syscall\n"
        ".popsection\n");

int mip_rt_write_all(int fd, const void *buf, uint64_t size) {
  const uint8_t *p = buf;
  while (size) {
    ssize_t n = mip_sys_write(fd, p, size);
    if (n == -EINTR)
      continue;
    if (n <= 0)
      return n ? (int)n : -EIO;
    p += n;
    size -= (uint64_t)n;
  }
  return 0;
}
