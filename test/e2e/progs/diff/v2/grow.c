/* Version 2: these five lines were inserted at the top of the file,
 * which moves every line below them; nothing else changed. The
 * allocation site and its contexts must still match version 1 by
 * function and file, and no longer by line (--match lines).
 */
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
