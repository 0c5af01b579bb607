#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  setup_a();
  setup_b();
  long s = 0;
  for (int i = 0; i < n; i++)
    s += step(i);
  if (n > 5)
    s += rare(n); /* HOT */
  if (n > 1000)
    never(); /* COLD */
  printf("%ld\n", s);
  return 0;
}
