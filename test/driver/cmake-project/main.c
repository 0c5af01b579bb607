#include <stdio.h>

#include "stats.h"

int main(void) {
  int v[] = {3, 9, 4};
  printf("sum=%d max=%d\n", stats_sum(v, 3), stats_max(v, 3));
  return 0;
}
