#include "stats.h"

int stats_sum(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

int stats_max(const int *v, int n) {
  int m = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > m)
      m = v[i];
  return m;
}
