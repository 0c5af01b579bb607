#include <stdarg.h>
#include <stdio.h>

#include "mipfmt.h"

/* A message is one line of plain text, whatever it quotes: a name read
 * from a corrupt file, or a path, may hold newlines or terminal control
 * sequences. Each control character becomes '?'. */
static void one_line(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f)
      *s = '?';
}

int mip_fail(struct mip_error *err, const char *path, const char *fmt, ...) {
  int n = snprintf(err->msg, sizeof err->msg, "%s: ", path);
  if (n < 0) {
    err->msg[0] = '\0';
  } else if ((size_t)n < sizeof err->msg) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
  }
  one_line(err->msg);
  return -1;
}
