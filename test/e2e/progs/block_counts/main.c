/* block_counts: loops, branches, a switch, a static function every
 * call inlines, a function that never runs, and C++ exceptions thrown
 * through a call (test/e2e/use_block_counts.sh). */
#include <stdio.h>
#include <stdlib.h>
int classify(int x);
long walk(int n);
int never(int x);
long parse_all(int n);
static int twice(int x) { return x * 2; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += classify(i) + twice(i);
  if (n < 0)
    s += never(n);
  s += walk(n / 10) + parse_all(n);
  printf("%ld\n", s);
  return 0;
}
