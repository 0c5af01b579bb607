/* Small string helpers that neither allocate nor call stdio, so they are
 * safe in a destructor or a signal handler. */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>

#include "mip_rt.h"

size_t mip_rt_strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

/* Appends s at out[at], truncating at size-1; returns the new length
 * (which is >= size when something did not fit). */
size_t mip_rt_append(char *out, size_t at, size_t size, const char *s) {
  for (; *s; s++, at++)
    if (at + 1 < size)
      out[at] = *s;
  if (size)
    out[at < size ? at : size - 1] = '\0';
  return at;
}

size_t mip_rt_append_u64(char *out, size_t at, size_t size, uint64_t v) {
  char digits[21];
  size_t n = sizeof digits - 1;
  digits[n] = '\0';
  do {
    digits[--n] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return mip_rt_append(out, at, size, digits + n);
}

size_t mip_rt_append_hex(char *out, size_t at, size_t size, uint64_t v,
                         unsigned bytes) {
  static const char digits[] = "0123456789abcdef";
  char hex[17];
  unsigned n = bytes > 8 ? 16 : 2 * bytes;
  for (unsigned i = 0; i < n; i++)
    hex[i] = digits[(v >> (4 * (n - 1 - i))) & 15];
  hex[n] = '\0';
  return mip_rt_append(out, at, size, hex);
}

int mip_rt_streq(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

void mip_rt_report(const char *first, ...) {
  char line[MIP_RT_PATH_MAX + 256];
  size_t n = mip_rt_append(line, 0, sizeof line - 1, "mip: ");
  va_list ap;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *))
    n = mip_rt_append(line, n, sizeof line - 1, s);
  va_end(ap);
  if (n > sizeof line - 2)
    n = sizeof line - 2;
  line[n++] = '\n';
  int saved = errno; /* the program's, whatever the write does */
  ssize_t ignored = write(STDERR_FILENO, line, n);
  (void)ignored;
  errno = saved;
}
