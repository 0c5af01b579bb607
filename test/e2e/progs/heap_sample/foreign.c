/* Blocks that code MIP did not instrument frees or reallocates, beside
 * blocks instrumented code frees and reallocates, for the sampled heap
 * mode (test/e2e/heap_sample.sh): a free or realloc of a block that was
 * not recorded must not reach the heap state, one of a recorded block
 * always must, whoever calls it. Calls through the pointers below are
 * no free or realloc sites (the instrumentation sees calls by name), as
 * in a library built without MIP; the interposed free and realloc alone
 * see them. Some blocks stay live at exit. */
#include <stdio.h>
#include <stdlib.h>

static void (*volatile release)(void *) = free;
static void *(*volatile resize)(void *, size_t) = realloc;
static void *volatile sink;
static char *keep[600];

static char *node(size_t n) { return malloc(n); }
static char *grown(char *p, size_t n) { return realloc(p, n); }
static char *fresh(size_t n) { return realloc(NULL, n); }

/* Mixed sizes, side by side: freed in instrumented code, freed by the
 * uninstrumented free, or kept. */
static void nodes(void) {
  for (unsigned i = 0; i < 30000; i++) {
    char *p = node(16 + (i * 37) % 700);
    p[0] = (char)i;
    sink = p;
    if (i % 3 == 0)
      release(p);
    else if (i % 3 == 1 || i % 100 != 2)
      free(p);
    else
      keep[i / 100] = p;
  }
}

/* Grown by instrumented realloc (in place or moved: the new block stays
 * in its first block's context), then perhaps by the uninstrumented one
 * (whose result MIP does not follow), freed by either. */
static void grow(void) {
  for (unsigned i = 0; i < 6000; i++) {
    char *p = i % 2 ? node(24 + i % 50) : fresh(24 + i % 50);
    p = grown(p, 40 + (i * 131) % 3000);
    p[1] = (char)i;
    if (i % 5 == 0) {
      p = resize(p, 3000 + i);
      release(p);
    } else if (i % 5 == 1) {
      release(p);
    } else if (i % 100 != 2) {
      free(p);
    } else {
      keep[300 + i / 100] = p;
    }
  }
}

int main(void) {
  nodes();
  grow();
  unsigned sum = 0;
  for (unsigned i = 0; i < 600; i++)
    sum += keep[i] ? (unsigned char)keep[i][0] : 0;
  printf("%u\n", sum);
  return 0;
}
