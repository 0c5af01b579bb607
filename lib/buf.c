/* Growable buffers and allocation that gives up loudly: the tools have no
 * useful way to go on without memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mipfmt.h"

static void out_of_memory(void) {
  fputs("mipdata: out of memory\n", stderr);
  abort();
}

void *mip_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *mip_xcalloc(size_t count, size_t n) {
  void *p = calloc(count ? count : 1, n ? n : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *mip_xrealloc(void *p, size_t count, size_t n) {
  if (n && count > SIZE_MAX / n)
    out_of_memory();
  void *q = realloc(p, count * n ? count * n : 1);
  if (!q)
    out_of_memory();
  return q;
}

char *mip_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(mip_xmalloc(n), s, n);
}

void *mip_buf_extend(struct mip_buf *buf, size_t n) {
  if (n > SIZE_MAX - buf->size)
    out_of_memory();
  if (buf->size + n > buf->cap || !buf->data) {
    size_t cap = buf->cap ? buf->cap : 256;
    while (cap < buf->size + n)
      cap = cap > SIZE_MAX / 2 ? buf->size + n : cap * 2;
    buf->data = mip_xrealloc(buf->data, cap, 1);
    buf->cap = cap;
  }
  void *at = buf->data + buf->size;
  memset(at, 0, n);
  buf->size += n;
  return at;
}

void mip_buf_append(struct mip_buf *buf, const void *data, size_t n) {
  if (n)
    memcpy(mip_buf_extend(buf, n), data, n);
}

void mip_buf_align(struct mip_buf *buf, size_t alignment) {
  size_t pad = (alignment - buf->size % alignment) % alignment;
  if (pad)
    mip_buf_extend(buf, pad);
}

void mip_buf_free(struct mip_buf *buf) {
  free(buf->data);
  buf->data = NULL;
  buf->size = buf->cap = 0;
}
