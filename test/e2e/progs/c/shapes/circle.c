#include "shapes.h"

__attribute__((noinline)) long circle_area(long r) { return 314 * r * r / 100; }

/* In the archive and linked (same member), never called. */
__attribute__((noinline)) long circle_perimeter(long r) { return 628 * r / 100; }
