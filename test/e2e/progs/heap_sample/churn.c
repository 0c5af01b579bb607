/* Blocks a sampled run nearly never records, allocated and freed at once
 * (test/e2e/heap_sample.sh counts, under callgrind, what each costs the
 * heap-allocs build over the plain one): malloc and free in instrumented
 * code, realloc(NULL, n), a realloc that grows and a free, and a free by
 * code MIP did not instrument. */
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 100000

static void (*volatile release)(void *) = free;
static void *volatile sink;

int main(void) {
  for (unsigned i = 0; i < ROUNDS; i++) {
    char *p = malloc(32 + i % 64);
    sink = p;
    free(p);
  }
  for (unsigned i = 0; i < ROUNDS; i++) {
    char *p = realloc(NULL, 40);
    sink = p;
    p = realloc(p, 40 + i % 200);
    sink = p;
    free(p);
  }
  for (unsigned i = 0; i < ROUNDS; i++) {
    char *p = malloc(24);
    sink = p;
    release(p);
  }
  printf("%d\n", 4 * ROUNDS);
  return 0;
}
