/* What the alloc tests share: arenas and their statistics, patterns. */
#include <jemalloc/jemalloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "mip/alloc.h"
#include "suites.h"

unsigned lookup_arena(const void *p) {
  unsigned arena;
  size_t size = sizeof arena;
  return mallctl("arenas.lookup", &arena, &size, &p, sizeof p) ? NO_ARENA
                                                                 : arena;
}

unsigned arena_of(const void *p) {
  unsigned arena = lookup_arena(p);
  ck_assert_uint_ne(arena, NO_ARENA);
  return arena;
}

unsigned thread_arena(void) {
  unsigned arena;
  size_t size = sizeof arena;
  return mallctl("thread.arena", &arena, &size, NULL, 0) ? NO_ARENA : arena;
}

unsigned plain_arena(void) {
  unsigned arena = thread_arena();
  ck_assert_uint_ne(arena, NO_ARENA);
  return arena;
}

void flush_thread_cache(void) {
  ck_assert_int_eq(mallctl("thread.tcache.flush", NULL, NULL, NULL, 0), 0);
}

static unsigned hinted_arena(uint8_t hint) {
  void *p = __mip_malloc_hint(8, hint);
  ck_assert_ptr_nonnull(p);
  unsigned arena = arena_of(p);
  free(p);
  return arena;
}

unsigned cold_arena(void) { return hinted_arena(MIP_HINT_COLD); }
unsigned hot_arena(void) { return hinted_arena(MIP_HINT_HOT); }

unsigned expected_arena(uint8_t hint) {
  if (hint < 128)
    return cold_arena();
  if (hint >= 192)
    return hot_arena();
  return plain_arena();
}

static size_t arena_stat(unsigned arena, const char *what) {
  char name[64];
  snprintf(name, sizeof name, "stats.arenas.%u.%s", arena, what);
  size_t value, size = sizeof value;
  ck_assert_int_eq(mallctl(name, &value, &size, NULL, 0), 0);
  return value;
}

size_t arena_allocated(unsigned arena) {
  uint64_t epoch = 1;
  size_t size = sizeof epoch;
  ck_assert_int_eq(mallctl("epoch", &epoch, &size, &epoch, size), 0);
  return arena_stat(arena, "small.allocated") +
         arena_stat(arena, "large.allocated");
}

static unsigned char byte(size_t i, unsigned seed) {
  return (unsigned char)(i * 31 + seed * 7 + (i >> 8));
}

void fill(void *p, size_t size, unsigned seed) {
  unsigned char *b = p;
  for (size_t i = 0; i < size; i++)
    b[i] = byte(i, seed);
}

int check_fill(const void *p, size_t size, unsigned seed) {
  const unsigned char *b = p;
  for (size_t i = 0; i < size; i++)
    if (b[i] != byte(i, seed))
      return 0;
  return 1;
}
