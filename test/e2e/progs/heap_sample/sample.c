/* Blocks of known sizes at five sites, for the sampled heap mode
 * (test/e2e/heap_sample.sh): small and many, middling, page-sized, big
 * and few, and one site of sizes that vary. Every block is freed, a
 * tenth of the small ones at the end. The middling and page-sized blocks
 * are accessed a known number of times (3 and 2), in a granule no other
 * block shares. */
#include <stdio.h>
#include <stdlib.h>

static void *keep[4000];
/* Each block escapes through it, so that no malloc-free pair is folded
 * away. */
static void *volatile sink;

static char *small(void) { return malloc(32); }
static char *middle(void) { return malloc(1000); }
static char *page(void) { return malloc(4096); }
static char *big(void) { return malloc(1 << 20); }
static char *varied(unsigned i) {
  return malloc(16 + (i * 2654435761u) % 20000);
}

static void smalls(void) {
  for (unsigned i = 0; i < 40000; i++) {
    char *p = small();
    sink = p;
    if (i % 10 == 0)
      keep[i / 10] = p;
    else
      free(p);
  }
}

static unsigned accessed(void) {
  unsigned sum = 0;
  for (unsigned i = 0; i < 4000; i++) {
    volatile char *p = middle();
    p[500] = 1;
    p[500] = 2;
    sum += (unsigned)p[500];
    free((char *)p);
  }
  for (unsigned i = 0; i < 1000; i++) {
    volatile char *p = page();
    p[2048] = 3;
    sum += (unsigned)p[2048];
    free((char *)p);
  }
  return sum;
}

static void others(void) {
  for (unsigned i = 0; i < 20; i++) {
    sink = big();
    free(sink);
  }
  for (unsigned i = 0; i < 3000; i++) {
    sink = varied(i);
    free(sink);
  }
}

int main(void) {
  smalls();
  unsigned sum = accessed();
  others();
  for (unsigned i = 0; i < 4000; i++)
    free(keep[i]);
  printf("%u\n", sum);
  return 0;
}
