/* Coverage test program: which functions run depends on argv[1]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shapes/shapes.h"
#include "util.h"

static int early_ran;

/* Runs before main; reads the environment so that the optimizer cannot
 * evaluate it at compile time. */
__attribute__((constructor)) static void early(void) {
  early_ran = getenv("PATH") != NULL;
}

static __attribute__((noinline)) void at_exit_handler(void) {
  fflush(stdout);
}

static __attribute__((noinline)) int helper(int x) { return x + early_ran; }

static __attribute__((noinline)) long pick_shape(const char *name, long n) {
  for (int i = 0; i < 3; i++)
    if (strcmp(shape_table[i].name, name) == 0)
      return shape_table[i].area(n);
  return -1;
}

__attribute__((noinline)) void never_called(void) { puts("never"); }

int main(int argc, char **argv) {
  atexit(at_exit_handler);
  const char *mode = argc > 1 ? argv[1] : "circle";
  int values[] = {1, 2, 3, argc};
  long total = pick_shape(mode, 7) + util_sum(values, 4);
  total += util_apply(util_ops[strlen(mode) % 2], helper(argc));
  if (strcmp(mode, "square") == 0)
    total += square_area(2);
  printf("%s %ld\n", mode, total);
  return 0;
}
