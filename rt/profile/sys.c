/* The runtime's system calls (sys.h): one copy of the call and of the
 * errno it sets, for every call site. */
#include <errno.h>

#include "sys.h"

long mip_rt_syscall(long a, long b, long c, long d, long e, long nr) {
  long r = mip_rt_arch_syscall(nr, a, b, c, d, e, 0);
  if ((unsigned long)r > -4096UL) {
    errno = (int)-r;
    return -1;
  }
  return r;
}

int mip_rt_write_all(int fd, const void *buf, uint64_t size) {
  const uint8_t *p = buf;
  while (size) {
    ssize_t n = mip_sys_write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n;
    size -= (uint64_t)n;
  }
  return 0;
}
