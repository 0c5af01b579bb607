/* Blocks of known sizes at five sites, for the sampled heap mode
 * (test/e2e/heap_sample.sh): small and many, middling, page-sized, big
 * and few, and one site of sizes that vary. Each block is freed; a
 * tenth of the small ones stay live to the end. */
#include <stdio.h>
#include <stdlib.h>

static void *keep[4096];
/* Each block escapes through it, so that no malloc-free pair is folded
 * away. */
static void *volatile sink;

static void *small(void) { return malloc(32); }
static void *middle(void) { return malloc(1000); }
static void *page(void) { return malloc(4096); }
static void *big(void) { return malloc(1 << 20); }
static void *varied(unsigned i) { return malloc(16 + (i * 2654435761u) % 20000); }

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  unsigned long sum = 0;
  for (unsigned r = 0; r < rounds; r++) {
    for (unsigned i = 0; i < 40000; i++) {
      char *p = small();
      p[0] = (char)i;
      sink = p;
      sum += (unsigned char)p[0];
      if (i % 10 == 0 && i / 10 < 4096 && r == rounds - 1)
        keep[i / 10] = p;
      else
        free(p);
    }
    for (unsigned i = 0; i < 4000; i++) {
      char *p = middle();
      p[999] = 1;
      sink = p;
      sum += (unsigned char)p[999];
      free(p);
    }
    for (unsigned i = 0; i < 1000; i++) {
      char *p = page();
      p[100] = 2;
      sink = p;
      sum += (unsigned char)p[100];
      free(p);
    }
    for (unsigned i = 0; i < 20; i++) {
      char *p = big();
      p[12345] = 3;
      sink = p;
      sum += (unsigned char)p[12345];
      free(p);
    }
    for (unsigned i = 0; i < 3000; i++) {
      char *p = varied(i);
      p[0] = 4;
      sink = p;
      sum += (unsigned char)p[0];
      free(p);
    }
  }
  for (unsigned i = 0; i < 4096; i++)
    free(keep[i]);
  printf("%lu\n", sum);
  return 0;
}
