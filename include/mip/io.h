/* Writing a whole buffer to a file descriptor, retrying short writes and
 * interruptions. Header-only and allocation-free, so both the runtime and
 * the tools use it. */
#ifndef MIP_IO_H
#define MIP_IO_H

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

/* 0 when all size bytes were written, -1 (errno set) otherwise. */
static inline int mip_write_all(int fd, const void *buf, uint64_t size) {
  const uint8_t *p = (const uint8_t *)buf;
  while (size) {
    ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n;
    size -= (uint64_t)n;
  }
  return 0;
}

#endif
