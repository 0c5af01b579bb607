/* Allocates in the steps its arguments give, in order: N (a number) is a
 * block of N bytes, from the site `one` when N is odd and `two` when it is
 * even; -K frees the K-th block allocated (from 1). */
#include <stdlib.h>
#include <string.h>

#define MAX 1000
static void *volatile blocks[MAX];

__attribute__((noinline)) static void *one(size_t n) { return malloc(n); }
__attribute__((noinline)) static void *two(size_t n) { return calloc(n, 1); }

int main(int argc, char **argv) {
  int count = 0;
  for (int i = 1; i < argc && count < MAX; i++) {
    long v = atol(argv[i]);
    if (v > 0) {
      blocks[count++] = v % 2 ? one((size_t)v) : two((size_t)v);
    } else if (v < 0 && -v <= count) {
      free(blocks[-v - 1]);
      blocks[-v - 1] = NULL;
    }
  }
  return 0;
}
