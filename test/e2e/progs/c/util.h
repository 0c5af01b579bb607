#ifndef UTIL_H
#define UTIL_H
int util_sum(const int *values, int count);
int util_apply(int (*op)(int), int x);
extern int (*const util_ops[2])(int);
#endif
