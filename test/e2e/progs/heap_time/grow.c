/* A heap that only grows: its peak is its end, every block still live
 * (DHAT records it when the program ends). */
#include <stdlib.h>
#include <string.h>

static void *volatile last;

__attribute__((noinline)) static void *node(size_t n) {
  void *p = malloc(n);
  memset(p, 0, n);
  return p;
}

__attribute__((noinline)) static void *leaf(size_t n) { return calloc(n, 2); }

int main(void) {
  for (int i = 0; i < 300; i++) {
    last = node(24 + (size_t)(i % 9) * 8);
    if (i % 4 == 0)
      last = leaf(10 + (size_t)i);
  }
  return 0;
}
