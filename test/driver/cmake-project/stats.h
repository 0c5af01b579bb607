#ifndef STATS_H
#define STATS_H

int stats_sum(const int *v, int n);
int stats_max(const int *v, int n);

#endif
