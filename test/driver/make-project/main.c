#include <stdio.h>

#include "shape.h"

int main(void) {
  printf("area=%d perimeter=%d\n", shape_area(3, 4), shape_perimeter(3, 4));
  return 0;
}
