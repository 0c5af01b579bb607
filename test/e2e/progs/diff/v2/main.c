/* Version 2: twice allocates twice as often (D_COUNT * 2), main calls
 * leak, whose block stays live at exit, where it called fill_c (a call
 * path removed). Every line of version 1 is on the same line here, leak
 * comes after them, so that only grow.c moves. */
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
  leak();
  twice(D_COUNT * 2);
  return 0;
}

__attribute__((noinline)) void *leak(void) {
  char *p = malloc(L_SIZE);
  p[0] = 1;
  return p;
}
