/* Shapes allocated through a helper the compiler inlines, so that a heap
 * context has inlined frames. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shapes.h"

static inline __attribute__((always_inline)) double *points_new(size_t n) {
  return calloc(n, 2 * sizeof(double));
}

struct shape *shape_new(size_t count) {
  struct shape *s = malloc(sizeof *s);
  s->points = points_new(count);
  s->count = count;
  for (size_t i = 0; i < count; i++) {
    s->points[2 * i] = (double)i;
    s->points[2 * i + 1] = (double)(i * i % 7);
  }
  return s;
}

double shape_area(const struct shape *s) {
  double a = 0;
  for (size_t i = 0; i + 1 < s->count; i++)
    a += s->points[2 * i] * s->points[2 * i + 3] -
         s->points[2 * i + 2] * s->points[2 * i + 1];
  return a / 2;
}

void shape_free(struct shape *s) {
  free(s->points);
  free(s);
}

char *shape_name(int kind) {
  char buf[32];
  snprintf(buf, sizeof buf, kind % 2 ? "polygon-%d" : "path-%d", kind);
  return strdup(buf);
}

/* Never called: a function no run covers. */
void shape_unused(void) { puts("unused"); }
