/* Version 1: four allocation contexts. fill_a, fill_b and fill_c allocate
 * through grow (grow.c); twice allocates in this file. Everything is
 * freed. Version 2 has the same lines but for three changes (v2/main.c),
 * each on a line of its own. */
#include <stdlib.h>

#include "diffprog.h"

__attribute__((noinline)) static void fill(int n, size_t size) {
  for (int i = 0; i < n; i++)
    free(grow(size));
}

__attribute__((noinline)) static void fill_a(void) { fill(A_COUNT, A_SIZE); }
__attribute__((noinline)) static void fill_b(void) { fill(B_COUNT, B_SIZE); }
__attribute__((noinline)) void fill_c(void) { fill(C_COUNT, C_SIZE); }

__attribute__((noinline)) static void twice(int n) {
  for (int i = 0; i < n; i++) {
    char *p = malloc(D_SIZE);
    p[0] = 1;
    free(p);
  }
}

int main(void) {
  fill_a();
  fill_b();
  fill_c();
  twice(D_COUNT);
  return 0;
}
