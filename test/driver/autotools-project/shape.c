#include <stdlib.h>
#include <string.h>

#include "shape.h"

static int twice(int x) { return 2 * x; }

int shape_area(int w, int h) { return w * h; }

int shape_perimeter(int w, int h) { return twice(w + h); }

int shape_unused(int w) { return w - 1; }

/* A block the library allocates and frees itself. */
char *shape_name(int sides) {
  char *name = malloc(16);
  strcpy(name, sides == 4 ? "rectangle" : "polygon");
  return name;
}

void shape_free(char *name) { free(name); }
