/* The allocation every fill_* goes through: one site, several call
 * paths. Version 2 of this file has lines inserted at its top, which
 * moves every line below them. */
#include <stdlib.h>

#include "diffprog.h"

void *grow(size_t n) {
  char *p = malloc(n);
  p[0] = 1;
  return p;
}
