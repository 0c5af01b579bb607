/* Writing a whole buffer to a file descriptor, retrying short writes and
 * interruptions. Header-only and allocation-free, so both the runtime and
 * the tools use it. */
#ifndef MIP_IO_H
#define MIP_IO_H

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

/* 0 when all size bytes were written through write_fn (write(2) or a
 * caller's own system call: the runtime's, rt/profile/sys.c), -1 (errno
 * set) otherwise. */
static inline int mip_write_all_with(ssize_t (*write_fn)(int, const void *,
                                                         size_t),
                                     int fd, const void *buf, uint64_t size) {
  const uint8_t *p = (const uint8_t *)buf;
  while (size) {
    ssize_t n = write_fn(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n;
    size -= (uint64_t)n;
  }
  return 0;
}

static inline int mip_write_all(int fd, const void *buf, uint64_t size) {
  return mip_write_all_with(write, fd, buf, size);
}

#endif
