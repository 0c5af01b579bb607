#include "shapes.h"

/* Reached only through shape_table. */
static __attribute__((noinline)) long triangle_area(long side) {
  return side * side * 43 / 100;
}

const struct shape shape_table[3] = {
    {"circle", circle_area},
    {"square", square_area},
    {"triangle", triangle_area},
};
