/* A shared library built "with heap mode" (glue.h): its allocations go to
 * the owner of the process's heap state, the executable (or itself). It
 * defines no free: its calls go where the process's do. */
#include <stdlib.h>

#include "glue.h"

__attribute__((used, section("__mip_site"))) static uint8_t sites[2];

__attribute__((visibility("default"))) uint8_t *lib_site(void) {
  return &sites[0];
}

/* A block the caller frees. */
__attribute__((visibility("default"), noinline)) void *lib_alloc(size_t n) {
  void *p = malloc(n);
  __mip_heap_alloc(p, n, &sites[0]);
  TOUCH(p);
  return p;
}

/* A free in this image of a pointer it never saw allocated. */
__attribute__((visibility("default"), noinline)) void lib_free_unseen(void) {
  void *p = malloc(8); /* not instrumented */
  __mip_heap_free(p, &sites[1]);
  free(p);
}

/* Frees through a pointer to free, as code MIP did not instrument may:
 * the pointer is the library's own free, which sends the block to the
 * runtime. */
__attribute__((visibility("default"), noinline)) void lib_release(void *p) {
  void (*volatile release)(void *) = free;
  release(p);
}
