/*
 * Two versions of one program (-DVERSION=1 or 2) whose heaps differ in
 * known ways, for the flame graphs of test/e2e/flamegraph.sh:
 *   grow_index  allocates three times the bytes in version 2 (a regression)
 *   fill_cache  a third of them (an improvement)
 *   parse_config  the same in both (neutral)
 *   compress_block  only in version 2 (a new frame)
 *   legacy_scratch  only in version 1 (a stack that vanished)
 * parse_config's blocks live a while, and the last two leave a block
 * live at exit, so that every metric has something to show.
 * Every function stays a frame of its own (noinline, no tail calls).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef VERSION
#define VERSION 1
#endif

#define KEEP __attribute__((noinline))

static void *volatile sink;

/* Allocates and frees n blocks of size bytes, touching each: in the
 * function that uses it, so that the function allocates itself. */
#define CHURN(n, size)                                                        \
  for (int i = 0; i < (n); i++) {                                            \
    char *p = malloc(size);                                                  \
    memset(p, i, size);                                                      \
    sink = p;                                                                \
    free(p);                                                                 \
  }

/* Its blocks live 20 ms, for lifetimes above MIP's millisecond. */
KEEP void parse_config(void) {
  static char *kept[100];
  for (int i = 0; i < 100; i++) {
    kept[i] = malloc(1000);
    memset(kept[i], i, 1000);
  }
  nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
  for (int i = 0; i < 100; i++)
    free(kept[i]);
}

KEEP void grow_index(void) { CHURN(100, VERSION == 2 ? 6000 : 2000) }

KEEP void fill_cache(void) { CHURN(100, VERSION == 2 ? 1000 : 3000) }

/* Each also leaves one block live at exit. */
#if VERSION == 2
KEEP void compress_block(void) { CHURN(50, 4000) sink = malloc(4000); }
#else
KEEP void legacy_scratch(void) { CHURN(50, 4000) sink = malloc(4000); }
#endif

KEEP void build(void) {
  grow_index();
  fill_cache();
}

int main(void) {
  parse_config();
  build();
#if VERSION == 2
  compress_block();
#else
  legacy_scratch();
#endif
  return 0;
}
