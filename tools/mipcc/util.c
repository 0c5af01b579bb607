/*
 * Small helpers. The driver lives for a few milliseconds and then execs
 * the compiler, so allocations are simply kept until then, and running
 * out of memory is a plain error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mipcc.h"

const char *mipcc_name = "mipcc";

static void vmessage(const char *fmt, va_list ap) {
  fprintf(stderr, "%s: ", mipcc_name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
}

void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
  exit(1);
}

void *xrealloc(void *p, size_t size) {
  p = realloc(p, size ? size : 1);
  if (!p)
    die("out of memory");
  return p;
}

void *xmalloc(size_t size) { return xrealloc(NULL, size); }

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

char *xconcat(const char *first, ...) {
  va_list ap;
  size_t len = 0;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *))
    len += strlen(s);
  va_end(ap);

  char *out = xmalloc(len + 1), *at = out;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *)) {
    size_t n = strlen(s);
    memcpy(at, s, n);
    at += n;
  }
  va_end(ap);
  *at = '\0';
  return out;
}

bool has_prefix(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

void strvec_push(struct strvec *sv, const char *s) {
  /* One spare slot keeps the array NULL-terminated for execv. */
  if (sv->n + 2 > sv->cap) {
    sv->cap = sv->cap ? 2 * sv->cap : 16;
    sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
  }
  sv->v[sv->n++] = s;
  sv->v[sv->n] = NULL;
}
