/* The export test's program: a C library of shapes and a C++ driver. */
#ifndef EXPORT_SHAPES_H
#define EXPORT_SHAPES_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
struct shape {
  double *points;
  size_t count;
};
struct shape *shape_new(size_t count);
double shape_area(const struct shape *s);
void shape_free(struct shape *s);
char *shape_name(int kind);
#ifdef __cplusplus
}
#endif
#endif
