/* Allocation sites with known counts and sizes; one call per line. */
#include <stdlib.h>
#include <string.h>

#include "store.h"

void store_init(struct store *s) {
  s->cap = 4;
  s->count = 0;
  s->items = malloc(s->cap * sizeof *s->items);
}

void store_add(struct store *s, long v) {
  if (s->count == s->cap) {
    s->cap *= 2;
    s->items = realloc(s->items, s->cap * sizeof *s->items);
  }
  s->items[s->count++] = v;
}

void store_done(struct store *s) { free(s->items); }

char *text_copy(const char *s) { return strdup(s); }

char *text_prefix(const char *s, size_t n) { return strndup(s, n); }

int *table_zeroed(size_t n) { return calloc(n, sizeof(int)); }

void *buffer_aligned(size_t n) { return aligned_alloc(64, n); }

void *buffer_posix(size_t n) {
  void *p = NULL;
  return posix_memalign(&p, 32, n) == 0 ? p : NULL;
}
