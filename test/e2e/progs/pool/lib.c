/* The pool test's shared library: branches, calls back into the program
 * (an edge from the library to the executable), and allocations (heap
 * contexts whose site is the library's). */
#include <stdlib.h>
#include <string.h>

#include "lib.h"

static long fold(long a, long b) { return (a * 31) ^ b; }

long lib_mix(long n) {
  long s = 0;
  for (long i = 0; i < n % 13; i++)
    s = (i & 1) ? fold(s, i) : s + i;
  if (n % 4 == 3)
    s = -s;
  return s;
}

long lib_call_back(long (*fn)(long), long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += fn(i);
  return s;
}

void *lib_alloc(long n) {
  char *p = malloc((size_t)(16 + n % 100));
  memset(p, (int)n, (size_t)(16 + n % 100));
  if (n % 5 == 0)
    p = realloc(p, (size_t)(200 + n));
  return p;
}

void lib_release(void *p) { free(p); }
