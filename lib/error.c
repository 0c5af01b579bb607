#include <stdarg.h>
#include <stdio.h>

#include "mipfmt.h"

int mip_fail(struct mip_error *err, const char *path, const char *fmt, ...) {
  int n = snprintf(err->msg, sizeof err->msg, "%s: ", path);
  if (n < 0 || (size_t)n >= sizeof err->msg)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}
