#include <stdio.h>
#include <stdlib.h>

#include "shape.h"

/* Not part of the project: a library built without MIP, which the build
 * links through LIBS, that frees what it is given. */
void lib_release(void *p);

char *kept; /* global, so that the compiler keeps its block */

int main(void) {
  char *name = shape_name(4);
  printf("%s area=%d perimeter=%d\n", name, shape_area(3, 4),
         shape_perimeter(3, 4));
  shape_free(name);
  kept = malloc(100);           /* never freed: live at exit */
  char *released = malloc(200); /* freed by code MIP did not build */
  kept[0] = released[0] = 1;
  lib_release(released);
  printf("%d\n", kept[0] + shape_area(1, 1));
  return 0;
}
