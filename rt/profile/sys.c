/* The runtime's system calls (sys.h): one copy of the call and of the
 * errno it sets, for every call site. */
#include <errno.h>

#include "mip/io.h"
#include "sys.h"

__asm__(".pushsection .text.mip_rt_syscall,\"ax\",%progbits\n"
        ".globl mip_rt_syscall\n"
        ".hidden mip_rt_syscall\n"
        ".type mip_rt_syscall, %function\n"
        ".p2align 2\n" MIP_RT_ASM_FUNCTION_STATE
        "mip_rt_syscall:\n" MIP_RT_ASM_SYSCALL
        ".size mip_rt_syscall, . - mip_rt_syscall\n"
        ".popsection\n");

/* Where mip_rt_syscall goes with the kernel's -errno. */
MIP_RT_HIDDEN __attribute__((used)) long mip_rt_syscall_failed(long r);
long mip_rt_syscall_failed(long r) {
  errno = (int)-r;
  return -1;
}

int mip_rt_write_all(int fd, const void *buf, uint64_t size) {
  return mip_write_all_with(mip_sys_write, fd, buf, size);
}
