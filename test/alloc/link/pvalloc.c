/* A program that allocates with pvalloc and frees with free, as it may
 * whatever its hints, with one hinted call besides, so that linking the
 * hint library makes jemalloc the process's malloc. With -DLIB the
 * pvalloc calls are in a shared library (pvalloc_lib) the program calls.
 * Prints the blocks' alignment and sizes' check: the same with and
 * without the hint library. */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mip/alloc.h"

int pages_ok(size_t size);

#ifndef MAIN_ONLY
int pages_ok(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char *p = pvalloc(size);
  if (!p)
    return 0;
  size_t want = size ? (size + page - 1) / page * page : page;
  memset(p, 1, want); /* the whole rounded size is ours */
  int ok = (uintptr_t)p % page == 0 && malloc_usable_size(p) >= want;
  free(p);
  return ok;
}
#endif

#ifndef LIB
int main(void) {
  void *cold = __mip_malloc_hint(100, MIP_HINT_COLD);
  free(cold);
  int ok = 1;
  for (size_t size = 0; size < 20000; size += 777)
    ok &= pages_ok(size);
  puts(ok ? "pvalloc: page-aligned, whole pages, freed" : "pvalloc: wrong");
  return 0;
}
#endif
