/* The pool test program's second file: what a run does depends on its
 * number, so that runs differ in every mode: functions entered, calls,
 * the order of first calls, blocks, call edges, allocations. */
#include <stdlib.h>
#include <string.h>

#include "lib.h"
#include "work.h"

long step(long i) { return (i % 3 == 0) ? i / 3 : i * 2 + 1; }

long even_path(long n) {
  long s = 0;
  if (n % 8 == 0)
    s += lib_mix(n);
  for (long i = 0; i < n; i++)
    s += step(i);
  return s;
}

long odd_path(long n) {
  long s = lib_mix(n);
  switch (n % 3) {
  case 0:
    s += 7;
    break;
  case 1:
    s += lib_call_back(step, n * 20); /* many calls: several edge samples */
    break;
  default:
    s -= 3;
  }
  return s;
}

long rare_path(long n) { return n * n - lib_mix(n + 1); }

/* Every block is freed before the profiles are written, so that two
 * writes of one run find the same MemInfoBlocks. */
long heap_work(long n) {
  long s = 0;
  char *keep[8];
  for (long i = 0; i < 8; i++) {
    keep[i] = (i + n) % 3 ? malloc((size_t)(8 << (i % 4))) : lib_alloc(n + i);
    memset(keep[i], (int)i, 8);
    s += keep[i][i % 8];
  }
  if (n % 6 == 0) {
    char *big = calloc((size_t)n, 64);
    s += big[n - 1];
    free(big);
  }
  for (long i = 0; i < 8; i++)
    if ((i + n) % 3)
      free(keep[i]);
    else
      lib_release(keep[i]);
  return s;
}
