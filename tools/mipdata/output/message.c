/* mipdata's lines on stderr (message.h). */
#include <stdarg.h>
#include <stdio.h>

#include "message.h"

int report(const struct mip_error *err) {
  fprintf(stderr, "mipdata: %s\n", err->msg);
  return 1;
}

void note(const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mipdata: %s: note: ", path);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mipdata: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mipdata %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'mipdata %s --help'.\n", cmd);
  va_end(ap);
  return 2;
}
