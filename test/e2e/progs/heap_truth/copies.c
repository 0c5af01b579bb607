/* Known access counts for copies and fills: one access in every 64-byte
 * granule a range touches. One 64-byte-aligned 4 KiB block, 100 rounds
 * of: a 48-byte copy at offset 40 (granules 0 and 1: 2 accesses) and at
 * offset 64 (granule 1: 1), a 64-byte fill at offset 128 (granule 2: 1)
 * and at offset 200 (granules 3 and 4: 2), a 1000-byte copy at offset 0
 * (granules 0 to 15: 16). 22 accesses a round, 2200 in all. The short
 * ranges are counted inline, the long one by the runtime; the sources are
 * a global, which is not counted. */
#include <stdlib.h>
#include <string.h>

static char source[1000];
static volatile int offset_noise;

/* The compiler must assume p's memory is read and written here, so that
 * no copy is folded into another or dropped. */
static void escape(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

__attribute__((noinline)) static void copy48(char *p, int at) {
  memcpy(p + at + offset_noise, source, 48);
  escape(p);
}

__attribute__((noinline)) static void fill64(char *p, int at) {
  memset(p + at + offset_noise, at, 64);
  escape(p);
}

__attribute__((noinline)) static void copy1000(char *p) {
  memcpy(p + offset_noise, source, sizeof source);
  escape(p);
}

int main(void) {
  char *p = aligned_alloc(64, 4096);
  if (!p)
    return 1;
  for (int r = 0; r < 100; r++) {
    copy48(p, 40);
    copy48(p, 64);
    fill64(p, 128);
    fill64(p, 200);
    copy1000(p);
  }
  free(p);
  return 0;
}
