/* mipdata's lines on stderr (message.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "message.h"

/* The message fmt makes, after prefix, on one line: a name or a path in it
 * reaches the terminal escaped (escape.h). */
static void message_line(const char *prefix, const char *fmt, va_list ap) {
  char *text = NULL;
  if (vasprintf(&text, fmt, ap) < 0)
    text = NULL;
  fputs(prefix, stderr);
  escape_text(stderr, text ? text : fmt);
  fputc('\n', stderr);
  free(text);
}

static void message(const char *prefix, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void message(const char *prefix, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message_line(prefix, fmt, ap);
  va_end(ap);
}

int report(const struct mip_error *err) {
  message("mipdata: ", "%s", err->msg);
  return 1;
}

void note(const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mipdata: %s: note: ", text_safe(path));
  message_line("", fmt, ap);
  va_end(ap);
}

void warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message_line("mipdata: warning: ", fmt, ap);
  va_end(ap);
}

int usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mipdata %s: ", text_safe(cmd));
  message_line("", fmt, ap);
  fprintf(stderr, "Try 'mipdata %s --help'.\n", text_safe(cmd));
  va_end(ap);
  return 2;
}
