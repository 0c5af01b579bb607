/* Every C allocator in one function, in the shapes an optimizer merges:
 * switch arms that all end the same way, if/else arms with one tail, one
 * allocator called twice with different sizes, all in a loop. Each site
 * runs a different number of times, so blocks given to the wrong site
 * show. Every block is freed in the arm's tail or kept for later. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static void *kept[KEPT];

void c_sites(unsigned rounds) {
  for (unsigned i = 0; i < rounds; i++) {
    void *p = 0;
    switch (i % 21) {
    case 0: p = malloc(16 + i % 8); break;
    case 1: case 2: p = calloc(3, 8 + i % 4); break;
    case 3: case 4: case 5: p = realloc(0, 40); break;
    case 6: case 7: case 8: case 9:
      if (posix_memalign(&p, 64, 48)) p = 0;
      break;
    case 10: case 11: case 12: case 13: case 14: p = aligned_alloc(64, 128); break;
    case 15: case 16: case 17: case 18: p = memalign(32, 96); break;
    default: p = valloc(200); break;
    }
    touch(p);
    free(p);

    if (i % 3 == 0)
      p = malloc(24);
    else
      p = calloc(2, 24);
    touch(p);
    free(p);

    if (i % 4 == 0)
      p = malloc(56);
    else
      p = malloc(72 + i % 2);
    touch(p);
    kept[i % KEPT] = p == 0 ? 0 : (free(kept[i % KEPT]), p);
  }
  for (unsigned k = 0; k < KEPT; k++)
    free(kept[k]);
}
