/* Labels: a copy of the name with a number after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shelf.h"

char *label_make(const char *name, long n) {
  size_t size = strlen(name) + 24;
  char *label = malloc(size);
  snprintf(label, size, "%s#%ld", name, n);
  return label;
}

long *label_counts(size_t n) {
  return calloc(n, sizeof(long));
}
