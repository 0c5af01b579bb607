#include "util.h"

/* Same name as a static function in main.c: the profile must keep them
 * apart. */
static __attribute__((noinline)) int helper(int x) { return x * 3; }

/* Only ever reached through util_ops. */
static __attribute__((noinline)) int negate(int x) { return -x; }
static __attribute__((noinline)) int square(int x) { return x * x; }

int (*const util_ops[2])(int) = {negate, square};

__attribute__((noinline)) int util_sum(const int *values, int count) {
  int sum = 0;
  for (int i = 0; i < count; i++)
    sum += helper(values[i]);
  return sum;
}

__attribute__((noinline)) int util_apply(int (*op)(int), int x) {
  return op(x);
}

/* Never called from anywhere. */
__attribute__((noinline)) int util_never(int x) { return x ^ 0x5a; }
