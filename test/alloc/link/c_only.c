/* A C program using the C entry points, linked the documented way
 * (libmip_alloc.a -ljemalloc, nothing else). Prints where its blocks go:
 *   c_only          "cold: own arena", "hot: own arena", "notcold: plain"
 *   c_only sanitized  allocates and frees only (the blocks are not
 *                     jemalloc's under a sanitizer: nothing to ask it) */
#include <jemalloc/jemalloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mip/alloc.h"

static unsigned arena_of(void *p) {
  unsigned arena;
  size_t size = sizeof arena;
  if (mallctl("arenas.lookup", &arena, &size, &p, sizeof p))
    abort();
  return arena;
}

static unsigned thread_arena(void) {
  unsigned arena;
  size_t size = sizeof arena;
  if (mallctl("thread.arena", &arena, &size, NULL, 0))
    abort();
  return arena;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    uint8_t hint;
  } kinds[] = {{"cold", MIP_HINT_COLD},
               {"hot", MIP_HINT_HOT},
               {"notcold", MIP_HINT_NOTCOLD}};
  int sanitized = argc > 1 && !strcmp(argv[1], "sanitized");
  for (int k = 0; k < 3; k++) {
    if (!sanitized)
      mallctl("thread.tcache.flush", NULL, NULL, NULL, 0);
    char *p = __mip_malloc_hint(100, kinds[k].hint);
    char *s = __mip_strdup_hint("text", kinds[k].hint);
    memset(p, 1, 100);
    if (!sanitized)
      printf("%s: %s\n", kinds[k].name,
             arena_of(p) == thread_arena() ? "plain" : "own arena");
    free(s);
    free(p);
  }
  return 0;
}
