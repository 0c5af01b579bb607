/* Heap over time, deterministic: three waves of blocks at four sites,
 * the second the highest, with a growing realloc on the way, so that the
 * global peak and what each site holds then are known to DHAT as to MIP.
 * Prints nothing: stdio's buffer would be a block DHAT sees and MIP does
 * not (it comes from libc). */
#include <stdlib.h>
#include <string.h>

#define MAX 200
static void *volatile kept[MAX];

__attribute__((noinline)) static void *small(size_t n) {
  void *p = malloc(n);
  memset(p, 1, n);
  return p;
}

__attribute__((noinline)) static void *large(size_t n) {
  void *p = calloc(1, n);
  return p;
}

__attribute__((noinline)) static char *name(int i) {
  char text[32] = "block number ";
  text[13] = (char)('a' + i % 26);
  return strdup(text);
}

__attribute__((noinline)) static void *grown(void *p, size_t n) {
  return realloc(p, n);
}

/* Wave w: count blocks, of which every third is large, then the first
 * `freed` of them freed. */
static void wave(int first, int count, int freed, size_t scale) {
  for (int i = first; i < first + count; i++)
    kept[i] = i % 3 ? small(scale * (size_t)(i % 7 + 1))
                    : large(4 * scale * (size_t)(i % 5 + 1));
  kept[first] = grown(kept[first], 8 * scale);
  for (int i = first + count - freed; i < first + count; i++) {
    free(kept[i]);
    kept[i] = NULL;
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  for (int r = 0; r < rounds; r++) {
    wave(0, 40, 30, 16);   /* first peak, then down */
    wave(40, 90, 60, 32);  /* the highest */
    char *n = name(r);
    wave(130, 50, 50, 24); /* lower */
    free(n);
    for (int i = 0; i < MAX; i++) {
      free(kept[i]);
      kept[i] = NULL;
    }
  }
  return 0;
}
