/* A memory suite, as libraries that let their users choose the allocator
 * have (expat's memory handling suite, libxml2's xmlMalloc): blocks
 * allocated through function pointers that hold malloc, calloc and
 * realloc. One call per line. */
#include <stdlib.h>

#include "store.h"

struct suite {
  void *(*alloc)(size_t);
  void *(*zalloc)(size_t, size_t);
  void *(*grow)(void *, size_t);
  void (*release)(void *);
};

struct suite libc_suite = {malloc, calloc, realloc, free};
/* What the pointers hold is known only when the program runs. */
static struct suite *volatile chosen = &libc_suite;

/* A pointer of malloc's prototype that holds no allocator: no block. */
static char scratch[64];
static void *from_scratch(size_t n) { return n <= sizeof scratch ? scratch : NULL; }
static void *(*volatile pick)(size_t) = from_scratch;

long suite_round(int r) {
  struct suite *s = chosen;
  char *text = s->alloc((size_t)(100 + r));
  int *zeros = s->zalloc(10, sizeof *zeros * (size_t)(r + 1));
  text = s->grow(text, (size_t)(300 + r));
  char *spare = pick(16);
  text[0] = spare[0];
  long sum = text[0] + zeros[r];
  s->release(zeros);
  s->release(text);
  return sum;
}
