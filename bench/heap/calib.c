/*
 * bench/heap/calib.c: access counts whose right answer is known, for
 * `make bench-heap`. Built with mipcc -fmip-generate=heap and with clang
 * -fmemory-profile; each case allocates in a function of its own, so each
 * is one context named by that function.
 *
 *   reused     10 times: malloc(56), 1000 stores to its first byte and 1000
 *              to its last, free: 20000 accesses
 *   memset     aligned_alloc(64, 4096), memset of all of it: 64 granules,
 *              512 8-byte words
 *   memcpy     aligned_alloc(64, 4096), memcpy of 4096 bytes into it
 *   strlen     aligned_alloc(64, 4096), memset of 4095 bytes, a store of
 *              the final NUL, strlen in libc reading all 4096 bytes
 *
 * Prints nothing; the profiles are the output.
 */
#include <stdlib.h>
#include <string.h>

#define N 1000

static char source[4096];
static volatile size_t sink;

/* The compiler must assume p's memory is read and written here, so that
 * stores to it are kept and nothing is folded across this point. */
static void escape(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

__attribute__((noinline)) static void reused(void) {
  for (int k = 0; k < 10; k++) {
    volatile char *p = malloc(56);
    if (!p)
      abort();
    for (int i = 0; i < N; i++)
      p[0] = (char)i;
    for (int i = 0; i < N; i++)
      p[55] = (char)i;
    free((void *)p);
  }
}

__attribute__((noinline)) static void set(void) {
  char *p = aligned_alloc(64, 4096);
  if (!p)
    abort();
  memset(p, 'a', 4096);
  escape(p);
  free(p);
}

__attribute__((noinline)) static void copy(void) {
  char *p = aligned_alloc(64, 4096);
  if (!p)
    abort();
  escape(source);
  memcpy(p, source, 4096);
  escape(p);
  free(p);
}

__attribute__((noinline)) static void length(void) {
  char *p = aligned_alloc(64, 4096);
  if (!p)
    abort();
  memset(p, 'a', 4095);
  p[4095] = 0;
  escape(p);
  sink += strlen(p);
  free(p);
}

int main(void) {
  reused();
  set();
  copy();
  length();
  return 0;
}
